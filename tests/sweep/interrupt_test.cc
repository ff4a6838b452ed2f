// Stopping a run (Ctrl-C) without signals: the driver's stop flag, set by the run function at a
// chosen run — no run starts after it, the runs under way finish and are kept in plan order — and
// `kubesim run` with CliEnvironment::interrupt: every output from the finished runs, the
// "interrupted after N of M runs" line, exit status 130; and merge refusing an interrupted shard.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "kubesim/runner/driver.h"
#include "tests/sweep/cli_run.h"

namespace kubesim::sweep {
namespace {

namespace fs = std::filesystem;
using testing::kExample;

runner::Plan two_by_three() {
  std::vector<scenarios::Scenario> scenarios(2);
  scenarios[0].name = "a";
  scenarios[1].name = "b";
  for (auto& s : scenarios) s.seeds = 3;
  return runner::make_plan(std::move(scenarios), runner::SeedChoice{}, runner::Shard{});
}

// A run function that sets `stop` as the `at`-th run (counting from 1) starts, and counts runs.
struct StoppingRun {
  StoppingRun(std::atomic<bool>* s, std::size_t a) : stop(s), at(a) {}
  std::atomic<bool>* stop;
  std::size_t at;
  std::mutex mu;
  std::size_t calls = 0;

  runner::RunFunction function() {
    return [this](const scenarios::Scenario&, const scenarios::Registry&, const runner::RunOptions& o) {
      {
        std::lock_guard lock(mu);
        if (++calls == at) *stop = true;
      }
      runner::SeedResult r;
      r.seed = o.seed;
      return r;
    };
  }
};

TEST(Interrupt, NoRunStartsAfterTheStopAndTheFinishedOnesAreKept) {
  std::atomic<bool> stop{false};
  StoppingRun run{&stop, 4};
  std::vector<std::string> delivered;
  runner::DriverOptions options;
  options.stop = &stop;
  options.timelines = true;  // no timeline is drawn after the stop either
  options.on_scenario = [&](const runner::ScenarioRun& r) {
    delivered.push_back(r.result.name + ":" + std::to_string(r.result.seeds.size()));
  };
  const runner::RunSet set = runner::run_plan(two_by_three(), scenarios::Registry{}, run.function(), options);
  EXPECT_EQ(run.calls, 4u);
  ASSERT_TRUE(set.interrupted);
  EXPECT_EQ(*set.interrupted, (runner::RunSet::Interruption{4, 6}));
  EXPECT_EQ(delivered, (std::vector<std::string>{"a:3", "b:1"}));
  ASSERT_EQ(set.scenarios[1].result.seeds.size(), 1u);
  EXPECT_EQ(set.scenarios[1].result.seeds[0].seed, 1u);
  EXPECT_EQ(set.scenarios[1].wall_seconds.size(), 1u);
  EXPECT_FALSE(set.scenarios[0].result.seeds[0].timeline);
}

TEST(Interrupt, OnSeveralThreadsTheRunsUnderWayFinishInPlanOrder) {
  for (std::size_t at = 1; at <= 6; ++at) {
    std::atomic<bool> stop{false};
    StoppingRun run{&stop, at};
    runner::DriverOptions options;
    options.jobs = 2;
    options.stop = &stop;
    const runner::RunSet set = runner::run_plan(two_by_three(), scenarios::Registry{}, run.function(), options);
    std::size_t kept = 0;
    for (const auto& s : set.scenarios) {
      for (std::size_t k = 1; k < s.result.seeds.size(); ++k) {
        EXPECT_LT(s.result.seeds[k - 1].seed, s.result.seeds[k].seed);
      }
      kept += s.result.seeds.size();
    }
    EXPECT_EQ(kept, run.calls) << "every run started is kept (stop at " << at << ")";
    EXPECT_GE(run.calls, at);
    EXPECT_LE(run.calls, at + 1);  // the other thread may have started one more
    if (run.calls < 6) {
      ASSERT_TRUE(set.interrupted);
      EXPECT_EQ(*set.interrupted, (runner::RunSet::Interruption{run.calls, 6}));
    }
  }
}

TEST(Interrupt, ARunNotStoppedIsNotMarked) {
  std::atomic<bool> stop{false};
  StoppingRun run{&stop, 99};
  runner::DriverOptions options;
  options.stop = &stop;
  EXPECT_FALSE(runner::run_plan(two_by_three(), scenarios::Registry{}, run.function(), options).interrupted);
}

const auto read_text = testing::read_file;

std::size_t lines_of(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Interrupt, KubesimRunWritesEveryOutputFromTheRunsThatFinishedAndExits130) {
  const fs::path dir = fs::path(::testing::TempDir()) / "interrupted";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::atomic<bool> stop{false};
  std::size_t calls = 0;
  const runner::RunFunction run = [&](const scenarios::Scenario& s, const scenarios::Registry& r, const runner::RunOptions& o) {
    if (++calls == 4) stop = true;
    return runner::run_seed(s, r, o);
  };
  const testing::Outcome o = testing::kubesim(
      {"run", kExample.string(), "--csv", (dir / "x.csv").string(), "--results",
       (dir / "r.json").string(), "--junit", (dir / "j.xml").string(), "--report",
       (dir / "r.html").string(), "--charts", (dir / "charts").string()},
      run, &stop);
  EXPECT_EQ(o.code, 130) << o.out << o.err;
  EXPECT_EQ(calls, 4u);
  EXPECT_NE(o.out.find("interrupted after 4 of 9 runs: the outputs hold the runs that "
                           "finished\n2 passed, 0 failed\n"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("failover-vs-lease[leaseDuration=10s]  (1/1 seeds passed)"), std::string::npos)
      << o.out;
  EXPECT_EQ(lines_of(read_text(dir / "x.csv")), 5u);  // the header and four rows
  const auto results = nlohmann::json::parse(read_text(dir / "r.json"));
  EXPECT_EQ(results["interrupted"], (nlohmann::json{{"finished", 4}, {"planned", 9}}));
  EXPECT_NE(read_text(dir / "j.xml").find("<testsuites"), std::string::npos);
  EXPECT_NE(read_text(dir / "r.html").find("<h2>Experiments</h2>"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "charts" / "failover-vs-lease--failoverTime--leaseDuration.svg"));
}

TEST(Interrupt, MergeRefusesAnInterruptedShard) {
  runner::RunSet a, b;
  a.shard = runner::Shard{0, 2};
  b.shard = runner::Shard{1, 2};
  b.interrupted = runner::RunSet::Interruption{3, 10};
  auto merged = runner::merge_run_sets({a, b}, {});
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.status().message, "shard 1/2 was interrupted after 3 of 10 runs: run it again for the whole shard");
  auto back = runner::run_set_from_json(to_json(b));
  ASSERT_TRUE(back.ok()) << back.status().message;
  EXPECT_EQ(back.value().interrupted, b.interrupted);
}

}  // namespace
}  // namespace kubesim::sweep
