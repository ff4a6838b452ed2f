// Shards: "K/N" on the command line, the slices of a plan, and merging the shards' RunSets.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/runner/driver.h"
#include "kubesim/runner/run_set.h"
#include "tests/tools/stubs.h"

namespace kubesim::tools {
namespace {

using nlohmann::json;

TEST(ShardTest, ParsesKOverN) {
  struct Case {
    const char* text;
    std::optional<runner::Shard> want;
    const char* error;
  };
  const Case cases[] = {
      {"0/1", runner::Shard{0, 1}, ""},
      {"3/4", runner::Shard{3, 4}, ""},
      {"0/1000", runner::Shard{0, 1000}, ""},
      {"4/4", std::nullopt,
       "--shard 4/4: K must be at least 0 and less than N (the shards of 4 are 0/4 to 3/4)"},
      {"3/2", std::nullopt,
       "--shard 3/2: K must be at least 0 and less than N (the shards of 2 are 0/2 to 1/2)"},
      {"1/1", std::nullopt, "--shard 1/1: K must be at least 0 and less than N (the only shard of 1 is 0/1)"},
      {"0/0", std::nullopt, "--shard 0/0: N, the number of shards, must be at least 1"},
      {"-1/2", std::nullopt, "--shard -1/2: expected K/N, two whole numbers such as 0/4"},
      {"1", std::nullopt, "--shard 1: expected K/N, two whole numbers such as 0/4"},
      {"a/b", std::nullopt, "--shard a/b: expected K/N, two whole numbers such as 0/4"},
      {"1/2/3", std::nullopt, "--shard 1/2/3: expected K/N, two whole numbers such as 0/4"},
      {"", std::nullopt, "--shard : expected K/N, two whole numbers such as 0/4"},
  };
  for (const auto& c : cases) {
    std::string error;
    EXPECT_EQ(runner::parse_shard(c.text, error), c.want) << c.text;
    EXPECT_EQ(error, c.error) << c.text;
  }
}

std::vector<std::vector<std::uint64_t>> seeds_of(const std::vector<int>& counts) {
  std::vector<std::vector<std::uint64_t>> seeds;
  for (int n : counts) {
    seeds.emplace_back();
    for (int i = 1; i <= n; ++i) seeds.back().push_back(static_cast<std::uint64_t>(i));
  }
  return seeds;
}

RC_GTEST_PROP(ShardTest, SlicesAreDisjointBalancedAndCoverTheWholeRun, ()) {
  const auto counts = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 40));
  const int n = *rc::gen::inRange(1, 12);
  const auto seeds = seeds_of(counts);
  const auto whole = runner::shard_slice(seeds, runner::Shard{0, 1});
  std::vector<runner::PlannedRun> joined;
  std::size_t smallest = whole.size(), largest = 0;
  for (int k = 0; k < n; ++k) {
    const auto part = runner::shard_slice(seeds, runner::Shard{k, n});
    RC_ASSERT(std::is_sorted(part.begin(), part.end(), [](const auto& a, const auto& b) {
      return a.scenario < b.scenario || (a.scenario == b.scenario && a.seed < b.seed);
    }));
    smallest = std::min(smallest, part.size());
    largest = std::max(largest, part.size());
    joined.insert(joined.end(), part.begin(), part.end());
  }
  RC_ASSERT(largest - smallest <= 1);
  std::sort(joined.begin(), joined.end(), [](const auto& a, const auto& b) {
    return a.scenario < b.scenario || (a.scenario == b.scenario && a.seed < b.seed);
  });
  RC_ASSERT(joined == whole);  // each pair once, none missing
}

TEST(ShardTest, EachScenarioIsSpreadOverTheShards) {
  const auto seeds = seeds_of({9, 3});
  const auto part = runner::shard_slice(seeds, runner::Shard{1, 3});
  const std::vector<runner::PlannedRun> want = {{0, 2}, {0, 5}, {0, 8}, {1, 2}};
  EXPECT_EQ(part, want);
}

runner::RunSet shard_set(const std::vector<int>& counts, runner::Shard shard) {
  std::vector<scenarios::Scenario> scenarios;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    scenarios::Scenario s;
    s.name = "s" + std::to_string(i);
    s.file = s.name + ".yaml";
    s.seeds = counts[i];
    scenarios.push_back(s);
  }
  testing::StubRunner runner;
  runner.fail_every("s0", 3);
  return runner::run_plan(runner::make_plan(scenarios, {}, shard), scenarios::Registry{}, runner.function(), {});
}

// The set with its wall times zeroed: the one part two runs of a plan do not share.
json comparable_runs(const runner::RunSet& set) {
  json j = to_json(set);
  for (auto& s : j["scenarios"]) {
    for (auto& w : s["wallSeconds"]) w = 0;
  }
  j.erase("command");
  return j;
}

TEST(MergeTest, ThreeShardsMergeIntoTheWholeRun) {
  const std::vector<int> counts = {7, 5, 1};
  const runner::RunSet whole = shard_set(counts, runner::Shard{0, 1});
  std::vector<runner::RunSet> shards;
  for (int k : {2, 0, 1}) shards.push_back(shard_set(counts, runner::Shard{k, 3}));
  auto merged = runner::merge_run_sets(shards, {"kubesim", "merge"});
  ASSERT_TRUE(merged.ok()) << merged.status().message;
  EXPECT_EQ(comparable_runs(merged.value()), comparable_runs(whole));
  EXPECT_EQ(merged->command, (std::vector<std::string>{"kubesim", "merge"}));
}

TEST(MergeTest, RunSetsRoundTripThroughJson) {
  runner::RunSet set = shard_set({4, 2}, runner::Shard{1, 2});
  set.command = {"kubesim", "run", "dir", "--shard", "1/2"};
  auto read = runner::run_set_from_json(json::parse(to_json(set).dump()));
  ASSERT_TRUE(read.ok()) << read.status().message;
  EXPECT_EQ(to_json(read.value()), to_json(set));
  EXPECT_EQ(read->shard, (runner::Shard{1, 2}));
}

TEST(MergeTest, ShardsThatDoNotFitTogetherAreRefused) {
  const std::vector<int> counts = {4, 2};
  const runner::RunSet a = shard_set(counts, runner::Shard{0, 2}), b = shard_set(counts, runner::Shard{1, 2});
  runner::RunSet other_cut = shard_set(counts, runner::Shard{1, 3});
  runner::RunSet other_plan = shard_set({5, 2}, runner::Shard{1, 2});
  runner::RunSet renamed = b;
  renamed.scenarios[1].result.name = "t";
  runner::RunSet overlapping = b;
  overlapping.scenarios[0].result.seeds.push_back(a.scenarios[0].result.seeds[0]);
  overlapping.scenarios[0].wall_seconds.push_back(0);
  runner::RunSet short_one = b;
  short_one.scenarios[0].result.seeds.pop_back();
  short_one.scenarios[0].wall_seconds.pop_back();
  struct Case {
    std::vector<runner::RunSet> shards;
    const char* message;
  };
  const Case cases[] = {
      {{}, "no results to merge"},
      {{a}, "shard 1/2 is missing: the merge would not be the whole run"},
      {{a, a}, "shard 0/2 is given more than once"},
      {{a, other_cut}, "the results are not shards of one run: shard 1/3 and shard 0/2 cut the run differently"},
      {{a, other_plan},
       "the results are not shards of one run: shard 1/2 planned other seeds of scenario \"s0\" than shard 0/2"},
      {{a, renamed},
       "the results are not shards of one run: shard 1/2 ran scenario \"t\" (s1.yaml) where shard 0/2 ran \"s1\" (s1.yaml)"},
      {{a, overlapping}, "seed 1 of scenario \"s0\" is in more than one shard"},
      {{a, short_one}, "seed 4 of scenario \"s0\" is in no shard"},
  };
  for (const auto& c : cases) {
    auto merged = runner::merge_run_sets(c.shards, {});
    ASSERT_FALSE(merged.ok()) << c.message;
    EXPECT_EQ(merged.status().message, c.message);
  }
}

TEST(MergeTest, MalformedResultsFilesAreRefused) {
  const json good = to_json(shard_set({2}, runner::Shard{0, 1}));
  struct Case {
    const char* pointer;
    json value;
    const char* message;
  };
  const Case cases[] = {
      {"/kind", "Other", "kind: not a kubesim results file"},
      {"/version", 2, "version: version 1 is the one understood"},
      {"/shard/index", 3, "shard: not a shard K/N with 0 <= K < N"},
      {"/scenarios/0/plannedSeeds", json::array({1}),
       "scenarios[0]: seed 2 is not among plannedSeeds, or out of their order"},
      {"/scenarios/0/plannedSeeds/0", "1", "scenarios[0].plannedSeeds[0]: expected an unsigned integer"},
      {"/scenarios/0/seeds/1/seed", "x", "scenarios[0]: seeds[1].seed: expected an unsigned integer"},
      {"/command", "kubesim", "command: expected an array"},
  };
  for (const auto& c : cases) {
    json bad = good;
    bad[json::json_pointer(c.pointer)] = c.value;
    auto read = runner::run_set_from_json(bad);
    ASSERT_FALSE(read.ok()) << c.pointer;
    EXPECT_EQ(read.status().message, c.message) << c.pointer;
  }
}

}  // namespace
}  // namespace kubesim::tools
