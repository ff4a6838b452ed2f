// kubesim explore end to end: a planted non-idempotent create is found by the crash family,
// shrunk to a file that fails by itself; its fixed version reports nothing; the search does not
// depend on the number of threads.
#include "kubesim/explore/explore.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "explore/internal/shrink.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "tests/explore/child_maker.h"

namespace kubesim::explore {
namespace {

namespace fs = std::filesystem;

using testing::child_maker_scenario;

// A fresh directory for one test, with the scenario file in it.
class ExploreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kubesim-explore-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  ExploreOptions options(const std::string& out, std::size_t budget, int jobs = 1) {
    ExploreOptions o;
    o.budget_runs = budget;
    o.jobs = jobs;
    o.out_dir = (dir_ / out).string();
    fs::create_directories(o.out_dir);
    return o;
  }
  fs::path dir_;
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_F(ExploreTest, FindsTheNonIdempotentCreateByACrashAndShrinksIt) {
  const std::string file = write("child-maker.yaml", child_maker_scenario("child-maker"));
  const ExploreReport report = explore(file, testing::child_maker_registry(), options("out", 40));
  ASSERT_TRUE(report.errors.empty()) << report.errors.front();
  ASSERT_TRUE(report.found.has_value());
  const ExploreFinding& f = *report.found;
  EXPECT_EQ(f.family, "crash");
  EXPECT_NE(f.detail.find("end state differs from the unperturbed run: configmaps/dst/s-*-*"), std::string::npos)
      << f.detail;
  EXPECT_NE(f.check.find("count"), std::string::npos) << f.check;
  EXPECT_LE(f.entries, 10u);
  EXPECT_TRUE(f.replays);
  EXPECT_EQ(f.min_file, (dir_ / "out" / "child-maker.min.yaml").string());
  EXPECT_EQ(f.replay_command, "kubesim run " + f.min_file);
  // The file fails by itself, with the seed it pins.
  scenarios::ParseResult parsed = scenarios::load_scenario(f.min_file, testing::child_maker_registry());
  ASSERT_TRUE(parsed.scenario.has_value()) << parsed.errors.front().text();
  ASSERT_EQ(parsed.scenario->seed_list, std::vector<std::uint64_t>{f.seed});
  runner::RunOptions run;
  run.seed = f.seed;
  EXPECT_TRUE(runner::run_seed(*parsed.scenario, testing::child_maker_registry(), run).broke_any());
  const std::string text = read(f.min_file);
  EXPECT_EQ(text.rfind("# Found by `kubesim explore " + file + "` with seed ", 0), 0u) << text;
  EXPECT_NE(text.find("# Replay: kubesim run " + f.min_file), std::string::npos) << text;
  EXPECT_NE(text.find("crash:"), std::string::npos) << text;
  EXPECT_EQ(report.families[0].family, "crash");
  EXPECT_EQ(report.families[0].failures, 1u);
}

TEST_F(ExploreTest, ReportsNothingForTheFixedVersion) {
  const std::string file = write("fixed.yaml", child_maker_scenario("child-maker-fixed"));
  const ExploreReport report = explore(file, testing::child_maker_registry(), options("out", 40));
  ASSERT_TRUE(report.errors.empty()) << report.errors.front();
  EXPECT_FALSE(report.found.has_value()) << report.found->check << ": " << report.found->detail << "\n"
                                         << report.found->perturbation;
  EXPECT_EQ(report.runs, 40u);
  EXPECT_EQ(report.reference_runs, 2u);
  for (const FamilyTally& t : report.families) {
    if (t.note.empty()) {
      EXPECT_GT(t.runs, 0u) << t.family;
    }
  }
  EXPECT_FALSE(fs::exists(dir_ / "out" / "child-maker-fixed.min.yaml"));
}

TEST_F(ExploreTest, TheSearchDoesNotDependOnTheNumberOfJobs) {
  const std::string file = write("child-maker.yaml", child_maker_scenario("child-maker"));
  const ExploreReport one = explore(file, testing::child_maker_registry(), options("one", 40, 1));
  const ExploreReport two = explore(file, testing::child_maker_registry(), options("two", 40, 2));
  ASSERT_TRUE(one.found && two.found);
  EXPECT_EQ(one.found->perturbation, two.found->perturbation);
  EXPECT_EQ(one.found->runs_to_find, two.found->runs_to_find);
  EXPECT_EQ(one.found->check, two.found->check);
  EXPECT_EQ(one.found->entries, two.found->entries);
  std::string a = read(one.found->min_file);
  std::string b = read(two.found->min_file);
  // The files differ only in the path of the replay command.
  a.replace(a.find(one.found->min_file), one.found->min_file.size(), "FILE");
  b.replace(b.find(two.found->min_file), two.found->min_file.size(), "FILE");
  EXPECT_EQ(a, b);
  // And so does a search that finds nothing.
  const std::string fixed = write("fixed.yaml", child_maker_scenario("child-maker-fixed"));
  const ExploreReport f1 = explore(fixed, testing::child_maker_registry(), options("f1", 16, 1));
  const ExploreReport f2 = explore(fixed, testing::child_maker_registry(), options("f2", 16, 2));
  ASSERT_EQ(f1.families.size(), f2.families.size());
  for (std::size_t i = 0; i < f1.families.size(); ++i) {
    EXPECT_EQ(f1.families[i].runs, f2.families[i].runs);
    EXPECT_EQ(f1.families[i].points, f2.families[i].points);
  }
}

// The shrunk file is a regression test: run with the fixed controller it passes every check, on
// its seed and on the scenario's. Here a second check counts what a second workload entry made,
// so a shrink that removes that entry (the children's check still breaks) must be rejected.
TEST_F(ExploreTest, TheShrunkFilePassesWithTheFixedController) {
  const std::string tail =
      "  - every: 10s\n"
      "    until: 30s\n"
      "    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: o-, namespace: default}}}\n"
      "expect:\n  finally:\n    - {count: {resource: configmaps, namespace: default}, equals: 3}\n";
  const std::string file = write("child-maker.yaml", testing::child_maker_scenario("child-maker", "", tail));
  const ExploreReport report = explore(file, testing::child_maker_registry(), options("out", 40));
  ASSERT_TRUE(report.errors.empty()) << report.errors.front();
  ASSERT_TRUE(report.found.has_value());
  ASSERT_TRUE(report.found->replays);
  std::string text = read(report.found->min_file);
  const std::string type = "type: child-maker}";
  ASSERT_NE(text.find(type), std::string::npos) << text;
  text.replace(text.find(type), type.size(), "type: child-maker-fixed}");
  scenarios::ParseResult parsed = scenarios::parse_scenario(text, "fixed.min.yaml", testing::child_maker_registry());
  ASSERT_TRUE(parsed.scenario.has_value()) << parsed.errors.front().text();
  for (std::uint64_t seed : {report.found->seed, std::uint64_t{1}, std::uint64_t{2}}) {
    runner::RunOptions run;
    run.seed = seed;
    const runner::SeedResult r = runner::run_seed(*parsed.scenario, testing::child_maker_registry(), run);
    EXPECT_FALSE(r.broke_any()) << "seed " << seed << ": " << (r.failures.empty() ? r.error : r.failures.front().check)
                                << "\n" << text;
  }
}

TEST_F(ExploreTest, AScenarioThatFailsAsWrittenIsReportedWithoutPerturbation) {
  std::string text = child_maker_scenario("child-maker");
  text += "expect:\n  finally:\n    - {count: {resource: configmaps, namespace: dst}, equals: 99}\n";
  const std::string file = write("fails.yaml", text);
  const ExploreReport report = explore(file, testing::child_maker_registry(), options("out", 10));
  ASSERT_TRUE(report.found.has_value());
  EXPECT_EQ(report.found->family, "");
  EXPECT_EQ(report.found->runs_to_find, 1u);
  EXPECT_EQ(report.runs, 0u);
  EXPECT_TRUE(report.found->replays);
}

}  // namespace
}  // namespace kubesim::explore
