// The explorer's candidates from a learned log: the points in interleaved order, each family's
// first candidates exactly, determinism, every candidate a valid scenario whose perturbations end
// by duration − settle.
#include "scenarios/explore/perturb.h"

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/scenarios/internal/shrink.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios::explorer {
namespace {

using namespace std::chrono_literals;

fakeapi::RecordedCall call(const std::string& process, fakeapi::Verb verb, api::GroupVersionResource resource,
                           sim::Duration at, const std::string& name = "x") {
  fakeapi::RecordedCall c;
  c.process = process;
  c.verb = verb;
  c.resource = std::move(resource);
  c.answered = sim::Time{} + at;
  c.ns = "src";
  c.name = name;
  c.code = 200;
  return c;
}

std::vector<fakeapi::RecordedCall> log() {
  using fakeapi::Verb;
  return {call("ctl-0", Verb::kGet, api::kConfigMaps, 1s),
          call("ctl-0", Verb::kCreate, api::kConfigMaps, 2s, "a"),
          call("workload", Verb::kCreate, api::kConfigMaps, 2s),
          call("ctl-0", Verb::kUpdate, api::kConfigMaps, 3s, "a"),
          call("ctl-1", Verb::kUpdate, api::kLeases, 4s, "lock"),
          call("ctl-0", Verb::kCreate, api::kConfigMaps, 5s, "b"),
          call("ctl-0", Verb::kCreate, api::kConfigMaps, 50s, "late"),
          call("ctl-0", Verb::kUpdate, api::kConfigMaps, 6s, "b")};
}

TEST(LearnPoints, InterleavesKindsAndCountsAsTriggersDo) {
  const auto points = learn_points(log(), {"ctl-0", "ctl-1"}, sim::Time{} + 40s);
  std::vector<std::string> texts;
  for (const auto& p : points) texts.push_back(p.text());
  // The late create is past the limit but still counted: the update after it is #2.
  EXPECT_EQ(texts, (std::vector<std::string>{"ctl-0 create configmaps #1", "ctl-0 update configmaps #1",
                                             "ctl-1 update coordination.k8s.io/v1/leases #1",
                                             "ctl-0 create configmaps #2", "ctl-0 update configmaps #2"}));
  EXPECT_EQ(points[0].object, "src/a");
  EXPECT_EQ(points[0].at, sim::Time{} + 2s);
}

const char* kScenario = R"(name: s
duration: 1m
seeds: 2
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}
processes:
  - name: ctl
    replicas: 2
    watchList: false
    run:
      - elector: {lock: leases/src/lock}
      - controller: {type: configmap-mirror, onlyWhenLeader: true, params: {source: src, target: dst}}
)";

Space space_of(const Scenario& scenario) {
  Space space = make_space(scenario, {1, 2});
  for (std::uint64_t seed : {1, 2}) space.points[seed] = learn_points(log(), space.replicas, sim::Time{} + 40s);
  return space;
}

Scenario parsed(const std::string& text) {
  ParseResult r = parse_scenario(text, "s.yaml", Registry::with_builtins());
  EXPECT_TRUE(r.scenario.has_value()) << (r.errors.empty() ? "" : r.errors.front().text());
  return r.scenario.value_or(Scenario());
}

TEST(Candidates, TheFamiliesTakeTurnsAndTheFirstOfEachIsExact) {
  const Space space = space_of(parsed(kScenario));
  EXPECT_EQ(space.settle, 20s);  // a third of the duration
  EXPECT_EQ(space.replicas, (std::vector<std::string>{"ctl-0", "ctl-1"}));
  const Candidate crash = make_candidate(space, 0);
  EXPECT_EQ(crash.family, Family::kCrash);
  EXPECT_EQ(crash.seed, 1u);
  EXPECT_EQ(crash.text,
            "{when: {process: ctl-0, after: {verb: create, resource: configmaps, count: 1}}, crash: {process: ctl-0, "
            "restartAfter: 1s}}");
  const Candidate coalesce = make_candidate(space, 1);
  EXPECT_EQ(coalesce.family, Family::kCoalesce);
  EXPECT_EQ(coalesce.text,
            "{when: {process: ctl-0, after: {verb: create, resource: configmaps, count: 1}}, faults: [{verb: watch, "
            "process: ctl-0, coalesce: 3s, for: 20s}]}");
  const Candidate stale = make_candidate(space, 2);
  EXPECT_EQ(stale.family, Family::kStale);
  EXPECT_EQ(stale.text,
            "{when: {process: ctl-0, after: {verb: create, resource: configmaps, count: 1}}, faults: [{verb: [get, "
            "list], process: ctl-0, staleBy: 2s, for: 30s}, {verb: watch, process: ctl-0, coalesce: 2s, for: 30s}]}; {when: {process: ctl-0, after: {verb: create, "
            "resource: configmaps, count: 1}}, crash: {process: ctl-0, restartAfter: 1s}}");
  EXPECT_EQ(make_candidate(space, 3).family, Family::kRandom);
  EXPECT_EQ(make_candidate(space, 4).family, Family::kRecur);
  // The crash family's next turn is seed 2, then seed 1's second point.
  const std::size_t n = std::size(kFamilies);
  EXPECT_EQ(make_candidate(space, n).seed, 2u);
  EXPECT_EQ(make_candidate(space, 2 * n).points, std::vector<std::string>{"ctl-0 update configmaps #1"});
  // The stale family alternates its own points with other replicas' lease writes (a leader
  // change seen from the others): ctl-0 restarts against a lagging view after ctl-1 took the lock.
  EXPECT_EQ(make_candidate(space, 2 + n * 2).points,
            std::vector<std::string>{"ctl-0 after ctl-1 update coordination.k8s.io/v1/leases #1"});
  EXPECT_EQ(make_candidate(space, 2 + n * 4).points, std::vector<std::string>{"ctl-0 after ctl-0 update configmaps #1"});
}

// Three updates of src/a by ctl-0 at 10 s, 20 s and 30 s (the limit is 40 s).
Space recurring_space() {
  Space space = make_space(parsed(kScenario), {1});
  const auto update = [](sim::Duration at) { return call("ctl-0", fakeapi::Verb::kUpdate, api::kConfigMaps, at, "a"); };
  space.points[1] = learn_points({update(10s), call("ctl-1", fakeapi::Verb::kUpdate, api::kLeases, 12s, "lock"),
                                  update(20s), update(30s)},
                                 space.replicas, sim::Time{} + 40s);
  space.families = {Family::kRecur};
  return space;
}

TEST(Candidates, TheRecurFamilyFailsOneObjectsWritesThenOneMore) {
  const Space space = recurring_space();
  const std::string writes = "verb: [create, update, patch, delete], resource: configmaps, namespace: src, name: a, process: ctl-0";
  // An outage from just after the first write to a second before the change that brings the
  // second (half the gap at most), then one error on the write after it.
  const Candidate outage = make_candidate(space, 0);
  EXPECT_EQ(outage.text, "{at: 10.001s, faults: [{" + writes + ", error: 500, for: 8.999s}]}; {at: 20.001s, faults: [{" +
                             writes + ", error: 500, count: 1, for: 19.999s}]}");
  EXPECT_EQ(outage.points, std::vector<std::string>{"ctl-0 configmaps src/a write #3"});
  // Then the same with conflicts, then a flapping burst (each write failing with probability 0.8).
  EXPECT_EQ(make_candidate(space, 1).text, "{at: 10.001s, faults: [{" + writes + ", error: 409, for: 8.999s}]}; {at: 20.001s, faults: [{" +
                                             writes + ", error: 409, count: 1, for: 19.999s}]}");
  EXPECT_NE(make_candidate(space, 2).text.find("error: 500, probability: 0.8, for: 8.999s"), std::string::npos)
      << make_candidate(space, 2).text;
  // The Lease is the random family's; an object written twice is no target.
  for (std::size_t i = 3; i < 50; ++i) EXPECT_EQ(make_candidate(space, i).points, outage.points) << i;
  Space twice = space;
  twice.points[1].pop_back();
  EXPECT_TRUE(make_candidate(twice, 0).timeline.empty());
}

TEST(Candidates, AreAFunctionOfTheirIndex) {
  const Space space = space_of(parsed(kScenario));
  for (std::size_t i = 0; i < 200; ++i) {
    EXPECT_EQ(make_candidate(space, i).text, make_candidate(space, i).text) << i;
  }
}

TEST(Candidates, AreScenariosWhosePerturbationsEndBeforeTheSettleTime) {
  Space space = space_of(parsed(kScenario));
  // The coalesce fault is not the parser's yet everywhere: judged by the explorer's probe.
  space.families = {Family::kCrash, Family::kStale, Family::kRandom, Family::kRecur};
  for (auto& [seed, points] : space.points) {  // src/a written a third time, for the recur family
    WritePoint third = points[1];
    third.count = 2;
    third.at = sim::Time{} + 8s;
    points.push_back(third);
  }
  const YAML::Node document = YAML::Load(kScenario);
  const sim::Time limit = sim::Time{} + 40s;
  for (std::size_t i = 0; i < 300; ++i) {
    const Candidate c = make_candidate(space, i);
    ASSERT_FALSE(c.timeline.empty()) << i;
    const std::string text = emit_scenario(apply_candidate(document, c));
    ParseResult r = parse_scenario(text, "s.yaml", Registry::with_builtins());
    ASSERT_TRUE(r.scenario.has_value()) << i << ": " << r.errors.front().text() << "\n" << text;
    EXPECT_EQ(r.scenario->seed_list, std::vector<std::uint64_t>{c.seed});
    for (const TimelineEvent& e : r.scenario->timeline) {
      if (!e.at) continue;
      const sim::Time from = sim::Time{} + *e.at;
      EXPECT_LE(from, limit) << c.text;
      if (const auto* f = std::get_if<FaultsEvent>(&e.action)) {
        for (const auto& rule : f->rules) EXPECT_LE(from + rule.length.value_or(1h), limit) << c.text;
      } else if (const auto* p = std::get_if<PartitionEvent>(&e.action)) {
        EXPECT_LE(from + p->length, limit) << c.text;
      } else if (const auto* p = std::get_if<PauseEvent>(&e.action)) {
        EXPECT_LE(from + p->length, limit) << c.text;
        EXPECT_LT(p->length, 10s) << c.text;  // shorter than the renew deadline
      }
    }
  }
}

}  // namespace
}  // namespace kubesim::scenarios::explorer
