// CRUD, list and patch paths over a real loopback socket, checked against what kube-apiserver
// answers: codes, Status bodies, JSON content types, list shapes, keep-alive.
#include "kubesim/fakeapi/http/http_server.h"

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using nlohmann::json;

json configmap(const std::string& name, json data = json::object()) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", data}};
}

TEST(HttpCrudTest, CreateGetUpdateDeleteOnOneKeptAliveConnection) {
  TestServer server;
  Client c(server.port());
  Response created = c.post(kCms, configmap("a", {{"k", "v"}}));
  ASSERT_EQ(created.code, 201) << created.body;
  EXPECT_EQ(created.header("content-type"), "application/json");
  const std::string rv = created.json()["metadata"]["resourceVersion"];

  Response got = c.get(std::string(kCms) + "/a");
  ASSERT_EQ(got.code, 200);
  EXPECT_EQ(got.json()["data"]["k"], "v");

  json updated = got.json();
  updated["data"]["k"] = "w";
  Response put = c.request("PUT", std::string(kCms) + "/a", updated.dump(), {{"content-type", "application/json"}});
  ASSERT_EQ(put.code, 200) << put.body;
  EXPECT_NE(put.json()["metadata"]["resourceVersion"], rv);

  // The stale resourceVersion of the first read is a 409 Conflict.
  Response stale = c.request("PUT", std::string(kCms) + "/a", got.body, {{"content-type", "application/json"}});
  EXPECT_EQ(stale.code, 409);
  EXPECT_EQ(stale.json()["reason"], "Conflict");
  EXPECT_EQ(stale.json()["kind"], "Status");

  Response dup = c.post(kCms, configmap("a"));
  EXPECT_EQ(dup.code, 409);
  EXPECT_EQ(dup.json()["reason"], "AlreadyExists");
  EXPECT_EQ(dup.json()["message"], "configmaps \"a\" already exists");

  // kubectl's DELETE carries a body; the connection stays usable after it.
  Response del = c.request("DELETE", std::string(kCms) + "/a", R"({"propagationPolicy":"Background"})",
                           {{"content-type", "application/json"}});
  EXPECT_EQ(del.code, 200) << del.body;
  Response gone = c.get(std::string(kCms) + "/a");
  EXPECT_EQ(gone.code, 404);
  EXPECT_EQ(gone.header("content-type"), "application/json");
  EXPECT_EQ(gone.json()["reason"], "NotFound");
  EXPECT_EQ(gone.json()["details"]["kind"], "configmaps");
  EXPECT_TRUE(c.open());
}

TEST(HttpCrudTest, UpdateWhoseBodyNamesAnotherObjectIsRefused) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.post(kCms, configmap("a")).code, 201);
  const auto before = server.revision();
  Response r = c.request("PUT", std::string(kCms) + "/a", configmap("b").dump(), {{"content-type", "application/json"}});
  EXPECT_EQ(r.code, 400);
  EXPECT_EQ(r.json()["message"], "the name of the object (b) does not match the name on the URL (a)");
  EXPECT_EQ(server.revision(), before);
}

TEST(HttpCrudTest, EmptyListHasItemsAndPagesFollowContinue) {
  TestServer server;
  Client c(server.port());
  Response empty = c.get(kCms);
  ASSERT_EQ(empty.code, 200);
  EXPECT_TRUE(empty.json()["items"].is_array());
  EXPECT_EQ(empty.json()["kind"], "ConfigMapList");
  for (int i = 0; i < 5; ++i) ASSERT_EQ(c.post(kCms, configmap("cm" + std::to_string(i))).code, 201);
  std::vector<std::string> names;
  std::string cont;
  int pages = 0;
  do {
    Response page = c.get(std::string(kCms) + "?limit=2" + (cont.empty() ? "" : "&continue=" + cont));
    ASSERT_EQ(page.code, 200) << page.body;
    const json body = page.json();
    for (const auto& item : body["items"]) names.push_back(item["metadata"]["name"]);
    cont = body["metadata"].value("continue", "");
    ++pages;
  } while (!cont.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"cm0", "cm1", "cm2", "cm3", "cm4"}));
}

TEST(HttpCrudTest, LabelSelectorIsFormDecodedAsPythonSendsIt) {
  TestServer server;
  Client c(server.port());
  json a = configmap("a");
  a["metadata"]["labels"] = {{"tier", "x"}};
  json b = configmap("b");
  b["metadata"]["labels"] = {{"tier", "y"}};
  ASSERT_EQ(c.post(kCms, a).code, 201);
  ASSERT_EQ(c.post(kCms, b).code, 201);
  Response r = c.get(std::string(kCms) + "?labelSelector=tier+in+%28x%2Cz%29&pretty=True");
  ASSERT_EQ(r.code, 200) << r.body;
  ASSERT_EQ(r.json()["items"].size(), 1u);
  EXPECT_EQ(r.json()["items"][0]["metadata"]["name"], "a");
  Response all_ns = c.get("/api/v1/configmaps?fieldSelector=metadata.name%3Db");
  ASSERT_EQ(all_ns.code, 200);
  EXPECT_EQ(all_ns.json()["items"].size(), 1u);
}

TEST(HttpCrudTest, PatchesOfEveryTypeAndTheStatusSubresource) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.post(kCms, configmap("a", {{"x", "1"}})).code, 201);
  const std::string path = std::string(kCms) + "/a";
  Response merge = c.request("PATCH", path, R"({"data":{"y":"2"}})", {{"content-type", "application/merge-patch+json"}});
  ASSERT_EQ(merge.code, 200) << merge.body;
  Response jsonp = c.request("PATCH", path, R"([{"op":"add","path":"/data/z","value":"3"}])",
                             {{"content-type", "application/json-patch+json"}});
  ASSERT_EQ(jsonp.code, 200) << jsonp.body;
  Response smp = c.request("PATCH", path, R"({"data":{"x":null}})",
                           {{"content-type", "application/strategic-merge-patch+json"}});
  ASSERT_EQ(smp.code, 200) << smp.body;
  EXPECT_EQ(smp.json()["data"], (json{{"y", "2"}, {"z", "3"}}));
  Response failed_test = c.request("PATCH", path, R"([{"op":"test","path":"/data/y","value":"9"}])",
                                   {{"content-type", "application/json-patch+json"}});
  EXPECT_EQ(failed_test.code, 422) << failed_test.body;
  // Server-side apply: YAML, a field manager required; CBOR refused.
  const std::string config = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {w: \"4\"}\n";
  Response unnamed = c.request("PATCH", path, config, {{"content-type", "application/apply-patch+yaml"}});
  EXPECT_EQ(unnamed.code, 422) << unnamed.body;
  Response apply = c.request("PATCH", path + "?fieldManager=t&force=true", config,
                             {{"content-type", "application/apply-patch+yaml"}});
  ASSERT_EQ(apply.code, 200) << apply.body;
  EXPECT_EQ(apply.json()["data"], (json{{"w", "4"}, {"y", "2"}, {"z", "3"}}));
  EXPECT_EQ(apply.json()["metadata"]["managedFields"][0]["manager"], "t");
  Response cbor = c.request("PATCH", path + "?fieldManager=t", config,
                            {{"content-type", "application/apply-patch+cbor"}});
  EXPECT_EQ(cbor.code, 415) << cbor.body;

  // A Deployment's /status takes status only.
  json deploy = json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},
    "spec":{"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},
    "spec":{"containers":[{"name":"c","image":"nginx"}]}}}})");
  ASSERT_EQ(c.post("/apis/apps/v1/namespaces/default/deployments", deploy).code, 201);
  Response status = c.request("PATCH", "/apis/apps/v1/namespaces/default/deployments/d/status",
                              R"({"status":{"replicas":3}})", {{"content-type", "application/merge-patch+json"}});
  ASSERT_EQ(status.code, 200) << status.body;
  EXPECT_EQ(status.json()["status"]["replicas"], 3);
  Response get_status = c.get("/apis/apps/v1/namespaces/default/deployments/d/status");
  EXPECT_EQ(get_status.code, 200);
  // Its /scale is an autoscaling/v1 Scale; a subresource it does not have is 404.
  Response scale = c.get("/apis/apps/v1/namespaces/default/deployments/d/scale");
  ASSERT_EQ(scale.code, 200) << scale.body;
  EXPECT_EQ(scale.json()["kind"], "Scale");
  EXPECT_EQ(scale.json()["status"]["replicas"], 3);
  EXPECT_EQ(c.get("/apis/apps/v1/namespaces/default/deployments/d/finalize").code, 404);
  EXPECT_EQ(c.get("/apis/apps/v1/namespaces/default/deployments/d/nothing").code, 404);
}

TEST(HttpCrudTest, YamlBodiesDryRunAndClusterScopedResources) {
  TestServer server;
  Client c(server.port());
  Response yaml = c.request("POST", "/api/v1/namespaces",
                            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n",
                            {{"content-type", "application/yaml"}});
  ASSERT_EQ(yaml.code, 201) << yaml.body;
  EXPECT_EQ(c.get("/api/v1/namespaces/team").json()["metadata"]["name"], "team");
  const auto before = server.revision();
  Response dry = c.post("/api/v1/namespaces/team/configmaps?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict",
                        configmap("d"));
  EXPECT_EQ(dry.code, 201) << dry.body;
  EXPECT_EQ(server.revision(), before);
  EXPECT_EQ(c.get("/api/v1/namespaces/team/configmaps/d").code, 404);
  // A cluster-scoped resource under a namespace is not a resource.
  EXPECT_EQ(c.get("/api/v1/namespaces/team/nodes").code, 404);
}

TEST(HttpCrudTest, FieldValidationStrictRefusesUnknownFieldsOthersDropThem) {
  TestServer server;
  Client c(server.port());
  json typo = configmap("t", {{"k", "v"}});
  typo["dta"] = {{"k", "w"}};
  // kubectl's default: the request fails as kube-apiserver's strict decoder fails it.
  Response strict = c.post(std::string(kCms) + "?fieldManager=kubectl-create&fieldValidation=Strict", typo);
  EXPECT_EQ(strict.code, 400) << strict.body;
  EXPECT_EQ(strict.json()["reason"], "BadRequest");
  EXPECT_EQ(strict.json()["message"],
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
            "unknown field \"dta\"");
  EXPECT_EQ(c.get(std::string(kCms) + "/t").code, 404);
  // Without it (Warn) or with Ignore the field is dropped and the rest is stored; Warn says so
  // in a Warning header, as kube-apiserver does.
  for (const char* query : {"", "?fieldValidation=Warn", "?fieldValidation=Ignore"}) {
    Response created = c.post(std::string(kCms) + query, typo);
    ASSERT_EQ(created.code, 201) << created.body;
    EXPECT_FALSE(created.json().contains("dta"));
    EXPECT_EQ(created.json()["data"]["k"], "v");
    EXPECT_EQ(created.header("warning"),
              std::string(query).find("Ignore") == std::string::npos ? R"(299 - "unknown field \"dta\"")" : "")
        << query;
    ASSERT_EQ(c.request("DELETE", std::string(kCms) + "/t").code, 200);
  }
}

TEST(HttpCrudTest, DeleteCollectionAndDeletePreconditions) {
  TestServer server;
  Client c(server.port());
  for (const char* n : {"a", "b", "c"}) ASSERT_EQ(c.post(kCms, configmap(n)).code, 201);
  Response pre = c.request("DELETE", std::string(kCms) + "/a",
                           R"({"preconditions":{"resourceVersion":"1"}})", {{"content-type", "application/json"}});
  EXPECT_EQ(pre.code, 409) << pre.body;
  Response all = c.request("DELETE", kCms);
  EXPECT_EQ(all.code, 200) << all.body;
  EXPECT_EQ(c.get(kCms).json()["items"].size(), 0u);
}

TEST(HttpCrudTest, CustomResourcesAreServedOnceTheirDefinitionIsCreated) {
  TestServer server;
  Client c(server.port());
  json crd = json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
    "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
    "versions":[{"name":"v1","served":true,"storage":true,
      "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}})");
  const std::string widgets = "/apis/example.com/v1/namespaces/default/widgets";
  EXPECT_EQ(c.get(widgets).code, 404);
  ASSERT_EQ(c.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).code, 201);
  json w = {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", {{"name", "w"}}}, {"spec", {{"n", 1}}}};
  ASSERT_EQ(c.post(widgets, w).code, 201);
  Response smp = c.request("PATCH", widgets + "/w", R"({"spec":{"n":2}})",
                           {{"content-type", "application/strategic-merge-patch+json"}});
  EXPECT_EQ(smp.code, 415);
  EXPECT_EQ(smp.json()["reason"], "UnsupportedMediaType");
  EXPECT_NE(c.get("/apis/example.com/v1").body.find("\"widgets\""), std::string::npos);
  ASSERT_EQ(c.request("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com").code, 200);
  EXPECT_EQ(c.get(widgets).code, 404);
  EXPECT_EQ(c.get("/apis/example.com/v1").code, 404);
}

TEST(HttpCrudTest, TheSameStoreServesInProcessAndHttpCallers) {
  TestServer server;
  server.on_loop([&] {
    auto created = server.api().create(api::kConfigMaps, "default",
                                       api::make_object(configmap("inproc")), api::CreateOptions());
    ASSERT_TRUE(created.ok());
  });
  Client c(server.port());
  EXPECT_EQ(c.get(std::string(kCms) + "/inproc").code, 200);
  ASSERT_EQ(c.post(kCms, configmap("wire")).code, 201);
  bool seen = false;
  server.on_loop([&] {
    seen = server.api().get(api::kConfigMaps, "default", "wire", api::GetOptions()).ok();
  });
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
