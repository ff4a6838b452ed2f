// Subresources over a real loopback socket: discovery names each with the kind it takes, a
// named POST creates a subresource's object (an eviction), verbs a resource lacks are 405 and
// the subresources that need a kubelet 501.
#include "kubesim/fakeapi/http/http_server.h"

#include <gtest/gtest.h>

#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using nlohmann::json;

const json* find_resource(const json& list, const std::string& name) {
  for (const auto& r : list["resources"]) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

TEST(HttpSubresourcesTest, DiscoveryListsEachSubresourceWithItsKind) {
  TestServer server;
  Client c(server.port());
  const json core = c.get("/api/v1").json();
  const json* eviction = find_resource(core, "pods/eviction");
  ASSERT_NE(eviction, nullptr);
  EXPECT_EQ((*eviction)["kind"], "Eviction");
  EXPECT_EQ((*eviction)["group"], "policy");
  EXPECT_EQ((*eviction)["version"], "v1");
  EXPECT_EQ((*eviction)["verbs"], json::array({"create"}));
  const json* binding = find_resource(core, "pods/binding");
  ASSERT_NE(binding, nullptr);
  EXPECT_FALSE(binding->contains("group"));  // v1 Binding: the parent's group version
  const json* namespaces = find_resource(core, "namespaces");
  ASSERT_NE(namespaces, nullptr);
  EXPECT_EQ((*namespaces)["verbs"],
            json::array({"create", "delete", "get", "list", "patch", "update", "watch"}));
  const json apps = c.get("/apis/apps/v1").json();
  const json* scale = find_resource(apps, "deployments/scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ((*scale)["group"], "autoscaling");
  const json rbac = c.get("/apis/rbac.authorization.k8s.io/v1").json();
  EXPECT_NE(find_resource(rbac, "clusterroles"), nullptr);
}

TEST(HttpSubresourcesTest, AnEvictionIsANamedPost) {
  TestServer server;
  Client c(server.port());
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}}},
              {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "nginx"}}})}}}};
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod).code, 201);
  json eviction = {{"apiVersion", "policy/v1"}, {"kind", "Eviction"}, {"metadata", {{"name", "p"}}}};
  Response r = c.post("/api/v1/namespaces/default/pods/p/eviction", eviction);
  ASSERT_EQ(r.code, 201) << r.body;
  EXPECT_EQ(r.json()["kind"], "Status");
  EXPECT_EQ(r.json()["status"], "Success");
  EXPECT_EQ(c.get("/api/v1/namespaces/default/pods/p").code, 404);
  // A named POST without a subresource is still no create.
  EXPECT_EQ(c.post("/api/v1/namespaces/default/pods/p", pod).code, 405);
}

TEST(HttpSubresourcesTest, VerbsAResourceLacksAndNodeOnlySubresources) {
  TestServer server;
  Client c(server.port());
  Response list = c.get("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
  EXPECT_EQ(list.code, 405) << list.body;
  EXPECT_EQ(list.json()["reason"], "MethodNotAllowed");
  json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}}},
              {"spec", {{"containers", json::array({{{"name", "c"}, {"image", "nginx"}}})}}}};
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod).code, 201);
  Response log = c.get("/api/v1/namespaces/default/pods/p/log");
  EXPECT_EQ(log.code, 501) << log.body;
  Response proxy = c.get("/api/v1/namespaces/default/pods/p/proxy/some/path");
  EXPECT_EQ(proxy.code, 501) << proxy.body;
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
