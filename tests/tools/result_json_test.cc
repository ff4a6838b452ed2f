// ScenarioResult and SeedResult: passed(), the replay command, and the JSON round trip that
// --results and `kubesim merge` rely on.
#include "kubesim/runner/result.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/tools/stubs.h"

namespace kubesim::tools {
namespace {

using nlohmann::json;
using testing::sample_failure;
using testing::sample_timeline;

// Text with the characters that need care in JSON, XML and shells, and some beyond ASCII.
rc::Gen<std::string> text() {
  return rc::gen::map(
      rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(std::vector<std::string>{
          "a", "Z", "0", " ", "\"", "\\", "\n", "\t", "<", "&", "'", "\xC3\xA9", "\xC2\xB5",
          "\xE2\x86\x92", "{", "}", "/", ":"})),
      [](const std::vector<std::string>& pieces) {
        std::string out;
        for (const auto& p : pieces) out += p;
        return out;
      });
}

rc::Gen<sim::Time> instant() {
  return rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                      [](std::int64_t ns) { return sim::Time{sim::Duration{ns}}; });
}

rc::Gen<runner::Failure> failure() {
  return rc::gen::build<runner::Failure>(
      rc::gen::set(&runner::Failure::check, text()), rc::gen::set(&runner::Failure::condition, text()),
      rc::gen::set(&runner::Failure::mark, rc::gen::build<scenarios::Mark>(rc::gen::set(&scenarios::Mark::line),
                                                        rc::gen::set(&scenarios::Mark::column))),
      rc::gen::set(&runner::Failure::at, instant()), rc::gen::set(&runner::Failure::detail, text()));
}

rc::Gen<runner::Timeline> timeline() {
  return rc::gen::build<runner::Timeline>(
      rc::gen::set(&runner::Timeline::duration,
                   rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                                [](std::int64_t ns) { return sim::Duration{ns}; })),
      rc::gen::set(&runner::Timeline::lanes, rc::gen::container<std::vector<std::string>>(text())),
      rc::gen::set(&runner::Timeline::spans,
                   rc::gen::container<std::vector<runner::TimelineSpan>>(rc::gen::build<runner::TimelineSpan>(
                       rc::gen::set(&runner::TimelineSpan::lane, text()),
                       rc::gen::set(&runner::TimelineSpan::kind, text()),
                       rc::gen::set(&runner::TimelineSpan::label, text()),
                       rc::gen::set(&runner::TimelineSpan::from, instant()),
                       rc::gen::set(&runner::TimelineSpan::to, instant())))),
      rc::gen::set(&runner::Timeline::marks,
                   rc::gen::container<std::vector<runner::TimelineMark>>(rc::gen::build<runner::TimelineMark>(
                       rc::gen::set(&runner::TimelineMark::lane, text()),
                       rc::gen::set(&runner::TimelineMark::kind, text()),
                       rc::gen::set(&runner::TimelineMark::label, text()),
                       rc::gen::set(&runner::TimelineMark::at, instant())))),
      rc::gen::set(&runner::Timeline::samples,
                   rc::gen::container<std::vector<runner::TimelineSample>>(rc::gen::build<runner::TimelineSample>(
                       rc::gen::set(&runner::TimelineSample::series, text()),
                       rc::gen::set(&runner::TimelineSample::at, instant()),
                       rc::gen::set(&runner::TimelineSample::value,
                                    rc::gen::map(rc::gen::arbitrary<int>(),
                                                 [](int v) { return v / 8.0; }))))));
}

rc::Gen<runner::SeedResult> seed_result() {
  return rc::gen::build<runner::SeedResult>(
      rc::gen::set(&runner::SeedResult::seed),
      rc::gen::set(&runner::SeedResult::failures, rc::gen::container<std::vector<runner::Failure>>(failure())),
      rc::gen::set(&runner::SeedResult::error, text()),
      rc::gen::set(&runner::SeedResult::trace_tail, rc::gen::container<std::vector<std::string>>(text())),
      rc::gen::set(&runner::SeedResult::trace_hash, text()), rc::gen::set(&runner::SeedResult::trace_events),
      rc::gen::set(&runner::SeedResult::requests),
      rc::gen::set(&runner::SeedResult::timeline,
                   rc::gen::oneOf(rc::gen::just(std::optional<runner::Timeline>()),
                                  rc::gen::map(timeline(), [](runner::Timeline t) {
                                    return std::optional<runner::Timeline>(std::move(t));
                                  }))));
}

rc::Gen<runner::ScenarioResult> scenario_result() {
  return rc::gen::build<runner::ScenarioResult>(
      rc::gen::set(&runner::ScenarioResult::file, text()), rc::gen::set(&runner::ScenarioResult::name, text()),
      rc::gen::set(&runner::ScenarioResult::description, text()),
      rc::gen::set(&runner::ScenarioResult::must_find, rc::gen::container<std::vector<std::string>>(text())),
      rc::gen::set(&runner::ScenarioResult::seeds,
                   rc::gen::resize(8, rc::gen::container<std::vector<runner::SeedResult>>(seed_result()))));
}

RC_GTEST_PROP(ResultJsonTest, ScenarioResultsRoundTripThroughJsonText, ()) {
  const runner::ScenarioResult original = *scenario_result();
  const json written = to_json(original);
  auto read = runner::scenario_result_from_json(json::parse(written.dump()));
  RC_ASSERT(read.ok());
  RC_ASSERT(to_json(read.value()) == written);
  RC_ASSERT(read->seeds.size() == original.seeds.size());
  for (std::size_t i = 0; i < original.seeds.size(); ++i) {
    RC_ASSERT(read->seeds[i].seed == original.seeds[i].seed);
    RC_ASSERT(read->seeds[i].failures.size() == original.seeds[i].failures.size());
    for (std::size_t k = 0; k < original.seeds[i].failures.size(); ++k) {
      RC_ASSERT(read->seeds[i].failures[k].at == original.seeds[i].failures[k].at);
    }
    RC_ASSERT(read->seeds[i].timeline.has_value() == original.seeds[i].timeline.has_value());
  }
}

TEST(ResultJsonTest, SeedResultsHaveTheDocumentedShape) {
  runner::SeedResult r;
  r.seed = 7;
  r.failures.push_back(sample_failure(7));
  r.trace_hash = "00ff00ff00ff00ff";
  r.trace_events = 70;
  r.requests = 49;
  const json j = to_json(r);
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["failures"][0]["at"], "21.25s");
  EXPECT_EQ(j["failures"][0]["mark"], (json{{"line", 12}, {"column", 7}}));
  EXPECT_EQ(j["failures"][0]["condition"], "atMostOneLeader");
  EXPECT_EQ(j["traceHash"], "00ff00ff00ff00ff");
  EXPECT_FALSE(j.contains("timeline"));
  r.timeline = sample_timeline(7);
  EXPECT_EQ(to_json(r)["timeline"]["duration"], "10m0s");
  EXPECT_EQ(to_json(r)["timeline"]["spans"][0]["to"], "1m30s");
}

TEST(ResultJsonTest, MalformedResultsSayWhereAndWhat) {
  const json good = to_json(runner::ScenarioResult{"a.yaml", "a", "", {}, {runner::SeedResult{}}});
  struct Case {
    const char* pointer;
    json value;
    const char* message;
  };
  const Case cases[] = {
      {"/name", 5, "name: expected a string"},
      {"/seeds", json::object(), "seeds: expected an array"},
      {"/seeds/0/seed", -1, "seeds[0].seed: expected an unsigned integer"},
      {"/seeds/0/failures", json::array({json{{"check", "c"}}}),
       "seeds[0].failures[0].condition: missing"},
      {"/seeds/0/failures",
       json::array({json{{"check", "c"}, {"condition", "x"}, {"mark", {{"line", 1}, {"column", 2}}},
                         {"at", "3"}}}),
       "seeds[0].failures[0].at: time: missing unit in duration \"3\""},
      {"/seeds/0/traceTail", json::array({1}), "seeds[0].traceTail[0]: expected a string"},
      {"/seeds/0/timeline", json{{"duration", "1s"}, {"lanes", json::array()}},
       "seeds[0].timeline.spans: missing"},
  };
  for (const auto& c : cases) {
    json bad = good;
    bad[json::json_pointer(c.pointer)] = c.value;
    auto read = runner::scenario_result_from_json(bad);
    ASSERT_FALSE(read.ok()) << c.pointer;
    EXPECT_EQ(read.status().message, c.message) << c.pointer;
    EXPECT_EQ(read.status().code, 400);
  }
  json no_file = good;
  no_file.erase("file");
  EXPECT_EQ(runner::scenario_result_from_json(no_file).status().message, "file: missing");
  EXPECT_EQ(runner::scenario_result_from_json(json::array()).status().message, "results: expected an object");
  EXPECT_EQ(runner::seed_result_from_json(json{{"seed", 1}}).status().message, "failures: missing");
}

runner::SeedResult broken_seed(std::uint64_t seed, const std::string& condition) {
  runner::SeedResult r;
  r.seed = seed;
  runner::Failure f = sample_failure(seed);
  f.condition = condition;
  r.failures.push_back(f);
  return r;
}

TEST(ResultTest, PassedMeansNothingBrokeOrTheMustFindCheckWasFound) {
  runner::SeedResult clean;
  clean.seed = 1;
  runner::SeedResult errored;
  errored.seed = 4;
  errored.error = "the run threw: boom";
  struct Case {
    const char* what;
    std::vector<std::string> must_find;
    std::vector<runner::SeedResult> seeds;
    bool passed;
  };
  const Case cases[] = {
      {"all clean", {}, {clean, clean}, true},
      {"no seeds", {}, {}, true},
      {"one broke", {}, {clean, broken_seed(2, "count")}, false},
      {"one errored", {}, {clean, errored}, false},
      {"mustFind found", {"atMostOneLeader"}, {clean, broken_seed(2, "atMostOneLeader")}, true},
      {"mustFind found nothing", {"atMostOneLeader"}, {clean, clean}, false},
      {"mustFind and another check broke", {"atMostOneLeader"},
       {broken_seed(2, "atMostOneLeader"), broken_seed(3, "count")}, false},
      {"mustFind and a run failed", {"atMostOneLeader"}, {broken_seed(2, "atMostOneLeader"), errored}, false},
      {"mustFind of two, one found", {"atMostOneLeader", "leaderElected"},
       {broken_seed(5, "leaderElected")}, true},
  };
  for (const auto& c : cases) {
    runner::ScenarioResult r{"f.yaml", "s", "", c.must_find, c.seeds};
    EXPECT_EQ(r.passed(), c.passed) << c.what;
  }
}

TEST(ResultTest, TheReplayCommandIsOneAShellReadsBack) {
  runner::ScenarioResult r;
  r.file = "scenarios/library/leader.yaml";
  EXPECT_EQ(r.replay_command(7), "kubesim run scenarios/library/leader.yaml --seed 7");
  EXPECT_EQ(r.replay_command(18446744073709551615ull, "./build/my_test"),
            "./build/my_test run scenarios/library/leader.yaml --seed 18446744073709551615");
  r.file = "my scenarios/it's.yaml";
  EXPECT_EQ(r.replay_command(3), "kubesim run 'my scenarios/it'\\''s.yaml' --seed 3");
  r.file = "";
  EXPECT_EQ(r.replay_command(3), "kubesim run '' --seed 3");
}

}  // namespace
}  // namespace kubesim::tools
