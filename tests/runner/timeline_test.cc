// Timeline events at their instants and on triggers: crash and restartAfter, a trigger on the
// N-th matching request, fault rules that stop after their window, partitions, pauses, skews,
// server restarts and compactions — each traced and drawn.
#include "kubesim/runner/runner.h"

#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

using nlohmann::json;

sim::Time time_of(const std::string& line) { return sim::Time{} + sim::Duration(json::parse(line)["t"].get<std::int64_t>()); }
json fields_of(const std::string& line) { return json::parse(line)["f"]; }

TEST(TimelineTest, ACrashedProcessRestartsAfterRestartAfterAsAFreshIncarnation) {
  const scenarios::Scenario s = parse(R"(
name: crash
duration: 1m
processes:
  - name: node
    replicas: 1
    run:
      - elector: {lock: leases/kube-system/c}
timeline:
  - {at: 20s, crash: {process: node-0, restartAfter: 10s}}
  - {at: 45s, crash: {process: node-0}}
)");
  const Outcome r = run(s, 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto crashes = lines_of(r.trace, "timeline.crash");
  ASSERT_EQ(crashes.size(), 2u);
  EXPECT_EQ(time_of(crashes[0]), at(20s));
  EXPECT_EQ(fields_of(crashes[0])["restartAfter"], "10s");
  const auto restarts = lines_of(r.trace, "timeline.restart");
  ASSERT_EQ(restarts.size(), 1u);
  EXPECT_EQ(time_of(restarts[0]), at(30s));
  const auto starts = lines_of(r.trace, "replica.start");
  ASSERT_EQ(starts.size(), 2u);
  EXPECT_EQ(fields_of(starts[1])["incarnation"], 1);
  EXPECT_EQ(time_of(starts[1]), at(30s));
  // Leadership ended with each crash; the restarted replica (same identity) took the lock again.
  const auto ends = lines_of(r.trace, "leader.end");
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(time_of(ends[0]), at(20s));
  EXPECT_EQ(time_of(ends[1]), at(45s));
  // The picture: a down span per crash (the last one to the end), and crash marks.
  const Timeline& t = *r.result.timeline;
  std::vector<std::pair<sim::Time, sim::Time>> down;
  for (const auto& span : t.spans) {
    if (span.kind == "down") down.emplace_back(span.from, span.to);
  }
  ASSERT_EQ(down.size(), 2u);
  EXPECT_EQ(down[0], std::make_pair(at(20s), at(30s)));
  EXPECT_EQ(down[1], std::make_pair(at(45s), at(60s)));
  EXPECT_EQ(std::count_if(t.marks.begin(), t.marks.end(), [](const TimelineMark& m) { return m.kind == "crash"; }), 2);
}

// One rule for deferred restarts (the cluster's): a crash's restartAfter restarts the incarnation
// it crashed, never a later one that was started and crashed again in the meantime.
TEST(TimelineTest, AnOlderRestartAfterDoesNotBringBackALaterCrash) {
  const scenarios::Scenario s = parse(R"(
name: crash
duration: 1m
processes:
  - name: node
    replicas: 1
    run:
      - elector: {lock: leases/kube-system/c}
timeline:
  - {at: 10s, crash: {process: node-0, restartAfter: 30s}}
  - {at: 11s, crash: {process: node-0, restartAfter: 1s}}
  - {at: 20s, crash: {process: node-0}}
)");
  const Outcome r = run(s, 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto restarts = lines_of(r.trace, "timeline.restart");
  ASSERT_EQ(restarts.size(), 1u);  // at 12s; the 40s one finds incarnation 1 down, not 0
  EXPECT_EQ(time_of(restarts[0]), at(12s));
  EXPECT_EQ(lines_of(r.trace, "replica.start").size(), 2u);
}

// Two partitions of one process ending at the same instant heal it once.
TEST(TimelineTest, PartitionsEndingTogetherHealOnce) {
  const scenarios::Scenario s = parse(R"(
name: heal
duration: 1m
processes:
  - name: node
    replicas: 1
    run:
      - elector: {lock: leases/kube-system/c}
timeline:
  - {at: 10s, partition: {process: node-0, for: 20s}}
  - {at: 20s, partition: {process: node-0, for: 10s}}
)");
  const Outcome r = run(s, 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto heals = lines_of(r.trace, "timeline.heal");
  ASSERT_EQ(heals.size(), 1u);
  EXPECT_EQ(time_of(heals[0]), at(30s));
}

TEST(TimelineTest, ATriggerFiresOnceOnTheNthMatchingRequest) {
  // The informer's first watch starts it; each server restart cuts it and it watches again.
  const scenarios::Scenario s = parse(R"(
name: trigger
duration: 1m
processes:
  - name: node
    replicas: 1
    run:
      - informer: {resource: configmaps}
timeline:
  - {at: 20s, apiserver: restart}
  - {at: 40s, apiserver: restart}
  - when: {process: node-0, after: {verb: watch, resource: configmaps, count: 2}}
    compact: {}
  - when: {process: node-0, after: {verb: watch, count: 3}}
    skew: {process: node-0, by: 1s}
  - when: {process: node-0, after: {verb: watch, resource: secrets, count: 1}}
    compact: {}
)");
  for (std::uint64_t seed : {1, 2}) {
    const Outcome r = run(s, seed);
    const auto compactions = lines_of(r.trace, "timeline.compact");
    ASSERT_EQ(compactions.size(), 1u) << "fires once, and never for a resource nobody watches";
    EXPECT_EQ(fields_of(compactions[0])["cause"], "when");
    EXPECT_EQ(time_of(compactions[0]), at(20s));
    const auto skews = lines_of(r.trace, "timeline.skew");
    ASSERT_EQ(skews.size(), 1u);
    EXPECT_EQ(time_of(skews[0]), at(40s));
  }
}

TEST(TimelineTest, FaultsWithForStopAfterTheirWindow) {
  const scenarios::Scenario s = parse(R"(
name: faults
duration: 1m
processes:
  - name: node
    replicas: 2
    run:
      - elector: {lock: leases/kube-system/f}
timeline:
  - at: 20s
    faults:
      - {verb: get, resource: leases, error: 500, for: 10s}
      - {verb: list, resource: secrets, error: 429, retryAfter: 1s}
)");
  const Outcome r = run(s, 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto faults = lines_of(r.trace, "fault");
  ASSERT_GE(faults.size(), 3u);  // the follower reads the Lease every ~2 s
  for (const auto& line : faults) {
    EXPECT_GE(time_of(line), at(20s)) << line;
    EXPECT_LT(time_of(line), at(30s)) << line;
  }
  const auto added = lines_of(r.trace, "timeline.faults");
  ASSERT_EQ(added.size(), 1u);
  const json rules = fields_of(added[0])["rules"];
  ASSERT_EQ(rules.size(), 2u);
  // The picture shows both windows: the first for 10 s, the second to the end.
  std::vector<TimelineSpan> windows;
  for (const auto& span : r.result.timeline->spans) {
    if (span.kind == "fault") windows.push_back(span);
  }
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].lane, "apiserver");
  EXPECT_EQ(windows[0].label, "get leases error 500");
  EXPECT_EQ(windows[0].from, at(20s));
  EXPECT_EQ(windows[0].to, at(30s));
  EXPECT_EQ(windows[1].to, at(60s));
}

// A rule limited by `count` is drawn until its last injection once it ran out, not to the end
// of the run (nor of its `for`); one that did not run out, to its window's end.
TEST(TimelineTest, AFaultLimitedByCountEndsWhereItRanOut) {
  const Outcome r = run(parse(R"(
name: counted
duration: 1m
workload:
  - every: 1s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: c-, namespace: default}}}
timeline:
  - at: 10500ms
    faults:
      - {verb: create, resource: configmaps, error: 500, count: 3}
      - {verb: create, resource: secrets, error: 500, count: 3, for: 20s}
)"), 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  std::vector<TimelineSpan> windows;
  for (const auto& span : r.result.timeline->spans) {
    if (span.kind == "fault") windows.push_back(span);
  }
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].from, at(10500ms));
  EXPECT_EQ(windows[0].to, at(13s));  // the creates at 11, 12 and 13 s
  EXPECT_EQ(windows[1].to, at(30500ms));  // never fired: its window
}

// The picture's pause ends when the pause does, whichever of the two same-instant callbacks (the
// process's own end of pause, the picture's) a seed runs first.
TEST(TimelineTest, APauseSpanEndsWithThePauseInEverySeed) {
  const scenarios::Scenario s = parse(R"(
name: pauses
duration: 1m
processes:
  - name: node
    replicas: 1
    run:
      - elector: {lock: leases/kube-system/p}
timeline:
  - {at: 10s, pause: {process: node-0, for: 5s}}
)");
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Outcome r = run(s, seed, true);
    ASSERT_TRUE(r.result.error.empty()) << r.result.error;
    const auto& spans = r.result.timeline->spans;
    const auto pause = std::find_if(spans.begin(), spans.end(),
                                    [](const TimelineSpan& span) { return span.kind == "pause"; });
    ASSERT_NE(pause, spans.end()) << "seed " << seed;
    EXPECT_EQ(pause->from, at(10s)) << "seed " << seed;
    EXPECT_EQ(pause->to, at(15s)) << "seed " << seed;
  }
}

TEST(TimelineTest, EveryEventIsTracedAndDrawn) {
  const scenarios::Scenario s = parse(R"(
name: events
duration: 2m
processes:
  - name: node
    replicas: 2
    run:
      - elector: {lock: leases/kube-system/e}
      - informer: {resource: configmaps}
timeline:
  - {at: 10s, partition: {process: node-0, for: 40s}}
  - {at: 20s, apiserver: restart}
  - {at: 30s, compact: {}}
  - {at: 40s, skew: {process: node-1, by: 3s}}
  - {at: 60s, pause: {process: node-1, for: 5s}}
)");
  const Outcome r = run(s, 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  for (const char* kind : {"timeline.partition", "timeline.heal", "timeline.apiserver-restart", "timeline.compact",
                           "timeline.skew", "timeline.pause"}) {
    EXPECT_EQ(lines_of(r.trace, kind).size(), 1u) << kind;
  }
  EXPECT_EQ(time_of(lines_of(r.trace, "timeline.heal")[0]), at(50s));
  const Timeline& t = *r.result.timeline;
  EXPECT_EQ(t.duration, 2min);
  const std::vector<std::string> lanes = {"lock leases/kube-system/e", "process node-0", "process node-1", "apiserver"};
  EXPECT_EQ(t.lanes, lanes);
  const auto has_span = [&](const std::string& lane, const std::string& kind, sim::Time from, sim::Time to) {
    return std::any_of(t.spans.begin(), t.spans.end(), [&](const TimelineSpan& s) {
      return s.lane == lane && s.kind == kind && s.from == from && s.to == to;
    });
  };
  EXPECT_TRUE(has_span("process node-0", "partition", at(10s), at(50s)));
  EXPECT_TRUE(has_span("process node-1", "pause", at(60s), at(65s)));
  const auto has_mark = [&](const std::string& lane, const std::string& kind, sim::Time when) {
    return std::any_of(t.marks.begin(), t.marks.end(), [&](const TimelineMark& m) {
      return m.lane == lane && m.kind == kind && m.at == when;
    });
  };
  EXPECT_TRUE(has_mark("apiserver", "restart", at(20s)));
  EXPECT_TRUE(has_mark("apiserver", "compact", at(30s)));
  EXPECT_TRUE(has_mark("process node-1", "skew", at(40s)));
  // The server restart cut every watch: each replica's informer watched again.
  EXPECT_TRUE(std::any_of(t.marks.begin(), t.marks.end(), [](const TimelineMark& m) {
    return m.kind == "watch-restart" && m.lane == "process node-1" && m.label == "configmaps" && m.at >= at(20s);
  }));
}

TEST(TimelineTest, QueueDepthsAreSampledEachSecondWhileAControllerRuns) {
  const scenarios::Scenario s = parse(R"(
name: queues
duration: 20s
network: {latency: {min: 1ms, max: 2ms}}
processes:
  - name: ctl
    replicas: 2
    run:
      - elector: {lock: leases/default/q}
      - controller: {type: idle, onlyWhenLeader: true}
  - name: plain
    replicas: 1
    run:
      - controller: {type: idle}
timeline:
  - {at: 0s, crash: {process: ctl-1, restartAfter: 1s}}
  - {at: 10500ms, crash: {process: plain-0}}
)");
  const Outcome r = run(s, 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const Timeline& t = *r.result.timeline;
  const std::vector<std::string> lanes = {"lock leases/default/q", "process ctl-0", "process ctl-1", "process plain-0",
                                          "apiserver", "queue ctl-0", "queue ctl-1", "queue plain-0"};
  EXPECT_EQ(t.lanes, lanes);
  std::map<std::string, std::vector<sim::Time>> samples;
  for (const auto& sample : t.samples) {
    EXPECT_EQ(sample.value, 3.0);  // the idle controller's queue_depth
    samples[sample.series].push_back(sample.at);
  }
  // ctl-0 leads from the start and runs its controller; ctl-1 never leads; plain-0 runs its
  // controller until it crashes at 10.5 s.
  EXPECT_EQ(samples["queue ctl-0"].size(), 20u);
  EXPECT_EQ(samples["queue ctl-0"].front(), at(1s));
  EXPECT_EQ(samples.count("queue ctl-1"), 0u);
  ASSERT_EQ(samples["queue plain-0"].size(), 10u);
  EXPECT_EQ(samples["queue plain-0"].back(), at(10s));
}

}  // namespace
}  // namespace kubesim::runner::testing
