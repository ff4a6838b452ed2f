// Where a SimCluster's trace goes: ClusterOptions::trace_to, a seeded test's hashes and, with
// KUBESIM_SEED set, its trace file.
#include "kubesim/testing/cluster.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/resources.h"
#include "kubesim/testing/seeded_test.h"

namespace kubesim::testing {
namespace {

nlohmann::json config_map(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}};
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Holds the environment variable at `value` while it lives, then puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(ClusterTraceTest, TraceToReceivesEveryEvent) {
  std::ostringstream sink;
  {
    SimCluster c(ClusterOptions().trace_to(&sink).failure_tail(1));
    for (const char* name : {"a", "b", "c"}) c.apply(config_map(name));
    c.run_for(10s);
    EXPECT_EQ(count_lines(sink.str()), c.loop().trace().count());
    EXPECT_GE(c.loop().trace().count(), 4u);
  }
  EXPECT_THAT(sink.str(), ::testing::StartsWith("{\"f\":{\"seed\":1,\"shuffle\":false},\"k\":\"cluster.start\""));
}

class ClusterSeededTest : public SeededTest {};

TEST_P(ClusterSeededTest, ReportsItsHashToTheSeededTest) {
  SimCluster c(ClusterOptions().seed(seed()).latency(1ms, 10ms));
  for (int i = 0; i < 3; ++i) c.apply(config_map("c" + std::to_string(i)));
  c.run_for(1s);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ClusterSeededTest, SeedRange(1, 3));

class ClusterTraceFileTest : public SeededTest {};

TEST_P(ClusterTraceFileTest, WritesTheTraceWhenOneSeedIsRerun) {
  const std::string dir = ::testing::TempDir();
  ScopedEnv seed_env("KUBESIM_SEED", std::to_string(seed()));
  ScopedEnv dir_env("KUBESIM_TRACE_DIR", dir);
  std::uint64_t events = 0;
  {
    SimCluster c(ClusterOptions().seed(seed()));
    c.apply(config_map("a"));
    c.run_for(1s);
    events = c.loop().trace().count();
  }
  const std::string path = dir + (dir.back() == '/' ? "" : "/") + "kubesim-seed-" + std::to_string(seed()) +
                           "-Seeds_ClusterTraceFileTest.WritesTheTraceWhenOneSeedIsRerun_0-1" +
                           (replaying() ? ".replay.jsonl" : ".jsonl");
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(count_lines(text.str()), events);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ClusterTraceFileTest, ::testing::Values(std::uint64_t{4}));

}  // namespace
}  // namespace kubesim::testing
