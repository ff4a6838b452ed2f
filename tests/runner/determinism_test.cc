// run_seed is a function of the scenario and the seed: the same pair gives the same trace, byte
// for byte, ending with the trace hash; another seed gives another run.
#include "kubesim/runner/runner.h"

#include <gtest/gtest.h>

#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

constexpr const char* kBusy = R"(
name: busy
duration: 1m
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}
    - {apiVersion: v1, kind: Namespace, metadata: {name: dst}}
network: {latency: {min: 1ms, max: 20ms}}
processes:
  - name: mirror
    replicas: 3
    clock: {skew: [-500ms, 500ms], drift: [-0.001, 0.001]}
    run:
      - elector: {lock: leases/src/mirror, leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s}
      - informer: {resource: configmaps, namespace: src}
      - controller: {type: configmap-mirror, onlyWhenLeader: true, params: {source: src, target: dst}}
workload:
  - every: 500ms
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: w-, namespace: src}, data: {num: "{{n}}"}}}
  - every: 1s
    action: {update: {resource: configmaps, namespace: src, pick: random, set: {data.tick: "{{n}}"}}}
  - every: 2s
    action: {delete: {resource: configmaps, namespace: src, pick: oldest}}
timeline:
  - {at: 10s, partition: {process: mirror-0, for: 20s}}
  - {at: 35s, crash: {process: mirror-1, restartAfter: 5s}}
  - {at: 45s, faults: [{verb: create, resource: configmaps, error: 500, probability: 0.5, for: 10s}]}
expect:
  always:
    - atMostOneLeader: leases/src/mirror
)";

TEST(DeterminismTest, TheSameSeedGivesTheSameTraceByteForByte) {
  const scenarios::Scenario scenario = parse(kBusy);
  const Outcome a = run(scenario, 7);
  const Outcome b = run(scenario, 7);
  ASSERT_TRUE(a.result.error.empty()) << a.result.error;
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_EQ(a.result.trace_hash, b.result.trace_hash);
  EXPECT_EQ(a.result.trace_events, b.result.trace_events);
  EXPECT_EQ(a.result.requests, b.result.requests);
  EXPECT_GT(a.result.requests, 200u);
  EXPECT_GT(a.result.trace_events, 100u);
  // The last line is the hash.
  const std::string last = "{\"traceHash\":\"" + a.result.trace_hash + "\"}\n";
  ASSERT_GE(a.trace.size(), last.size());
  EXPECT_EQ(a.trace.substr(a.trace.size() - last.size()), last);
  EXPECT_EQ(a.result.trace_hash.size(), 16u);
}

TEST(DeterminismTest, AnotherSeedGivesAnotherRun) {
  const scenarios::Scenario scenario = parse(kBusy);
  const Outcome a = run(scenario, 1);
  const Outcome b = run(scenario, 2);
  EXPECT_NE(a.result.trace_hash, b.result.trace_hash);
  EXPECT_NE(a.trace, b.trace);
}

TEST(DeterminismTest, TheHashDoesNotDependOnWhetherTheTraceIsWritten) {
  const scenarios::Scenario scenario = parse(kBusy);
  RunOptions quiet;
  quiet.seed = 3;
  quiet.trace_tail = 0;
  const SeedResult a = run_seed(scenario, registry(), quiet);
  const Outcome b = run(scenario, 3);
  EXPECT_EQ(a.trace_hash, b.result.trace_hash);
  EXPECT_TRUE(a.trace_tail.empty());
  EXPECT_EQ(b.result.trace_tail.size(), 20u);
}

// Observing a run never changes it: the timeline picture (`--report`, an experiment's
// `measure:`) and the capture (explore, experiments) leave the trace alone, so `kubesim run FILE
// --seed N` replays the run a report or an experiment showed. Seeds of a scenario whose
// controllers run their queues under faults, crashes and partitions.
TEST(DeterminismTest, TheTimelineAndTheCaptureLeaveTheRunAlone) {
  const scenarios::Scenario scenario = parse(kBusy);
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Outcome plain = run(scenario, seed);
    ASSERT_TRUE(plain.result.error.empty()) << plain.result.error;
    const Outcome pictured = run(scenario, seed, /*timeline=*/true);
    EXPECT_EQ(pictured.result.trace_hash, plain.result.trace_hash);
    EXPECT_TRUE(pictured.trace == plain.trace);
    ASSERT_TRUE(pictured.result.timeline.has_value());
    EXPECT_FALSE(pictured.result.timeline->samples.empty());  // the queue-depth lane was drawn
    for (bool timeline : {false, true}) {
      RunCapture capture;
      RunOptions options;
      options.seed = seed;
      options.timeline = timeline;
      options.capture = &capture;
      const SeedResult captured = run_seed(scenario, registry(), options);
      EXPECT_EQ(captured.trace_hash, plain.result.trace_hash) << "timeline " << timeline;
      EXPECT_EQ(captured.trace_events, plain.result.trace_events) << "timeline " << timeline;
      EXPECT_FALSE(capture.work.empty());
    }
  }
}

TEST(DeterminismTest, TheTraceTailIsTheLastLinesBeforeTheEnd) {
  const scenarios::Scenario scenario = parse(kBusy);
  const Outcome r = run(scenario, 4);
  ASSERT_EQ(r.result.trace_tail.size(), 20u);
  // The tail is the 20 lines just before the hash line.
  std::vector<std::string> lines;
  std::istringstream in(r.trace);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_GT(lines.size(), 21u);
  const std::vector<std::string> expected(lines.end() - 21, lines.end() - 1);
  EXPECT_EQ(r.result.trace_tail, expected);
}

}  // namespace
}  // namespace kubesim::runner::testing
