#include "kubesim/workqueue/parallelize.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::workqueue {
namespace {

using namespace std::chrono_literals;
using sim::Loop;
using sim::Task;
using sim::Time;

struct Record {
  Loop* loop;
  std::vector<int> started;
  std::vector<int> runs;  // runs[piece]
  int running = 0;
  int most_running = 0;
  int throw_at = -1;
};

// Piece p takes (p % 3 + 1) ms of virtual time.
Task<void> piece(Record* r, int p) {
  r->started.push_back(p);
  ++r->runs[static_cast<std::size_t>(p)];
  ++r->running;
  r->most_running = std::max(r->most_running, r->running);
  (void)co_await sim::sleep_for(sim::Context(), *r->loop, std::chrono::milliseconds(p % 3 + 1));
  --r->running;
  if (p == r->throw_at) throw std::runtime_error("piece failed");
}

DoWorkPieceFn bind(Record* r) {
  return [r](int p) { return piece(r, p); };
}

TEST(ParallelizeUntilTest, RunsEveryPieceOnceOnAtMostWorkersCoroutines) {
  Loop loop;
  Record r{&loop, {}, std::vector<int>(20), 0, 0, -1};
  loop.run_until_complete(parallelize_until(sim::Context(), &loop, 4, 20, bind(&r)));
  EXPECT_EQ(r.runs, std::vector<int>(20, 1));
  EXPECT_EQ(r.most_running, 4);
  std::vector<int> in_order(20);
  for (int i = 0; i < 20; ++i) in_order[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(r.started, in_order) << "pieces are taken in order";
  EXPECT_EQ(loop.live_tasks(), 0u);
}

TEST(ParallelizeUntilTest, FewerPiecesThanWorkersUseFewerCoroutines) {
  Loop loop;
  Record r{&loop, {}, std::vector<int>(3), 0, 0, -1};
  loop.run_until_complete(parallelize_until(sim::Context(), &loop, 16, 3, bind(&r)));
  EXPECT_EQ(r.runs, std::vector<int>(3, 1));
  EXPECT_EQ(r.most_running, 3);
}

TEST(ParallelizeUntilTest, ChunksGoToOneWorkerEach) {
  Loop loop;
  Record r{&loop, {}, std::vector<int>(10), 0, 0, -1};
  loop.run_until_complete(parallelize_until(sim::Context(), &loop, 2, 10, bind(&r), ParallelizeOptions{4}));
  EXPECT_EQ(r.runs, std::vector<int>(10, 1));
  // Worker 1 takes 0–3, worker 2 takes 4–7; pieces in a chunk run one after another.
  EXPECT_EQ(std::vector<int>(r.started.begin(), r.started.begin() + 2), (std::vector<int>{0, 4}));
  EXPECT_EQ(r.most_running, 2);
}

TEST(ParallelizeUntilTest, StartsNoPieceAfterTheContextIsDone) {
  Loop loop;
  Record r{&loop, {}, std::vector<int>(100), 0, 0, -1};
  auto [ctx, cancel] = sim::with_timeout(sim::Context(), loop, 10ms);
  loop.run_until_complete(parallelize_until(ctx, &loop, 2, 100, bind(&r)));
  const auto ran = static_cast<std::size_t>(std::count(r.runs.begin(), r.runs.end(), 1));
  EXPECT_GT(ran, 2u);
  EXPECT_LT(ran, 100u);
  EXPECT_EQ(r.started.size(), ran);
  EXPECT_EQ(r.running, 0) << "pieces already running finish";
}

TEST(ParallelizeUntilTest, RethrowsTheFirstFailureAfterTheRunningPiecesFinish) {
  Loop loop;
  Record r{&loop, {}, std::vector<int>(50), 0, 0, 5};
  EXPECT_THROW(loop.run_until_complete(parallelize_until(sim::Context(), &loop, 3, 50, bind(&r))),
               std::runtime_error);
  EXPECT_EQ(r.running, 0);
  EXPECT_LT(r.started.size(), 50u);
}

TEST(ParallelizeUntilTest, ZeroPiecesIsANoOpAndBadArgumentsThrow) {
  Loop loop;
  Record r{&loop, {}, {}, 0, 0, -1};
  loop.run_until_complete(parallelize_until(sim::Context(), &loop, 4, 0, bind(&r)));
  EXPECT_TRUE(r.started.empty());
  EXPECT_THROW(loop.run_until_complete(parallelize_until(sim::Context(), &loop, 0, 5, bind(&r))),
               std::invalid_argument);
  EXPECT_THROW(loop.run_until_complete(parallelize_until(sim::Context(), &loop, 1, -1, bind(&r))),
               std::invalid_argument);
}

}  // namespace
}  // namespace kubesim::workqueue
