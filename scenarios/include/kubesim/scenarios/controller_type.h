// The same controller in scenario files: a controller type for the scenario Registry
// (registry.h) made from a kubesim::controller setup function, so that a program can hand
// `kubesim run`'s whole command line its own controllers.
//
//   int main(int argc, char** argv) {
//     auto registry = kubesim::scenarios::Registry::with_builtins();
//     registry.register_controller(kubesim::scenarios::controller_type("widgets", widgets::setup));
//     return kubesim::scenarios::run_main(argc, argv, registry);
//   }
//
// Each replica of a scenario process gets a Manager over the replica's process, client and
// informer factory, filled by `setup`; the scenario's election (onlyWhenLeader) decides when
// Manager::run runs. `params` from the file are not given to the setup function; a type that
// takes params registers its own ControllerType, whose factory may fill a Manager the same way
// (manager_controller; the built-in types do).
#ifndef KUBESIM_SCENARIOS_CONTROLLER_TYPE_H_
#define KUBESIM_SCENARIOS_CONTROLLER_TYPE_H_

#include <memory>
#include <string>

#include "kubesim/controller/manager.h"
#include "kubesim/scenarios/registry.h"

namespace kubesim::scenarios {

// Throws std::invalid_argument when `setup` is empty.
ControllerType controller_type(std::string name, controller::SetupFn setup,
                               std::string description = {});

// A replica's controller: a Manager over env's process, client and informer factory, filled by
// `setup` now (its informers are taken before the runner starts the factory); run() runs its
// controllers, queue_depth() is the manager's. env.params and env.workers are the caller's to
// read before.
std::unique_ptr<Controller> manager_controller(const ControllerEnv& env,
                                               const controller::SetupFn& setup);

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_CONTROLLER_TYPE_H_
