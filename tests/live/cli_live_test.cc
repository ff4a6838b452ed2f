// `run --live` through the command line: the hook's check and run function, and the exec lock a
// scenario file gives an exec process.
#include "kubesim/tools/cli.h"

#include <gtest/gtest.h>

#include "kubesim/live/live.h"
#include "kubesim/scenarios/parse.h"
#include "tests/tools/stubs.h"

namespace kubesim::live {
namespace {

using tools::testing::ScratchDir;
using tools::testing::StubRunner;

struct LiveCli {
  std::vector<std::string> checked;
  std::vector<std::string> outputs;
  StubRunner runner;
  int code = -1;
  std::string out, err;

  void run(const std::vector<std::string>& args, std::vector<std::string> errors = {}) {
    std::ostringstream o, e;
    tools::CliEnvironment env;
    env.load = tools::testing::stub_load;
    env.run = [](const scenarios::Scenario&, const scenarios::Registry&, const runner::RunOptions&) -> runner::SeedResult {
      throw std::logic_error("a live run went to the virtual run function");
    };
    env.out = &o;
    env.err = &e;
    env.live.check = [this, errors](const scenarios::Scenario& s, std::vector<std::string>& notes) {
      checked.push_back(s.name);
      notes.push_back(s.file + ": a note");
      return errors;
    };
    env.live.run = [this](const std::string& output, std::ostream&) {
      outputs.push_back(output);
      return runner.function();
    };
    code = tools::run_command_line(args, scenarios::Registry{}, env);
    out = o.str();
    err = e.str();
  }
};

TEST(LiveCli, RunsExecScenariosThroughTheHook) {
  ScratchDir dir;
  const std::string file = dir.write("a.txt", "name: alpha\nseeds: 2\nexec: 4:7\n");
  LiveCli cli;
  cli.run({"kubesim", "run", "--live", "--live-output", dir.path("out"), file});
  EXPECT_EQ(cli.code, 0) << cli.err;
  EXPECT_EQ(cli.checked, std::vector<std::string>{"alpha"});
  EXPECT_EQ(cli.outputs, std::vector<std::string>{dir.path("out")});
  EXPECT_EQ(cli.runner.calls().size(), 2u);
  EXPECT_NE(cli.err.find(file + ": a note\n"), std::string::npos) << cli.err;
}

TEST(LiveCli, TheHooksErrorsAreBadInput) {
  ScratchDir dir;
  const std::string file = dir.write("a.txt", "name: alpha\nexec: 4:7\n");
  LiveCli cli;
  cli.run({"kubesim", "run", "--live", file}, {file + ":4:7: command: \"x\" is not an executable file"});
  EXPECT_EQ(cli.code, 2);
  EXPECT_TRUE(cli.runner.calls().empty());
  EXPECT_EQ(cli.err, file + ": a note\n" + file + ":4:7: command: \"x\" is not an executable file\n" +
                         "kubesim run: 1 error; nothing was run\n");
}

TEST(LiveCli, LiveOutputDefaultsToKubesimLive) {
  ScratchDir dir;
  const std::string file = dir.write("a.txt", "name: alpha\nseeds: 1\n");
  LiveCli cli;
  cli.run({"kubesim", "run", "--live", file});
  EXPECT_EQ(cli.code, 0) << cli.err;
  EXPECT_EQ(cli.outputs, std::vector<std::string>{"kubesim-live"});
}

TEST(LiveCli, LiveOutputWithoutLiveIsAUsageError) {
  ScratchDir dir;
  const std::string file = dir.write("a.txt", "name: alpha\nseeds: 1\n");
  LiveCli cli;
  cli.run({"kubesim", "run", "--live-output", dir.path("out"), file});
  EXPECT_EQ(cli.code, 2);
  EXPECT_EQ(cli.err, "kubesim run: --live-output: only live runs write files; add --live\n"
                     "Run 'kubesim run --help' for the flags.\n");
  EXPECT_TRUE(cli.runner.calls().empty());
}

TEST(LiveCli, AnExecProcessNamesTheLockItTakes) {
  const std::string text = R"(name: s
duration: 10s
processes:
  - name: op
    replicas: 2
    exec: {command: [python3, op.py], lock: leases/kube-system/op}
expect:
  always:
    - atMostOneLeader: leases/kube-system/op
    - atMostOneLeader: leases/kube-system/other
)";
  const scenarios::ParseResult parsed = scenarios::parse_scenario(text, "s.yaml", scenarios::Registry::with_builtins());
  ASSERT_EQ(parsed.errors.size(), 1u);
  EXPECT_EQ(parsed.errors[0].text(),
            "s.yaml:10:24: atMostOneLeader: no elector holds lock \"leases/kube-system/other\" "
            "(electors hold: leases/kube-system/op)");
  const scenarios::ParseResult good = scenarios::parse_scenario(text.substr(0, text.rfind("    - atMostOneLeader")), "s.yaml",
                                          scenarios::Registry::with_builtins());
  ASSERT_TRUE(good.errors.empty()) << good.errors[0].text();
  ASSERT_TRUE(good.scenario->processes[0].exec->lock);
  EXPECT_EQ(good.scenario->processes[0].exec->lock->text(), "leases/kube-system/op");
}

}  // namespace
}  // namespace kubesim::live
