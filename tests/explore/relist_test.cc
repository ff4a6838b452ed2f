// The relist family end to end: a controller that ignores DeletedFinalStateUnknown tombstones
// (copy_keeper.h) is found by a partition over a deletion with the history compacted behind it,
// shrunk to a file that fails by itself; its fixed version reports nothing.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "kubesim/explore/explore.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "tests/explore/copy_keeper.h"

namespace kubesim::explore {
namespace {

namespace fs = std::filesystem;

class RelistTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kubesim-relist-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  ExploreReport explore_type(const std::string& type, std::size_t budget) {
    const std::string file = (dir_ / (type + ".yaml")).string();
    std::ofstream(file) << testing::copy_keeper_scenario(type);
    ExploreOptions o;
    o.budget_runs = budget;
    o.jobs = 2;
    o.out_dir = dir_.string();
    return explore(file, testing::copy_keeper_registry(), o);
  }
  fs::path dir_;
};

TEST_F(RelistTest, ThePlainScenarioPassesForBoth) {
  for (const std::string type : {"copy-keeper", "copy-keeper-fixed"}) {
    scenarios::ParseResult parsed = scenarios::parse_scenario(testing::copy_keeper_scenario(type), "s.yaml", testing::copy_keeper_registry());
    ASSERT_TRUE(parsed.scenario.has_value()) << parsed.errors.front().text();
    for (std::uint64_t seed : {1, 2}) {
      runner::RunOptions run;
      run.seed = seed;
      EXPECT_FALSE(runner::run_seed(*parsed.scenario, testing::copy_keeper_registry(), run).broke_any()) << type << " " << seed;
    }
  }
}

TEST_F(RelistTest, FindsTheIgnoredTombstoneByAPartitionOverADeletionAndShrinksIt) {
  const ExploreReport report = explore_type("copy-keeper", 12);
  ASSERT_TRUE(report.errors.empty()) << report.errors.front();
  ASSERT_TRUE(report.found.has_value());
  const ExploreFinding& f = *report.found;
  EXPECT_EQ(f.family, "relist") << f.perturbation;
  EXPECT_NE(f.perturbation.find("partition: {process: keep-0"), std::string::npos) << f.perturbation;
  EXPECT_NE(f.perturbation.find("compact: {}"), std::string::npos) << f.perturbation;
  EXPECT_LE(f.entries, 10u);
  EXPECT_TRUE(f.replays);
  scenarios::ParseResult parsed = scenarios::load_scenario(f.min_file, testing::copy_keeper_registry());
  ASSERT_TRUE(parsed.scenario.has_value()) << parsed.errors.front().text();
  runner::RunOptions run;
  run.seed = f.seed;
  EXPECT_TRUE(runner::run_seed(*parsed.scenario, testing::copy_keeper_registry(), run).broke_any());
}

TEST_F(RelistTest, ReportsNothingForTheFixedVersion) {
  const ExploreReport report = explore_type("copy-keeper-fixed", 36);
  ASSERT_TRUE(report.errors.empty()) << report.errors.front();
  EXPECT_FALSE(report.found.has_value()) << report.found->check << ": " << report.found->detail << "\n"
                                         << report.found->perturbation;
  const auto relist_row = std::find_if(report.families.begin(), report.families.end(),
                                       [](const FamilyTally& t) { return t.family == "relist"; });
  ASSERT_NE(relist_row, report.families.end());
  const FamilyTally& relist = *relist_row;
  EXPECT_EQ(relist.note, "");
  EXPECT_GE(relist.runs, 6u);
}

}  // namespace
}  // namespace kubesim::explore
