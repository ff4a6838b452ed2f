// run_main: the command line (cli.cc) with the real parser and runner and the process's streams.
#include <unistd.h>

#include <iostream>

#include "kubesim/scenarios/cli.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/runner.h"

namespace kubesim::scenarios {

int run_main(int argc, char** argv, const Registry& registry, const LiveHook& live) {
  CliEnvironment env;
  env.load = [](const std::string& path, const Registry& r) { return load_scenario(path, r); };
  env.run = [](const Scenario& scenario, const Registry& r, const RunOptions& options) {
    return run_seed(scenario, r, options);
  };
  env.out = &std::cout;
  env.err = &std::cerr;
  env.err_is_terminal = ::isatty(STDERR_FILENO) == 1;
  env.live = live;
  std::vector<std::string> args(argv, argv + argc);
  if (args.empty()) args.emplace_back("kubesim");
  return run_command_line(args, registry, env);
}

}  // namespace kubesim::scenarios
