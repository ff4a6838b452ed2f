// `kubesim run` with the Widget controller registered as the controller type "widgets", so that
// scenario files can run it: widget_scenarios run scenarios/widgets-leader-crash.yaml
#include "kubesim/tools/cli.h"
#include "kubesim/scenarios/controller_type.h"
#include "kubesim/scenarios/registry.h"
#include "widget.h"

int main(int argc, char** argv) {
  auto registry = kubesim::scenarios::Registry::with_builtins();
  registry.register_controller(kubesim::scenarios::controller_type(
      "widgets", widgets::setup, "the Widget example controller (examples/widget)"));
  return kubesim::tools::run_main(argc, argv, registry);
}
