#include "kubesim/scenarios/registry.h"

#include <stdexcept>

#include "kubesim/scenarios/controllers.h"

namespace kubesim::scenarios {

Registry Registry::with_builtins() {
  Registry registry;
  register_builtin_controllers(registry);
  return registry;
}

void Registry::register_controller(ControllerType type) {
  if (type.name.empty()) throw std::invalid_argument("register_controller: the type has no name");
  if (!type.make) {
    throw std::invalid_argument("register_controller: type \"" + type.name + "\" has no factory");
  }
  if (types_.count(type.name) != 0) {
    throw std::invalid_argument("register_controller: type \"" + type.name +
                                "\" is already registered");
  }
  std::string name = type.name;
  types_.emplace(std::move(name), std::move(type));
}

void Registry::register_controller(std::string name, ControllerFactory make,
                                   ParamsValidator validate) {
  ControllerType type;
  type.name = std::move(name);
  type.make = std::move(make);
  type.validate = std::move(validate);
  register_controller(std::move(type));
}

const ControllerType* Registry::find(std::string_view name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  out.reserve(types_.size());
  for (const auto& [name, type] : types_) out.push_back(name);
  return out;
}

}  // namespace kubesim::scenarios
