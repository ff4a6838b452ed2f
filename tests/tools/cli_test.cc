// The command line with a stub parser and a deterministic stub run: exit codes, usage errors that
// run nothing, the output files, --jobs, and shards merged back into the whole run.
#include "kubesim/tools/cli.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/tools/stubs.h"
#include "tests/tools/xml_check.h"

namespace kubesim::tools {
namespace {

using nlohmann::json;
using testing::CliRun;
using testing::read_file;
using testing::run_cli;
using testing::ScratchDir;
using testing::StubRunner;

// A library of three scenarios: "alpha" (5 seeds) breaks in seeds 2 and 4 when the runner says
// so, "beta" (3 seeds), and "unsafe" (4 seeds, mustFind atMostOneLeader).
struct Library {
  ScratchDir dir;
  std::string lib = dir.path("lib");
  std::string alpha = dir.write("lib/a.yaml", "name: alpha\nseeds: 5\n");
  std::string beta = dir.write("lib/b.yaml", "name: beta\nseeds: 3\n");
  std::string unsafe = dir.write("lib/c.yaml", "name: unsafe\nseeds: 4\nmustFind: atMostOneLeader\n");
};

void library_failures(StubRunner& runner, bool alpha_fails) {
  if (alpha_fails) runner.fail_every("alpha", 2);
  runner.fail_every("unsafe", 3);
}

TEST(CliTest, AllPassExitsZero) {
  Library l;
  StubRunner runner;
  library_failures(runner, false);
  const CliRun r = run_cli({"kubesim", "run", l.lib}, runner);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "PASS alpha (5 seeds)\n"
            "PASS beta (3 seeds)\n"
            "PASS unsafe: found atMostOneLeader in 1 of 4 seeds\n"
            "3 passed, 0 failed\n");
  EXPECT_EQ(r.err, "");  // not a terminal: no progress
  EXPECT_EQ(runner.calls().size(), 12u);
}

TEST(CliTest, AFailureExitsOneAndPrintsTheReplayCommandWithTheProgram) {
  Library l;
  StubRunner runner;
  library_failures(runner, true);
  const CliRun r = run_cli({"./my_test", "run", l.alpha, l.beta}, runner);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("FAIL alpha: 2 of 5 seeds broke checks\n"
                       "  scenario alpha (" + l.alpha + "), seed 2\n"
                       "  broke " + l.alpha + ":12:7: atMostOneLeader: leases/team-a/manager\n"
                       "  at 6.25s of virtual time\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  replay: ./my_test run " + l.alpha + " --seed 2\nPASS beta (3 seeds)\n"
                       "1 passed, 1 failed\n"),
            std::string::npos)
      << r.out;
}

TEST(CliTest, TheSeedFlags) {
  Library l;
  StubRunner runner;
  library_failures(runner, true);
  CliRun r = run_cli({"kubesim", "run", l.alpha, "--seed", "4"}, runner);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(runner.calls(), (std::vector<std::pair<std::string, std::uint64_t>>{{"alpha", 4}}));
  StubRunner again;
  library_failures(again, true);
  r = run_cli({"kubesim", "run", l.beta, "--seeds", "2"}, again);
  EXPECT_EQ(r.out, "PASS beta (2 seeds)\n1 passed, 0 failed\n");
}

struct UsageCase {
  std::vector<std::string> args;
  std::string message;
};

TEST(CliTest, UsageErrorsExitTwoAndRunNothing) {
  Library l;
  const std::string help = "Run 'kubesim run --help' for the flags.\n";
  const UsageCase cases[] = {
      {{"run", l.lib, "--shard", "3/2"},
       "kubesim run: --shard 3/2: K must be at least 0 and less than N (the shards of 2 are 0/2 to 1/2)\n"},
      {{"run", l.lib, "--shard", "x"}, "kubesim run: --shard x: expected K/N, two whole numbers such as 0/4\n"},
      {{"run", l.lib, "--seeds", "0"}, "kubesim run: --seeds 0: the number of seeds must be at least 1\n"},
      {{"run", l.lib, "--seeds", "3000000000"},
       "kubesim run: --seeds 3000000000: expected a whole number from 1 to 2147483647\n"},
      {{"run", l.lib, "--seeds", "many"}, "kubesim run: --seeds many: expected a whole number from 1 to 2147483647\n"},
      {{"run", l.lib, "--jobs", "0"}, "kubesim run: --jobs 0: at least 1 thread is needed\n"},
      {{"run", l.lib, "--seeds", "3", "--seed", "1"}, "kubesim run: --seeds and --seed: give one or the other\n"},
      {{"run", l.lib, "--seed", "-3"},
       "kubesim run: --seed -3: expected a whole number from 0 to 18446744073709551615\n"},
      {{"run", l.lib, "--seed", "18446744073709551616"},
       "kubesim run: --seed 18446744073709551616: expected a whole number from 0 to "
       "18446744073709551615\n"},
      {{"run", l.lib, "--live"},
       "kubesim run: --live: live mode is not built into this program\n"},
      {{"run"}, "kubesim run: name at least one scenario file or directory\n"},
      {{"run", l.lib, "--trace", l.dir.path("t.jsonl")},
       "kubesim run: --trace writes the trace of one run (one scenario, one seed), and this command "
       "makes 12; name one file and give --seed S\n"},
      {{"run", l.alpha, "--trace", l.dir.path("t.jsonl")},
       "kubesim run: --trace writes the trace of one run (one scenario, one seed), and this command "
       "makes 5; name one file and give --seed S\n"},
  };
  for (const auto& c : cases) {
    StubRunner runner;
    std::vector<std::string> args = {"kubesim"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliRun r = run_cli(args, runner);
    EXPECT_EQ(r.code, 2) << c.message;
    EXPECT_EQ(r.err, c.message + help);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(runner.calls().empty()) << c.message;
  }
}

TEST(CliTest, FlagsCli11RefusesExitTwoToo) {
  Library l;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"kubesim", "run", l.lib, "--bogus"},
        std::vector<std::string>{"kubesim", "run", l.lib, "--seeds", "many"},
        std::vector<std::string>{"kubesim", "walk"}, std::vector<std::string>{"kubesim"},
        std::vector<std::string>{"kubesim", "merge"}}) {
    StubRunner runner;
    const CliRun r = run_cli(args, runner);
    EXPECT_EQ(r.code, 2) << args.back() << ": " << r.err;
    EXPECT_TRUE(runner.calls().empty());
    EXPECT_NE(r.err.find("kubesim "), std::string::npos) << r.err;
  }
}

TEST(CliTest, HelpExitsZero) {
  StubRunner runner;
  const CliRun r = run_cli({"kubesim", "run", "--help"}, runner);
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--shard"), std::string::npos) << r.out;
}

TEST(CliTest, ListsTheControllerTypes) {
  scenarios::Registry registry;
  registry.register_controller(scenarios::ControllerType{"my-controller", "reconciles Foos", [](scenarios::ControllerEnv) {
                                                return std::unique_ptr<scenarios::Controller>();
                                              }, nullptr});
  registry.register_controller("bare", [](scenarios::ControllerEnv) { return std::unique_ptr<scenarios::Controller>(); });
  StubRunner runner;
  const CliRun r = run_cli({"kubesim", "run", "--list-controllers"}, runner, false, registry);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "bare\nmy-controller  reconciles Foos\n");
}

TEST(CliTest, BrokenFilesAreAllReportedAndNothingRuns) {
  ScratchDir dir;
  const std::string good = dir.write("lib/a.yaml", "name: a");
  const std::string bad = dir.write("lib/b.yaml", "name: b\nerror: 3:9: unknown key \"sedes\"\n"
                                                  "error: 5:3: processes[0].replicas: expected an integer");
  const std::string live = dir.write("lib/c.yaml", "name: c\nexec: 4:7");
  const std::string twin = dir.write("lib/d.yaml", "name: a");
  StubRunner runner;
  const CliRun r = run_cli({"kubesim", "run", dir.path("lib"), dir.path("nowhere")}, runner);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, dir.path("nowhere") + ": no such file or directory\n");
  const CliRun r2 = run_cli({"kubesim", "run", dir.path("lib")}, runner);
  EXPECT_EQ(r2.code, 2);
  // The live scenario found in the directory is skipped, not an error.
  EXPECT_EQ(r2.err, bad + ":3:9: unknown key \"sedes\"\n" + bad +
                        ":5:3: processes[0].replicas: expected an integer\n" + twin +
                        ": scenario name \"a\" is also the name of " + good +
                        "'s scenario; names must be unique\n"
                        "skipped " + live + ": scenario c runs exec processes (process \"op\"), which only kubesim run "
                        "--live starts\n"
                        "kubesim run: 3 errors; nothing was run\n");
  EXPECT_EQ(r2.out, "");
  EXPECT_TRUE(runner.calls().empty());
}

TEST(CliTest, AnOutputThatCannotBeWrittenIsBadInput) {
  Library l;
  StubRunner runner;
  const CliRun r = run_cli({"kubesim", "run", l.lib, "--junit", l.dir.path("no/such/dir/j.xml")}, runner);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("kubesim run: cannot write " + l.dir.path("no/such/dir/j.xml"), 0), 0u) << r.err;
  EXPECT_TRUE(runner.calls().empty());
}

TEST(CliTest, WritesResultsJunitReportAndTrace) {
  Library l;
  StubRunner runner;
  library_failures(runner, true);
  const CliRun r = run_cli({"kubesim", "run", l.lib, "--results", l.dir.path("r.json"), "--junit",
                            l.dir.path("j.xml"), "--report", l.dir.path("r.html")},
                           runner);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "results: " + l.dir.path("r.json") + "\njunit: " + l.dir.path("j.xml") +
                       "\nreport: " + l.dir.path("r.html") + "\n");
  const json results = json::parse(read_file(l.dir.path("r.json")));
  EXPECT_EQ(results["command"][1], "run");
  EXPECT_EQ(results["shard"], (json{{"index", 0}, {"count", 1}}));
  EXPECT_EQ(results["scenarios"].size(), 3u);
  EXPECT_EQ(results["scenarios"][0]["seeds"][1]["failures"][0]["at"], "6.25s");
  EXPECT_TRUE(results["scenarios"][0]["seeds"][1].contains("timeline"));
  EXPECT_EQ(testing::xml_problem(read_file(l.dir.path("j.xml"))), "");
  const std::string html = read_file(l.dir.path("r.html"));
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);

  StubRunner one;
  const CliRun t = run_cli({"kubesim", "run", l.beta, "--seed", "2", "--trace", l.dir.path("t.jsonl")}, one);
  EXPECT_EQ(t.code, 0);
  EXPECT_EQ(read_file(l.dir.path("t.jsonl")).substr(0, 11), "{\"seed\":2}\n");
}

TEST(CliTest, ProgressGoesToATerminalOnly) {
  Library l;
  StubRunner runner;
  library_failures(runner, false);
  const CliRun r = run_cli({"kubesim", "run", l.beta}, runner, /*terminal=*/true);
  EXPECT_EQ(r.out, "PASS beta (3 seeds)\n1 passed, 0 failed\n");
  EXPECT_NE(r.err.find("\r\033[K3/3 seeds, 0 failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(r.err.size() - 4), "\r\033[K");  // erased before the summary
}

json without_wall_times(json results) {
  for (auto& s : results["scenarios"]) {
    for (auto& w : s["wallSeconds"]) w = 0;
  }
  results.erase("command");
  return results;
}

TEST(CliTest, JobsDoNotChangeTheOutputOrTheResults) {
  Library l;
  std::vector<CliRun> runs;
  std::vector<json> results;
  for (const char* jobs : {"1", "2", "3"}) {
    StubRunner runner;
  library_failures(runner, true);
    const std::string file = l.dir.path(std::string("r") + jobs + ".json");
    runs.push_back(run_cli({"kubesim", "run", l.lib, "--jobs", jobs, "--results", file}, runner));
    results.push_back(without_wall_times(json::parse(read_file(file))));
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].out, runs[0].out);
    EXPECT_EQ(runs[i].code, runs[0].code);
    EXPECT_EQ(results[i], results[0]);
  }
}

TEST(CliTest, ThreeShardsMergeIntoTheUnshardedSummary) {
  Library l;
  StubRunner whole_runner;
  library_failures(whole_runner, true);
  const CliRun whole = run_cli({"kubesim", "run", l.lib, "--results", l.dir.path("whole.json")}, whole_runner);
  std::vector<std::string> merge = {"kubesim", "merge"};
  std::size_t calls = 0;
  for (int k = 0; k < 3; ++k) {
    StubRunner runner;
  library_failures(runner, true);
    const std::string file = l.dir.path("shard" + std::to_string(k) + ".json");
    const CliRun part = run_cli({"kubesim", "run", l.lib, "--shard", std::to_string(k) + "/3",
                                 "--results", file},
                                runner);
    EXPECT_NE(part.code, 2) << part.err;
    calls += runner.calls().size() - runner.timeline_calls().size();
    merge.push_back(file);
  }
  EXPECT_EQ(calls, 12u);
  merge.insert(merge.end(), {"--results", l.dir.path("merged.json"), "--junit", l.dir.path("m.xml"),
                             "--report", l.dir.path("m.html")});
  StubRunner none;
  const CliRun merged = run_cli(merge, none);
  EXPECT_TRUE(none.calls().empty());
  EXPECT_EQ(merged.code, whole.code);
  EXPECT_EQ(merged.out, whole.out);
  EXPECT_EQ(without_wall_times(json::parse(read_file(l.dir.path("merged.json")))),
            without_wall_times(json::parse(read_file(l.dir.path("whole.json")))));
  EXPECT_EQ(testing::xml_problem(read_file(l.dir.path("m.xml"))), "");
  EXPECT_NE(read_file(l.dir.path("m.html")).find("<svg"), std::string::npos);
}

TEST(CliTest, MergeRefusesWhatDoesNotFit) {
  Library l;
  StubRunner runner;
  library_failures(runner, false);
  run_cli({"kubesim", "run", l.lib, "--shard", "0/2", "--results", l.dir.path("s0.json")}, runner);
  l.dir.write("junk.json", "{not json");
  l.dir.write("other.json", "{\"kind\": \"Other\"}");
  const UsageCase cases[] = {
      {{l.dir.path("s0.json")}, "kubesim merge: shard 1/2 is missing: the merge would not be the whole run\n"},
      {{l.dir.path("s0.json"), l.dir.path("s0.json")}, "kubesim merge: shard 0/2 is given more than once\n"},
      {{l.dir.path("junk.json")}, "kubesim merge: " + l.dir.path("junk.json") + ": not JSON\n"},
      {{l.dir.path("other.json")},
       "kubesim merge: " + l.dir.path("other.json") + ": kind: not a kubesim results file\n"},
      {{l.dir.path("none.json")}, "kubesim merge: cannot read " + l.dir.path("none.json") + "\n"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"kubesim", "merge"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    StubRunner none;
    const CliRun r = run_cli(args, none);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, c.message);
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace kubesim::tools
