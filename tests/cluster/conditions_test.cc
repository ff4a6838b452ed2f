// cluster/conditions.h: each condition on a cluster's server state and leadership record, what
// it says when it holds (nothing) and when it does not (the facts, one a line).
#include "kubesim/cluster/conditions.h"

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/cluster/cluster.h"

namespace kubesim::cluster {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

const api::GroupVersionResource kUnserved{"example.com", "v1", "widgets"};

class ConditionsTest : public ::testing::Test {
 protected:
  // A ConfigMap default/NAME, labelled app=APP, with data.n = N.
  void config_map(const std::string& name, const std::string& app, json data = json::object(),
                  json owners = json::array()) {
    json o = {{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", app}}}}},
              {"data", std::move(data)}};
    if (!owners.empty()) o["metadata"]["ownerReferences"] = std::move(owners);
    ASSERT_TRUE(c.server().create(api::kConfigMaps, "default", api::make_object(o), api::CreateOptions()).ok());
  }

  Cluster c;
};

TEST_F(ConditionsTest, ExistsAndGone) {
  EXPECT_EQ(exists(c, api::kConfigMaps, "default", "a"), "configmaps default/a does not exist");
  EXPECT_EQ(gone(c, api::kConfigMaps, "default", "a"), std::nullopt);
  config_map("a", "x");
  EXPECT_EQ(exists(c, api::kConfigMaps, "default", "a"), std::nullopt);
  const Why still = gone(c, api::kConfigMaps, "default", "a");
  ASSERT_TRUE(still.has_value());
  EXPECT_EQ(still->rfind("configmaps default/a still exists (resourceVersion ", 0), 0u) << *still;
  // A resource the server does not serve is neither: the reason says so.
  const Why unserved = exists(c, kUnserved, "default", "w");
  ASSERT_TRUE(unserved.has_value());
  EXPECT_NE(unserved->find("widgets default/w: "), std::string::npos) << *unserved;
  EXPECT_NE(gone(c, kUnserved, "default", "w"), std::nullopt);
}

TEST_F(ConditionsTest, CountsWhatTheSelectorSelectsInKeyOrder) {
  config_map("b", "x");
  config_map("a", "x");
  config_map("c", "y");
  auto all = count(c, api::kConfigMaps, "default");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value().count, 3);
  EXPECT_EQ(all.value().keys, (std::vector<std::string>{"default/a", "default/b", "default/c"}));
  auto x = count(c, api::kConfigMaps, "default", "app=x");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x.value().count, 2);
  auto none = count(c, api::kConfigMaps, "kube-system");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none.value().count, 0);
  // Not served, or a selector that does not parse: the server's Status, never a count of 0.
  EXPECT_FALSE(count(c, kUnserved, "default").ok());
  EXPECT_EQ(count(c, api::kConfigMaps, "default", "app in (x").status().code, 400);
}

TEST_F(ConditionsTest, AllReadyComparesTwoPathsAndAbsentIsNotReady) {
  config_map("a", "x", {{"have", "2"}, {"want", "2"}});
  EXPECT_EQ(all_ready(c, api::kConfigMaps, "data.have", "data.want"), std::nullopt);
  config_map("b", "x", {{"want", "1"}});
  EXPECT_EQ(all_ready(c, api::kConfigMaps, "data.have", "data.want"),
            "1 of 2 configmaps not ready: default/b (data.have absent, data.want \"1\")");
}

TEST_F(ConditionsTest, OwnedCountAtMostCountsControlledObjectsPerOwner) {
  const json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                      {"kind", "Lease"},
                      {"metadata", {{"name", "owner"}, {"namespace", "default"}}},
                      {"spec", {{"holderIdentity", "x"}}}};
  auto owner = c.server().create(api::kLeases, "default", api::make_object(lease), api::CreateOptions());
  ASSERT_TRUE(owner.ok()) << owner.status().message;
  const json ref = json::array({{{"apiVersion", "coordination.k8s.io/v1"},
                                 {"kind", "Lease"},
                                 {"name", "owner"},
                                 {"uid", std::string(owner.value()->uid())},
                                 {"controller", true}}});
  config_map("d1", "x", json::object(), ref);
  config_map("d2", "x", json::object(), ref);
  config_map("free", "x");
  // No integer at the field: no limit to break.
  EXPECT_EQ(owned_count_at_most(c, api::kLeases, api::kConfigMaps, "spec.leaseDurationSeconds"), std::nullopt);
  EXPECT_EQ(owned_count_at_most(c, api::kLeases, api::kConfigMaps, "spec.holderIdentity"), std::nullopt);
  ASSERT_TRUE(c.server()
                  .update(api::kLeases, "default", owner.value()->with_value_at("spec.leaseDurationSeconds", 2),
                          api::UpdateOptions())
                  .ok());
  EXPECT_EQ(owned_count_at_most(c, api::kLeases, api::kConfigMaps, "spec.leaseDurationSeconds"), std::nullopt);
  auto now = c.server().get(api::kLeases, "default", "owner", api::GetOptions());
  ASSERT_TRUE(c.server()
                  .update(api::kLeases, "default", now.value()->with_value_at("spec.leaseDurationSeconds", 1),
                          api::UpdateOptions())
                  .ok());
  EXPECT_EQ(owned_count_at_most(c, api::kLeases, api::kConfigMaps, "spec.leaseDurationSeconds"),
            "leases default/owner controls 2 configmaps (default/d1, default/d2), spec.leaseDurationSeconds is 1");
}

TEST_F(ConditionsTest, AtMostOneLeaderNamesEveryLeaderWithItsClock) {
  Replica& a = c.add_replica("a", 1ms, 0ms);
  Replica& b = c.add_replica("b", 1ms, 0ms);
  const std::size_t lock = c.leadership().add_lock("leases/kube-system/m");
  EXPECT_EQ(at_most_one_leader(c, lock), std::nullopt);
  c.start_term(a, {lock});
  EXPECT_EQ(at_most_one_leader(c, lock), std::nullopt);
  c.loop().run_for(2s);
  c.start_term(b, {lock});
  const Why two = at_most_one_leader(c, lock);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->substr(0, two->find('\n')), "2 replicas believe they lead leases/kube-system/m at once:");
  EXPECT_NE(two->find("\na leads since 0s (true time); its clock reads wall "), std::string::npos) << *two;
  EXPECT_NE(two->find("\nb leads since 2s (true time)"), std::string::npos) << *two;
}

TEST(KeyListTest, NamesFiveThenCountsTheRest) {
  EXPECT_EQ(key_list({}), "");
  EXPECT_EQ(key_list({"a", "b"}), "a, b");
  EXPECT_EQ(key_list({"a", "b", "c", "d", "e", "f", "g"}), "a, b, c, d, e and 2 more");
}

}  // namespace
}  // namespace kubesim::cluster
