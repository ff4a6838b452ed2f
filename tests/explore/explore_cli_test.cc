// `PROGRAM explore`: exit codes, the report, and bad input refused before anything runs.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "kubesim/explore/explore.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/tools/cli.h"
#include "tests/explore/child_maker.h"

namespace kubesim::explore {
namespace {

namespace fs = std::filesystem;

std::string scenario(const std::string& type) {
  return "name: " + type +
         "\nduration: 1m\nseeds: 1\nnetwork: {latency: 5ms}\n"
         "cluster:\n  objects:\n"
         "    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}\n"
         "    - {apiVersion: v1, kind: Namespace, metadata: {name: dst}}\n"
         "processes:\n  - name: ctl\n    run:\n      - controller: {type: " + type + "}\n"
         "workload:\n  - every: 5s\n    until: 20s\n"
         "    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: s-, namespace: src}}}\n";
}

class ExploreCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kubesim-explore-cli-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "buggy.yaml") << scenario("child-maker");
    std::ofstream(dir_ / "fixed.yaml") << scenario("child-maker-fixed");
    std::ofstream(dir_ / "broken.yaml") << "name: b\nduration: 1m\nseeds: [1, 1]\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  int run(std::vector<std::string> args) {
    args.insert(args.begin(), {"kubesim", "explore"});
    out_.str("");
    err_.str("");
    tools::CliEnvironment env;
    env.load = scenarios::parse_source;
    env.run = [this](const scenarios::Scenario& s, const scenarios::Registry& r, const runner::RunOptions& o) {
      ++runs_;
      return runner::run_seed(s, r, o);
    };
    env.out = &out_;
    env.err = &err_;
    return tools::explore_command_line(args, testing::child_maker_registry(), env);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
  std::ostringstream out_, err_;
  std::atomic<int> runs_{0};
};

TEST_F(ExploreCli, AFindingExitsOneAndWritesTheFile) {
  EXPECT_EQ(run({path("buggy.yaml"), "--budget", "20", "--out", path("out")}), 1) << err_.str();
  EXPECT_NE(out_.str().find("FOUND (seed 1): {count: {resource: configmaps, namespace: dst}, equals: 4} broken at 1m0s"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("    kubesim run " + path("out") + "/child-maker.min.yaml\n"), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("\nfamily      points    runs  failures\ncrash            1       1         1\n"),
            std::string::npos)
      << out_.str();
  EXPECT_TRUE(fs::exists(dir_ / "out" / "child-maker.min.yaml"));
  EXPECT_EQ(err_.str(), "");  // no progress line: stderr is not a terminal
}

TEST_F(ExploreCli, NothingFoundExitsZeroWithTheTable) {
  EXPECT_EQ(run({path("fixed.yaml"), "--budget", "8", "--jobs", "2", "--out", path("out")}), 0) << err_.str();
  EXPECT_NE(out_.str().find("explore child-maker-fixed: 1 reference run and 8 perturbed runs in "), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("nothing found within the budget\n"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("\nrandom           "), std::string::npos) << out_.str();
  EXPECT_EQ(runs_, 9);
}

TEST_F(ExploreCli, ABudgetInTimeStopsTheSearch) {
  EXPECT_EQ(run({path("fixed.yaml"), "--budget", "1ms", "--out", path("out")}), 0) << err_.str();
  EXPECT_NE(out_.str().find("nothing found within the budget (the time ran out)\n"), std::string::npos) << out_.str();
}

struct BadInput {
  const char* name;
  std::vector<std::string> args;  // "DIR/" is replaced by the test's directory
  std::string error;
};

class ExploreCliBadInput : public ExploreCli, public ::testing::WithParamInterface<BadInput> {};

TEST_P(ExploreCliBadInput, ExitsTwoBeforeAnythingRuns) {
  std::vector<std::string> args;
  for (std::string a : GetParam().args) {
    if (a.rfind("DIR/", 0) == 0) a = path(a.substr(4));
    args.push_back(a);
  }
  std::string error = GetParam().error;
  for (std::size_t at; (at = error.find("DIR/")) != std::string::npos;) error.replace(at, 4, path(""));
  EXPECT_EQ(run(args), 2);
  EXPECT_EQ(err_.str(), error);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(runs_, 0);
}

const std::string kHelp = "Run 'kubesim explore --help' for the flags.\n";

const BadInput kBadInputs[] = {
    {"MissingFile", {"DIR/none.yaml"},
     "DIR/none.yaml: cannot read the file: No such file or directory\nkubesim explore: 1 error; nothing was run\n"},
    {"BrokenScenario", {"DIR/broken.yaml"},
     "DIR/broken.yaml:3:12: seeds: seed 1 is listed twice\nkubesim explore: 1 error; nothing was run\n"},
    {"NoFile", {}, "kubesim explore: file is required\n" + kHelp},
    {"BadBudget", {"DIR/fixed.yaml", "--budget", "lots"},
     "kubesim explore: --budget lots: expected a number of runs (1000) or a duration (5m, 90s)\n" + kHelp},
    {"ZeroBudget", {"DIR/fixed.yaml", "--budget", "0"}, "kubesim explore: --budget 0: at least 1 run is needed\n" + kHelp},
    {"ZeroTime", {"DIR/fixed.yaml", "--budget", "0s"}, "kubesim explore: --budget 0s: the time must be positive\n" + kHelp},
    {"NoJobs", {"DIR/fixed.yaml", "--jobs", "0"}, "kubesim explore: --jobs 0: at least 1 thread is needed\n" + kHelp},
    {"NoSeeds", {"DIR/fixed.yaml", "--seeds", "0"},
     "kubesim explore: --seeds 0: the number of seeds must be at least 1\n" + kHelp},
    {"OutIsAFile", {"DIR/fixed.yaml", "--out", "DIR/fixed.yaml"},
     "kubesim explore: --out DIR/fixed.yaml: not a directory\n" + kHelp},
};

INSTANTIATE_TEST_SUITE_P(Cases, ExploreCliBadInput, ::testing::ValuesIn(kBadInputs),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

}  // namespace
}  // namespace kubesim::explore
