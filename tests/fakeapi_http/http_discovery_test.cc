// Discovery, /version, OpenAPI, health, /metrics and the admin endpoints as clients read them.
#include "kubesim/fakeapi/http/http_server.h"

#include <gtest/gtest.h>

#include "tests/fakeapi_http/test_client.h"

namespace kubesim::fakeapi::http::testing {
namespace {

using nlohmann::json;

TEST(HttpDiscoveryTest, LegacyDiscoveryServedAsPlainJsonWhateverIsOffered) {
  TestServer server;
  Client c(server.port());
  const std::string aggregated =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
  Response api = c.request("GET", "/api?timeout=32s", "", {{"accept", aggregated}});
  ASSERT_EQ(api.code, 200);
  EXPECT_EQ(api.header("content-type"), "application/json");
  EXPECT_EQ(api.json()["versions"], json::array({"v1"}));
  EXPECT_TRUE(api.json()["serverAddressByClientCIDRs"].is_array());

  json core = c.get("/api/v1").json();
  EXPECT_EQ(core["groupVersion"], "v1");
  bool cm = false;
  bool pod_status = false;
  for (const auto& r : core["resources"]) {
    if (r["name"] == "configmaps") {
      cm = true;
      EXPECT_EQ(r["shortNames"], json::array({"cm"}));
      EXPECT_EQ(r["singularName"], "configmap");
      EXPECT_EQ(r["namespaced"], true);
    }
    if (r["name"] == "pods/status") pod_status = true;
  }
  EXPECT_TRUE(cm);
  EXPECT_TRUE(pod_status);

  json groups = c.get("/apis").json();
  EXPECT_EQ(groups["kind"], "APIGroupList");
  bool apps = false;
  for (const auto& g : groups["groups"]) {
    if (g["name"] == "apps") {
      apps = true;
      EXPECT_EQ(g["preferredVersion"]["groupVersion"], "apps/v1");
    }
  }
  EXPECT_TRUE(apps);
  EXPECT_EQ(c.get("/apis/apps").json()["kind"], "APIGroup");
  EXPECT_EQ(c.get("/apis/apps/v1").json()["groupVersion"], "apps/v1");
  EXPECT_EQ(c.get("/api/v2").code, 404);
}

TEST(HttpDiscoveryTest, VersionIsConfigurable) {
  HttpServerOptions o = plain_options();
  o.git_version = "v1.29.7-kubesim";
  TestServer server(o);
  Client c(server.port());
  json v = c.get("/version?timeout=5s").json();
  EXPECT_EQ(v["gitVersion"], "v1.29.7-kubesim");
  EXPECT_EQ(v["major"], "1");
  EXPECT_EQ(v["minor"], "29");
}

TEST(HttpDiscoveryTest, OpenApiJustEnoughForKubectlValidation) {
  TestServer server;
  Client c(server.port());
  Response v2 = c.request("GET", "/openapi/v2", "",
                          {{"accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"}});
  EXPECT_EQ(v2.code, 200);
  EXPECT_TRUE(v2.body.empty());
  EXPECT_EQ(v2.header("content-type").find('@'), std::string::npos);
  json root = c.get("/openapi/v3").json();
  ASSERT_TRUE(root["paths"].contains("api/v1"));
  const std::string url = root["paths"]["api/v1"]["serverRelativeURL"];
  json doc = c.get(url).json();
  const json& op = doc["paths"]["/api/v1/namespaces/{namespace}/configmaps/{name}"]["patch"];
  EXPECT_EQ(op["x-kubernetes-group-version-kind"]["kind"], "ConfigMap");
  EXPECT_EQ(op["parameters"][0]["name"], "fieldValidation");
  EXPECT_FALSE(op["requestBody"]["content"].contains("application/strategic-merge-patch+json"));
}

TEST(HttpDiscoveryTest, HealthMetricsAndAdmin) {
  TestServer server;
  Client c(server.port());
  for (const char* p : {"/healthz", "/livez", "/readyz", "/readyz/ping"}) {
    Response r = c.get(p);
    EXPECT_EQ(r.code, 200) << p;
    EXPECT_EQ(r.body, "ok");
  }
  ASSERT_EQ(c.get("/api/v1/namespaces/default/configmaps").code, 200);
  Response metrics = c.get("/metrics");
  ASSERT_EQ(metrics.code, 200);
  EXPECT_NE(metrics.body.find("apiserver_request_total{code=\"200\",resource=\"configmaps\",verb=\"LIST\"} 1"),
            std::string::npos) << metrics.body;
  EXPECT_NE(metrics.body.find("apiserver_request_duration_seconds_bucket{verb=\"LIST\",le=\"+Inf\"} 1"),
            std::string::npos);

  // A fault rule added over the admin endpoint applies to the next matching request only.
  Response added = c.request("POST", "/kubesim/v1/faults",
                             R"({"id":"boom","kind":"error","verbs":["get"],"resource":"namespaces","count":1,
                                 "status":{"code":503,"reason":"ServiceUnavailable","message":"injected"}})",
                             {{"content-type", "application/json"}});
  ASSERT_EQ(added.code, 201) << added.body;
  EXPECT_EQ(added.json()["ids"], json::array({"boom"}));
  EXPECT_EQ(c.get("/kubesim/v1/faults").json()["rules"].size(), 1u);
  Response failed = c.get("/api/v1/namespaces/default");
  EXPECT_EQ(failed.code, 503);
  EXPECT_EQ(failed.json()["message"], "injected");
  EXPECT_EQ(c.get("/api/v1/namespaces/default").code, 200);
  EXPECT_EQ(c.request("DELETE", "/kubesim/v1/faults/boom").code, 200);
  EXPECT_EQ(c.request("DELETE", "/kubesim/v1/faults/boom").code, 404);
  EXPECT_EQ(c.get("/kubesim/v1/compact").code, 405);
  json stats = c.get("/kubesim/v1/stats").json();
  EXPECT_EQ(stats["objects"]["namespaces"], 4);
  EXPECT_EQ(c.get("/kubesim/v1/nothing").code, 404);
}

TEST(HttpDiscoveryTest, InjectedLatencyDelaysButAnswers) {
  TestServer server;
  Client c(server.port());
  ASSERT_EQ(c.request("POST", "/kubesim/v1/faults", R"({"kind":"latency","latencyMs":50,"count":1})",
                      {{"content-type", "application/json"}}).code, 201);
  EXPECT_EQ(c.get("/api/v1/namespaces/default/configmaps").code, 200);
  EXPECT_TRUE(c.get("/kubesim/v1/faults").json()["rules"][0].value("count", -1) == 0);
}

}  // namespace
}  // namespace kubesim::fakeapi::http::testing
