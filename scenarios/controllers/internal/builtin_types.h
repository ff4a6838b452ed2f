// The built-in controller types' factories and params validators, registered by
// register_builtin_controllers (builtins.cc). Each type's controller lives in its own file.
#ifndef KUBESIM_SCENARIOS_CONTROLLERS_INTERNAL_BUILTIN_TYPES_H_
#define KUBESIM_SCENARIOS_CONTROLLERS_INTERNAL_BUILTIN_TYPES_H_

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kubesim/scenarios/registry.h"

namespace kubesim::scenarios::controllers {

// configmap-mirror (configmap_mirror.cc). The factory expects params its validator accepted.
std::optional<std::string> validate_configmap_mirror_params(const nlohmann::json& params);
std::unique_ptr<Controller> make_configmap_mirror(ControllerEnv env);

// widget (widget.cc): no params.
std::optional<std::string> validate_widget_params(const nlohmann::json& params);
std::unique_ptr<Controller> make_widget(ControllerEnv env);

}  // namespace kubesim::scenarios::controllers

#endif  // KUBESIM_SCENARIOS_CONTROLLERS_INTERNAL_BUILTIN_TYPES_H_
