// configmap-mirror: keeps, in params.target, a ConfigMap of the same name, data and binaryData
// for every ConfigMap of params.source, and deletes the target's ConfigMaps that have none.
//
// The work queue key is the ConfigMap's name: a change in either namespace queues it, and one
// reconcile compares the two caches' objects of that name. Writes go through the replica's
// client, each conditional on what the cache showed (an update carries the cached
// resourceVersion, a delete the cached uid), so a stale cache costs a Conflict and a retry, never
// a lost write.
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "internal/builtin_types.h"
#include "internal/queue_controller.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/api/validation.h"
#include "kubesim/informer/lister.h"

namespace kubesim::scenarios::controllers {
namespace {

// The fields a mirror copies. Absent and empty are the same: the API server drops an empty map.
constexpr const char* kCopied[] = {"data", "binaryData"};

nlohmann::json copied_field(const api::Object& object, const char* field) {
  nlohmann::json value = object.member_value(field);
  if (value.is_object() && value.empty()) return nullptr;
  return value;
}

bool same_content(const api::Object& a, const api::Object& b) {
  return std::all_of(std::begin(kCopied), std::end(kCopied),
                     [&](const char* field) { return copied_field(a, field) == copied_field(b, field); });
}

void copy_content(const api::Object& from, nlohmann::json& to) {
  for (const char* field : kCopied) {
    nlohmann::json value = copied_field(from, field);
    if (value.is_null()) {
      to.erase(field);
    } else {
      to[field] = std::move(value);
    }
  }
}

class ConfigMapMirror final : public QueueController {
 public:
  ConfigMapMirror(ControllerEnv env, std::string source, std::string target)
      : QueueController(env, "configmap-mirror"),
        source_(std::move(source)),
        target_(std::move(target)),
        config_maps_(env.informers.lister_for(api::kConfigMaps)) {
    watch(env.informers.informer_for(api::kConfigMaps),
          [source = source_, target = target_](const api::Object& object) -> std::optional<std::string> {
            if (object.namespace_() != source && object.namespace_() != target) return std::nullopt;
            return std::string(object.name());
          });
  }

 protected:
  std::vector<std::string> all_keys() const override {
    std::set<std::string> names;
    for (const std::string& ns : {source_, target_}) {
      for (const auto& object : config_maps_.by_namespace(ns).list()) names.emplace(object->name());
    }
    return {names.begin(), names.end()};
  }

  sim::Task<bool> reconcile(sim::Context ctx, std::string name) override {
    auto source = config_maps_.by_namespace(source_).get(name);
    auto target = config_maps_.by_namespace(target_).get(name);
    if (!source.ok()) {
      if (!target.ok()) co_return true;
      const bool removed = co_await remove(std::move(ctx), target.value());
      co_return removed;
    }
    if (!target.ok()) {
      const bool created = co_await create(std::move(ctx), source.value());
      co_return created;
    }
    if (same_content(*source.value(), *target.value())) co_return true;
    const bool updated = co_await update(std::move(ctx), source.value(), target.value());
    co_return updated;
  }

 private:
  sim::Task<bool> create(sim::Context ctx, api::ObjectPtr source) {
    nlohmann::json object = {{"apiVersion", "v1"},
                             {"kind", "ConfigMap"},
                             {"metadata", {{"name", std::string(source->name())}, {"namespace", target_}}}};
    copy_content(*source, object);
    auto created = co_await client().create(std::move(ctx), api::kConfigMaps, target_,
                                            api::make_object(std::move(object)), api::CreateOptions());
    // AlreadyExists: the cache is behind; the target's event queues the name again.
    co_return created.ok() || api::is_already_exists(created.status());
  }

  sim::Task<bool> update(sim::Context ctx, api::ObjectPtr source, api::ObjectPtr target) {
    // Carries the cached resourceVersion: a target changed since is a Conflict, retried.
    api::ObjectPtr next = target->edited([&](nlohmann::json& j) { copy_content(*source, j); });
    auto updated = co_await client().update(std::move(ctx), api::kConfigMaps, target_, std::move(next),
                                            api::UpdateOptions());
    co_return updated.ok();
  }

  sim::Task<bool> remove(sim::Context ctx, api::ObjectPtr target) {
    api::DeleteOptions options;
    // Only the object the cache showed: one created again since is a Conflict, retried.
    options.preconditions.uid = std::string(target->uid());
    auto deleted = co_await client().delete_(std::move(ctx), api::kConfigMaps, target_,
                                             std::string(target->name()), std::move(options));
    co_return deleted.ok() || api::is_not_found(deleted.status());
  }

  std::string source_;
  std::string target_;
  informer::Lister config_maps_;
};

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
  return std::make_unique<ConfigMapMirror>(env, env.params.at("source").get<std::string>(),
                                           env.params.at("target").get<std::string>());
}

}  // namespace kubesim::scenarios::controllers
