// configmap-mirror: keeps, in params.target, a ConfigMap of the same name, data and binaryData
// for every ConfigMap of params.source, and deletes the target's ConfigMaps that have none.
//
// A controller built with kubesim::controller's ControllerBuilder, run by a Manager. The work
// queue key is the ConfigMap's name: a change in either namespace queues it, and one reconcile
// compares the two caches' objects of that name. Writes go through the replica's client, each
// conditional on what the cache showed (an update carries the cached resourceVersion, a delete
// the cached uid), so a stale cache costs a Conflict and a retry, never a lost write.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/api/validation.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/manager.h"
#include "kubesim/scenarios/controller_type.h"
#include "scenarios/internal/builtin_types.h"

namespace kubesim::scenarios::controllers {
namespace {

// The fields a mirror copies, in key order. Absent and empty are the same: the API server drops
// an empty map.
constexpr const char* kCopied[] = {"binaryData", "data"};

// The text of `field` as a mirror copies it: "" when absent, null or empty. data and binaryData
// hold strings only, which JSON text writes one way, so equal texts are equal values.
std::string_view copied_text(const api::Object& object, const char* field) {
  const auto text = object.member_text(field);
  if (!text || *text == "null" || *text == "{}") return {};
  return *text;
}

bool same_content(const api::Object& a, const api::Object& b) {
  return std::all_of(std::begin(kCopied), std::end(kCopied),
                     [&](const char* field) { return copied_text(a, field) == copied_text(b, field); });
}

// The mirror of `source` in namespace `ns`, written as JSON text with its members in key order:
// Object::from_string then keeps the text as it is, and no tree of the object is built.
std::string mirror_text(const api::Object& source, std::string_view ns) {
  const auto quoted = [](std::string_view s) { return nlohmann::json(s).dump(); };
  std::string text = R"({"apiVersion":"v1")";
  for (const char* field : kCopied) {
    const std::string_view value = copied_text(source, field);
    if (!value.empty()) text.append(",\"").append(field).append("\":").append(value);
  }
  text.append(R"(,"kind":"ConfigMap","metadata":{"name":)").append(quoted(source.name()));
  text.append(R"(,"namespace":)").append(quoted(ns)).append("}}");
  return text;
}

using controller::ReconcileContext;
using controller::ReconcileRequest;
using controller::ReconcileResult;

// The two namespaces, as the file's params name them.
struct Mirror {
  std::string source;
  std::string target;
};

// A write that did not happen is retried with the rate limiter's backoff.
ReconcileResult retried_unless(bool ok) { return ok ? ReconcileResult::done() : ReconcileResult::requeue(); }

sim::Task<bool> create(ReconcileContext rc, std::string target_ns, api::ObjectPtr source) {
  auto object = api::Object::from_string(mirror_text(*source, target_ns));
  if (!object.ok()) throw std::logic_error("configmap-mirror: " + object.status().message);
  auto created = co_await rc.client().create(rc.ctx(), api::kConfigMaps, target_ns,
                                             std::move(object).value(), api::CreateOptions());
  // AlreadyExists: the cache is behind; the target's event queues the name again.
  co_return created.ok() || api::is_already_exists(created.status());
}

// The target with the source's content: each differing field set in the target's text (no tree
// of the whole object is built), or removed through an edit of the whole object.
api::ObjectPtr with_content(const api::Object& source, api::ObjectPtr target) {
  for (const char* field : kCopied) {
    const std::string_view value = copied_text(source, field);
    if (value == copied_text(*target, field)) continue;
    if (value.empty()) {
      target = target->edited([field](nlohmann::json& j) { j.erase(field); });
    } else {
      target = target->with_value_at(field, source.member_value(field));
    }
  }
  return target;
}

sim::Task<bool> update(ReconcileContext rc, api::ObjectPtr source, api::ObjectPtr target) {
  // Carries the cached resourceVersion: a target changed since is a Conflict, retried.
  api::ObjectPtr next = with_content(*source, target);
  auto updated = co_await rc.client().update(rc.ctx(), api::kConfigMaps, std::string(target->namespace_()),
                                             std::move(next), api::UpdateOptions());
  co_return updated.ok();
}

// The request's namespace is empty: its name is the ConfigMap's in both namespaces.
sim::Task<ReconcileResult> reconcile_mirror(Mirror mirror, ReconcileContext rc, ReconcileRequest request) {
  api::ObjectPtr source = rc.get(api::kConfigMaps, mirror.source, request.name);
  api::ObjectPtr target = rc.get(api::kConfigMaps, mirror.target, request.name);
  if (source == nullptr) {
    if (target == nullptr) co_return ReconcileResult::done();
    const bool removed = co_await delete_cached_config_map(rc, std::move(target));
    co_return retried_unless(removed);
  }
  if (target == nullptr) {
    const bool created = co_await create(rc, mirror.target, std::move(source));
    co_return retried_unless(created);
  }
  if (same_content(*source, *target)) co_return ReconcileResult::done();
  const bool updated = co_await update(rc, std::move(source), std::move(target));
  co_return retried_unless(updated);
}

// One controller, "configmap-mirror", keyed by ConfigMap name: a change in either namespace
// queues the name (a key of no namespace), and one reconcile compares the two caches' objects.
void setup_mirror(controller::Manager& manager, const Mirror& mirror, int workers) {
  controller::ControllerBuilder(manager)
      .named("configmap-mirror")
      .watches(api::kConfigMaps,
               [mirror](const api::Object& object) -> std::vector<ReconcileRequest> {
                 if (object.namespace_() != mirror.source && object.namespace_() != mirror.target) return {};
                 return {ReconcileRequest{"", std::string(object.name())}};
               })
      .workers(workers)
      .reconcile([mirror](ReconcileContext rc, ReconcileRequest request) {
        return reconcile_mirror(mirror, std::move(rc), std::move(request));
      });
}

// The message for params[field] when it is not a usable namespace name, or nullopt.
std::optional<std::string> check_namespace(const nlohmann::json& params, const char* field,
                                           const char* role) {
  const std::string where = std::string("params.") + field;
  auto it = params.find(field);
  if (it == params.end()) return where + " is required: the namespace to mirror " + role;
  if (!it->is_string()) return where + " must be a string (a namespace name), not " + it->dump();
  const std::string ns = it->get<std::string>();
  if (ns.empty()) return where + " is empty: it names the namespace to mirror " + role;
  auto problems = api::is_dns1123_label(ns);
  if (!problems.empty()) {
    return where + ": \"" + ns + "\" is not a valid namespace name: " + problems.front();
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> validate_configmap_mirror_params(const nlohmann::json& params) {
  if (!params.is_object()) {
    return "params must be a map {source: NS, target: NS}, not " + params.dump();
  }
  for (const auto& [key, value] : params.items()) {
    if (key != "source" && key != "target") {
      return "params: unknown key \"" + key + "\" (configmap-mirror takes source and target)";
    }
  }
  if (auto problem = check_namespace(params, "source", "from")) return problem;
  if (auto problem = check_namespace(params, "target", "into")) return problem;
  if (params["source"] == params["target"]) {
    return "params.source and params.target are both \"" + params["source"].get<std::string>() +
           "\": a mirror needs two different namespaces";
  }
  return std::nullopt;
}

std::unique_ptr<Controller> make_configmap_mirror(ControllerEnv env) {
  if (auto problem = validate_configmap_mirror_params(env.params)) {
    throw std::invalid_argument("configmap-mirror: " + *problem);
  }
  Mirror mirror{env.params.at("source").get<std::string>(), env.params.at("target").get<std::string>()};
  const int workers = std::max(1, env.workers);
  return manager_controller(env, [mirror, workers](controller::Manager& manager) {
    setup_mirror(manager, mirror, workers);
  });
}

}  // namespace kubesim::scenarios::controllers
