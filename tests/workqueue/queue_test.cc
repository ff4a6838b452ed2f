#include "kubesim/workqueue/queue.h"

#include <array>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::workqueue {
namespace {

using namespace std::chrono_literals;
using sim::Loop;
using sim::Task;
using sim::Time;

// Takes items until the queue says it is shut down and drained, doing each at once.
Task<void> collect(Queue<std::string>* q, sim::Context ctx, std::vector<std::string>* out) {
  for (;;) {
    auto item = co_await q->get(ctx);
    if (!item) co_return;
    out->push_back(*item);
    q->done(*item);
  }
}

// One get; records what it returned (or "<none>") and when.
Task<void> get_once(Queue<std::string>* q, sim::Context ctx, std::string* out, Time* at) {
  auto item = co_await q->get(ctx);
  *out = item ? *item : "<none>";
  *at = q->loop().now();
}

// One get that does not use the queue afterwards.
Task<void> get_only(Queue<std::string>* q, std::string* out) {
  auto item = co_await q->get(sim::Context());
  *out = item ? *item : "<none>";
}

Task<void> drain(Queue<std::string>* q, sim::Context ctx, int* result) {
  const bool drained = co_await q->shut_down_with_drain(ctx);
  *result = drained ? 1 : 0;
}

TEST(QueueTest, HandsOutInFirstAddOrderOnce) {
  Loop loop;
  Queue<std::string> q(loop);
  for (const char* k : {"a", "b", "a", "c", "b", "a"}) q.add(k);
  EXPECT_EQ(q.len(), 3u);
  std::vector<std::string> got;
  q.shut_down();
  loop.spawn(collect(&q, {}, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(q.len(), 0u);
}

TEST(QueueTest, AnItemAddedWhileProcessingIsHandedOutAgainOnlyAfterDone) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  std::string first, second;
  Time t1{}, t2{};
  loop.spawn(get_once(&q, {}, &first, &t1));
  loop.run_until_idle();
  ASSERT_EQ(first, "a");
  EXPECT_EQ(q.processing(), 1u);

  q.add("a");  // dirty while processing: not queued
  EXPECT_EQ(q.len(), 0u);
  loop.spawn(get_once(&q, {}, &second, &t2));
  loop.run_until_idle();
  EXPECT_EQ(second, "") << "a second worker must not get an item someone holds";

  loop.add_timer(Time{} + 3s, [&] { q.done("a"); });
  loop.run_until_idle();
  EXPECT_EQ(second, "a");
  EXPECT_EQ(t2, Time{} + 3s);
  EXPECT_EQ(q.processing(), 1u);
  q.done("a");
  EXPECT_EQ(q.processing(), 0u);
  EXPECT_EQ(q.len(), 0u);
}

TEST(QueueTest, WaitingWorkersAreServedInTheOrderTheyStartedWaiting) {
  Loop loop;
  Queue<std::string> q(loop);
  std::array<std::string, 3> got;
  std::array<Time, 3> at{};
  for (int i = 0; i < 3; ++i) loop.spawn(get_once(&q, {}, &got[i], &at[i]));
  loop.run_until_idle();
  loop.add_timer(Time{} + 1s, [&] {
    q.add("x");
    q.add("y");
  });
  loop.add_timer(Time{} + 2s, [&] { q.add("z"); });
  loop.run_until_idle();
  EXPECT_EQ(got, (std::array<std::string, 3>{"x", "y", "z"}));
  EXPECT_EQ(at, (std::array<Time, 3>{Time{} + 1s, Time{} + 1s, Time{} + 2s}));
}

TEST(QueueTest, AfterShutDownAddsAreIgnoredAndWorkersDrainThenStop) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  q.add("b");
  q.shut_down();
  EXPECT_TRUE(q.shutting_down());
  q.add("c");
  EXPECT_EQ(q.len(), 2u);
  std::vector<std::string> got;
  loop.spawn(collect(&q, {}, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(loop.live_tasks(), 0u);
}

TEST(QueueTest, ShutDownWakesEveryWaitingWorker) {
  Loop loop;
  Queue<std::string> q(loop);
  std::array<std::string, 3> got;
  std::array<Time, 3> at{};
  for (int i = 0; i < 3; ++i) loop.spawn(get_once(&q, {}, &got[i], &at[i]));
  loop.add_timer(Time{} + 4s, [&] { q.shut_down(); });
  loop.run_until_idle();
  EXPECT_EQ(got, (std::array<std::string, 3>{"<none>", "<none>", "<none>"}));
  EXPECT_EQ(at[2], Time{} + 4s);
}

TEST(QueueTest, MayBeDestroyedRightAfterShutDown) {
  Loop loop;
  auto q = std::make_unique<Queue<std::string>>(loop);
  std::array<std::string, 2> got;
  for (int i = 0; i < 2; ++i) loop.spawn(get_only(q.get(), &got[i]));
  loop.run_until_idle();
  q->shut_down();
  q.reset();  // the woken workers must not touch it again
  loop.run_until_idle();
  EXPECT_EQ(got, (std::array<std::string, 2>{"<none>", "<none>"}));
}

TEST(QueueTest, ADirtyItemIsStillHandedOutAfterShutDown) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  std::string first;
  Time t{};
  loop.spawn(get_once(&q, {}, &first, &t));
  loop.run_until_idle();
  q.add("a");
  q.shut_down();
  q.done("a");  // re-queued: it was added before the shutdown
  EXPECT_EQ(q.len(), 1u);
  std::vector<std::string> got;
  loop.spawn(collect(&q, {}, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<std::string>{"a"}));
}

TEST(QueueTest, ACancelledGetReturnsNothingAndLosesNoItem) {
  Loop loop;
  Queue<std::string> q(loop);
  auto [ctx, cancel] = sim::with_cancel(sim::Context());
  std::string cancelled, other;
  Time t1{}, t2{};
  loop.spawn(get_once(&q, ctx, &cancelled, &t1));
  loop.spawn(get_once(&q, {}, &other, &t2));
  loop.run_until_idle();
  cancel();
  loop.run_until_idle();
  EXPECT_EQ(cancelled, "<none>");
  q.add("a");
  loop.run_until_idle();
  EXPECT_EQ(other, "a");
}

TEST(QueueTest, GetWithADoneContextReturnsNothingEvenWithItemsQueued) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  auto [ctx, cancel] = sim::with_cancel(sim::Context());
  cancel();
  std::string got;
  Time t{};
  loop.spawn(get_once(&q, ctx, &got, &t));
  loop.run_until_idle();
  EXPECT_EQ(got, "<none>");
  EXPECT_EQ(q.len(), 1u);
}

TEST(QueueTest, ShutDownWithDrainWaitsUntilEveryHandedOutItemIsDone) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  q.add("b");
  std::string a, b;
  Time ta{}, tb{};
  loop.spawn(get_once(&q, {}, &a, &ta));
  loop.spawn(get_once(&q, {}, &b, &tb));
  loop.run_until_idle();
  int drained = -1;
  loop.spawn(drain(&q, {}, &drained));
  loop.run_until_idle();
  EXPECT_TRUE(q.shutting_down());
  EXPECT_EQ(drained, -1);
  q.done("a");
  loop.run_until_idle();
  EXPECT_EQ(drained, -1);
  q.done("b");
  loop.run_until_idle();
  EXPECT_EQ(drained, 1);
}

TEST(QueueTest, ShutDownWithDrainReturnsAtOnceWhenNothingIsProcessing) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("queued-but-not-handed-out");
  int drained = -1;
  loop.spawn(drain(&q, {}, &drained));
  loop.run_until_idle();
  EXPECT_EQ(drained, 1);
}

TEST(QueueTest, ShutDownCutsADrainShort) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  std::string a;
  Time ta{};
  loop.spawn(get_once(&q, {}, &a, &ta));
  loop.run_until_idle();
  int drained = -1;
  loop.spawn(drain(&q, {}, &drained));
  loop.run_until_idle();
  q.shut_down();
  loop.run_until_idle();
  EXPECT_EQ(drained, 0);
}

TEST(QueueTest, ADrainWaitEndsWithItsContext) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  std::string a;
  Time ta{};
  loop.spawn(get_once(&q, {}, &a, &ta));
  loop.run_until_idle();
  auto [ctx, cancel] = sim::with_timeout(sim::Context(), loop, 2s);
  int drained = -1;
  loop.spawn(drain(&q, ctx, &drained));
  loop.run_until_idle();
  EXPECT_EQ(drained, 0);
  EXPECT_EQ(loop.now(), Time{} + 2s);
}

// The dedup workload of the benchmark, with its semantic check: the same rules as client-go
// give exactly client-go's number of gets.
Task<void> dedup_run(Queue<std::string>* q, const std::vector<std::string>* keys, long* gets) {
  for (int i = 0; i < 1'000'000; ++i) {
    q->add((*keys)[static_cast<std::size_t>(i % 1000)]);
    if (i % 2 == 1 && q->len() > 0) {
      auto item = co_await q->get(sim::Context());
      q->done(*item);
      ++*gets;
    }
  }
  while (q->len() > 0) {
    auto item = co_await q->get(sim::Context());
    q->done(*item);
    ++*gets;
  }
}

TEST(QueueTest, DedupWorkloadMakesExactly500999Gets) {
  Loop loop;
  Queue<std::string> q(loop);
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "default/obj-%07d", i);
    keys.emplace_back(buf);
  }
  long gets = 0;
  loop.spawn(dedup_run(&q, &keys, &gets));
  loop.run_until_idle();
  EXPECT_EQ(gets, 500'999);
}

struct ObjectRef {
  std::string ns;
  std::string name;
  bool operator==(const ObjectRef&) const = default;
};

}  // namespace
}  // namespace kubesim::workqueue

template <>
struct std::hash<kubesim::workqueue::ObjectRef> {
  std::size_t operator()(const kubesim::workqueue::ObjectRef& r) const noexcept {
    return std::hash<std::string>{}(r.ns) * 31 + std::hash<std::string>{}(r.name);
  }
};

namespace kubesim::workqueue {
namespace {

Task<void> take_refs(Queue<ObjectRef>* q, std::vector<ObjectRef>* out) {
  for (;;) {
    auto item = co_await q->get(sim::Context());
    if (!item) co_return;
    out->push_back(*item);
    q->done(*item);
  }
}

TEST(QueueTest, WorksForAnyHashableType) {
  Loop loop;
  Queue<ObjectRef> q(loop);
  q.add(ObjectRef{"ns", "a"});
  q.add(ObjectRef{"ns", "b"});
  q.add(ObjectRef{"ns", "a"});
  q.shut_down();
  std::vector<ObjectRef> got;
  loop.spawn(take_refs(&q, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<ObjectRef>{{"ns", "a"}, {"ns", "b"}}));
}

Task<void> churn(Queue<int>* q, int n, long* sum) {
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) q->add(i * 1024);  // keys that collide in weak hashes
    for (int i = 0; i < n; ++i) {
      auto item = co_await q->get(sim::Context());
      *sum += *item;
      q->done(*item);
    }
  }
}

TEST(QueueTest, ManyItemsGrowAndEmptyTheTables) {
  Loop loop;
  Queue<int> q(loop);
  long sum = 0;
  loop.spawn(churn(&q, 20'000, &sum));
  loop.run_until_idle();
  EXPECT_EQ(sum, 3L * 1024 * (20'000L * 19'999 / 2));
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.processing(), 0u);
}

// ---- FIFO of first adds, as a property ----

Task<void> take_ints(Queue<int>* q, std::vector<int>* out) {
  for (;;) {
    auto item = co_await q->get(sim::Context());
    if (!item) co_return;
    out->push_back(*item);
    q->done(*item);
  }
}

RC_GTEST_PROP(QueueProperty, HandsOutEachItemOnceInOrderOfFirstAdd, (const std::vector<int>& adds)) {
  Loop loop;
  Queue<int> q(loop);
  std::vector<int> expected;
  std::set<int> seen;
  for (int k : adds) {
    q.add(k);
    if (seen.insert(k).second) expected.push_back(k);
  }
  q.shut_down();
  std::vector<int> got;
  loop.spawn(take_ints(&q, &got));
  loop.run_until_idle();
  RC_ASSERT(got == expected);
}

}  // namespace
}  // namespace kubesim::workqueue
