// SeededTest and SeedRange: the body runs twice and equal hashes pass; different hashes fail
// naming the seed, both hash lists and the rerun command; a first run that fails is not
// replayed (a nested run of this program); current() and trace_path(); KUBESIM_SEED.
#include "kubesim/testing/seeded_test.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/testing/cluster.h"

namespace kubesim::testing {
namespace {

// Sets (or unsets, with nullopt) an environment variable for a scope; restores it after.
class SeededScopedEnv {
 public:
  SeededScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~SeededScopedEnv() { set(old_); }
  SeededScopedEnv(const SeededScopedEnv&) = delete;
  SeededScopedEnv& operator=(const SeededScopedEnv&) = delete;

 private:
  void set(const std::optional<std::string>& value) {
    if (value) {
      setenv(name_, value->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  const char* name_;
  std::optional<std::string> old_;
};

std::vector<std::uint64_t> values(const ::testing::internal::ParamGenerator<std::uint64_t>& generator) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t v : generator) out.push_back(v);
  return out;
}

// --- The body runs twice ---------------------------------------------------------------------

class Twice : public SeededTest {
 protected:
  void TearDown() override {
    EXPECT_EQ(current(), this);
    SeededTest::TearDown();
    EXPECT_EQ(runs_, 2);
    EXPECT_EQ(current(), nullptr);
    EXPECT_FALSE(replaying());
  }
  int runs_ = 0;
};

TEST_P(Twice, SameHashesPass) {
  EXPECT_EQ(current(), this);
  EXPECT_EQ(replaying(), runs_ == 1);
  ++runs_;
  report_hash("h" + std::to_string(seed()));
  report_hash("second-cluster");
}

INSTANTIATE_TEST_SUITE_P(Seeds, Twice, SeedRange(3, 4));

// --- Different hashes fail -------------------------------------------------------------------

std::string program() {
  const auto argv = ::testing::internal::GetArgvs();
  return argv.empty() ? "<test program>" : argv[0];
}

// Runs SeededTest::TearDown and keeps the one failure it must report.
class Differs : public SeededTest {
 protected:
  void TearDown() override {
    ::testing::TestPartResultArray failures;
    {
      ::testing::ScopedFakeTestPartResultReporter reporter(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
      SeededTest::TearDown();
    }
    ASSERT_EQ(failures.size(), 1);
    EXPECT_TRUE(failures.GetTestPartResult(0).nonfatally_failed());
    EXPECT_EQ(std::string(failures.GetTestPartResult(0).message()), expected_);
  }
  std::string expected_;
};

TEST_P(Differs, AnotherHashOnTheSecondRunFails) {
  report_hash("aaaa");
  report_hash(replaying() ? "cccc" : "bbbb");
  expected_ = "seed " + std::to_string(seed()) + " did not replay: its trace hashes differ between two runs of the test body\n"
              "  first run:  [aaaa, bbbb]\n"
              "  second run: [aaaa, cccc]\n"
              "Something in the test or the controller is not drawn from the seed (a wall clock, a thread, "
              "iteration over an unordered container, state kept between runs).\n"
              "Rerun this seed alone and keep both runs' traces:\n"
              "  KUBESIM_SEED=" + std::to_string(seed()) + " " + program() + " --gtest_filter='Seeds/Differs.AnotherHashOnTheSecondRunFails/*'";
}

TEST_P(Differs, AnotherNumberOfHashesFails) {
  report_hash("aaaa");
  if (!replaying()) report_hash("bbbb");
  expected_ = "seed " + std::to_string(seed()) + " did not replay: its trace hashes differ between two runs of the test body\n"
              "  first run:  [aaaa, bbbb]\n"
              "  second run: [aaaa]\n"
              "Something in the test or the controller is not drawn from the seed (a wall clock, a thread, "
              "iteration over an unordered container, state kept between runs).\n"
              "Rerun this seed alone and keep both runs' traces:\n"
              "  KUBESIM_SEED=" + std::to_string(seed()) + " " + program() + " --gtest_filter='Seeds/Differs.AnotherNumberOfHashesFails/*'";
}

INSTANTIATE_TEST_SUITE_P(Seeds, Differs, SeedRange(5, 5));

// --- A failing first run is not replayed (run in a nested process) -----------------------------

// Run only by NestedRunTest below, in a process of its own: its failure is that run's.
class FailsFirst : public SeededTest {};

TEST_P(FailsFirst, DISABLED_Body) {
  std::printf("body ran%s\n", replaying() ? " again" : "");
  report_hash(replaying() ? "x" : "y");
  ADD_FAILURE() << "the first run failed";
}

INSTANTIATE_TEST_SUITE_P(Seeds, FailsFirst, SeedRange(9, 9));

TEST(NestedRunTest, AFailedFirstRunIsNotReplayed) {
  SeededScopedEnv no_seed("KUBESIM_SEED", std::nullopt);
  SeededScopedEnv no_report("GTEST_OUTPUT", std::nullopt);  // the nested run must not write this run's report
  const std::string command = "'" + program() + "'" +
                              " --gtest_also_run_disabled_tests --gtest_filter='Seeds/FailsFirst.*' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  const int status = pclose(pipe);
  EXPECT_NE(status, 0) << output;
  EXPECT_NE(output.find("body ran\n"), std::string::npos) << output;
  EXPECT_EQ(output.find("body ran again"), std::string::npos) << output;
  EXPECT_NE(output.find("the first run failed"), std::string::npos) << output;
  EXPECT_EQ(output.find("did not replay"), std::string::npos) << output;
}

// --- current() and trace_path() --------------------------------------------------------------

TEST(SeededTestCurrentTest, IsNullOutsideASeededTest) { EXPECT_EQ(SeededTest::current(), nullptr); }

class Traces : public SeededTest {};

TEST_P(Traces, PathsOnlyWithKubesimSeed) {
  {
    SeededScopedEnv seed("KUBESIM_SEED", std::nullopt);
    EXPECT_EQ(trace_path(), "");
  }
  SeededScopedEnv seed("KUBESIM_SEED", "11");
  const std::string name = "kubesim-seed-" + std::to_string(this->seed()) + "-Seeds_Traces.PathsOnlyWithKubesimSeed_0-";
  const std::string run = replaying() ? ".replay.jsonl" : ".jsonl";
  {
    SeededScopedEnv dir("KUBESIM_TRACE_DIR", std::nullopt);
    EXPECT_EQ(trace_path(), "./" + name + "1" + run);
  }
  {
    SeededScopedEnv dir("KUBESIM_TRACE_DIR", "/tmp/traces");
    EXPECT_EQ(trace_path(), "/tmp/traces/" + name + "2" + run);
  }
  {
    SeededScopedEnv dir("KUBESIM_TRACE_DIR", "out/");
    EXPECT_EQ(trace_path(), "out/" + name + "3" + run);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, Traces, SeedRange(11, 11));

// --- With SimCluster ------------------------------------------------------------------------

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ClusterSeeds : public SeededTest {};

// Each cluster reports its hash (the runs agree, so the test passes) and, under KUBESIM_SEED,
// writes its trace; the second run's trace is the first's, byte for byte.
TEST_P(ClusterSeeds, WriteTheirTracesUnderKubesimSeed) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "kubesim-seeded-test";
  if (!replaying()) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  SeededScopedEnv seed_variable("KUBESIM_SEED", std::to_string(seed()));
  SeededScopedEnv dir_variable("KUBESIM_TRACE_DIR", dir.string());
  {
    SimCluster c(ClusterOptions().seed(seed()));
    c.apply_yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}}");
    c.run_for(1s);
  }
  const std::string name = "kubesim-seed-" + std::to_string(seed()) + "-Seeds_ClusterSeeds.WriteTheirTracesUnderKubesimSeed_0-1";
  const std::string first = read_file(dir / (name + ".jsonl"));
  EXPECT_NE(first.find("cluster.start"), std::string::npos) << first;
  if (replaying()) {
    EXPECT_EQ(read_file(dir / (name + ".replay.jsonl")), first);
    std::filesystem::remove_all(dir);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ClusterSeeds, SeedRange(21, 21));

// KUBESIM_TRACE_DIR naming a directory that does not exist yet: it is made. One that cannot be
// made: the cluster refuses with the path and the reason.
TEST_P(ClusterSeeds, MakeTheTraceDirectory) {
  const std::filesystem::path root = std::filesystem::path(::testing::TempDir()) / "kubesim-trace-dir-test";
  const std::filesystem::path dir = root / "made" / "here";
  if (!replaying()) std::filesystem::remove_all(root);
  SeededScopedEnv seed_variable("KUBESIM_SEED", std::to_string(seed()));
  SeededScopedEnv dir_variable("KUBESIM_TRACE_DIR", dir.string());
  { SimCluster c(ClusterOptions().seed(seed())); }
  EXPECT_TRUE(std::filesystem::exists(
      dir / ("kubesim-seed-" + std::to_string(seed()) + "-Seeds_ClusterSeeds.MakeTheTraceDirectory_0-1" +
             (replaying() ? ".replay.jsonl" : ".jsonl"))));

  std::filesystem::create_directories(root);
  { std::ofstream(root / "a-file") << "x"; }
  SeededScopedEnv blocked("KUBESIM_TRACE_DIR", (root / "a-file" / "sub").string());
  try {
    SimCluster c(ClusterOptions().seed(seed()));
    ADD_FAILURE() << "a trace directory under a file was accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("SimCluster: cannot write the trace to \"" + (root / "a-file" / "sub").string()), std::string::npos)
        << what;
    EXPECT_NE(what.find("cannot make the directory"), std::string::npos) << what;
    EXPECT_NE(what.find("(KUBESIM_TRACE_DIR): Not a directory"), std::string::npos) << what;
  }
  if (replaying()) std::filesystem::remove_all(root);
}

// --- SeedRange -------------------------------------------------------------------------------

TEST(SeedRangeTest, WithoutKubesimSeedEverySeedOfTheRange) {
  for (const std::optional<std::string>& unset : {std::optional<std::string>(), std::optional<std::string>("")}) {
    SeededScopedEnv seed("KUBESIM_SEED", unset);
    EXPECT_EQ(values(SeedRange(1, 5)), (std::vector<std::uint64_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(values(SeedRange(7, 7)), (std::vector<std::uint64_t>{7}));
    EXPECT_EQ(values(SeedRange(18446744073709551614u, 18446744073709551615u)),
              (std::vector<std::uint64_t>{18446744073709551614u, 18446744073709551615u}));
  }
}

TEST(SeedRangeTest, KubesimSeedIsTheOnlySeed) {
  SeededScopedEnv seed("KUBESIM_SEED", "42");
  EXPECT_EQ(values(SeedRange(1, 20)), (std::vector<std::uint64_t>{42}));
  SeededScopedEnv zero("KUBESIM_SEED", "0");
  EXPECT_EQ(values(SeedRange(1, 20)), (std::vector<std::uint64_t>{0}));
}

TEST(SeedRangeTest, RefusesAMalformedKubesimSeedAndAnEmptyRange) {
  for (const std::string text : {"7x", "-1", " 7", "0x10", "18446744073709551616", "1e3"}) {
    SeededScopedEnv seed("KUBESIM_SEED", text);
    try {
      SeedRange(1, 20);
      ADD_FAILURE() << "no exception for " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "KUBESIM_SEED=\"" + text +
                                           "\" is not a seed: it must be a decimal number from 0 to "
                                           "18446744073709551615");
    }
  }
  SeededScopedEnv seed("KUBESIM_SEED", std::nullopt);
  try {
    SeedRange(5, 1);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "SeedRange(5, 1): the first seed is after the last");
  }
}

}  // namespace
}  // namespace kubesim::testing
