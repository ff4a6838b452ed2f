// The effects FaultPlan's report shows under a SimCluster: a watch drop's relists and the
// tombstone of a delete missed during the gap, the lease a leader lost to an error rule on
// Leases, an error rule's requests retried (or not), a rule that fired without the effect it
// aimed at, and the report at the end of a failure's context.
#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {
namespace {

using namespace std::chrono_literals;
using api::kConfigMaps;
using api::kLeases;

nlohmann::json effects_config_map(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
}

sim::Task<ReconcileResult> reconcile_nothing(ReconcileContext, ReconcileRequest) { co_return ReconcileResult::done(); }

// A controller whose informer watches ConfigMaps, and does nothing else.
void watch_config_maps(Manager& mgr) { ControllerBuilder(mgr).for_(kConfigMaps).reconcile(reconcile_nothing); }

// Each ConfigMap "<name>" gets a copy "<name>-copy"; a failed create is retried with backoff.
sim::Task<ReconcileResult> reconcile_copy(ReconcileContext rc, ReconcileRequest req) {
  if (req.name.ends_with("-copy") || !rc.get(kConfigMaps, req.ns, req.name)) co_return ReconcileResult::done();
  if (rc.get(kConfigMaps, req.ns, req.name + "-copy")) co_return ReconcileResult::done();
  api::ObjectPtr copy = api::make_object(effects_config_map(req.name + "-copy"));
  auto made = co_await rc.client().create(rc.ctx(), kConfigMaps, req.ns, copy, api::CreateOptions());
  if (!made.ok() && !api::is_already_exists(made.status())) co_return ReconcileResult::fail(made.status());
  co_return ReconcileResult::done();
}

void copy_config_maps(Manager& mgr) { ControllerBuilder(mgr).for_(kConfigMaps).reconcile(reconcile_copy); }

// A get by a client of the test's own, named "tool", through the front door.
bool tool_get(SimCluster& c, const std::string& name) {
  fakeapi::InProcessClient client(c.server(), "tool");
  return c.loop().run_until_complete(client.get(sim::Context(), kConfigMaps, "default", name, api::GetOptions())).ok();
}

Condition effects_has_leader() {
  return Holds("some replica leads", [](const SimCluster& c) { return c.leader().has_value(); });
}

TEST(FaultEffectsTest, ADeleteMissedWhileTheWatchWasDownArrivesAsATombstoneAfterTheRelist) {
  SimCluster c(ClusterOptions().seed(3));
  c.apply(effects_config_map("a"));
  c.apply(effects_config_map("b"));
  c.run_controller("cms", watch_config_maps);
  c.run_for(5s);
  // Every watch started in the next 10 s is cut at once: the informer relists, and a delete
  // made meanwhile is found missing at a relist, never seen as an event.
  c.faults().drop_watches(kConfigMaps).during(0s, 10s);
  c.run_for(2s);
  ASSERT_TRUE(c.remove(kConfigMaps, "default", "a").ok());
  c.faults().compact_now();
  c.run_for(30s);
  EXPECT_EQ(c.faults().report(),
            "fault plan: 1 rule, 1 compaction\n"
            "  rule-1: drop watches of configmaps, 5.000s–15.000s — fired 7 times, ended 1 open watch\n"
            "    then 7 relists of configmaps: cms-0 (7)\n"
            "    then 1 tombstone of configmaps delivered: default/a to cms-0 at 7.869s\n"
            "  compaction at 7.000s (revision 7) — then 5 relists: cms-0 (5)\n");
}

TEST(FaultEffectsTest, ALeaderLosesItsLeaseToAnErrorRuleOnLeases) {
  SimCluster c(ClusterOptions().seed(1));
  c.run_controller("cms", watch_config_maps, Replicas(2), LeaderElection("kube-system"));
  ASSERT_THAT(c, Eventually(effects_has_leader(), 30s));
  const std::string first = *c.leader();
  c.faults().on(Update(kLeases).by(first)).fail(InternalError()).during(0s, 20s);
  c.run_for(40s);
  EXPECT_EQ(first, "cms-0");
  // The elector's updates fail until it gives the lease up; the other replica takes the Lease
  // once it has expired.
  EXPECT_EQ(c.faults().report(),
            "fault plan: 1 rule\n"
            "  rule-1: update leases by cms-0: 500 InternalError, 0.008s–20.008s — fired 17 times\n"
            "    failed 17 requests: cms-0 (17)\n"
            "    not retried: none was made again by its process and answered ok: 0.012s cms-0 update "
            "leases.coordination.k8s.io kube-system/cms → 500 InternalError (fault rule-1), 0.025s cms-0 update "
            "leases.coordination.k8s.io kube-system/cms → 500 InternalError (fault rule-1), 2.011s cms-0 update "
            "leases.coordination.k8s.io kube-system/cms → 500 InternalError (fault rule-1), and 14 more\n"
            "    then cms-0 lost kube-system/cms at 10.008s, cms-1 took kube-system/cms at 21.538s\n");
}

TEST(FaultEffectsTest, AnErrorRuleWhoseCallsTheControllerRetried) {
  SimCluster c(ClusterOptions().seed(1));
  c.run_controller("copier", copy_config_maps);
  c.faults().on(Create(kConfigMaps)).fail(Conflict()).times(2);
  c.apply(effects_config_map("a"));
  ASSERT_THAT(c, Eventually(Exists(kConfigMaps, "default", "a-copy"), 1min));
  EXPECT_EQ(c.faults().report(),
            "fault plan: 1 rule\n"
            "  rule-1: create configmaps: 409 Conflict, ≤2 times — fired 2 times\n"
            "    failed 2 requests: copier-0 (2)\n"
            "    retried: all made again by their process and answered ok\n");
}

TEST(FaultEffectsTest, RulesThatFiredWithoutTheirEffectSaySo) {
  SimCluster c(ClusterOptions().seed(1));
  c.apply(effects_config_map("a"));
  c.run_controller("cms", watch_config_maps, Replicas(2), LeaderElection("kube-system"));
  ASSERT_THAT(c, Eventually(effects_has_leader(), 30s));
  c.run_for(5s);
  // Cut after one event: the informers resume from where they were, nothing is relisted.
  c.faults().drop_watches(kConfigMaps).after_events(1);
  // A short delay on Leases: renewals are late, never too late to keep the lease.
  c.faults().on(AnyCall(kLeases)).delay(100ms).times(3).id("slow");
  c.apply(effects_config_map("b"));
  c.run_for(30s);
  EXPECT_EQ(c.faults().report(),
            "fault plan: 2 rules\n"
            "  rule-1: drop watches of configmaps after 1 events, ≤1 time — fired 1 time, ended 2 open watches\n"
            "    no relist of configmaps followed: the clients resumed 3 watches from where they were\n"
            "    no deletion of configmaps reached an informer as a tombstone\n"
            "  slow: any call on leases: +100ms delay, ≤3 times — fired 3 times\n"
            "    no leader lost a lease after it\n");
}

TEST(FaultEffectsTest, SomeFailedCallsRetriedAndSomeNotOrNotRecorded) {
  SimCluster c(ClusterOptions().seed(1));
  c.apply(effects_config_map("a"));
  c.apply(effects_config_map("b"));
  c.faults().on(Get(kConfigMaps).named("a")).fail(ServiceUnavailable()).times(1).id("a");
  c.faults().on(Get(kConfigMaps).named("b")).fail(ServiceUnavailable()).times(2).id("b");
  c.faults().on(Get(kConfigMaps).named("c")).fail(NotFoundError()).id("unrecorded");
  EXPECT_FALSE(tool_get(c, "a"));
  EXPECT_FALSE(tool_get(c, "b"));
  EXPECT_FALSE(tool_get(c, "b"));
  EXPECT_TRUE(tool_get(c, "a"));
  c.server().recorder().stop();
  EXPECT_FALSE(tool_get(c, "c"));
  c.server().recorder().start();
  EXPECT_EQ(c.faults().report(),
            "fault plan: 3 rules\n"
            "  a: get configmaps named a: 503 ServiceUnavailable, ≤1 time — fired 1 time\n"
            "    failed 1 request: tool (1)\n"
            "    retried: made again by its process and answered ok\n"
            "  b: get configmaps named b: 503 ServiceUnavailable, ≤2 times — fired 2 times\n"
            "    failed 2 requests: tool (2)\n"
            "    not retried: none was made again by its process and answered ok: 0.000s tool get configmaps "
            "default/b → 503 ServiceUnavailable (fault b), 0.000s tool get configmaps default/b → 503 "
            "ServiceUnavailable (fault b)\n"
            "  unrecorded: get configmaps named c: 404 NotFound — fired 1 time\n"
            "    none of its failed requests is in the call log\n");
  EXPECT_TRUE(tool_get(c, "b"));
  EXPECT_THAT(c.faults().report(),
              ::testing::HasSubstr("    retried: all made again by their process and answered ok\n"));
}

TEST(FaultEffectsTest, AnyRuleShowsTheLeadershipLostAfterIt) {
  SimCluster c(ClusterOptions().seed(1));
  c.apply(effects_config_map("a"));
  c.run_controller("cms", watch_config_maps, Replicas(2), LeaderElection("kube-system"));
  ASSERT_THAT(c, Eventually(effects_has_leader(), 30s));
  c.faults().on(Get(kConfigMaps).by("tool")).fail(InternalError()).times(1);
  c.faults().on(Get(kConfigMaps).by("nobody")).fail(InternalError());
  EXPECT_FALSE(tool_get(c, "a"));
  c.run_for(1s);
  c.crash(*c.leader());
  ASSERT_THAT(c, Eventually(effects_has_leader(), 1min));
  // The crash, not the rule, cost cms-1 its lease: the report says what followed, not why.
  EXPECT_EQ(c.faults().report(),
            "fault plan: 2 rules\n"
            "  rule-1: get configmaps by tool: 500 InternalError, ≤1 time — fired 1 time\n"
            "    failed 1 request: tool (1)\n"
            "    not retried: none was made again by its process and answered ok: 0.011s tool get configmaps "
            "default/a → 500 InternalError (fault rule-1)\n"
            "    leadership changed after it: cms-1 lost kube-system/cms at 1.011s, cms-0 took kube-system/cms at "
            "20.801s\n"
            "  rule-2: get configmaps by nobody: 500 InternalError — never fired: its fault did not happen\n");
}

TEST(FaultEffectsTest, AStalledWatchIsNoticedWhenItsClientWatchesAgain) {
  SimCluster c(ClusterOptions().seed(1));
  c.apply(effects_config_map("a"));
  c.faults().stall_watches(kConfigMaps);
  fakeapi::InProcessClient client(c.server(), "tool");
  api::ListOptions options;
  options.resource_version = std::to_string(c.server().revision());
  auto stalled = c.loop().run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", options));
  ASSERT_TRUE(stalled.ok());
  c.run_for(1s);
  const std::string fired =
      "fault plan: 1 rule\n"
      "  rule-1: stall watches of configmaps, ≤1 time — fired 1 time\n";
  EXPECT_EQ(c.faults().report(), fired + "    no client watched configmaps again: the stall went unnoticed\n"
                                         "    no deletion of configmaps reached an informer as a tombstone\n");
  stalled.value()->stop();
  auto again = c.loop().run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", options));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(c.faults().report(), fired + "    then the clients watched configmaps again: 1 watch resumed from where "
                                         "they were\n"
                                         "    no deletion of configmaps reached an informer as a tombstone\n");
  again.value()->stop();
  c.run_for(1s);
}

TEST(FaultEffectsTest, AFailuresContextEndsWithTheReport) {
  SimCluster c(ClusterOptions().seed(1).failure_tail(0));
  EXPECT_EQ(c.failure_context(), "seed 1, t=0.000s\nlast 0 trace events:\nlast 0 calls:");
  c.faults().stall_watches(kConfigMaps);
  EXPECT_EQ(c.failure_context(),
            "seed 1, t=0.000s\nlast 0 trace events:\nlast 0 calls:\n"
            "fault plan: 1 rule\n"
            "  rule-1: stall watches of configmaps, ≤1 time — never fired: its fault did not happen");
}

}  // namespace
}  // namespace kubesim::testing

namespace kubesim::testing {
namespace {

// What the components saw is bounded: past 10,000 notes of a kind the oldest go, and the report
// says how many.
TEST(FaultEffectsTest, TheNotesOfComponentsAreBounded) {
  SimCluster c;
  for (int i = 0; i < 10'002; ++i) c.faults().note_tombstone("p", "configmaps", "default/" + std::to_string(i));
  EXPECT_EQ(c.faults().report(),
            "fault plan: 0 rules\n"
            "  (the 2 oldest tombstones and leadership changes were not kept: the report counts the latest "
            "10000 of each)\n");
}

}  // namespace
}  // namespace kubesim::testing
