// `seeds` as a count or a list, and `explore:` — what they read and every error, with its place.
#include <gtest/gtest.h>

#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios {
namespace {

using namespace std::chrono_literals;

ParseResult parsed(const std::string& yaml) { return parse_scenario(yaml, "s.yaml", Registry::with_builtins()); }

std::vector<std::string> explore_errors_of(const std::string& yaml) {
  std::vector<std::string> out;
  for (const auto& e : parsed(yaml).errors) out.push_back(e.text());
  return out;
}

const std::string kExploreHead = "name: t\nduration: 9m\n";

TEST(ParseSeeds, ACountMeansOneToN) {
  auto r = parsed(kExploreHead + "seeds: 3\n");
  ASSERT_TRUE(r.scenario);
  EXPECT_EQ(r.scenario->seeds, 3);
  EXPECT_TRUE(r.scenario->seed_list.empty());
  EXPECT_EQ(r.scenario->seed_numbers(), (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(ParseSeeds, AListNamesTheSeeds) {
  auto r = parsed(kExploreHead + "seeds: [7, 0, 42]\n");
  ASSERT_TRUE(r.scenario);
  EXPECT_EQ(r.scenario->seeds, 3);
  EXPECT_EQ(r.scenario->seed_numbers(), (std::vector<std::uint64_t>{7, 0, 42}));
}

TEST(ParseExplore, DefaultsAndValues) {
  auto plain = parsed(kExploreHead);
  ASSERT_TRUE(plain.scenario);
  EXPECT_TRUE(plain.scenario->explore.free.empty());
  EXPECT_FALSE(plain.scenario->explore.settle.has_value());
  EXPECT_EQ(plain.scenario->settle(), 3min);  // a third of the duration
  EXPECT_TRUE(plain.scenario->explore.differential);
  auto r = parsed(kExploreHead + "explore: {free: [status.lastSync, metadata.annotations.*], settle: 2m, differential: false}\n");
  ASSERT_TRUE(r.scenario) << r.errors.front().text();
  EXPECT_EQ(r.scenario->explore.free, (std::vector<std::string>{"status.lastSync", "metadata.annotations.*"}));
  EXPECT_EQ(r.scenario->settle(), 2min);
  EXPECT_FALSE(r.scenario->explore.differential);
}

struct ExploreCase {
  const char* name;
  std::string yaml;
  std::vector<std::string> errors;
};

class BrokenExplore : public ::testing::TestWithParam<ExploreCase> {};

TEST_P(BrokenExplore, ReportsEveryErrorWithItsPlace) { EXPECT_EQ(explore_errors_of(GetParam().yaml), GetParam().errors); }

const ExploreCase kCases[] = {
    {"SeedsZero", kExploreHead + "seeds: 0\n", {"s.yaml:3:8: seeds: must be at least 1, got 0"}},
    {"SeedsEmptyList", kExploreHead + "seeds: []\n",
     {"s.yaml:3:8: seeds: the list is empty; list at least one seed, or give a count"}},
    {"SeedsMap", kExploreHead + "seeds: {a: 1}\n", {"s.yaml:3:8: seeds: expected a count or a list of seeds, got a mapping"}},
    {"SeedNegative", kExploreHead + "seeds: [1, -2]\n", {"s.yaml:3:12: seeds: must be at least 0, got -2"}},
    {"SeedNotANumber", kExploreHead + "seeds: [one]\n", {"s.yaml:3:9: seeds: expected an integer, got \"one\""}},
    {"SeedTwice", kExploreHead + "seeds: [7, 8, 7]\n", {"s.yaml:3:15: seeds: seed 7 is listed twice"}},
    {"ExploreNotAMap", kExploreHead + "explore: yes\n", {"s.yaml:3:10: explore: expected a mapping, got a boolean (yes)"}},
    {"ExploreUnknownKey", kExploreHead + "explore: {fre: [a]}\n",
     {"s.yaml:3:11: unknown key \"fre\" in explore; did you mean \"free\"? (valid keys: free, settle, differential)"}},
    {"FreeNotAList", kExploreHead + "explore: {free: status}\n",
     {"s.yaml:3:17: free: expected a list of strings, got \"status\""}},
    {"FreeNotAPath", kExploreHead + "explore: {free: [status..x, .a, ok]}\n",
     {"s.yaml:3:18: free: \"status..x\" is not a dotted path (status.lastSync, metadata.annotations.*)",
      "s.yaml:3:29: free: \".a\" is not a dotted path (status.lastSync, metadata.annotations.*)"}},
    {"SettleNotShorter", kExploreHead + "explore: {settle: 9m}\n",
     {"s.yaml:3:19: settle: 9m0s is not shorter than the scenario's duration (9m)"}},
    {"SettleNegative", kExploreHead + "explore: {settle: -1s}\n", {"s.yaml:3:19: settle: must not be negative, got -1s"}},
    {"DifferentialNotABoolean", kExploreHead + "explore: {differential: sometimes}\n",
     {"s.yaml:3:25: differential: expected true or false, got \"sometimes\""}},
};

INSTANTIATE_TEST_SUITE_P(Cases, BrokenExplore, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ExploreCase>& info) { return info.param.name; });

}  // namespace
}  // namespace kubesim::scenarios
