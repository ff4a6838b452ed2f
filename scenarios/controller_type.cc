#include "kubesim/scenarios/controller_type.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

namespace kubesim::scenarios {
namespace {

class ManagerController final : public Controller {
 public:
  ManagerController(const ControllerEnv& env, const controller::SetupFn& setup)
      : manager_(controller::ManagerEnv{env.process, env.client, env.informers}, options(env)) {
    setup(manager_);
  }

  static controller::ManagerOptions options(const ControllerEnv& env) {
    controller::ManagerOptions options;
    options.metrics = env.metrics;
    return options;
  }

  sim::Task<void> run(sim::Context ctx) override { return manager_.run(std::move(ctx)); }
  std::size_t queue_depth() const override { return manager_.queue_depth(); }

 private:
  controller::Manager manager_;
};

// A type made from a setup function takes no params: they would be silently ignored.
std::optional<std::string> validate_no_params(const std::string& type, const nlohmann::json& params) {
  if (params.is_null()) return std::nullopt;
  if (!params.is_object()) return "params must be a map (" + type + " takes none), not " + params.dump();
  if (!params.empty()) return "params: unknown key \"" + params.begin().key() + "\" (" + type + " takes no params)";
  return std::nullopt;
}

}  // namespace

std::unique_ptr<Controller> manager_controller(const ControllerEnv& env, const controller::SetupFn& setup) {
  return std::make_unique<ManagerController>(env, setup);
}

ControllerType controller_type(std::string name, controller::SetupFn setup, std::string description) {
  if (!setup) throw std::invalid_argument("controller_type \"" + name + "\": the setup function is empty");
  ControllerType type;
  type.name = name;
  type.description = description.empty() ? "controllers built by a kubesim::controller setup function"
                                          : std::move(description);
  type.make = [setup = std::move(setup)](ControllerEnv env) -> std::unique_ptr<Controller> {
    return manager_controller(env, setup);
  };
  type.validate = [name](const nlohmann::json& params) { return validate_no_params(name, params); };
  return type;
}

}  // namespace kubesim::scenarios
