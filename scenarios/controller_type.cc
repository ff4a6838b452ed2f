#include "kubesim/testing/scenario_type.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

namespace kubesim::testing {
namespace {

// A scenario replica's controller: one Manager over the replica's process, client and informer
// factory, filled by the setup function when made; run() runs its controllers.
class ManagerController final : public scenarios::Controller {
 public:
  ManagerController(const scenarios::ControllerEnv& env, const SetupFn& setup)
      : manager_(ManagerEnv{env.process, env.client, env.informers}) {
    setup(manager_);
  }

  sim::Task<void> run(sim::Context ctx) override { return manager_.run(std::move(ctx)); }
  std::size_t queue_depth() const override { return manager_.queue_depth(); }

 private:
  Manager manager_;
};

// A type made from a setup function takes no params: they would be silently ignored.
std::optional<std::string> validate_no_params(const std::string& type, const nlohmann::json& params) {
  if (params.is_null()) return std::nullopt;
  if (!params.is_object()) return "params must be a map (" + type + " takes none), not " + params.dump();
  if (!params.empty()) return "params: unknown key \"" + params.begin().key() + "\" (" + type + " takes no params)";
  return std::nullopt;
}

}  // namespace

scenarios::ControllerType controller_type(std::string name, SetupFn setup, std::string description) {
  if (!setup) throw std::invalid_argument("controller_type \"" + name + "\": the setup function is empty");
  scenarios::ControllerType type;
  type.name = name;
  type.description = description.empty() ? "controllers built by a kubesim::testing setup function"
                                         : std::move(description);
  type.make = [setup = std::move(setup)](scenarios::ControllerEnv env) -> std::unique_ptr<scenarios::Controller> {
    return std::make_unique<ManagerController>(env, setup);
  };
  type.validate = [name](const nlohmann::json& params) { return validate_no_params(name, params); };
  return type;
}

}  // namespace kubesim::testing
