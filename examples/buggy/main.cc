// buggy_scenarios: `kubesim run` (and explore) with the planted-bug corpus registered beside the
// built-in types: each controller as NAME (with its bug) and NAME-fixed (README.md).
//
//   buggy_scenarios run scenarios/stale-read.yaml
//   buggy_scenarios run repro/stale-read.yaml       # fails: the bug, found
#include "buggy.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/tools/cli.h"

int main(int argc, char** argv) {
  auto registry = kubesim::scenarios::Registry::with_builtins();
  buggy::register_all(registry);
  return kubesim::tools::run_main(argc, argv, registry);
}
