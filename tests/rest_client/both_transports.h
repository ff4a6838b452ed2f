// The same Client test cases over both transports: the in-process client, and RestClient over a
// loopback socket to the fakeapi HTTP front end — the same ApiServer, on one real-mode loop that
// the test thread drives (the HTTP server's and RestClient's I/O threads hand their work to it).
//
// TransportTest<Param> is the fixture: Param is the Transport itself (BothTransportsTest), or a
// tuple whose first element is the Transport (table-driven suites that cross a case table with
// both transports). Tests set state up through the client under test, or through `api_` (the
// ApiServer itself) for what api::Client cannot do: compaction, reading the revision.
#ifndef KUBESIM_TESTS_REST_CLIENT_BOTH_TRANSPORTS_H_
#define KUBESIM_TESTS_REST_CLIENT_BOTH_TRANSPORTS_H_

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kubesim/api/client.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/rest/rest_client.h"
#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "tests/rest_client/real_loop.h"

namespace kubesim::api::rest::testing {

enum class Transport { kInProcess, kRest };

inline std::string transport_label(Transport t) { return t == Transport::kRest ? "Rest" : "InProcess"; }
inline std::string transport_name(const ::testing::TestParamInfo<Transport>& info) {
  return transport_label(info.param);
}

inline const GroupVersionResource& kCrds = api::kCustomResourceDefinitions;
inline const GroupVersionResource kWidgets{"example.com", "v1", "widgets"};

// The Status of a result; code 200 and no reason for a success, so every predicate reads false.
template <class T>
Status status_of(const Result<T>& r) {
  if (!r.ok()) return r.status();
  Status ok;
  ok.code = 200;
  return ok;
}

// A Deployment `name` in `ns` with one container "main" (nginx) and app=<name> labels.
inline ObjectPtr deployment(const std::string& ns, const std::string& name, int replicas) {
  nlohmann::json labels = {{"app", name}};
  nlohmann::json pod_spec = {{"containers", {{{"name", "main"}, {"image", "nginx"}}}}};
  nlohmann::json spec = {{"replicas", replicas},
                         {"selector", {{"matchLabels", labels}}},
                         {"template", {{"metadata", {{"labels", labels}}}, {"spec", pod_spec}}}};
  return make_object({{"apiVersion", "apps/v1"},
                      {"kind", "Deployment"},
                      {"metadata", {{"name", name}, {"namespace", ns}}},
                      {"spec", std::move(spec)}});
}

// The CustomResourceDefinition widgets.example.com (kind Widget) with a /status subresource.
inline ObjectPtr widget_crd(const std::string& scope = "Namespaced") {
  nlohmann::json schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  nlohmann::json version = {{"name", "v1"},
                            {"served", true},
                            {"storage", true},
                            {"subresources", {{"status", nlohmann::json::object()}}},
                            {"schema", {{"openAPIV3Schema", schema}}}};
  nlohmann::json names = {{"plural", "widgets"}, {"singular", "widget"}, {"kind", "Widget"}};
  return make_object({{"apiVersion", "apiextensions.k8s.io/v1"},
                      {"kind", "CustomResourceDefinition"},
                      {"metadata", {{"name", "widgets.example.com"}}},
                      {"spec",
                       {{"group", "example.com"},
                        {"scope", scope},
                        {"names", names},
                        {"versions", nlohmann::json::array({version})}}}});
}

inline ObjectPtr widget(const std::string& ns, const std::string& name, int size) {
  nlohmann::json meta = {{"name", name}};
  if (!ns.empty()) meta["namespace"] = ns;
  return make_object(
      {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", meta}, {"spec", {{"size", size}}}});
}

// "ADDED ns/name@rv" for each event ("BOOKMARK @rv", "ERROR <code>"): readable expectations.
inline std::vector<std::string> describe(const std::vector<WatchEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    std::string s(to_string(e.type));
    if (e.type == EventType::kError) {
      s += " " + std::to_string(e.status() ? e.status()->code : 0);
    } else if (e.object) {
      s += " ";
      if (e.type != EventType::kBookmark) s += e.object->key().str();
      s += "@" + std::string(e.object->resource_version());
    }
    out.push_back(std::move(s));
  }
  return out;
}

template <class Param>
class TransportTest : public ::testing::TestWithParam<Param> {
 protected:
  explicit TransportTest(fakeapi::ServerOptions options = {}) {
    transport_ = transport_of(this->GetParam());
    api_ = std::make_unique<fakeapi::ApiServer>(loop_, std::move(options));
    if (transport_ == Transport::kRest) {
      fakeapi::http::HttpServerOptions o;
      fakeapi::http::UserInfo admin;
      admin.name = "admin";
      admin.groups = {"system:masters"};
      o.tokens["test-token"] = admin;
      http_ = std::make_unique<fakeapi::http::HttpServer>(loop_, *api_, o);
      RestConfig config;
      config.server = http_->url();
      config.bearer_token = "test-token";
      config.qps = -1;  // no client-side limit in tests
      client_ = std::make_unique<RestClient>(loop_, config);
    } else {
      client_ = std::make_unique<fakeapi::InProcessClient>(*api_);
    }
  }
  ~TransportTest() override {
    client_.reset();
    if (http_) http_->stop(std::chrono::seconds(1));
    http_.reset();
  }

  static Transport transport_of(Transport t) { return t; }
  template <class... Rest>
  static Transport transport_of(const std::tuple<Transport, Rest...>& p) {
    return std::get<0>(p);
  }
  bool rest() const { return transport_ == Transport::kRest; }

  Client& c() { return *client_; }
  // A context that ends a hung test instead of hanging it.
  sim::Context ctx() { return guard(loop_).ctx; }
  template <class T>
  T run(sim::Task<T> task) {
    return run_real(loop_, std::move(task));
  }
  // The value of a call that must succeed (null, and a test failure, otherwise).
  ObjectPtr must(const Result<ObjectPtr>& r) {
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }

  ObjectPtr cm(const std::string& name, const std::string& value = "v",
               nlohmann::json labels = nlohmann::json::object(), const std::string& ns = "default") {
    nlohmann::json meta = {{"name", name}, {"namespace", ns}};
    if (!labels.empty()) meta["labels"] = labels;
    return make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}, {"data", {{"k", value}}}});
  }
  ObjectPtr create_cm(const std::string& name, const std::string& value = "v",
                      nlohmann::json labels = nlohmann::json::object(), const std::string& ns = "default") {
    return must(run(c().create(ctx(), kConfigMaps, ns, cm(name, value, labels, ns), CreateOptions())));
  }
  ObjectPtr create(const GroupVersionResource& gvr, const ObjectPtr& obj) {
    return must(run(c().create(ctx(), gvr, std::string(obj->namespace_()), obj, CreateOptions())));
  }
  ObjectPtr create_namespace(const std::string& name) {
    return create(kNamespaces, make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}}));
  }
  Result<ObjectPtr> get(const GroupVersionResource& gvr, const std::string& ns, const std::string& name,
                        GetOptions options = GetOptions()) {
    return run(c().get(ctx(), gvr, ns, name, options));
  }
  Result<ObjectPtr> get_cm(const std::string& name) { return get(kConfigMaps, "default", name); }
  Result<ObjectPtr> update(const GroupVersionResource& gvr, const ObjectPtr& obj) {
    return run(c().update(ctx(), gvr, std::string(obj->namespace_()), obj, UpdateOptions()));
  }
  Result<ObjectPtr> update_cm(const ObjectPtr& obj) { return update(kConfigMaps, obj); }
  Result<ObjectPtr> delete_cm(const std::string& name, DeleteOptions options = DeleteOptions()) {
    return run(c().delete_(ctx(), kConfigMaps, "default", name, options));
  }
  Result<ObjectList> list_cms(const std::string& ns, ListOptions options = ListOptions()) {
    return run(c().list(ctx(), kConfigMaps, ns, options));
  }
  WatchPtr watch(const GroupVersionResource& gvr, const std::string& ns, ListOptions options) {
    auto w = run(c().watch(ctx(), gvr, ns, options));
    EXPECT_TRUE(w.ok()) << w.status();
    return w.ok() ? std::move(w.value()) : nullptr;
  }
  // The server's current revision, as a resourceVersion.
  std::string revision() const { return std::to_string(api_->revision()); }

  // The next `n` events of `w` (fewer if it ends).
  std::vector<WatchEvent> take(WatchStream& w, std::size_t n) {
    std::vector<WatchEvent> out;
    while (out.size() < n) {
      auto e = run(w.next(ctx()));
      if (!e) break;
      out.push_back(std::move(*e));
    }
    return out;
  }
  // Every event until the stream ends (or the guard's deadline passes: then `ended` is false).
  std::vector<WatchEvent> take_all(WatchStream& w, bool* ended = nullptr) {
    std::vector<WatchEvent> out;
    sim::Context until = ctx();
    for (;;) {
      auto e = run(w.next(until));
      if (!e) break;
      out.push_back(std::move(*e));
    }
    if (ended != nullptr) *ended = !until.done();
    return out;
  }

  sim::Loop loop_{real_mode()};
  Transport transport_ = Transport::kInProcess;
  std::unique_ptr<fakeapi::ApiServer> api_;
  std::unique_ptr<fakeapi::http::HttpServer> http_;
  std::unique_ptr<Client> client_;
};

using BothTransportsTest = TransportTest<Transport>;

// Both transports, as INSTANTIATE_TEST_SUITE_P's generator.
inline auto both_transports() { return ::testing::Values(Transport::kInProcess, Transport::kRest); }

}  // namespace kubesim::api::rest::testing

#endif  // KUBESIM_TESTS_REST_CLIENT_BOTH_TRANSPORTS_H_
