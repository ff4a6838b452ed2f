// The planted bug, found: widgets_stale acts on a cache that has not yet seen its own creates.
// Its convergence looks fine — the surplus is deleted again — so only an invariant checked after
// every write sees a Widget owning more ConfigMaps than it asked for. The test asserts that some
// seed of the range finds it, and prints the first such seed's failure context.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubesim/testing/testing.h"
#include "widget.h"

namespace {

using namespace kubesim::testing;
using widgets::kConfigMaps;
using widgets::kWidgets;

// One seed: true when the invariant broke at some write.
bool over_creates(std::uint64_t seed, std::string* context) {
  SimCluster c(ClusterOptions().seed(seed).crd_file("testdata/widgets.crd.yaml").latency(1ms, 20ms));
  c.run_controller("widgets", widgets_stale::setup, Replicas(2), LeaderElection("kube-system"));
  c.record_always("never over-creates", OwnedCountAtMost(kWidgets, kConfigMaps, "spec.replicas"));
  c.apply_yaml(
      "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: default}, spec: {replicas: 3}}");
  c.run_for(30s);
  if (const auto leader = c.leader()) c.crash(*leader, 10s);
  c.run_for(1min);
  if (c.violations().empty()) return false;
  *context = c.violations().front().why + "\n" + c.violations().front().context;
  return true;
}

TEST(WidgetStaleTest, SomeSeedFindsTheOverCreate) {
  int found = 0;
  std::string first;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::string context;
    if (over_creates(seed, &context) && found++ == 0) first = "seed " + std::to_string(seed) + ": " + context;
  }
  EXPECT_GT(found, 0) << "no seed of 1..20 caught widgets_stale over-creating";
  std::cout << found << " of 20 seeds caught it; the first:\n" << first << "\n";
}

}  // namespace
