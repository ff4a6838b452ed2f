// Leadership as the runner records it: in true virtual time, from on_started_leading until the
// leading context is done; atMostOneLeader, leaderElected and maxLeaderTransitions read it.
#include "kubesim/runner/runner.h"

#include <gtest/gtest.h>

#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

// node-1 is down for the first 3 s, so node-0 leads from the start; node-0 is then paused.
std::string paused_leader(const std::string& pause) {
  return R"(
name: paused-leader
duration: 3m
network: {latency: {min: 1ms, max: 5ms}}
processes:
  - name: node
    replicas: 2
    run:
      - elector: {lock: leases/kube-system/paused, leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s}
timeline:
  - {at: 0s, crash: {process: node-1, restartAfter: 3s}}
  - {at: 1m, pause: {process: node-0, for: )" + pause + R"(}}
expect:
  always:
    - atMostOneLeader: leases/kube-system/paused
)";
}

const TimelineSpan* leader_span(const Timeline& t, const std::string& who, std::size_t nth = 0) {
  for (const auto& s : t.spans) {
    if (s.kind == "leader" && s.label == who && nth-- == 0) return &s;
  }
  return nullptr;
}

TEST(LeadershipTest, ALeaderPausedLongerThanItsLeaseBreaksAtMostOneLeader) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Outcome r = run(parse(paused_leader("40s")), seed, true);
    ASSERT_TRUE(r.result.error.empty()) << r.result.error;
    ASSERT_EQ(r.result.failures.size(), 1u) << failures_of(r.result);
    const Failure& f = r.result.failures[0];
    EXPECT_EQ(f.condition, "atMostOneLeader");
    EXPECT_EQ(f.check, "{atMostOneLeader: leases/kube-system/paused}");
    // It broke the instant node-1 started leading, while node-0 (frozen) still believed it led.
    const TimelineSpan* first = leader_span(*r.result.timeline, "node-0");
    const TimelineSpan* second = leader_span(*r.result.timeline, "node-1");
    ASSERT_NE(first, nullptr);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(f.at, second->from);
    EXPECT_GT(f.at, at(75s));  // the lease ran out on node-1's clock first
    EXPECT_LT(f.at, at(100s));
    EXPECT_LT(first->from, at(1s));
    EXPECT_GE(first->to, at(100s));  // the pause ended at 100 s; it found out only then
    EXPECT_NE(f.detail.find("2 replicas believe they lead leases/kube-system/paused at once"), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find("\nnode-0 leads since "), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find("\nnode-1 leads since "), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find("its clock reads wall 2025-01-01T00:01:"), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find(", monotonic "), std::string::npos) << f.detail;
    // The failure is marked on the lock's lane and traced.
    ASSERT_EQ(lines_of(r.trace, "check.break").size(), 1u);
    bool marked = false;
    for (const auto& m : r.result.timeline->marks) marked |= m.kind == "failure" && m.lane == "lock leases/kube-system/paused" && m.at == f.at;
    EXPECT_TRUE(marked);
  }
}

TEST(LeadershipTest, AShortPauseKeepsOneLeader) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Outcome r = run(parse(paused_leader("5s")), seed, true);
    EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
    EXPECT_EQ(leader_span(*r.result.timeline, "node-1"), nullptr);
  }
}

constexpr const char* kPartitionedLeader = R"(
name: partitioned-leader
duration: 3m
network: {latency: {min: 1ms, max: 5ms}}
processes:
  - name: node
    replicas: 3
    run:
      - elector: {lock: leases/kube-system/part, leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s}
timeline:
  - {at: 0s, crash: {process: node-1, restartAfter: 3s}}
  - {at: 0s, crash: {process: node-2, restartAfter: 3s}}
  - {at: 30s, partition: {process: node-0, for: 1m}}
expect:
  always:
    - atMostOneLeader: leases/kube-system/part
  eventually:
    - {after: 0s, within: 5s, leaderElected: leases/kube-system/part}
    - {after: 50s, within: 30s, leaderElected: leases/kube-system/part}
  consistently:
    - {after: 1m30s, for: 1m, leaderElected: leases/kube-system/part}
  finally:
    - {maxLeaderTransitions: {lock: leases/kube-system/part, atMost: 1}}
    - {maxLeaderTransitions: {lock: leases/kube-system/part, atMost: 0}}
)";

TEST(LeadershipTest, APartitionedLeaderIsReplacedAndTheTransitionCounted) {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    const Outcome r = run(parse(kPartitionedLeader), seed, true);
    ASSERT_TRUE(r.result.error.empty()) << r.result.error;
    // Only the atMost: 0 check breaks: one transition, node-0 to whoever took over.
    ASSERT_EQ(r.result.failures.size(), 1u) << failures_of(r.result);
    const Failure& f = r.result.failures[0];
    EXPECT_EQ(f.condition, "maxLeaderTransitions");
    EXPECT_EQ(f.at, at(3min));
    EXPECT_NE(f.detail.find("1 leader transitions on leases/kube-system/part, at most 0 allowed:\nnode-0 -> node-"),
              std::string::npos)
        << f.detail;
    // node-0 led from the start until its renewals failed behind the partition, then exited and
    // came back as a fresh incarnation.
    const TimelineSpan* first = leader_span(*r.result.timeline, "node-0");
    ASSERT_NE(first, nullptr);
    EXPECT_GT(first->to, at(38s));
    EXPECT_LT(first->to, at(45s));
    ASSERT_EQ(lines_of(r.trace, "replica.exit").size(), 1u);
    EXPECT_NE(lines_of(r.trace, "replica.exit")[0].find("\"p\":\"node-0\""), std::string::npos);
    EXPECT_EQ(lines_of(r.trace, "check.held").size(), 2u);
  }
}

TEST(LeadershipTest, LeaderElectedFailsWhileNobodyLeads) {
  const scenarios::Scenario s = parse(R"(
name: nobody
duration: 1m
processes:
  - name: node
    replicas: 2
    run:
      - elector: {lock: configmaps/kube-system/cm}
timeline:
  - {at: 10s, crash: {process: node-0}}
  - {at: 10s, crash: {process: node-1}}
expect:
  eventually:
    - {after: 20s, within: 10s, leaderElected: configmaps/kube-system/cm}
  consistently:
    - {after: 5s, for: 20s, leaderElected: configmaps/kube-system/cm}
)");
  const Outcome r = run(s);
  ASSERT_EQ(r.result.failures.size(), 2u) << failures_of(r.result);
  // consistently broke the instant the processes crashed; eventually at its window's end.
  EXPECT_EQ(r.result.failures[0].check, "{after: 5s, for: 20s, leaderElected: configmaps/kube-system/cm}");
  EXPECT_EQ(r.result.failures[0].at, at(10s));
  EXPECT_EQ(r.result.failures[1].at, at(30s));
  EXPECT_NE(r.result.failures[1].detail.find("did not hold at any instant of [20s, 30s]; at the end:\n"
                                             "no live replica believes it leads configmaps/kube-system/cm; "
                                             "the record names \"node-"),
            std::string::npos)
      << r.result.failures[1].detail;
}

}  // namespace
}  // namespace kubesim::runner::testing
