// register_builtin_controllers and widget_crd (kubesim/scenarios/controllers.h), and what the
// built-in controllers' reconciles share (internal/builtin_types.h).
#include "kubesim/scenarios/controllers.h"

#include <string>
#include <utility>

#include "kubesim/api/options.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "scenarios/internal/builtin_types.h"

namespace kubesim::scenarios {

void register_builtin_controllers(Registry& registry) {
  ControllerType mirror;
  mirror.name = "configmap-mirror";
  mirror.description =
      "keeps a copy of every ConfigMap of params.source in params.target and deletes the rest";
  mirror.make = controllers::make_configmap_mirror;
  mirror.validate = controllers::validate_configmap_mirror_params;
  registry.register_controller(std::move(mirror));

  ControllerType widget;
  widget.name = "widget";
  widget.description =
      "keeps spec.replicas owned ConfigMaps per example.com/v1 Widget and writes status.readyReplicas";
  widget.make = controllers::make_widget;
  widget.validate = controllers::validate_widget_params;
  registry.register_controller(std::move(widget));
}

nlohmann::json widget_crd() {
  using nlohmann::json;
  json spec_schema = {{"type", "object"},
                      {"properties", {{"replicas", {{"type", "integer"}, {"minimum", 0}}}}}};
  json status_schema = {{"type", "object"},
                        {"properties", {{"readyReplicas", {{"type", "integer"}}}}}};
  json schema = {{"type", "object"},
                 {"properties", {{"spec", std::move(spec_schema)}, {"status", std::move(status_schema)}}}};
  json version = {{"name", "v1"},
                  {"served", true},
                  {"storage", true},
                  {"subresources", {{"status", json::object()}}},
                  {"schema", {{"openAPIV3Schema", std::move(schema)}}}};
  json names = {{"plural", "widgets"}, {"singular", "widget"}, {"kind", "Widget"}, {"listKind", "WidgetList"}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "widgets.example.com"}}},
          {"spec",
           {{"group", "example.com"},
            {"scope", "Namespaced"},
            {"names", std::move(names)},
            {"versions", json::array({std::move(version)})}}}};
}

namespace controllers {

sim::Task<bool> delete_cached_config_map(controller::ReconcileContext rc, api::ObjectPtr config_map) {
  api::DeleteOptions options;
  options.preconditions.uid = std::string(config_map->uid());
  auto deleted = co_await rc.client().delete_(rc.ctx(), api::kConfigMaps, std::string(config_map->namespace_()),
                                              std::string(config_map->name()), std::move(options));
  co_return deleted.ok() || api::is_not_found(deleted.status());
}

}  // namespace controllers
}  // namespace kubesim::scenarios
