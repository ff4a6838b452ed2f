// ApiServer: namespace lifecycle (deletion removes content, content held by finalizers holds the
// namespace, system namespaces stay).
#include "kubesim/fakeapi/server.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;

class ServerNamespaceTest : public ServerTest {};

TEST_F(ServerNamespaceTest, ANewNamespaceIsActiveWithTheKubernetesFinalizer) {
  auto ns = must(server_.create(kNamespaces, "", namespace_object("team"), api::CreateOptions()));
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->json()["status"]["phase"], "Active");
  EXPECT_EQ(ns->json()["spec"]["finalizers"], nlohmann::json::array({"kubernetes"}));
  EXPECT_TRUE(ns->namespace_().empty());
  EXPECT_EQ(ns->key().str(), "team");
}

TEST_F(ServerNamespaceTest, DeletingANamespaceDeletesItsContent) {
  must(server_.create(kNamespaces, "", namespace_object("team"), api::CreateOptions()));    // 5
  must(server_.create(kNamespaces, "", namespace_object("keep"), api::CreateOptions()));    // 6
  must(server_.create(kConfigMaps, "team", config_map("team", "a"), api::CreateOptions()));  // 7
  must(server_.create(kSecrets, "team",
                      api::make_object({{"apiVersion", "v1"},
                                        {"kind", "Secret"},
                                        {"metadata", {{"name", "s"}, {"namespace", "team"}}}}),
                      api::CreateOptions()));                                                // 8
  must(server_.create(kConfigMaps, "keep", config_map("keep", "a"), api::CreateOptions()));  // 9
  auto cms = watch_from_now(kConfigMaps);
  auto namespaces = watch_from_now(kNamespaces);
  auto marked = must(server_.delete_(kNamespaces, "", "team", api::DeleteOptions()));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(marked->json()["status"]["phase"], "Terminating");
  settle(loop_);
  EXPECT_EQ(describe(cms->events()), (std::vector<std::string>{"DELETED team/a@11"}));
  EXPECT_EQ(describe(namespaces->events()), (std::vector<std::string>{"MODIFIED team@10", "DELETED team@13"}));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kNamespaces, "", "team", api::GetOptions()))));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kSecrets, "team", "s", api::GetOptions()))));
  EXPECT_TRUE(server_.get(kConfigMaps, "keep", "a", api::GetOptions()).ok());
  // The name is free again.
  EXPECT_TRUE(server_.create(kNamespaces, "", namespace_object("team"), api::CreateOptions()).ok());
}

TEST_F(ServerNamespaceTest, ANamespaceWaitsForContentHeldByFinalizers) {
  must(server_.create(kNamespaces, "", namespace_object("team"), api::CreateOptions()));
  must(server_.create(kConfigMaps, "team", config_map("team", "held")->with_finalizers({"example.com/hold"}),
                      api::CreateOptions()));
  must(server_.create(kConfigMaps, "team", config_map("team", "free"), api::CreateOptions()));
  must(server_.delete_(kNamespaces, "", "team", api::DeleteOptions()));
  auto ns = must(server_.get(kNamespaces, "", "team", api::GetOptions()));
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->json()["status"]["phase"], "Terminating");
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kConfigMaps, "team", "free", api::GetOptions()))));
  auto held = must(server_.get(kConfigMaps, "team", "held", api::GetOptions()));
  ASSERT_TRUE(held);
  EXPECT_TRUE(held->deletion_timestamp().has_value());
  // New content is refused while it terminates.
  EXPECT_TRUE(api::is_forbidden(
      status_of(server_.create(kConfigMaps, "team", config_map("team", "new"), api::CreateOptions()))));
  // Releasing the last finalizer lets the object go, and the namespace with it.
  must(server_.update(kConfigMaps, "team", held->with_finalizers({}), api::UpdateOptions()));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kConfigMaps, "team", "held", api::GetOptions()))));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kNamespaces, "", "team", api::GetOptions()))));
}

TEST_F(ServerNamespaceTest, SystemNamespacesCannotBeDeleted) {
  for (const std::string name : {"default", "kube-system", "kube-public"}) {
    auto r = server_.delete_(kNamespaces, "", name, api::DeleteOptions());
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_TRUE(api::is_forbidden(r.status())) << name;
  }
  EXPECT_EQ(server_.revision(), 4);
}

}  // namespace
}  // namespace kubesim::fakeapi
