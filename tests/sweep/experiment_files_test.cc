// The experiments of scenarios/experiments/: each file expands into its grid, and one run of a
// chosen point shows the answer its description states (one point × one seed: the whole sweep
// is for `kubesim run`, not for CI).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kubesim/runner/runner.h"
#include "kubesim/sweep/measure.h"
#include "kubesim/sweep/sweep.h"

namespace kubesim::sweep {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(__FILE__).parent_path() / "../../scenarios/experiments";

Experiment load(const std::string& file) {
  std::ifstream in(kDir / file);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(in) << file;
  ExpandResult r = expand_experiment(text.str(), file, scenarios::Registry::with_builtins());
  for (const auto& e : r.errors) ADD_FAILURE() << e.text();
  return r.experiment ? *r.experiment : Experiment{};
}

// The metrics of the point named `point` (its suffix, "[leaseDuration=10s,renewDeadline=3s]"),
// seed 1.
Metrics run_point(const Experiment& e, const std::string& point) {
  const scenarios::Registry registry = scenarios::Registry::with_builtins();
  for (const scenarios::Scenario& s : e.scenarios) {
    if (s.name != e.name + point) continue;
    runner::RunCapture capture;
    runner::RunOptions options;
    options.timeline = true;
    options.capture = &capture;
    const runner::SeedResult result = runner::run_seed(s, registry, options);
    EXPECT_EQ(result.error, "");
    return measure_run(s, result, capture, e.measures);
  }
  ADD_FAILURE() << "no point " << point << " in " << e.name;
  return {};
}

std::optional<double> column(const Metrics& m, const std::string& name) {
  for (const auto& [c, v] : m) {
    if (c == name) return v;
  }
  ADD_FAILURE() << "no column " << name;
  return std::nullopt;
}

TEST(ExperimentFiles, EveryFileExpands) {
  const std::vector<std::pair<std::string, std::size_t>> kPoints = {
      {"failover-vs-lease.yaml", 3},
      {"failover-vs-lease-and-deadline.yaml", 12},
      {"drift-safety-boundary.yaml", 63},
      {"mirror-calls-vs-latency.yaml", 21},
  };
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) files += entry.path().extension() == ".yaml";
  EXPECT_EQ(files, kPoints.size()) << "a new experiment file needs its line here";
  for (const auto& [file, points] : kPoints) EXPECT_EQ(load(file).scenarios.size(), points) << file;
}

// The leader's renewals stop with the cut (the answer to its last one is lost in it), so it leads
// for RD more; a follower takes over once the record is LD old, at its next try: the gap is
// between LD − RD and LD − RD + 2 × 2.2 × RP.
TEST(ExperimentFiles, FailoverGapIsAboutLeaseDurationMinusRenewDeadline) {
  const Metrics m = run_point(load("failover-vs-lease-and-deadline.yaml"), "[leaseDuration=10s,renewDeadline=3s]");
  ASSERT_TRUE(column(m, "failoverTime"));
  EXPECT_GE(*column(m, "failoverTime"), 7.0);
  EXPECT_LE(*column(m, "failoverTime"), 7.0 + 8.8);
  EXPECT_EQ(column(m, "leaderTransitions"), 1.0);
  EXPECT_EQ(column(m, "checksBroken"), 0.0);
}

// Inside the bound election holds; far past it (a leader's clock at half speed, a follower's at
// 1.5) the follower takes over while the partitioned leader still leads.
TEST(ExperimentFiles, DriftFarPastTheBoundGivesTwoLeaders) {
  const Experiment e = load("drift-safety-boundary.yaml");
  EXPECT_EQ(column(run_point(e, "[leaseDuration=15s,drift=0]"), "checksBroken"), 0.0);
  EXPECT_EQ(column(run_point(e, "[leaseDuration=15s,drift=0.5]"), "checksBroken"), 1.0);
  EXPECT_EQ(column(run_point(e, "[leaseDuration=30s,drift=0.4]"), "checksBroken"), 0.0);
}

// Without latency or conflicts the mirror makes one update per change: 500 changes cost a watch,
// five creates and 500 updates.
TEST(ExperimentFiles, MirrorMakesOneCallPerChangeWithoutLatency) {
  const Experiment e = load("mirror-calls-vs-latency.yaml");
  const Metrics m = run_point(e, "[latency=0s,conflict=0.0]");
  EXPECT_DOUBLE_EQ(*column(m, "apiCallsPerChange"), 506.0 / 500.0);
  EXPECT_EQ(column(m, "checksBroken"), 0.0);
  // With a round trip of 2 s its one worker makes one call per round trip, whatever changes.
  EXPECT_LT(*column(run_point(e, "[latency=1s,conflict=0.5]"), "apiCallsPerChange"), 0.15);
}

}  // namespace
}  // namespace kubesim::sweep
