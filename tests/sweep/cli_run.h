// `kubesim run` and `kubesim merge` as the experiments' tests call them: through
// run_command_line with the real loader and runner (or a given run function), stdout and stderr
// captured; the example experiment; and reading a file back.
#ifndef KUBESIM_TESTS_SCENARIOS_EXPERIMENTS_CLI_RUN_H_
#define KUBESIM_TESTS_SCENARIOS_EXPERIMENTS_CLI_RUN_H_

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/tools/cli.h"

namespace kubesim::sweep::testing {

inline const std::filesystem::path kExample = std::filesystem::path(__FILE__).parent_path() /
                                              "../../scenarios/experiments/failover-vs-lease.yaml";

struct Outcome {
  int code = 0;
  std::string out, err;
};

// args without the program: {"run", FILE, …}. `run` defaults to run_seed.
inline Outcome kubesim(std::vector<std::string> args, runner::RunFunction run = {},
                       const std::atomic<bool>* interrupt = nullptr) {
  std::ostringstream out, err;
  tools::CliEnvironment env;
  env.load = scenarios::parse_source;
  env.run = run ? std::move(run) : [](const scenarios::Scenario& s, const scenarios::Registry& r, const runner::RunOptions& o) {
    return runner::run_seed(s, r, o);
  };
  env.out = &out;
  env.err = &err;
  env.interrupt = interrupt;
  args.insert(args.begin(), "kubesim");
  const int code = tools::run_command_line(args, scenarios::Registry::with_builtins(), env);
  return Outcome{code, out.str(), err.str()};
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kubesim::sweep::testing

#endif  // KUBESIM_TESTS_SCENARIOS_EXPERIMENTS_CLI_RUN_H_
