// widget: each example.com/v1 Widget owns spec.replicas ConfigMaps in its namespace, named
// NAME-0 … NAME-(replicas-1), each labelled example.com/widget=NAME (shortened past 63
// characters: controller::label_value) and carrying a controller
// owner reference to the Widget; any other ConfigMap it controls is deleted. Then
// status.readyReplicas, the number of those ConfigMaps in the cache, is written through the
// /status subresource when it differs from what the Widget shows.
//
// A controller built with kubesim::controller's ControllerBuilder (for_ Widgets, owns
// ConfigMaps), run by a Manager. The work queue key is the Widget's "namespace/name": a Widget's
// own events queue it, and a ConfigMap's events queue the Widget its controller reference names
// (sample-controller's handleObject). The fake API server has no garbage collector, so the controller also deletes
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

#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/manager.h"
#include "kubesim/scenarios/controller_type.h"
#include "kubesim/scenarios/controllers.h"
#include "scenarios/internal/builtin_types.h"

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
                         {"labels", {{kWidgetLabel, controller::label_value(widget.name())}}},
                         {"ownerReferences", nlohmann::json::array({std::move(owner)})}};
  return api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(meta)}});
}

using controller::ReconcileContext;
using controller::ReconcileRequest;
using controller::ReconcileResult;

// The cached ConfigMaps of `ns` that a Widget named `name` controls (whatever its uid).
std::vector<api::ObjectPtr> controlled_by(const ReconcileContext& rc, const std::string& ns, std::string_view name) {
  std::vector<api::ObjectPtr> out;
  for (auto& config_map : rc.list(api::kConfigMaps, ns)) {
    const api::OwnerReference* owner = widget_controller_of(*config_map);
    if (owner != nullptr && owner->name == name) out.push_back(std::move(config_map));
  }
  return out;
}

sim::Task<bool> create(ReconcileContext rc, api::ObjectPtr config_map) {
  auto created = co_await rc.client().create(rc.ctx(), api::kConfigMaps, std::string(config_map->namespace_()),
                                             config_map, api::CreateOptions());
  co_return created.ok() || api::is_already_exists(created.status());
}

sim::Task<bool> write_status(ReconcileContext rc, api::ObjectPtr widget, std::int64_t ready) {
  // Carries the cached resourceVersion: a Widget changed since is a Conflict, retried.
  api::ObjectPtr next = widget->edited([&](nlohmann::json& j) { j["status"]["readyReplicas"] = ready; });
  auto updated = co_await rc.client().update_status(rc.ctx(), kWidgets, std::string(widget->namespace_()),
                                                    std::move(next), api::UpdateOptions());
  co_return updated.ok();
}

// Deletes everything in `controlled` (the garbage collector's part, for a Widget that is gone).
sim::Task<bool> remove_all(ReconcileContext rc, std::vector<api::ObjectPtr> controlled) {
  bool ok = true;
  for (const auto& config_map : controlled) {
    const bool removed = co_await delete_cached_config_map(rc, config_map);
    ok = ok && removed;
  }
  co_return ok;
}

// false when some write must be retried (rate-limited).
sim::Task<bool> reconcile_widget(ReconcileContext rc, ReconcileRequest request) {
  api::ObjectPtr widget = rc.get(kWidgets, request.ns, request.name);
  std::vector<api::ObjectPtr> controlled = controlled_by(rc, request.ns, request.name);
  if (widget == nullptr) {
    const bool removed = co_await remove_all(rc, std::move(controlled));
    co_return removed;
  }
  if (widget->deletion_timestamp()) co_return true;
  bool ok = true;
  const std::int64_t replicas = replicas_of(*widget);
  std::set<std::int64_t> present;
  for (const auto& config_map : controlled) {
    const std::int64_t index = index_of(config_map->name(), request.name);
    const bool mine = widget_controller_of(*config_map)->uid == widget->uid();
    if (mine && index >= 0 && index < replicas) {
      if (!config_map->deletion_timestamp()) present.insert(index);
      continue;
    }
    const bool removed = co_await delete_cached_config_map(rc, config_map);
    ok = ok && removed;
  }
  for (std::int64_t i = 0; i < replicas; ++i) {
    if (present.count(i) != 0) continue;
    // Taken by a ConfigMap this Widget does not control: left alone (or being deleted above).
    if (rc.get(api::kConfigMaps, request.ns, request.name + "-" + std::to_string(i)) != nullptr) continue;
    const bool created = co_await create(rc, owned_config_map(*widget, i));
    ok = ok && created;
  }
  const auto ready = static_cast<std::int64_t>(present.size());
  if (ready_replicas_of(*widget) != ready) {
    const bool written = co_await write_status(rc, widget, ready);
    ok = ok && written;
  }
  co_return ok;
}

sim::Task<ReconcileResult> reconcile(ReconcileContext rc, ReconcileRequest request) {
  const bool ok = co_await reconcile_widget(std::move(rc), std::move(request));
  co_return ok ? ReconcileResult::done() : ReconcileResult::requeue();
}

// One controller, "widget": a Widget's own events queue its key, a ConfigMap's events the key of
// the Widget its controller reference names (owns).
void setup_widget(controller::Manager& manager, int workers) {
  controller::ControllerBuilder(manager)
      .named("widget")
      .for_(kWidgets)
      .owns(api::kConfigMaps)
      .workers(workers)
      .reconcile(reconcile);
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
  const int workers = std::max(1, env.workers);
  return manager_controller(env, [workers](controller::Manager& manager) { setup_widget(manager, workers); });
}

}  // namespace kubesim::scenarios::controllers
