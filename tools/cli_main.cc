// run_main: the command line (cli.cc) with the real parser and runner and the process's streams.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <iostream>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/tools/cli.h"

namespace kubesim::tools {

namespace {

// Set by the first Ctrl-C. A signal handler can reach nothing but a global, hence this one.
std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  if (interrupted.exchange(true)) ::_exit(130);  // the second Ctrl-C
  static const char kMessage[] =
      "\ninterrupted: no further run starts; the runs under way finish and the outputs are "
      "written (Ctrl-C again quits at once)\n";
  const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
}

void catch_interrupts() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
}

}  // namespace

int run_main(int argc, char** argv, const scenarios::Registry& registry, const LiveHook& live) {
  CliEnvironment env;
  env.load = scenarios::parse_source;
  env.run = [](const scenarios::Scenario& scenario, const scenarios::Registry& r, const runner::RunOptions& options) {
    return runner::run_seed(scenario, r, options);
  };
  env.out = &std::cout;
  env.err = &std::cerr;
  env.err_is_terminal = ::isatty(STDERR_FILENO) == 1;
  env.live = live;
  std::vector<std::string> args(argv, argv + argc);
  if (args.empty()) args.emplace_back("kubesim");
  if (args.size() >= 2 && args[1] == "run") {
    catch_interrupts();
    env.interrupt = &interrupted;
  }
  return run_command_line(args, registry, env);
}

}  // namespace kubesim::tools
