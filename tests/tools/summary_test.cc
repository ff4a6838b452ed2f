// What `kubesim run` prints: the verdict lines, the story of a failing seed, the closing line;
// and the progress line.
#include "kubesim/report/summary.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/runner/progress.h"
#include "tests/tools/stubs.h"

namespace kubesim::tools {
namespace {

using testing::sample_failure;

runner::SeedResult clean(std::uint64_t seed) {
  runner::SeedResult r;
  r.seed = seed;
  return r;
}
runner::SeedResult broke(std::uint64_t seed, const std::string& condition = "atMostOneLeader") {
  runner::SeedResult r = clean(seed);
  runner::Failure f = sample_failure(seed);
  f.condition = condition;
  if (condition != "atMostOneLeader") f.check = "{count: {resource: configmaps}, equals: 3}";
  r.failures.push_back(f);
  r.trace_tail = {"{\"t\":\"21s\",\"event\":\"renew\"}", "{\"t\":\"21.25s\",\"event\":\"lead\"}"};
  return r;
}

runner::ScenarioRun make_run(std::vector<runner::SeedResult> seeds, std::vector<std::string> must_find = {}) {
  runner::ScenarioRun run;
  run.result.file = "lib/leader.yaml";
  run.result.name = "leader";
  run.result.must_find = std::move(must_find);
  run.result.seeds = std::move(seeds);
  return run;
}

TEST(SummaryTest, VerdictLines) {
  runner::SeedResult errored = clean(2);
  errored.error = "the run threw: boom";
  struct Case {
    runner::ScenarioRun run;
    runner::Shard shard;
    const char* line;
  };
  const Case cases[] = {
      {make_run({clean(1), clean(2)}), {}, "PASS leader (2 seeds)"},
      {make_run({clean(1)}), {}, "PASS leader (1 seed)"},
      {make_run({clean(1), broke(2), broke(3)}), {}, "FAIL leader: 2 of 3 seeds broke checks"},
      {make_run({clean(1), errored}), {}, "FAIL leader: 1 of 2 seeds broke checks"},
      {make_run({broke(1), clean(2), broke(3)}, {"atMostOneLeader"}), {},
       "PASS leader: found atMostOneLeader in 2 of 3 seeds"},
      {make_run({clean(1), clean(2)}, {"atMostOneLeader"}), {},
       "FAIL leader: found no atMostOneLeader in 2 seeds"},
      {make_run({clean(1)}, {"atMostOneLeader", "leaderElected"}), {},
       "FAIL leader: found none of atMostOneLeader, leaderElected in 1 seed"},
      {make_run({broke(1), broke(2, "count")}, {"atMostOneLeader"}), {},
       "FAIL leader: 1 of 2 seeds broke checks not in mustFind (atMostOneLeader)"},
      {make_run({clean(1), clean(4)}, {"atMostOneLeader"}), runner::Shard{1, 3},
       "UNDECIDED leader: found no atMostOneLeader in shard 1/3's 2 seeds; the merged shards decide"},
      {make_run({}), runner::Shard{2, 3}, "SKIP leader: no seed in shard 2/3"},
  };
  for (const auto& c : cases) EXPECT_EQ(report::verdict_line(c.run, c.shard), c.line);
}

runner::SeedResult with_writes(runner::SeedResult r, std::uint64_t written, std::uint64_t refused,
                               std::uint64_t failed, std::uint64_t retried, bool expect_refused = false) {
  runner::EntryWrites w;
  w.verb = "create";
  w.written = written;
  w.refused = refused;
  w.failed = failed;
  w.retried = retried;
  w.expect_refused = expect_refused;
  r.writes.push_back(w);
  return r;
}

// A scenario with a workload says what its writes came to, summed over the seeds; one without
// says nothing of it.
TEST(SummaryTest, VerdictLinesCountTheWorkloadsWrites) {
  EXPECT_EQ(report::verdict_line(make_run({with_writes(clean(1), 10, 0, 0, 0), with_writes(clean(2), 9, 0, 1, 0)}), {}),
            "PASS leader (2 seeds, workload: 19 written, 1 failed)");
  EXPECT_EQ(report::verdict_line(make_run({with_writes(clean(1), 10, 3, 0, 2, true)}), {}),
            "PASS leader (1 seed, workload: 10 written, 3 refused (expected), 2 conflicts retried)");
  runner::SeedResult refused = with_writes(broke(1, "refusedWrite"), 0, 4, 0, 0);
  EXPECT_EQ(report::verdict_line(make_run({refused}), {}),
            "FAIL leader: 1 of 1 seed broke checks (workload: 0 written, 4 refused)");
  EXPECT_EQ(report::verdict_line(make_run({with_writes(broke(1), 1, 0, 0, 1)}, {"atMostOneLeader"}), {}),
            "PASS leader: found atMostOneLeader in 1 of 1 seed (workload: 1 written, 1 conflict retried)");
}

TEST(SummaryTest, AFailurePrintsWhatBrokeWhenWhereAndHowToReplayIt) {
  runner::RunSet set;
  set.program = "./my_test";
  set.scenarios.push_back(make_run({clean(1), broke(2), broke(3)}));
  set.scenarios.back().result.seeds[1].failures.push_back(
      broke(2, "count").failures.front());
  set.scenarios.push_back(make_run({clean(1)}));
  set.scenarios.back().result.name = "quiet";
  std::ostringstream out;
  EXPECT_EQ(report::print_summary(set, out), 1);
  EXPECT_EQ(out.str(),
            "FAIL leader: 2 of 3 seeds broke checks\n"
            "  scenario leader (lib/leader.yaml), seed 2\n"
            "  broke lib/leader.yaml:12:7: atMostOneLeader: leases/team-a/manager\n"
            "  at 6.25s of virtual time\n"
            "    manager-0 leads since 1s (its clock read 1.5s)\n"
            "    manager-1 leads since 2s\n"
            "  also broke lib/leader.yaml:12:7: {count: {resource: configmaps}, equals: 3} at 6.25s\n"
            "  last trace lines before it:\n"
            "    {\"t\":\"21s\",\"event\":\"renew\"}\n"
            "    {\"t\":\"21.25s\",\"event\":\"lead\"}\n"
            "  replay: ./my_test run lib/leader.yaml --seed 2\n"
            "PASS quiet (1 seed)\n"
            "1 passed, 1 failed\n");
}

TEST(SummaryTest, AMustFindScenarioThatFoundNothingSaysSo) {
  runner::RunSet set;
  set.scenarios.push_back(make_run({clean(1), clean(2)}, {"atMostOneLeader"}));
  std::ostringstream out;
  EXPECT_EQ(report::print_summary(set, out), 1);
  EXPECT_EQ(out.str(),
            "FAIL leader: found no atMostOneLeader in 2 seeds\n"
            "  scenario leader (lib/leader.yaml) documents a known-unsafe setup (mustFind: "
            "atMostOneLeader), but none of its 2 seeds broke it; more seeds may (--seeds N)\n"
            "0 passed, 1 failed\n");
}

TEST(SummaryTest, ARunThatFailedPrintsItsError) {
  runner::SeedResult errored = clean(5);
  errored.error = "the run threw: boom";
  std::ostringstream out;
  report::print_seed_failure(make_run({}).result, errored, "kubesim", out);
  EXPECT_EQ(out.str(),
            "  scenario leader (lib/leader.yaml), seed 5\n"
            "  the run failed: the run threw: boom\n"
            "  replay: kubesim run lib/leader.yaml --seed 5\n");
}

TEST(SummaryTest, TheClosingLineAndTheExitCode) {
  EXPECT_EQ(report::closing_line(report::Tally{3, 0, 0}), "3 passed, 0 failed");
  EXPECT_EQ(report::closing_line(report::Tally{1, 2, 1}), "1 passed, 2 failed, 1 undecided");
  EXPECT_EQ(report::exit_code(report::Tally{3, 0, 1}), 0);
  EXPECT_EQ(report::exit_code(report::Tally{3, 1, 0}), 1);
}

TEST(ProgressTest, TheLineSaysSeedsFailuresAndTimeLeft) {
  using std::chrono::duration;
  EXPECT_EQ(runner::Progress::text(0, 200, 0, std::nullopt), "0/200 seeds, 0 failed");
  EXPECT_EQ(runner::Progress::text(37, 200, 2, duration<double>(12.4)),
            "37/200 seeds, 2 failed, about 12s left");
  EXPECT_EQ(runner::Progress::text(1, 9, 0, duration<double>(185)), "1/9 seeds, 0 failed, about 3m05s left");
  EXPECT_EQ(runner::Progress::text(1, 9, 0, duration<double>(3720)), "1/9 seeds, 0 failed, about 1h02m left");
}

TEST(ProgressTest, RedrawsInPlaceAtMostTenTimesASecond) {
  std::chrono::steady_clock::time_point now{};
  auto clock = [&] { return now; };
  std::ostringstream out;
  runner::Progress progress(out, true, clock);
  now += std::chrono::seconds(1);
  progress.update(1, 4, 0);
  now += std::chrono::milliseconds(50);
  progress.update(2, 4, 1);  // too soon: not drawn
  now += std::chrono::milliseconds(60);
  progress.update(3, 4, 1);
  progress.update(4, 4, 1);  // the last is always drawn
  progress.clear();
  EXPECT_EQ(out.str(),
            "\r\033[K1/4 seeds, 0 failed, about 3s left"
            "\r\033[K3/4 seeds, 1 failed, about 0s left"
            "\r\033[K4/4 seeds, 1 failed"
            "\r\033[K");
}

TEST(ProgressTest, WritesNothingWhenNotOnATerminal) {
  std::ostringstream out;
  runner::Progress progress(out, false);
  progress.update(1, 2, 0);
  progress.update(2, 2, 0);
  progress.clear();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace kubesim::tools
