// A live run without real processes: the in-process replicas of a scenario on the real clock,
// served over HTTPS, checked as in a virtual run. (Runs with real processes are live_test.sh's.)
#include "kubesim/live/live.h"

#include <gtest/gtest.h>

#include "kubesim/scenarios/parse.h"
#include "tests/tools/stubs.h"

namespace kubesim::live {
namespace {

using tools::testing::ScratchDir;

constexpr const char* kScenario = R"(name: in-process
duration: 1500ms
processes:
  - name: manager
    replicas: 2
    run:
      - elector: {lock: leases/kube-system/m, leaseDuration: 3s, renewDeadline: 2s, retryPeriod: 500ms}
timeline:
  - at: 500ms
    partition: {process: manager-0, for: 300ms}
expect:
  always:
    - atMostOneLeader: leases/kube-system/m
  eventually:
    - {within: 1s, leaderElected: leases/kube-system/m}
  finally:
    - {count: {resource: leases, namespace: kube-system}, equals: 2}
)";

TEST(LiveRun, RunsInProcessReplicasOnTheRealClock) {
  ScratchDir dir;
  const std::string file = dir.write("s.yaml", kScenario);
  auto parsed = scenarios::load_scenario(file, scenarios::Registry::with_builtins());
  ASSERT_TRUE(parsed.errors.empty()) << parsed.errors[0].text();
  LiveOptions options;
  options.output = dir.path("out");
  runner::RunOptions run;
  run.seed = 4;
  const runner::SeedResult r = live_run_function(options)(*parsed.scenario, scenarios::Registry::with_builtins(), run);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.live);
  EXPECT_EQ(r.seed, 4u);
  // One lease: the count check breaks, at the end of the run in real time.
  ASSERT_EQ(r.failures.size(), 1u) << r.failures[0].check << ": " << r.failures[0].detail;
  EXPECT_EQ(r.failures[0].detail, "count of leases in kube-system is 1, want 2");
  EXPECT_GE(r.failures[0].at, sim::Time{std::chrono::milliseconds(1500)});
  EXPECT_GT(r.requests, 0u);
  ASSERT_TRUE(r.timeline);
  EXPECT_NE(std::find(r.timeline->lanes.begin(), r.timeline->lanes.end(), "process manager-0"), r.timeline->lanes.end());
  EXPECT_TRUE(std::filesystem::exists(dir.path("out/in-process/seed-4/tokens.csv")));
  EXPECT_TRUE(std::filesystem::exists(dir.path("out/in-process/seed-4/kubesim-admin/kubeconfig")));
}

TEST(LiveCheck, ACommandThatIsNotFoundIsAnError) {
  ScratchDir dir;
  const std::string file = dir.write("s.yaml", R"(name: s
duration: 1s
processes:
  - name: ghost
    clock: {skew: 1s}
    exec: {command: [./not-here.sh]}
  - name: fine
    clock: {drift: 0.01}
    exec: {command: [sh, -c, "exit 0"]}
)");
  auto parsed = scenarios::load_scenario(file, scenarios::Registry::with_builtins());
  ASSERT_TRUE(parsed.errors.empty()) << parsed.errors[0].text();
  const LiveCheck check = check_live(*parsed.scenario);
  ASSERT_EQ(check.errors.size(), 1u);
  EXPECT_EQ(check.errors[0], file + ":6:11: command: \"./not-here.sh\" is not an executable file (relative paths "
                                    "start at the scenario's folder, " +
                                    std::filesystem::path(dir.path("")).parent_path().string() + ")");
  // sh is dynamically linked: libfaketime changes its clock when it is installed.
  if (std::filesystem::exists("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1")) {
    EXPECT_TRUE(check.notes.empty()) << check.notes[0];
  }
}

}  // namespace
}  // namespace kubesim::live
