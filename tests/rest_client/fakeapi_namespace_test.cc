// Namespaces over both transports, with the expectations of the core suites
// (tests/fakeapi/server_namespace_test.cc, server_crd_delete_test.cc): the initial namespaces,
// deletion removing the content (custom objects included), content held by finalizers holding
// the namespace, and the system namespaces that stay.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class NamespaceTest : public BothTransportsTest {
 protected:
  Result<ObjectPtr> delete_namespace(const std::string& name) {
    return run(c().delete_(ctx(), kNamespaces, "", name, DeleteOptions()));
  }
  WatchPtr watch_from_now(const GroupVersionResource& gvr) {
    ListOptions o;
    o.resource_version = revision();
    return watch(gvr, "", o);
  }
};

TEST_P(NamespaceTest, TheInitialNamespacesAreActiveWithTheKubernetesFinalizer) {
  auto list = run(c().list(ctx(), kNamespaces, "", ListOptions()));
  ASSERT_TRUE(list.ok()) << list.status();
  std::vector<std::string> names;
  for (const auto& ns : list->items) names.emplace_back(ns->name());
  EXPECT_EQ(names, (std::vector<std::string>{"default", "kube-node-lease", "kube-public", "kube-system"}));
  EXPECT_EQ(list->resource_version, "4");
  EXPECT_EQ(list->items[0]->json()["status"]["phase"], "Active");
  auto team = create_namespace("team");
  ASSERT_TRUE(team);
  EXPECT_EQ(team->json()["status"]["phase"], "Active");
  EXPECT_EQ(team->json()["spec"]["finalizers"], nlohmann::json::array({"kubernetes"}));
  EXPECT_TRUE(team->namespace_().empty());
  EXPECT_EQ(team->key().str(), "team");
}

TEST_P(NamespaceTest, DeletingANamespaceDeletesItsContent) {
  ASSERT_TRUE(create_namespace("team"));  // 5
  ASSERT_TRUE(create_namespace("keep"));  // 6
  create_cm("a", "v", nlohmann::json::object(), "team");  // 7
  ASSERT_TRUE(create(kSecrets, make_object({{"apiVersion", "v1"},
                                            {"kind", "Secret"},
                                            {"metadata", {{"name", "s"}, {"namespace", "team"}}}})));  // 8
  create_cm("a", "v", nlohmann::json::object(), "keep");  // 9
  auto cms = watch_from_now(kConfigMaps);
  auto namespaces = watch_from_now(kNamespaces);
  ASSERT_TRUE(cms && namespaces);
  auto marked = must(delete_namespace("team"));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(marked->json()["status"]["phase"], "Terminating");
  EXPECT_EQ(describe(take(*namespaces, 2)), (std::vector<std::string>{"MODIFIED team@10", "DELETED team@13"}));
  EXPECT_EQ(describe(take(*cms, 1)), (std::vector<std::string>{"DELETED team/a@11"}));
  EXPECT_TRUE(is_not_found(status_of(get(kNamespaces, "", "team"))));
  EXPECT_TRUE(is_not_found(status_of(get(kSecrets, "team", "s"))));
  EXPECT_TRUE(get(kConfigMaps, "keep", "a").ok());
  EXPECT_TRUE(create_namespace("team"));  // the name is free again
}

TEST_P(NamespaceTest, ANamespaceWaitsForContentHeldByFinalizers) {
  ASSERT_TRUE(create_namespace("team"));
  auto held = create(kConfigMaps, cm("held", "v", nlohmann::json::object(), "team")->with_finalizers({"example.com/hold"}));
  ASSERT_TRUE(held);
  create_cm("free", "v", nlohmann::json::object(), "team");
  auto namespaces = watch_from_now(kNamespaces);
  ASSERT_TRUE(namespaces);
  ASSERT_TRUE(must(delete_namespace("team")));
  auto ns = must(get(kNamespaces, "", "team"));
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->json()["status"]["phase"], "Terminating");
  EXPECT_TRUE(is_not_found(status_of(get(kConfigMaps, "team", "free"))));
  auto marked = must(get(kConfigMaps, "team", "held"));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  auto refused = run(c().create(ctx(), kConfigMaps, "team", cm("new", "v", nlohmann::json::object(), "team"),
                                CreateOptions()));
  EXPECT_TRUE(is_forbidden(status_of(refused))) << status_of(refused);
  // Releasing the last finalizer lets the object go, and the namespace with it.
  ASSERT_TRUE(update(kConfigMaps, marked->with_finalizers({})).ok());
  EXPECT_TRUE(is_not_found(status_of(get(kConfigMaps, "team", "held"))));
  auto events = describe(take(*namespaces, 2));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].substr(0, events[1].find('@')), "DELETED team");
  EXPECT_TRUE(is_not_found(status_of(get(kNamespaces, "", "team"))));
}

TEST_P(NamespaceTest, DeletingANamespaceDeletesItsCustomObjectsButNotTheCrd) {
  auto crd = create(kCrds, widget_crd());
  ASSERT_TRUE(crd);
  ASSERT_TRUE(create_namespace("team"));
  ASSERT_TRUE(create(kWidgets, widget("team", "w", 1)));
  auto namespaces = watch_from_now(kNamespaces);
  ASSERT_TRUE(namespaces);
  ASSERT_TRUE(must(delete_namespace("team")));
  auto events = describe(take(*namespaces, 2));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].substr(0, events[1].find('@')), "DELETED team");
  EXPECT_TRUE(is_not_found(status_of(get(kWidgets, "team", "w"))));
  EXPECT_TRUE(get(kCrds, "", "widgets.example.com").ok());
}

TEST_P(NamespaceTest, SystemNamespacesCannotBeDeleted) {
  for (const std::string name : {"default", "kube-system", "kube-public"}) {
    auto r = delete_namespace(name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_TRUE(is_forbidden(r.status())) << name << ": " << r.status();
  }
  EXPECT_EQ(api_->revision(), 4);
}

INSTANTIATE_TEST_SUITE_P(Transports, NamespaceTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
