// What a live run's results say in the summary, the results JSON, JUnit and the HTML report: that
// they are live (real time, real processes, not replayable).
#include <sstream>

#include <gtest/gtest.h>

#include "kubesim/report/junit.h"
#include "kubesim/report/report.h"
#include "kubesim/report/summary.h"
#include "kubesim/runner/result.h"
#include "tests/tools/stubs.h"

namespace kubesim::live {
namespace {

runner::ScenarioResult live_result(bool live) {
  runner::ScenarioResult r;
  r.file = "mirror.yaml";
  r.name = "mirror";
  runner::SeedResult seed;
  seed.seed = 3;
  seed.live = live;
  seed.failures.push_back(tools::testing::sample_failure(3));
  r.seeds.push_back(seed);
  return r;
}

runner::RunSet set_of(runner::ScenarioResult r) {
  runner::RunSet set;
  runner::ScenarioRun run;
  run.planned_seeds = {3};
  run.wall_seconds = {12.5};
  run.result = std::move(r);
  set.scenarios.push_back(std::move(run));
  return set;
}

TEST(LiveResults, TheReplayCommandRunsItLiveAgain) {
  EXPECT_EQ(live_result(true).replay_command(3), "kubesim run --live mirror.yaml --seed 3");
  EXPECT_EQ(live_result(false).replay_command(3), "kubesim run mirror.yaml --seed 3");
  EXPECT_TRUE(live_result(true).live());
  EXPECT_FALSE(live_result(false).live());
}

TEST(LiveResults, TheSummarySaysRealTimeAndNotReplayable) {
  std::ostringstream out;
  const runner::ScenarioResult r = live_result(true);
  report::print_seed_failure(r, r.seeds[0], "kubesim", out, "");
  EXPECT_NE(out.str().find("at 9.25s of real time (a live run)\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("live run: not replayable (real time, real processes); run it again: "
                           "kubesim run --live mirror.yaml --seed 3\n"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("replay:"), std::string::npos) << out.str();
}

TEST(LiveResults, TheResultsJsonKeepsLiveAndVirtualResultsStayAsTheyWere) {
  const runner::ScenarioResult r = live_result(true);
  const nlohmann::json j = to_json(r.seeds[0]);
  EXPECT_EQ(j.at("live"), true);
  auto back = runner::seed_result_from_json(j);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back.value().live);
  EXPECT_FALSE(to_json(live_result(false).seeds[0]).contains("live"));
  nlohmann::json bad = j;
  bad["live"] = "yes";
  auto refused = runner::seed_result_from_json(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message, "live: expected a boolean");
}

TEST(LiveResults, JUnitAndTheReportMarkTheScenarioLive) {
  std::ostringstream junit, html;
  report::write_junit(set_of(live_result(true)), junit);
  EXPECT_NE(junit.str().find("<property name=\"kubesim.live\" value=\"true\"/>"), std::string::npos) << junit.str();
  report::write_report_html(set_of(live_result(true)), html);
  EXPECT_NE(html.str().find("a live run: real time and real processes; its seeds do not replay"), std::string::npos);
  std::ostringstream virtual_junit;
  report::write_junit(set_of(live_result(false)), virtual_junit);
  EXPECT_EQ(virtual_junit.str().find("kubesim.live"), std::string::npos);
}

}  // namespace
}  // namespace kubesim::live
