// The explorer's candidates from a learned log: the points in interleaved order, the deletions a
// replica would learn from a re-list, each family's first candidates exactly, determinism, every
// candidate a valid scenario whose perturbations end by duration − settle.
#include "explore/internal/perturb.h"

#include <gtest/gtest.h>

#include "explore/internal/shrink.h"
#include "kubesim/api/resources.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::explore {
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

TEST(LearnPoints, WalksEachKindFromBothEnds) {
  using fakeapi::Verb;
  std::vector<fakeapi::RecordedCall> calls;
  for (int i = 1; i <= 5; ++i) calls.push_back(call("ctl-0", Verb::kCreate, api::kConfigMaps, i * 1s));
  calls.push_back(call("ctl-0", Verb::kDelete, api::kConfigMaps, 6s));
  std::vector<std::string> texts;
  for (const auto& p : learn_points(calls, {"ctl-0"}, sim::Time{} + 40s)) texts.push_back(p.text());
  // The first of each kind, then the last of each (the only delete is both), then inwards.
  EXPECT_EQ(texts, (std::vector<std::string>{"ctl-0 create configmaps #1", "ctl-0 delete configmaps #1",
                                             "ctl-0 create configmaps #5", "ctl-0 create configmaps #2",
                                             "ctl-0 create configmaps #4", "ctl-0 create configmaps #3"}));
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

Space space_of(const scenarios::Scenario& scenario) {
  Space space = make_space(scenario, {1, 2});
  for (std::uint64_t seed : {1, 2}) space.points[seed] = learn_points(log(), space.replicas, sim::Time{} + 40s);
  return space;
}

scenarios::Scenario parsed(const std::string& text) {
  scenarios::ParseResult r = scenarios::parse_scenario(text, "s.yaml", scenarios::Registry::with_builtins());
  EXPECT_TRUE(r.scenario.has_value()) << (r.errors.empty() ? "" : r.errors.front().text());
  return r.scenario.value_or(scenarios::Scenario());
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
  EXPECT_EQ(make_candidate(space, 5).family, Family::kRelist);
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

// ctl-0 watches configmaps in every namespace from 1 s, ctl-1 only in dst from 2 s; the workload
// deletes src/x at 10 s (after a delete that failed), ctl-1 deletes src/y (made at 5 s) at 20 s,
// ctl-0 src/z at 25 s, the workload src/w at 39 s.
std::vector<fakeapi::RecordedCall> deletions_log() {
  using fakeapi::Verb;
  fakeapi::RecordedCall watch_all = call("ctl-0", Verb::kWatch, api::kConfigMaps, 1s, "");
  watch_all.ns = "";
  watch_all.received = watch_all.answered;
  fakeapi::RecordedCall watch_dst = call("ctl-1", Verb::kWatch, api::kConfigMaps, 2s, "");
  watch_dst.ns = "dst";
  watch_dst.received = watch_dst.answered;
  fakeapi::RecordedCall missing = call("workload", Verb::kDelete, api::kConfigMaps, 9s, "gone");
  missing.code = 404;
  // The watches are logged last: a watch is logged when its answer leaves, and may stay open.
  return {call("workload", Verb::kCreate, api::kConfigMaps, 5s, "y"),
          missing,
          call("workload", Verb::kDelete, api::kConfigMaps, 10s, "x"),
          call("ctl-0", Verb::kUpdate, api::kConfigMaps, 15s, "a"),
          call("ctl-1", Verb::kDelete, api::kConfigMaps, 20s, "y"),
          call("ctl-0", Verb::kDelete, api::kConfigMaps, 25s, "z"),
          call("workload", Verb::kDelete, api::kConfigMaps, 39s, "w"),
          call("workload", Verb::kDelete, api::kConfigMaps, 45s, "late"),
          watch_all,
          watch_dst};
}

TEST(LearnRelists, PairsEachDeletionByAnotherWithTheReplicasWatchingIt) {
  const auto targets = learn_relists(deletions_log(), {"ctl-0", "ctl-1"}, sim::Time{} + 40s);
  std::vector<std::string> texts;
  for (const auto& t : targets) texts.push_back(t.text());
  // ctl-1 watches dst only, ctl-0 does not cut itself off over its own delete, the failed delete
  // is counted (#2 is the first that succeeded) and the late one is past the limit.
  EXPECT_EQ(texts, (std::vector<std::string>{"ctl-0 cut off over workload delete configmaps #2",
                                             "ctl-0 cut off over ctl-1 delete configmaps #1",
                                             "ctl-0 cut off over workload delete configmaps #3"}));
  EXPECT_EQ(targets[0].seen, sim::Time{} + 1s);  // the watch opened
  EXPECT_EQ(targets[0].deletion.object, "src/x");
  EXPECT_EQ(targets[0].deletion.at, sim::Time{} + 10s);
  EXPECT_EQ(targets[1].seen, sim::Time{} + 5s);  // the object was made
  // A replica that did not watch before the deletion is no target.
  EXPECT_TRUE(learn_relists(deletions_log(), {"ctl-1"}, sim::Time{} + 40s).empty());
}

Space relist_space(sim::Duration duration) {
  Space space = make_space(parsed(kScenario), {1});
  space.duration = duration;
  space.settle = 20s;
  space.relists[1] = learn_relists(deletions_log(), space.replicas, sim::Time{} + 40s);
  space.families = {Family::kRelist};
  return space;
}

TEST(Candidates, TheRelistFamilyCutsTheWatcherOffOverADeletionAndCompactsBehindIt) {
  // With room before duration − settle: a partition from a second before the deletion, long
  // enough to end the watch, and a compaction a second after the workload's delete.
  const Space roomy = relist_space(180s);
  const Candidate first = make_candidate(roomy, 0);
  EXPECT_EQ(first.family, Family::kRelist);
  EXPECT_EQ(first.text, "{at: 9s, partition: {process: ctl-0, for: 40s}}; {at: 11s, compact: {}}");
  EXPECT_EQ(first.points, std::vector<std::string>{"ctl-0 cut off over workload delete configmaps #2"});
  // A replica's delete: the compaction follows it on a trigger.
  EXPECT_EQ(make_candidate(roomy, 1).text,
            "{at: 19s, partition: {process: ctl-0, for: 40s}}; {when: {process: ctl-1, after: {verb: delete, resource: "
            "configmaps, count: 1}}, compact: {}}");
  // The second pass: a partition until 3 s after the deletion, and an API server restart to cut
  // the watch.
  EXPECT_EQ(make_candidate(roomy, 3).text,
            "{at: 7s, partition: {process: ctl-0, for: 6s}}; {at: 7s, apiserver: restart}; {at: 11s, compact: {}}");
  // Without room for the long partition (the limit is 40 s), the restart at once; the deletion at
  // 39 s leaves no room at all.
  const Space tight = relist_space(60s);
  EXPECT_EQ(make_candidate(tight, 0).text,
            "{at: 9s, partition: {process: ctl-0, for: 4s}}; {at: 9s, apiserver: restart}; {at: 11s, compact: {}}");
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(make_candidate(tight, i).points.back().find("#3"), std::string::npos) << i;
  }
  // No deletion of what a replica watches, or only one within a second of the replica's first
  // chance to have the object in its cache: nothing to try.
  Space none = tight;
  none.relists[1].resize(1);
  none.relists[1][0].seen = none.relists[1][0].deletion.at - 999ms;
  EXPECT_TRUE(make_candidate(none, 0).timeline.empty());
  // A second before: the partition starts with the deletion.
  none.relists[1][0].seen = none.relists[1][0].deletion.at - 1s;
  EXPECT_EQ(make_candidate(none, 0).text,
            "{at: 10s, partition: {process: ctl-0, for: 3s}}; {at: 10s, apiserver: restart}; {at: 11s, compact: {}}");
  none.relists[1].clear();
  EXPECT_TRUE(make_candidate(none, 0).timeline.empty());
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
  space.families = {Family::kCrash, Family::kStale, Family::kRandom, Family::kRecur, Family::kRelist};
  for (std::uint64_t seed : {1, 2}) space.relists[seed] = learn_relists(deletions_log(), space.replicas, sim::Time{} + 40s);
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
    const std::string text = scenarios::emit_scenario(apply_candidate(document, c));
    scenarios::ParseResult r = scenarios::parse_scenario(text, "s.yaml", scenarios::Registry::with_builtins());
    ASSERT_TRUE(r.scenario.has_value()) << i << ": " << r.errors.front().text() << "\n" << text;
    EXPECT_EQ(r.scenario->seed_list, std::vector<std::uint64_t>{c.seed});
    for (const scenarios::TimelineEvent& e : r.scenario->timeline) {
      if (!e.at) continue;
      const sim::Time from = sim::Time{} + *e.at;
      EXPECT_LE(from, limit) << c.text;
      if (const auto* f = std::get_if<scenarios::FaultsEvent>(&e.action)) {
        for (const auto& rule : f->rules) EXPECT_LE(from + rule.length.value_or(1h), limit) << c.text;
      } else if (const auto* p = std::get_if<scenarios::PartitionEvent>(&e.action)) {
        EXPECT_LE(from + p->length, limit) << c.text;
      } else if (const auto* p = std::get_if<scenarios::PauseEvent>(&e.action)) {
        EXPECT_LE(from + p->length, limit) << c.text;
        EXPECT_LT(p->length, 10s) << c.text;  // shorter than the renew deadline
      }
    }
  }
}

// ctl-0 lists and watches configmaps, then secrets; ctl-1 watches leases only.
std::vector<fakeapi::RecordedCall> starts_log() {
  using fakeapi::Verb;
  return {call("ctl-0", Verb::kList, api::kConfigMaps, 10ms, ""), call("ctl-1", Verb::kWatch, api::kLeases, 10ms, ""),
          call("ctl-0", Verb::kList, api::kSecrets, 11ms, ""),    call("ctl-0", Verb::kWatch, api::kConfigMaps, 12ms, ""),
          call("workload", Verb::kList, api::kPods, 12ms, ""),    call("ctl-0", Verb::kCreate, api::kConfigMaps, 3s, "a")};
}

TEST(LearnStarts, OneTargetPerReplicaAndResourceInterleaved) {
  std::vector<std::string> texts;
  for (const auto& t : learn_starts(starts_log(), {"ctl-0", "ctl-1"})) texts.push_back(t.text());
  EXPECT_EQ(texts, (std::vector<std::string>{"ctl-0 configmaps", "ctl-1 coordination.k8s.io/v1/leases", "ctl-0 secrets"}));
}

TEST(Candidates, TheStartFamilyFailsOrSlowsOneInformersFirstRequests) {
  Space space = make_space(parsed(kScenario), {1});
  space.starts[1] = learn_starts(starts_log(), space.replicas);
  space.points[1] = learn_points(starts_log(), space.replicas, sim::Time{} + 40s);
  space.families = {Family::kStart};
  const std::string first = "verb: [list, watch], resource: configmaps, process: ctl-0";
  // Pass 0, from the start: the first request waits 5 s.
  const Candidate slow = make_candidate(space, 0);
  EXPECT_EQ(slow.family, Family::kStart);
  EXPECT_EQ(slow.text, "{at: 0s, faults: [{" + first + ", latency: 5s, count: 1, for: 30s}]}");
  EXPECT_EQ(slow.points, std::vector<std::string>{"ctl-0 configmaps at start"});
  EXPECT_EQ(make_candidate(space, 1).points, std::vector<std::string>{"ctl-1 coordination.k8s.io/v1/leases at start"});
  EXPECT_EQ(make_candidate(space, 2).points, std::vector<std::string>{"ctl-0 secrets at start"});
  // Pass 1: the first three requests fail.
  EXPECT_EQ(make_candidate(space, 3).text, "{at: 0s, faults: [{" + first + ", error: 500, count: 3, for: 30s}]}");
  // Pass 2: the wait right after a restart, after the replica's first write.
  const std::string after = "when: {process: ctl-0, after: {verb: create, resource: configmaps, count: 1}}";
  EXPECT_EQ(make_candidate(space, 6).text, "{" + after + ", faults: [{" + first + ", latency: 5s, count: 1, for: 30s}]}; {" +
                                               after + ", crash: {process: ctl-0, restartAfter: 1s}}");
  // A replica that writes nothing restarts a quarter into the perturbed time (40 s: at 10 s).
  EXPECT_EQ(make_candidate(space, 7).text,
            "{at: 10s, faults: [{verb: [list, watch], resource: coordination.k8s.io/v1/leases, process: ctl-1, latency: "
            "5s, count: 1, for: 30s}]}; {at: 10s, crash: {process: ctl-1, restartAfter: 1s}}");
  // Then at random, every candidate a file the parser takes, its rules ending by the limit.
  for (std::size_t i = 9; i < 60; ++i) {
    const Candidate c = make_candidate(space, i);
    ASSERT_FALSE(c.timeline.empty()) << i;
    const std::string text = scenarios::emit_scenario(apply_candidate(YAML::Load(kScenario), c));
    scenarios::ParseResult r = scenarios::parse_scenario(text, "s.yaml", scenarios::Registry::with_builtins());
    EXPECT_TRUE(r.scenario.has_value()) << c.text << "\n" << (r.errors.empty() ? "" : r.errors.front().text());
  }
  // Nothing listed: nothing to try.
  Space idle = make_space(parsed(kScenario), {1});
  idle.families = {Family::kStart};
  EXPECT_TRUE(make_candidate(idle, 0).timeline.empty());
}

}  // namespace
}  // namespace kubesim::explore
