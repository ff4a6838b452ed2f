// What RestClient puts on the wire for each Client call and option: method, path, query,
// headers and body, against a canned server that records them.
#include "kubesim/api/resources.h"
#include "kubesim/api/rest/rest_client.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include "tests/rest_client/canned_server.h"
#include "tests/rest_client/real_loop.h"

namespace kubesim::api::rest::testing {
namespace {


const char kConfigMap[] =
    R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns","resourceVersion":"7"}})";

Reply answer(const RecordedRequest& r) {
  const std::string path = r.target.substr(0, r.target.find('?'));
  const bool named = path.ends_with("/a") || path.ends_with("/n1") || path.ends_with("/a/status");
  if (r.method == "DELETE" && !named) {
    return Reply::json(200, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success"})");
  }
  if (r.method == "GET" && !named) {
    return Reply::json(200, R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]})");
  }
  return Reply::json(r.method == "POST" ? 201 : 200, kConfigMap);
}

template <class T>
sim::Task<std::string> outcome(sim::Task<Result<T>> call) {
  auto r = co_await std::move(call);
  if (r.ok()) co_return std::string("ok");
  std::ostringstream s;
  s << r.status();
  co_return s.str();
}

struct Case {
  std::string what;
  std::function<sim::Task<std::string>(RestClient&, sim::Context)> call;
  std::string method;
  std::string target;
  std::string content_type;
  std::string body;
};

std::vector<Case> cases() {
  auto cm = make_object(nlohmann::json::parse(kConfigMap));
  std::vector<Case> out;
  out.push_back({"get", [](RestClient& c, sim::Context ctx) {
                   GetOptions o;
                   o.resource_version = "0";
                   return outcome(c.get(ctx, kConfigMaps, "ns", "a", o));
                 },
                 "GET", "/api/v1/namespaces/ns/configmaps/a?resourceVersion=0", "", ""});
  out.push_back({"get cluster-scoped", [](RestClient& c, sim::Context ctx) {
                   return outcome(c.get(ctx, kNodes, "", "n1", GetOptions()));
                 },
                 "GET", "/api/v1/nodes/n1", "", ""});
  out.push_back({"list all namespaces with every option", [](RestClient& c, sim::Context ctx) {
                   ListOptions o;
                   o.label_selector = "app=web,tier in (a,b)";
                   o.field_selector = "metadata.name!=x";
                   o.limit = 50;
                   o.continue_token = "abc";
                   o.resource_version = "12";
                   o.resource_version_match = ResourceVersionMatch::kExact;
                   return outcome(c.list(ctx, kDeployments, "", o));
                 },
                 "GET",
                 "/apis/apps/v1/deployments?continue=abc&fieldSelector=metadata.name%21%3Dx&"
                 "labelSelector=app%3Dweb%2Ctier+in+%28a%2Cb%29&limit=50&resourceVersion=12&"
                 "resourceVersionMatch=Exact",
                 "", ""});
  out.push_back({"create dry-run", [cm](RestClient& c, sim::Context ctx) {
                   CreateOptions o;
                   o.dry_run = true;
                   o.field_manager = "me";
                   return outcome(c.create(ctx, kConfigMaps, "ns", cm, o));
                 },
                 "POST", "/api/v1/namespaces/ns/configmaps?dryRun=All&fieldManager=me",
                 "application/json", std::string(cm->serialized())});
  out.push_back({"update", [cm](RestClient& c, sim::Context ctx) {
                   return outcome(c.update(ctx, kConfigMaps, "ns", cm, UpdateOptions()));
                 },
                 "PUT", "/api/v1/namespaces/ns/configmaps/a", "application/json", std::string(cm->serialized())});
  out.push_back({"update status", [cm](RestClient& c, sim::Context ctx) {
                   UpdateOptions o;
                   o.field_manager = "ctrl";
                   return outcome(c.update_status(ctx, kConfigMaps, "ns", cm, o));
                 },
                 "PUT", "/api/v1/namespaces/ns/configmaps/a/status?fieldManager=ctrl",
                 "application/json", std::string(cm->serialized())});
  for (auto [type, ct] : {std::pair{PatchType::kMergePatch, "application/merge-patch+json"},
                          std::pair{PatchType::kJsonPatch, "application/json-patch+json"},
                          std::pair{PatchType::kStrategicMergePatch,
                                    "application/strategic-merge-patch+json"}}) {
    out.push_back({std::string("patch ") + ct, [type](RestClient& c, sim::Context ctx) {
                     PatchOptions o;
                     o.dry_run = true;
                     return outcome(c.patch(ctx, kConfigMaps, "ns", "a", type, R"({"data":{}})", o));
                   },
                   "PATCH", "/api/v1/namespaces/ns/configmaps/a?dryRun=All", ct, R"({"data":{}})"});
  }
  out.push_back({"delete with preconditions", [](RestClient& c, sim::Context ctx) {
                   DeleteOptions o;
                   o.preconditions.uid = "u-1";
                   o.preconditions.resource_version = "7";
                   o.propagation_policy = PropagationPolicy::kOrphan;
                   o.grace_period_seconds = 5;
                   return outcome(c.delete_(ctx, kDeployments, "ns", "a", o));
                 },
                 "DELETE", "/apis/apps/v1/namespaces/ns/deployments/a", "application/json",
                 R"({"gracePeriodSeconds":5,"preconditions":{"uid":"u-1","resourceVersion":"7"},)"
                 R"("propagationPolicy":"Orphan"})"});
  out.push_back({"delete collection", [](RestClient& c, sim::Context ctx) {
                   DeleteOptions o;
                   o.dry_run = true;
                   ListOptions l;
                   l.label_selector = "x=y";
                   return outcome(c.delete_collection(ctx, kConfigMaps, "ns", o, l));
                 },
                 "DELETE", "/api/v1/namespaces/ns/configmaps?labelSelector=x%3Dy",
                 "application/json", R"({"dryRun":["All"]})"});
  return out;
}

TEST(RestClientRequestsTest, EveryVerbAndOptionOnTheWire) {
  CannedServer server(answer);
  sim::Loop loop(real_mode());
  RestConfig config;
  config.server = server.url();
  config.bearer_token = "t0ken";
  config.user_agent = "kubesim-test/1";
  RestClient client(loop, config);
  std::size_t seen = 0;
  for (const auto& c : cases()) {
    auto g = guard(loop);
    EXPECT_EQ(run_real(loop, c.call(client, g.ctx)), "ok") << c.what;
    auto requests = server.requests();
    ASSERT_EQ(requests.size(), seen + 1) << c.what;
    const RecordedRequest& r = requests.back();
    ++seen;
    EXPECT_EQ(r.method, c.method) << c.what;
    EXPECT_EQ(r.target, c.target) << c.what;
    EXPECT_EQ(r.header("content-type"), c.content_type) << c.what;
    EXPECT_EQ(r.body, c.body) << c.what;
    EXPECT_EQ(r.header("authorization"), "Bearer t0ken") << c.what;
    EXPECT_EQ(r.header("accept"), "application/json") << c.what;
    EXPECT_EQ(r.header("user-agent"), "kubesim-test/1") << c.what;
    EXPECT_EQ(r.header("host"), "127.0.0.1:" + std::to_string(server.port())) << c.what;
  }
  // All of it on one kept-alive connection.
  EXPECT_EQ(server.connections(), 1);
  EXPECT_EQ(client.stats().connections_opened, 1u);
}

TEST(RestClientRequestsTest, WatchQueryAndBasePath) {
  CannedServer server([](const RecordedRequest&) {
    Reply r;
    r.stream = true;
    return r;
  });
  sim::Loop loop(real_mode());
  RestConfig config;
  config.server = server.url() + "/k8s/";
  RestClient client(loop, config);
  ListOptions o;
  o.resource_version = "100";
  o.allow_watch_bookmarks = true;
  o.send_initial_events = false;
  o.timeout_seconds = 60;
  auto g = guard(loop);
  auto w = run_real(loop, client.watch(g.ctx, kConfigMaps, "default", o));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_FALSE(run_real(loop, w.value()->next(g.ctx)).has_value());
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].target,
            "/k8s/api/v1/namespaces/default/configmaps?allowWatchBookmarks=true&"
            "resourceVersion=100&sendInitialEvents=false&timeoutSeconds=60&watch=true");
  EXPECT_EQ(server.requests()[0].header("authorization"), "");
}

TEST(RestClientRequestsTest, BadNamesFailWithoutARequest) {
  CannedServer server(answer);
  sim::Loop loop(real_mode());
  RestConfig config;
  config.server = server.url();
  RestClient client(loop, config);
  auto g = guard(loop);
  auto r = run_real(loop, client.get(g.ctx, kConfigMaps, "ns", "a/b", GetOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 0);
  EXPECT_EQ(r.status().message, "invalid resource name \"a/b\": [may not contain '/']");
  auto empty = run_real(loop, client.delete_(g.ctx, kConfigMaps, "ns", "", DeleteOptions()));
  EXPECT_EQ(empty.status().message, "resource name may not be empty");
  auto ns = run_real(loop, client.list(g.ctx, kConfigMaps, "..", ListOptions()));
  EXPECT_EQ(ns.status().message, "invalid namespace \"..\": [may not be '..']");
  auto w = run_real(loop, client.watch(g.ctx, kConfigMaps, "a%b", ListOptions()));
  EXPECT_EQ(w.status().message, "invalid namespace \"a%b\": [may not contain '%']");
  EXPECT_TRUE(server.requests().empty());
}

TEST(RestClientRequestsTest, TokenFileAndBasicAuth) {
  CannedServer server(answer);
  const auto dir = std::filesystem::temp_directory_path() / ("kubesim-token-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto token_file = (dir / "token").string();
  std::ofstream(token_file) << "  from-file\n";
  sim::Loop loop(real_mode());
  {
    RestConfig config;
    config.server = server.url();
    config.bearer_token = "ignored";
    config.bearer_token_file = token_file;
    RestClient client(loop, config);
    auto g = guard(loop);
    ASSERT_TRUE(run_real(loop, client.get(g.ctx, kConfigMaps, "ns", "a", GetOptions())).ok());
  }
  {
    RestConfig config;
    config.server = server.url();
    config.username = "alice";
    config.password = "secret";
    RestClient client(loop, config);
    auto g = guard(loop);
    ASSERT_TRUE(run_real(loop, client.get(g.ctx, kConfigMaps, "ns", "a", GetOptions())).ok());
  }
  std::filesystem::remove_all(dir);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].header("authorization"), "Bearer from-file");
  EXPECT_EQ(requests[1].header("authorization"), "Basic YWxpY2U6c2VjcmV0");
}

TEST(RestClientRequestsTest, UnusableConfigurationsAreRefusedAtConstruction) {
  sim::Loop real(real_mode());
  sim::Loop virtual_loop;
  auto error_of = [](sim::Loop& loop, RestConfig c) -> std::string {
    try {
      RestClient client(loop, std::move(c));
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  };
  RestConfig ok;
  ok.server = "http://127.0.0.1:1";
  EXPECT_EQ(error_of(real, ok), "(no error)");
  EXPECT_EQ(error_of(virtual_loop, ok), "RestClient needs a real-mode loop (sim::ClockMode::kReal)");
  RestConfig c = ok;
  c.server = "ftp://h";
  EXPECT_EQ(error_of(real, c), "invalid server URL \"ftp://h\": the scheme must be http or https, not \"ftp\"");
  c.server = "https://h:99999";
  EXPECT_EQ(error_of(real, c), "invalid server URL \"https://h:99999\": invalid port \"99999\"");
  c.server = "https://:80/x";
  EXPECT_EQ(error_of(real, c), "invalid server URL \"https://:80/x\": it has no host");
  c.server = "";
  EXPECT_EQ(error_of(real, c), "no server given");
  c = ok;
  c.server = "https://127.0.0.1:1";
  c.ca_pem = "not a certificate";
  EXPECT_NE(error_of(real, c).find("the certificate authority is not a valid PEM certificate"), std::string::npos);
  c.ca_pem = "";
  c.client_cert_pem = "junk";
  EXPECT_EQ(error_of(real, c), "a client certificate was given without its key");
  c.client_key_pem = "junk";
  EXPECT_NE(error_of(real, c).find("the client certificate is not a valid PEM certificate"), std::string::npos);
  c = ok;
  c.bearer_token_file = "/nonexistent/token";
  EXPECT_EQ(error_of(real, c),
            "cannot read the token file: open /nonexistent/token: No such file or directory");
  c = ok;
  c.bearer_token = "t";
  c.username = "u";
  EXPECT_EQ(error_of(real, c), "more than one authentication method: a token and basic authentication");
}

}  // namespace
}  // namespace kubesim::api::rest::testing
