// The Widget controller's tests, as a controller author writes them with kubesim::testing: a fake
// cluster, two replicas under Lease election, faults, and assertions on virtual time. Each test
// runs over seeds 1–10, every seed twice (the traces must agree).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubesim/testing/testing.h"
#include "widget.h"

namespace {

using namespace kubesim::testing;
using widgets::kConfigMaps;
using widgets::kWidgets;

constexpr const char* kWidget =
    "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default}, spec: {replicas: 2}}";

Condition AllWidgetsReady() { return AllReady(kWidgets, "status.readyReplicas", "spec.replicas"); }

class WidgetTest : public SeededTest {};

TEST_P(WidgetTest, ConvergesThroughFaults) {
  SimCluster c(ClusterOptions().seed(seed()).crd_file("testdata/widgets.crd.yaml"));
  c.run_controller("widgets", widgets::setup, Replicas(2), LeaderElection("kube-system"));
  c.always("never over-creates", OwnedCountAtMost(kWidgets, kConfigMaps, "spec.replicas"));
  c.always("one leader", AtMostOneLeader());
  c.apply_yaml(kWidget);
  ASSERT_THAT(c, Eventually(AllWidgetsReady(), 2min));

  c.faults().on(Update(kWidgets).status()).fail(Conflict()).probability(0.5).times(6);
  c.faults().drop_watches(kConfigMaps).compact();
  ASSERT_THAT(c.remove(kConfigMaps, "default", "w1-0"), IsOk());
  ASSERT_NE(c.leader(), std::nullopt);
  c.crash(*c.leader(), /*restart_after=*/30s);
  // status.readyReplicas still says 2 until a reconcile sees the removal: wait for the object.
  ASSERT_THAT(c, Eventually(Exists(kConfigMaps, "default", "w1-0"), 5min));
  ASSERT_THAT(c, Eventually(AllWidgetsReady(), 1min));
  // Two creates at the start and one for the ConfigMap removed: never a duplicate.
  EXPECT_THAT(c.calls(), CallCount(Create(kConfigMaps).ok(), 3));
}

TEST_P(WidgetTest, OnlyTheLeaderWrites) {
  SimCluster c(ClusterOptions().seed(seed()).crd_file("testdata/widgets.crd.yaml"));
  c.run_controller("widgets", widgets::setup, Replicas(2), LeaderElection("kube-system"));
  c.apply_yaml(kWidget);
  ASSERT_THAT(c, Eventually(AllWidgetsReady(), 2min));
  ASSERT_NE(c.leader(), std::nullopt);
  const std::string leader = *c.leader();
  const std::string follower = leader == "widgets-0" ? "widgets-1" : "widgets-0";
  EXPECT_THAT(c.calls(), CallCount(Writes(kConfigMaps).by(follower), 0));
  EXPECT_THAT(c.calls(), CallCount(Writes(kWidgets).by(follower), 0));
  EXPECT_THAT(c.calls(), CallCount(Writes(kConfigMaps).by(leader), 2));
}

TEST_P(WidgetTest, OwnsWhatItMakesAndCleansUp) {
  SimCluster c(ClusterOptions().seed(seed()).crd_file("testdata/widgets.crd.yaml"));
  c.run_controller("widgets", widgets::setup);
  c.apply_yaml(kWidget);
  ASSERT_THAT(c, Eventually(AllWidgetsReady(), 1min));
  auto widget = c.get(kWidgets, "default", "w1");
  ASSERT_THAT(widget, IsOk());
  EXPECT_THAT(c.get(kConfigMaps, "default", "w1-1"),
              AllOf(IsControlledBy(*widget.value()), HasLabel(widgets::kWidgetLabel, "w1")));

  ASSERT_THAT(c.patch_yaml(kWidgets, "default", "w1", "{spec: {replicas: 1}}"), IsOk());
  ASSERT_THAT(c, Eventually(Gone(kConfigMaps, "default", "w1-1"), 1min));
  EXPECT_THAT(c, Eventually(AllWidgetsReady(), 1min));
  ASSERT_THAT(c.remove(kWidgets, "default", "w1"), IsOk());
  EXPECT_THAT(c, Eventually(Gone(kConfigMaps, "default", "w1-0"), 1min));
}

INSTANTIATE_TEST_SUITE_P(Seeds, WidgetTest, SeedRange(1, 10));

}  // namespace
