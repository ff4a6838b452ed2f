// A process's `watchList:` — how its informers make their first list — and the stale family it
// makes effective: the key read (and refused, FILE:LINE:COL), kept by emit_scenario, reaching the
// reflector (a list at resourceVersion 0 instead of a streaming watch-list), and a restart after
// a write that relists from a lagging view making the buggy child maker act on a stale read.
#include <algorithm>

#include <gtest/gtest.h>

#include "explore/internal/perturb.h"
#include "explore/internal/shrink.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "tests/explore/child_maker.h"

namespace kubesim::explore {
namespace {

// The child maker's scenario, its process given `process_keys`; a check that every source has
// one child.
std::string watch_scenario(const std::string& type, const std::string& process_keys) {
  return testing::child_maker_scenario(
      type, process_keys,
      "expect:\n"
      "  finally:\n"
      "    - {count: {resource: configmaps, namespace: dst}, equals: {count: {resource: configmaps, namespace: src}}}\n");
}

scenarios::ParseResult parse_text(const std::string& text) {
  return scenarios::parse_scenario(text, "s.yaml", testing::child_maker_registry());
}

TEST(WatchList, IsReadPerProcessAndDefaultsToStreaming) {
  scenarios::ParseResult streaming = parse_text(watch_scenario("child-maker", ""));
  ASSERT_TRUE(streaming.scenario.has_value()) << streaming.errors.front().text();
  EXPECT_TRUE(streaming.scenario->processes[0].watch_list);
  scenarios::ParseResult listing = parse_text(watch_scenario("child-maker", "    watchList: false\n"));
  ASSERT_TRUE(listing.scenario.has_value()) << listing.errors.front().text();
  EXPECT_FALSE(listing.scenario->processes[0].watch_list);
}

TEST(WatchList, BadValuesAreRefusedWithTheirPlace) {
  struct Case {
    std::string keys;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"    watchList: 0\n", "s.yaml:11:16: watchList: expected true or false, got an integer (0)"},
      {"    watchList: [false]\n", "s.yaml:11:16: watchList: expected true or false, got a list"},
      {"    watchList: no-thanks\n", "s.yaml:11:16: watchList: expected true or false, got \"no-thanks\""},
  };
  for (const Case& c : cases) {
    scenarios::ParseResult r = parse_text(watch_scenario("child-maker", c.keys));
    ASSERT_FALSE(r.errors.empty()) << c.keys;
    EXPECT_EQ(r.errors.front().text(), c.error) << c.keys;
  }
  // A real program lists as it lists.
  const std::string exec = "name: s\nduration: 1m\nprocesses:\n  - name: p\n    watchList: false\n"
                           "    exec: {command: [ctl]}\n";
  scenarios::ParseResult r = parse_text(exec);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors.front().text(),
            "s.yaml:5:5: watchList sets kubesim's own informers; a real program (exec) lists as it lists");
}

TEST(WatchList, SurvivesTheShrinkersRoundTrip) {
  const std::string text = scenarios::emit_scenario(YAML::Load(watch_scenario("child-maker", "    watchList: false\n")));
  EXPECT_NE(text.find("watchList: false"), std::string::npos) << text;
  scenarios::ParseResult r = parse_text(text);
  ASSERT_TRUE(r.scenario.has_value()) << r.errors.front().text();
  EXPECT_FALSE(r.scenario->processes[0].watch_list);
}

// The replica's reads of configmaps: "list", "watch-list" (a watch with sendInitialEvents) or
// "watch".
std::vector<std::string> reads(const std::string& process_keys) {
  scenarios::ParseResult r = parse_text(watch_scenario("child-maker", process_keys));
  EXPECT_TRUE(r.scenario.has_value());
  runner::RunCapture capture;
  runner::RunOptions options;
  options.capture = &capture;
  EXPECT_FALSE(runner::run_seed(*r.scenario, testing::child_maker_registry(), options).broke_any());
  std::vector<std::string> out;
  for (const fakeapi::RecordedCall& call : capture.calls) {
    if (call.process != "ctl-0" || call.resource.resource != "configmaps") continue;
    if (call.verb == fakeapi::Verb::kList) out.push_back("list");
    if (call.verb == fakeapi::Verb::kWatch) out.push_back(call.initial_events ? "watch-list" : "watch");
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(WatchList, ReachesTheReflector) {
  for (const std::string keys : {"", "    watchList: true\n"}) {
    const auto r = reads(keys);
    ASSERT_FALSE(r.empty()) << keys;
    EXPECT_EQ(r.front(), "watch-list") << keys;
    EXPECT_FALSE(has(r, "list")) << keys;
  }
  const auto r = reads("    watchList: false\n");
  ASSERT_GE(r.size(), 2u);
  EXPECT_EQ(r[0], "list");
  EXPECT_EQ(r[1], "watch");
  EXPECT_FALSE(has(r, "watch-list"));
}

// The stale family's candidates for the scenario: none unless the process lists at
// resourceVersion 0.
std::vector<Candidate> stale_candidates(const std::string& text, std::size_t how_many) {
  scenarios::ParseResult r = parse_text(text);
  EXPECT_TRUE(r.scenario.has_value());
  Space space = make_space(*r.scenario, {1});
  runner::RunCapture capture;
  runner::RunOptions options;
  options.capture = &capture;
  runner::run_seed(*r.scenario, testing::child_maker_registry(), options);
  space.points[1] = learn_points(capture.calls, space.replicas, sim::Time{} + (space.duration - space.settle));
  space.first_list[1] = learn_first_lists(capture.calls, space.listing_replicas);
  space.families = {Family::kStale};
  std::vector<Candidate> out;
  for (std::size_t i = 0; i < how_many; ++i) {
    Candidate c = make_candidate(space, i);
    if (!c.timeline.empty()) out.push_back(std::move(c));
  }
  return out;
}

bool fails(const std::string& text, const Candidate& c) {
  scenarios::ParseResult r = parse_text(scenarios::emit_scenario(apply_candidate(YAML::Load(text), c)));
  EXPECT_TRUE(r.scenario.has_value()) << r.errors.front().text();
  runner::RunOptions options;
  options.seed = c.seed;
  return runner::run_seed(*r.scenario, testing::child_maker_registry(), options).broke_any();
}

TEST(WatchList, TheStaleFamilyTargetsOnlyListingProcesses) {
  EXPECT_TRUE(stale_candidates(watch_scenario("child-maker", ""), 4).empty());
  EXPECT_EQ(stale_candidates(watch_scenario("child-maker", "    watchList: false\n"), 4).size(), 4u);
}

// Right after the child maker annotated a source, it restarts and relists the state from just
// before: the source shows no annotation, and the buggy maker makes a second child. A streaming
// list is not stale, and the fixed maker's second create is AlreadyExists.
TEST(WatchList, TheStaleFamilyFindsAStaleReadAfterARestart) {
  const std::string listing = watch_scenario("child-maker", "    watchList: false\n");
  const std::vector<Candidate> candidates = stale_candidates(listing, 2);
  ASSERT_EQ(candidates.size(), 2u);
  const Candidate& after_update = candidates[1];
  EXPECT_EQ(after_update.points, std::vector<std::string>{"ctl-0 after ctl-0 update configmaps #1"});
  EXPECT_TRUE(fails(listing, after_update)) << after_update.text;
  EXPECT_FALSE(fails(watch_scenario("child-maker", "    watchList: true\n"), after_update)) << after_update.text;
  EXPECT_FALSE(fails(watch_scenario("child-maker-fixed", "    watchList: false\n"), after_update)) << after_update.text;
}

}  // namespace
}  // namespace kubesim::explore
