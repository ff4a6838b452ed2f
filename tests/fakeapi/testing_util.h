// Shared fixtures of the fake API server's tests: resource names, object builders, a watch event
// collector, and helpers that run the loop without letting virtual time move.
#ifndef KUBESIM_TESTS_FAKEAPI_TESTING_UTIL_H_
#define KUBESIM_TESTS_FAKEAPI_TESTING_UTIL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/watch.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi::testutil {

using api::kNamespaces;
using api::kConfigMaps;
using api::kSecrets;
using api::kPods;
using api::kDeployments;
using api::kLeases;
inline const api::GroupVersionResource& kCrds = api::kCustomResourceDefinitions;
inline const api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};

using StringMap = std::map<std::string, std::string>;

// A ConfigMap's JSON: name (empty for none), namespace (empty for none), data and labels.
inline nlohmann::json config_map_json(const std::string& ns, const std::string& name,
                                      const StringMap& data = {}, const StringMap& labels = {}) {
  nlohmann::json meta = nlohmann::json::object();
  if (!name.empty()) meta["name"] = name;
  if (!ns.empty()) meta["namespace"] = ns;
  if (!labels.empty()) meta["labels"] = labels;
  nlohmann::json j = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(meta)}};
  if (!data.empty()) j["data"] = data;
  return j;
}

inline api::ObjectPtr config_map(const std::string& ns, const std::string& name,
                                 const StringMap& data = {}, const StringMap& labels = {}) {
  return api::make_object(config_map_json(ns, name, data, labels));
}

// A ConfigMap as a store holds it: under `key` ("namespace/name" or "name"), written at `rev`.
inline api::ObjectPtr stored_config_map(std::string_view key, std::int64_t rev,
                                        const StringMap& data = {}) {
  const api::NamespacedName parts = api::split_meta_namespace_key(key).value();
  nlohmann::json j = config_map_json(parts.ns, parts.name, data);
  j["metadata"]["resourceVersion"] = std::to_string(rev);
  return api::make_object(std::move(j));
}

inline api::ObjectPtr namespace_object(const std::string& name) {
  return api::make_object({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
}

inline api::ObjectPtr deployment(const std::string& ns, const std::string& name, int replicas) {
  nlohmann::json container = {{"name", "main"}, {"image", "nginx"}};
  nlohmann::json pod_spec = {{"containers", nlohmann::json::array({container})}};
  nlohmann::json labels = {{"app", name}};
  nlohmann::json spec = {{"replicas", replicas},
                         {"selector", {{"matchLabels", labels}}},
                         {"template", {{"metadata", {{"labels", labels}}}, {"spec", pod_spec}}}};
  return api::make_object({{"apiVersion", "apps/v1"},
                           {"kind", "Deployment"},
                           {"metadata", {{"name", name}, {"namespace", ns}}},
                           {"spec", std::move(spec)}});
}

// The CustomResourceDefinition of widgets.example.com (kind Widget), namespaced or cluster-scoped,
// with a /status subresource.
inline api::ObjectPtr widget_crd(const std::string& scope = "Namespaced") {
  nlohmann::json schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  nlohmann::json version = {{"name", "v1"},
                            {"served", true},
                            {"storage", true},
                            {"subresources", {{"status", nlohmann::json::object()}}},
                            {"schema", {{"openAPIV3Schema", schema}}}};
  nlohmann::json names = {{"plural", "widgets"}, {"singular", "widget"}, {"kind", "Widget"}};
  nlohmann::json spec = {{"group", "example.com"},
                         {"scope", scope},
                         {"names", names},
                         {"versions", nlohmann::json::array({version})}};
  return api::make_object({{"apiVersion", "apiextensions.k8s.io/v1"},
                           {"kind", "CustomResourceDefinition"},
                           {"metadata", {{"name", "widgets.example.com"}}},
                           {"spec", std::move(spec)}});
}

// widget_crd() whose one version validates with `schema` (an openAPIV3Schema).
inline api::ObjectPtr widget_crd_with_schema(const nlohmann::json& schema) {
  return widget_crd()->edited([&](nlohmann::json& j) {
    j["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = schema;
  });
}

// A Widget in `ns` with spec {"size": size}.
inline api::ObjectPtr widget(const std::string& ns, const std::string& name, int size) {
  nlohmann::json meta = {{"name", name}};
  if (!ns.empty()) meta["namespace"] = ns;
  return api::make_object({{"apiVersion", "example.com/v1"},
                           {"kind", "Widget"},
                           {"metadata", std::move(meta)},
                           {"spec", {{"size", size}}}});
}

// The value of data[key] of a ConfigMap, "" when absent.
inline std::string data_of(const api::ObjectPtr& obj, const std::string& key) {
  const auto& j = obj->json();
  if (!j.contains("data") || !j["data"].contains(key)) return "";
  return j["data"][key].get<std::string>();
}

// The Status of a result; code 200 and no reason for a success, so predicates read false.
template <class T>
api::Status status_of(const api::Result<T>& r) {
  if (!r.ok()) return r.status();
  api::Status ok;
  ok.code = 200;
  return ok;
}

// Runs the work that is ready now; virtual time does not move (the server's compaction, bookmark
// and watch timeout timers stay where they are).
inline void settle(sim::Loop& loop) { loop.run_until(loop.now()); }

// Reads every event of a watch into a vector as they arrive, from a task on the loop. Destroying
// the log stops reading; the stream itself is stopped when the log's task goes away.
class EventLog {
 public:
  EventLog(sim::Loop& loop, api::WatchPtr watch) : state_(std::make_shared<State>()) {
    state_->watch = std::move(watch);
    state_->cancel = sim::with_cancel(sim::Context());
    state_->loop = &loop;
    loop.spawn(read(state_), "event-log");
  }
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;
  ~EventLog() { state_->cancel.cancel(); }

  const std::vector<api::WatchEvent>& events() const { return state_->events; }
  std::size_t size() const { return state_->events.size(); }
  const api::WatchEvent& operator[](std::size_t i) const { return state_->events.at(i); }
  // True once the stream ended (closed by the server or the client's link).
  bool ended() const { return state_->ended; }
  // When the stream ended, in virtual time.
  sim::Time ended_at() const { return state_->ended_at; }
  // Stops the stream from the consumer's side.
  void stop() {
    state_->watch->stop();
    state_->cancel.cancel();
  }

 private:
  struct State {
    api::WatchPtr watch;
    sim::ContextWithCancel cancel;
    std::vector<api::WatchEvent> events;
    bool ended = false;
    sim::Time ended_at{};
    sim::Loop* loop = nullptr;
  };

  static sim::Task<void> read(std::shared_ptr<State> state) {
    sim::Context ctx = state->cancel.ctx;
    for (;;) {
      auto event = co_await state->watch->next(ctx);
      if (!event) break;
      state->events.push_back(std::move(*event));
    }
    if (!ctx.done()) {
      state->ended = true;
      state->ended_at = state->loop->now();
    }
  }

  std::shared_ptr<State> state_;
};

// "ADDED ns/name@rv" for each event: readable expectations for short sequences.
inline std::vector<std::string> describe(const std::vector<api::WatchEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    std::string s(api::to_string(e.type));
    if (e.object && e.type != api::EventType::kError) {
      s += " ";
      if (e.type != api::EventType::kBookmark) s += e.object->key().str();
      s += "@" + std::string(e.object->resource_version());
    }
    out.push_back(std::move(s));
  }
  return out;
}

// The operator's writes as one Request each through ApiServer::answer, keeping the warnings of
// the last one (the typed calls return the result alone).
class WarnedWrites {
 public:
  explicit WarnedWrites(ApiServer& server) : server_(&server) {}

  api::Result<api::ObjectPtr> create(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::CreateOptions& options) {
    Request r = request(Verb::kCreate, gvr, ns, object->name());
    r.options = options;
    r.object = object;
    return answered(r);
  }
  api::Result<api::ObjectPtr> update(const api::GroupVersionResource& gvr, std::string_view ns,
                                     const api::ObjectPtr& object, const api::UpdateOptions& options,
                                     Subresource subresource = Subresource::kNone) {
    Request r = request(Verb::kUpdate, gvr, ns, object->name());
    r.options = options;
    r.object = object;
    r.subresource = subresource;
    return answered(r);
  }
  api::Result<api::ObjectPtr> patch(const api::GroupVersionResource& gvr, std::string_view ns,
                                    std::string_view name, api::PatchType type, std::string_view body,
                                    const api::PatchOptions& options,
                                    Subresource subresource = Subresource::kNone) {
    Request r = request(Verb::kPatch, gvr, ns, name);
    r.options = options;
    r.patch_type = type;
    r.patch_body = std::string(body);
    r.subresource = subresource;
    return answered(r);
  }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  static Request request(Verb verb, const api::GroupVersionResource& gvr, std::string_view ns,
                         std::string_view name) {
    return Request{.verb = verb, .resource = gvr, .ns = std::string(ns), .name = std::string(name)};
  }
  api::Result<api::ObjectPtr> answered(const Request& r) {
    Response response = server_->answer(r);
    warnings_ = std::move(response.warnings);
    if (response.error) return std::move(*response.error);
    return std::move(response.object);
  }

  ApiServer* server_;
  std::vector<std::string> warnings_;
};

}  // namespace kubesim::fakeapi::testutil

#endif  // KUBESIM_TESTS_FAKEAPI_TESTING_UTIL_H_
