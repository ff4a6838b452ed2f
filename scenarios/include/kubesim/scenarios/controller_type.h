// The same controller in scenario files: a controller type for the scenario Registry
// (kubesim/scenarios/registry.h) made from a setup function, so that a test binary can hand
// `kubesim run`'s whole command line its own controllers.
//
//   int main(int argc, char** argv) {
//     auto registry = kubesim::scenarios::Registry::with_builtins();
//     registry.register_controller(kubesim::testing::controller_type("widgets", widgets::setup));
//     return kubesim::scenarios::run_main(argc, argv, registry);
//   }
//
// Each replica of a scenario process gets a Manager over the replica's process, client and
// informer factory, filled by `setup`; the scenario's election (onlyWhenLeader) decides when
// Manager::run runs. `params` from the file are not given to the setup function; a type that
// takes params registers its own ControllerType.
#ifndef KUBESIM_TESTING_SCENARIO_TYPE_H_
#define KUBESIM_TESTING_SCENARIO_TYPE_H_

#include <string>

#include "kubesim/scenarios/registry.h"
#include "kubesim/testing/controller.h"

namespace kubesim::testing {

scenarios::ControllerType controller_type(std::string name, SetupFn setup, std::string description = {});

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_SCENARIO_TYPE_H_
