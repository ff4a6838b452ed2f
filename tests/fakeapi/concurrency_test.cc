// Concurrency through the simulated network: N processes each doing K read-modify-write
// increments of one counter ConfigMap with retry-on-conflict, over links of random latency. No
// update may be lost: the final count is exactly N·K, every successful update is one revision,
// and optimistic concurrency did have to refuse some writes.
#include "kubesim/fakeapi/inprocess_client.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;

struct Stats {
  int finished = 0;
  std::int64_t conflicts = 0;
  std::vector<std::string> errors;
};

// K increments of default/counter's data.count, each retried until its update is accepted.
sim::Task<void> increment(sim::Context ctx, InProcessClient* client, int k, Stats* stats) {
  const api::GroupVersionResource gvr = kConfigMaps;
  const std::string ns = "default";
  const std::string name = "counter";
  for (int i = 0; i < k; ++i) {
    for (int attempt = 0;; ++attempt) {
      if (attempt > 10'000) {
        stats->errors.push_back(client->name() + ": no progress");
        co_return;
      }
      const api::GetOptions get_options;
      auto got = co_await client->get(ctx, gvr, ns, name, get_options);
      if (!got.ok()) {
        stats->errors.push_back(client->name() + ": get: " + got.status().message);
        co_return;
      }
      const std::string next_count = std::to_string(std::stoll(data_of(got.value(), "count")) + 1);
      api::ObjectPtr next = got.value()->edited([&](nlohmann::json& j) { j["data"]["count"] = next_count; });
      const api::UpdateOptions update_options;
      auto put = co_await client->update(ctx, gvr, ns, next, update_options);
      if (put.ok()) break;
      if (!api::is_conflict(put.status())) {
        stats->errors.push_back(client->name() + ": update: " + put.status().message);
        co_return;
      }
      ++stats->conflicts;
    }
  }
  ++stats->finished;
}

struct ConcurrencyOutcome {
  std::int64_t count = -1;
  Revision revision = 0;
  Stats stats;
  std::uint64_t trace_hash = 0;
  sim::Time finished_at{};
};

// Runs n processes of k increments each on a loop seeded with `seed`.
ConcurrencyOutcome run_counter(std::uint64_t seed, int n, int k, bool shuffle, sim::Duration base, sim::Duration extra) {
  sim::LoopOptions loop_options;
  loop_options.seed = seed;
  loop_options.shuffle = shuffle;
  sim::Loop loop(loop_options);
  loop.trace().enable();
  ApiServer server(loop);
  ConcurrencyOutcome out;
  auto created = server.create(kConfigMaps, "default", config_map("default", "counter", {{"count", "0"}}),
                               api::CreateOptions());
  if (!created.ok()) return out;
  const Revision start = server.revision();
  std::vector<std::unique_ptr<sim::Process>> processes;
  std::vector<std::unique_ptr<InProcessClient>> clients;
  for (int i = 0; i < n; ++i) {
    processes.push_back(std::make_unique<sim::Process>(loop, "replica-" + std::to_string(i)));
    processes.back()->set_link(std::make_shared<sim::NetworkLink>(loop, base, extra));
    clients.push_back(std::make_unique<InProcessClient>(server, *processes.back()));
  }
  for (int i = 0; i < n; ++i) {
    loop.spawn(increment(processes[i]->context(), clients[i].get(), k, &out.stats), "increment");
  }
  while (out.stats.finished + static_cast<int>(out.stats.errors.size()) < n && loop.step()) {
  }
  out.finished_at = loop.now();
  out.trace_hash = loop.trace().hash();
  auto counter = server.get(kConfigMaps, "default", "counter", api::GetOptions());
  if (counter.ok()) out.count = std::stoll(data_of(counter.value(), "count"));
  out.revision = server.revision() - start;
  return out;
}

TEST(ConcurrencyTest, NoIncrementIsLostAndConflictsHappen) {
  constexpr int kProcesses = 5;
  constexpr int kIncrements = 10;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const ConcurrencyOutcome out = run_counter(seed, kProcesses, kIncrements, /*shuffle=*/false, 1ms, 19ms);
    EXPECT_TRUE(out.stats.errors.empty()) << out.stats.errors.front();
    EXPECT_EQ(out.stats.finished, kProcesses);
    EXPECT_EQ(out.count, kProcesses * kIncrements);
    // Every accepted update is exactly one revision: nothing else wrote.
    EXPECT_EQ(out.revision, kProcesses * kIncrements);
    EXPECT_GT(out.stats.conflicts, 0);
  }
}

TEST(ConcurrencyTest, ShuffledSameInstantWorkLosesNothingEither) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    // A fixed latency makes many requests land at the same instant; shuffle orders them by seed.
    const ConcurrencyOutcome out = run_counter(seed, 4, 8, /*shuffle=*/true, 5ms, 0ms);
    EXPECT_TRUE(out.stats.errors.empty());
    EXPECT_EQ(out.count, 32);
    EXPECT_EQ(out.revision, 32);
    EXPECT_GT(out.stats.conflicts, 0);
  }
}

TEST(ConcurrencyTest, TheSameSeedGivesTheSameRun) {
  const ConcurrencyOutcome a = run_counter(42, 4, 5, false, 1ms, 19ms);
  const ConcurrencyOutcome b = run_counter(42, 4, 5, false, 1ms, 19ms);
  EXPECT_EQ(a.stats.conflicts, b.stats.conflicts);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.finished_at, b.finished_at);
  EXPECT_EQ(a.trace_hash, b.trace_hash);
  const ConcurrencyOutcome c = run_counter(43, 4, 5, false, 1ms, 19ms);
  EXPECT_NE(c.trace_hash, a.trace_hash);
}

RC_GTEST_PROP(ConcurrencyProperty, NoIncrementIsLostForAnySeed, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const int n = *rc::gen::inRange(1, 6);
  const int k = *rc::gen::inRange(1, 6);
  const bool shuffle = *rc::gen::arbitrary<bool>();
  const ConcurrencyOutcome out = run_counter(seed, n, k, shuffle, 1ms, 19ms);
  RC_ASSERT(out.stats.errors.empty());
  RC_ASSERT(out.stats.finished == n);
  RC_ASSERT(out.count == n * k);
  RC_ASSERT(out.revision == n * k);
}

}  // namespace
}  // namespace kubesim::fakeapi
