#include "kubesim/election/leader_elector.h"

#include <gtest/gtest.h>

#include "kubesim/election/healthz.h"
#include "tests/election/harness.h"

namespace kubesim::election::testing {
namespace {

TEST(LeaderElectorTest, CreatesTheLockAndObservesOnItsOwnClock) {
  ClusterOptions o;
  o.candidates = 2;
  Cluster cl(o);
  cl.candidates[0].process->clock().set_offset(1h);
  cl.start(0);
  cl.loop.run_until(Time{} + 1s);
  LeaderElector* a = cl.candidates[0].elector;
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(a->is_leader());
  EXPECT_EQ(a->get_leader(), "candidate-0");
  // The last renewal was answered at 6 ms (a get and a create, 1 ms each way, then a renewal),
  // on the monotonic reading, which the offset (a wall offset) does not move.
  EXPECT_EQ(a->observed_time(), Time{} + 6ms);
  EXPECT_EQ(lease_spec(cl)["leaseTransitions"], 0);  // created, not taken over
  EXPECT_EQ(lease_spec(cl)["renewTime"], sim::format_rfc3339_micro(Time{} + 1h + 4ms));
  cl.start(1);
  cl.loop.run_until(Time{} + 5s);
  LeaderElector* b = cl.candidates[1].elector;
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->is_leader());
  EXPECT_EQ(b->get_leader(), "candidate-0");
  EXPECT_EQ(cl.candidates[1].new_leaders, std::vector<std::string>{"candidate-0"});
}

TEST(LeaderElectorTest, TransitionsCountEveryChangeOfHolder) {
  ClusterOptions o;
  o.candidates = 2;
  Cluster cl(o);
  cl.start_all();
  cl.loop.run_until(Time{} + 10s);
  const int first = cl.intervals.at(0).candidate;
  cl.candidates[static_cast<std::size_t>(first)].process->crash();
  cl.loop.run_until(Time{} + 40s);
  cl.candidates[static_cast<std::size_t>(first)].process->restart();
  cl.candidates[static_cast<std::size_t>(1 - first)].process->crash();
  cl.loop.run_until(Time{} + 80s);
  ASSERT_EQ(cl.intervals.size(), 3u);
  EXPECT_EQ(lease_spec(cl)["holderIdentity"], "candidate-" + std::to_string(first));
  EXPECT_EQ(lease_spec(cl)["leaseTransitions"], 2);
}

sim::Task<bool> attempt(LeaderElector* e) {
  const bool ok = co_await e->try_acquire_or_renew(sim::Context());
  co_return ok;
}

TEST(LeaderElectorTest, HealthzFailsWhenTheLeaseIsHeldPastItsExpiryPlusTimeout) {
  ClusterOptions o;
  o.candidates = 1;
  Cluster cl(o);
  auto watchdog = std::make_shared<HealthzAdaptor>(5s);
  EXPECT_EQ(watchdog->name(), "leaderElection");
  EXPECT_EQ(watchdog->check(), std::nullopt);  // no elector yet
  {
    LeaderElectionConfig config = cl.config_for(0, 0);
    config.name = "ctl";
    LeaderElector elector(config, *cl.candidates[0].process);
    watchdog->set_leader_election(&elector);
    EXPECT_EQ(watchdog->check(), std::nullopt);  // not leading
    ASSERT_TRUE(cl.loop.run_until_complete(attempt(&elector)));
    const Time renewed = cl.loop.now();
    // A leader stuck without renewing: healthy up to lease_duration + timeout, then not.
    cl.loop.run_until(renewed + 20s);
    EXPECT_EQ(watchdog->check(), std::nullopt);
    cl.loop.run_until(renewed + 20s + 1ms);
    EXPECT_EQ(watchdog->check(), "failed election to renew leadership on lease ctl");
  }
  EXPECT_EQ(watchdog->check(), std::nullopt);  // the elector untied itself
}

}  // namespace
}  // namespace kubesim::election::testing
