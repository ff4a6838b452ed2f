// The driver: finding files, reading them all, planning seeds, and running on one or more
// threads with results in plan order.
#include "kubesim/runner/driver.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/tools/stubs.h"

namespace kubesim::tools {
namespace {

using nlohmann::json;
using testing::ScratchDir;
using testing::StubRunner;
using testing::stub_load;

TEST(DriverFilesTest, ADirectoryMeansItsYamlFilesSorted) {
  ScratchDir dir;
  dir.write("lib/b.yaml", "name: b");
  dir.write("lib/a.yml", "name: a");
  dir.write("lib/c.yaml", "name: c");
  dir.write("lib/notes.txt", "not a scenario");
  dir.write("lib/sub/d.yaml", "name: d");
  dir.write("empty/readme.md", "");
  const std::string one = dir.write("one.yaml", "name: one");
  runner::FileList list = runner::scenario_files({one, dir.path("lib"), dir.path("lib/b.yaml"), one});
  EXPECT_TRUE(list.errors.empty());
  EXPECT_EQ(list.files, (std::vector<std::string>{one, dir.path("lib/a.yml"),
                                                  dir.path("lib/b.yaml"), dir.path("lib/c.yaml")}));
  list = runner::scenario_files({dir.path("missing.yaml"), dir.path("empty")});
  EXPECT_EQ(list.errors,
            (std::vector<std::string>{
                dir.path("missing.yaml") + ": no such file or directory",
                dir.path("empty") + ": no scenario files (*.yaml, *.yml) in this directory"}));
}

TEST(DriverLoadTest, EveryErrorOfEveryFileIsReported) {
  ScratchDir dir;
  const std::string a = dir.write("a.yaml", "name: a\nerror: 3:9: unknown key \"sedes\"\n"
                                            "error: 7:1: duration: bad duration");
  const std::string b = dir.write("b.yaml", "name: b");
  const std::string c = dir.write("c.yaml", "name: c\nexec: 4:7");
  const std::string d = dir.write("d.yaml", "name: b");
  runner::LoadedScenarios loaded = runner::load_scenarios(runner::read_sources({a, b, c, d}), scenarios::Registry{}, stub_load);
  EXPECT_TRUE(loaded.scenarios.empty());
  EXPECT_EQ(loaded.errors, (std::vector<std::string>{
                               a + ":3:9: unknown key \"sedes\"",
                               a + ":7:1: duration: bad duration",
                               c + ":4:7: exec processes run only with --live",
                               d + ": scenario name \"b\" is also the name of " + b +
                                   "'s scenario; names must be unique",
                           }));
  loaded = runner::load_scenarios(runner::read_sources({b, c}), scenarios::Registry{}, stub_load, /*live=*/true);
  EXPECT_TRUE(loaded.errors.empty());
  ASSERT_EQ(loaded.scenarios.size(), 2u);
  EXPECT_EQ(loaded.scenarios[1].name, "c");
}

scenarios::Scenario scenario(const std::string& name, int seeds, std::vector<std::string> must_find = {}) {
  scenarios::Scenario s;
  s.name = name;
  s.file = name + ".yaml";
  s.seeds = seeds;
  s.must_find = std::move(must_find);
  return s;
}

TEST(DriverPlanTest, SeedsComeFromTheFileOrTheFlags) {
  const std::vector<scenarios::Scenario> two = {scenario("a", 3), scenario("b", 2)};
  using Seeds = std::vector<std::vector<std::uint64_t>>;
  EXPECT_EQ(runner::make_plan(two, {}, {}).seeds, (Seeds{{1, 2, 3}, {1, 2}}));
  EXPECT_EQ(runner::make_plan(two, runner::SeedChoice{4, std::nullopt}, {}).seeds, (Seeds{{1, 2, 3, 4}, {1, 2, 3, 4}}));
  EXPECT_EQ(runner::make_plan(two, runner::SeedChoice{std::nullopt, 99}, {}).seeds, (Seeds{{99}, {99}}));
  const runner::Plan plan = runner::make_plan(two, {}, runner::Shard{1, 2});
  EXPECT_EQ(plan.runs, (std::vector<runner::PlannedRun>{{0, 2}, {1, 1}}));
  EXPECT_EQ(plan.shard, (runner::Shard{1, 2}));
}

json comparable(const runner::RunSet& set) {
  json j = to_json(set);
  for (auto& s : j["scenarios"]) s.erase("wallSeconds");
  return j;
}

TEST(DriverRunTest, ResultsDoNotDependOnTheNumberOfJobs) {
  const runner::Plan plan = runner::make_plan({scenario("a", 13), scenario("b", 1), scenario("c", 9, {"atMostOneLeader"})},
                              {}, {});
  std::vector<json> sets;
  std::vector<std::vector<std::string>> delivered;
  for (int jobs : {1, 2, 4}) {
    StubRunner runner;
    runner.fail_every("a", 4);
    runner.fail_every("c", 3);
    runner::DriverOptions options;
    options.jobs = jobs;
    options.timelines = true;
    delivered.emplace_back();
    options.on_scenario = [&](const runner::ScenarioRun& run) {
      delivered.back().push_back(run.result.name + ":" + std::to_string(run.result.seeds.size()));
    };
    sets.push_back(comparable(runner::run_plan(plan, scenarios::Registry{}, runner.function(), options)));
    EXPECT_EQ(runner.calls().size(), 13u + 1u + 9u + 3u) << jobs;
  }
  EXPECT_EQ(sets[0], sets[1]);
  EXPECT_EQ(sets[0], sets[2]);
  for (const auto& d : delivered) EXPECT_EQ(d, (std::vector<std::string>{"a:13", "b:1", "c:9"}));
}

TEST(DriverRunTest, TheTimelineIsDrawnForTheFirstBrokenSeedElseTheFirst) {
  const runner::Plan plan = runner::make_plan({scenario("a", 10), scenario("b", 3)}, {}, {});
  StubRunner runner;
  runner.fail_every("a", 4);
  runner::DriverOptions options;
  options.timelines = true;
  const runner::RunSet set = runner::run_plan(plan, scenarios::Registry{}, runner.function(), options);
  EXPECT_EQ(runner.timeline_calls(),
            (std::vector<std::pair<std::string, std::uint64_t>>{{"a", 4}, {"b", 1}}));
  for (const auto& run : set.scenarios) {
    for (const auto& seed : run.result.seeds) {
      const bool drawn = (run.result.name == "a" && seed.seed == 4) ||
                         (run.result.name == "b" && seed.seed == 1);
      EXPECT_EQ(seed.timeline.has_value(), drawn) << run.result.name << " " << seed.seed;
    }
  }
  StubRunner plain;
  runner::run_plan(plan, scenarios::Registry{}, plain.function(), {});
  EXPECT_TRUE(plain.timeline_calls().empty());
}

TEST(DriverRunTest, OnlySeedsThatBrokeSomethingKeepTheirTraceTail) {
  StubRunner runner;
  runner.fail_every("a", 2);
  const runner::RunSet set = runner::run_plan(runner::make_plan({scenario("a", 3)}, {}, {}), scenarios::Registry{}, runner.function(), {});
  const auto& seeds = set.scenarios[0].result.seeds;
  EXPECT_TRUE(seeds[0].trace_tail.empty());
  EXPECT_EQ(seeds[1].trace_tail.size(), 1u);
  EXPECT_TRUE(seeds[2].trace_tail.empty());
  EXPECT_EQ(seeds[2].trace_hash.size(), 16u);  // the rest of a passing seed stays
}

TEST(DriverRunTest, ARunThatThrowsIsAFailedSeedAndTheOthersGoOn) {
  const runner::Plan plan = runner::make_plan({scenario("a", 2), scenario("b", 2)}, {}, {});
  StubRunner runner;
  runner.throw_in("a");
  std::vector<std::size_t> failed_so_far;
  runner::DriverOptions options;
  options.on_progress = [&](std::size_t, std::size_t total, std::size_t failed) {
    EXPECT_EQ(total, 4u);
    failed_so_far.push_back(failed);
  };
  const runner::RunSet set = runner::run_plan(plan, scenarios::Registry{}, runner.function(), options);
  EXPECT_EQ(set.scenarios[0].result.seeds[1].seed, 2u);
  EXPECT_EQ(set.scenarios[0].result.seeds[1].error, "the run threw: boom");
  EXPECT_TRUE(set.scenarios[1].result.passed());
  EXPECT_EQ(failed_so_far, (std::vector<std::size_t>{1, 2, 2, 2}));
}

TEST(DriverRunTest, TheOnlyRunGetsTheTraceStream) {
  std::ostringstream trace;
  runner::DriverOptions options;
  options.trace = &trace;
  StubRunner runner;
  runner::run_plan(runner::make_plan({scenario("a", 5)}, runner::SeedChoice{std::nullopt, 3}, {}), scenarios::Registry{},
           runner.function(), options);
  EXPECT_EQ(trace.str().substr(0, 11), "{\"seed\":3}\n");
  std::ostringstream unused;
  options.trace = &unused;
  runner::run_plan(runner::make_plan({scenario("a", 2)}, {}, {}), scenarios::Registry{}, runner.function(), options);
  EXPECT_EQ(unused.str(), "");
}

TEST(DriverRunTest, AScenarioWithNoSeedInTheShardIsStillInTheSet) {
  const runner::Plan plan = runner::make_plan({scenario("a", 1), scenario("b", 1)}, {}, runner::Shard{1, 2});
  StubRunner runner;
  std::vector<std::string> delivered;
  runner::DriverOptions options;
  options.on_scenario = [&](const runner::ScenarioRun& run) { delivered.push_back(run.result.name); };
  const runner::RunSet set = runner::run_plan(plan, scenarios::Registry{}, runner.function(), options);
  EXPECT_EQ(delivered, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(set.scenarios[0].result.seeds.empty());
  EXPECT_EQ(set.scenarios[0].planned_seeds, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(set.scenarios[1].result.seeds.size(), 1u);
}

}  // namespace
}  // namespace kubesim::tools
