// widget: each example.com/v1 Widget owns spec.replicas ConfigMaps in its namespace, named
// NAME-0 … NAME-(replicas-1), each labelled example.com/widget=NAME and carrying a controller
// owner reference to the Widget; any other ConfigMap it controls is deleted. Then
// status.readyReplicas, the number of those ConfigMaps in the cache, is written through the
// /status subresource when it differs from what the Widget shows.
//
// The work queue key is the Widget's "namespace/name": a Widget's own events queue it, and a
// ConfigMap's events queue the Widget its controller reference names (sample-controller's
// handleObject). The fake API server has no garbage collector, so the controller also deletes
// what a Widget that is gone controlled, and ConfigMaps controlled by an earlier Widget of the
// same name (another uid). A ConfigMap of one of the names that some other owner controls, or
// none, is left alone and not counted.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "internal/builtin_types.h"
#include "internal/queue_controller.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/informer/lister.h"
#include "kubesim/scenarios/controllers.h"

namespace kubesim::scenarios::controllers {
namespace {

constexpr std::string_view kWidgetApiVersion = "example.com/v1";
constexpr std::string_view kWidgetKind = "Widget";

// The Widget controlling `object` (its controller owner reference), or null.
const api::OwnerReference* widget_controller_of(const api::Object& object) {
  const api::OwnerReference* owner = object.controller_of();
  if (owner == nullptr || owner->kind != kWidgetKind || owner->api_version != kWidgetApiVersion) return nullptr;
  return owner;
}

// i when `name` is WIDGET-i (i written without leading zeros), else -1.
std::int64_t index_of(std::string_view name, std::string_view widget) {
  if (name.size() <= widget.size() + 1 || name.substr(0, widget.size()) != widget || name[widget.size()] != '-') {
    return -1;
  }
  std::string_view digits = name.substr(widget.size() + 1);
  if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return -1;
  std::int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::int64_t replicas_of(const api::Object& widget) {
  const nlohmann::json replicas = widget.value_at("spec.replicas");
  if (!replicas.is_number_integer()) return 0;
  return std::max<std::int64_t>(0, replicas.get<std::int64_t>());
}

std::optional<std::int64_t> ready_replicas_of(const api::Object& widget) {
  const nlohmann::json ready = widget.value_at("status.readyReplicas");
  if (!ready.is_number_integer()) return std::nullopt;
  return ready.get<std::int64_t>();
}

api::ObjectPtr owned_config_map(const api::Object& widget, std::int64_t index) {
  nlohmann::json owner = {{"apiVersion", std::string(kWidgetApiVersion)},
                          {"kind", std::string(kWidgetKind)},
                          {"name", std::string(widget.name())},
                          {"uid", std::string(widget.uid())},
                          {"controller", true},
                          {"blockOwnerDeletion", true}};
  nlohmann::json meta = {{"name", std::string(widget.name()) + "-" + std::to_string(index)},
                         {"namespace", std::string(widget.namespace_())},
                         {"labels", {{kWidgetLabel, std::string(widget.name())}}},
                         {"ownerReferences", nlohmann::json::array({std::move(owner)})}};
  return api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(meta)}});
}

class WidgetController final : public QueueController {
 public:
  explicit WidgetController(ControllerEnv env)
      : QueueController(env, "widget"),
        widgets_(env.informers.lister_for(kWidgets)),
        config_maps_(env.informers.lister_for(api::kConfigMaps)) {
    watch(env.informers.informer_for(kWidgets),
          [](const api::Object& widget) -> std::optional<std::string> { return widget.key().str(); });
    watch(env.informers.informer_for(api::kConfigMaps),
          [](const api::Object& config_map) -> std::optional<std::string> {
            const api::OwnerReference* owner = widget_controller_of(config_map);
            if (owner == nullptr) return std::nullopt;
            return std::string(config_map.namespace_()) + "/" + std::string(owner->name);
          });
  }

 protected:
  std::vector<std::string> all_keys() const override {
    std::set<std::string> keys;
    for (const auto& widget : widgets_.list()) keys.insert(widget->key().str());
    for (const auto& config_map : config_maps_.list()) {
      if (const api::OwnerReference* owner = widget_controller_of(*config_map)) {
        keys.insert(std::string(config_map->namespace_()) + "/" + std::string(owner->name));
      }
    }
    return {keys.begin(), keys.end()};
  }

  sim::Task<bool> reconcile(sim::Context ctx, std::string key) override;

 private:
  // The cached ConfigMaps of `ns` that a Widget named `name` controls (whatever its uid).
  std::vector<api::ObjectPtr> controlled_by(const std::string& ns, std::string_view name) const {
    std::vector<api::ObjectPtr> out;
    for (const auto& config_map : config_maps_.by_namespace(ns).list()) {
      const api::OwnerReference* owner = widget_controller_of(*config_map);
      if (owner != nullptr && owner->name == name) out.push_back(config_map);
    }
    return out;
  }

  sim::Task<bool> remove(sim::Context ctx, api::ObjectPtr config_map) {
    api::DeleteOptions options;
    options.preconditions.uid = std::string(config_map->uid());
    auto deleted = co_await client().delete_(std::move(ctx), api::kConfigMaps,
                                             std::string(config_map->namespace_()),
                                             std::string(config_map->name()), std::move(options));
    co_return deleted.ok() || api::is_not_found(deleted.status());
  }

  sim::Task<bool> create(sim::Context ctx, api::ObjectPtr config_map) {
    auto created = co_await client().create(std::move(ctx), api::kConfigMaps,
                                            std::string(config_map->namespace_()), config_map,
                                            api::CreateOptions());
    co_return created.ok() || api::is_already_exists(created.status());
  }

  sim::Task<bool> write_status(sim::Context ctx, api::ObjectPtr widget, std::int64_t ready) {
    // Carries the cached resourceVersion: a Widget changed since is a Conflict, retried.
    api::ObjectPtr next = widget->edited([&](nlohmann::json& j) { j["status"]["readyReplicas"] = ready; });
    auto updated = co_await client().update_status(std::move(ctx), kWidgets, std::string(widget->namespace_()),
                                                   std::move(next), api::UpdateOptions());
    co_return updated.ok();
  }

  informer::Lister widgets_;
  informer::Lister config_maps_;
};

sim::Task<bool> WidgetController::reconcile(sim::Context ctx, std::string key) {
  auto name = api::split_meta_namespace_key(key);
  if (!name) co_return true;  // not a key this controller makes
  auto found = widgets_.get(key);
  const std::vector<api::ObjectPtr> controlled = controlled_by(name->ns, name->name);
  bool ok = true;
  if (!found.ok()) {
    // Gone: nothing is owned any more (the garbage collector's part).
    for (const auto& config_map : controlled) {
      const bool removed = co_await remove(ctx, config_map);
      ok = ok && removed;
    }
    co_return ok;
  }
  const api::ObjectPtr widget = found.value();
  if (widget->deletion_timestamp()) co_return true;
  const std::int64_t replicas = replicas_of(*widget);
  std::set<std::int64_t> present;
  for (const auto& config_map : controlled) {
    const std::int64_t index = index_of(config_map->name(), name->name);
    const bool mine = widget_controller_of(*config_map)->uid == widget->uid();
    if (mine && index >= 0 && index < replicas) {
      if (!config_map->deletion_timestamp()) present.insert(index);
      continue;
    }
    const bool removed = co_await remove(ctx, config_map);
    ok = ok && removed;
  }
  for (std::int64_t i = 0; i < replicas; ++i) {
    if (present.count(i) != 0) continue;
    // Taken by a ConfigMap this Widget does not control: left alone (or being deleted above).
    if (config_maps_.by_namespace(name->ns).get(name->name + "-" + std::to_string(i)).ok()) continue;
    const bool created = co_await create(ctx, owned_config_map(*widget, i));
    ok = ok && created;
  }
  const auto ready = static_cast<std::int64_t>(present.size());
  if (ready_replicas_of(*widget) != ready) {
    const bool written = co_await write_status(ctx, widget, ready);
    ok = ok && written;
  }
  co_return ok;
}

}  // namespace

std::optional<std::string> validate_widget_params(const nlohmann::json& params) {
  if (params.is_null()) return std::nullopt;
  if (!params.is_object()) return "params must be a map (widget takes none), not " + params.dump();
  if (!params.empty()) {
    return "params: unknown key \"" + params.begin().key() + "\" (widget takes no params)";
  }
  return std::nullopt;
}

std::unique_ptr<Controller> make_widget(ControllerEnv env) {
  if (auto problem = validate_widget_params(env.params)) throw std::invalid_argument("widget: " + *problem);
  return std::make_unique<WidgetController>(env);
}

}  // namespace kubesim::scenarios::controllers
