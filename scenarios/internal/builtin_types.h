// The built-in controller types' factories and params validators, registered by
// register_builtin_controllers (builtins.cc), and what their reconciles share. Each type's
// controller lives in its own file.
#ifndef KUBESIM_SCENARIOS_INTERNAL_BUILTIN_TYPES_H_
#define KUBESIM_SCENARIOS_INTERNAL_BUILTIN_TYPES_H_

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/controller/builder.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/task.h"

namespace kubesim::scenarios::controllers {

// configmap-mirror (configmap_mirror.cc). The factory expects params its validator accepted.
std::optional<std::string> validate_configmap_mirror_params(const nlohmann::json& params);
std::unique_ptr<Controller> make_configmap_mirror(ControllerEnv env);

// widget (widget.cc): no params.
std::optional<std::string> validate_widget_params(const nlohmann::json& params);
std::unique_ptr<Controller> make_widget(ControllerEnv env);

// Deletes `config_map` as the cache showed it: on the condition that it is still that uid (one
// created again since is a Conflict). True when it is gone (NotFound included), false when the
// delete must be retried.
sim::Task<bool> delete_cached_config_map(controller::ReconcileContext rc, api::ObjectPtr config_map);

}  // namespace kubesim::scenarios::controllers

#endif  // KUBESIM_SCENARIOS_INTERNAL_BUILTIN_TYPES_H_
