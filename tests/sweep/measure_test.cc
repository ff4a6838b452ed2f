// measure_run on real runs whose values follow from the scenario, and the CSV and table outputs.
#include "kubesim/sweep/measure.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "kubesim/scenarios/parse.h"

namespace kubesim::sweep {
namespace {

const std::vector<std::string>& kAll = metric_names();

struct Measured {
  runner::SeedResult result;
  Metrics metrics;
  std::optional<double> operator[](const std::string& column) const {
    for (const auto& [name, value] : metrics) {
      if (name == column) return value;
    }
    ADD_FAILURE() << "no column " << column;
    return std::nullopt;
  }
};

Measured measure(const std::string& text, std::uint64_t seed = 1) {
  const scenarios::Registry registry = scenarios::Registry::with_builtins();
  scenarios::ParseResult parsed = scenarios::parse_scenario(text, "m.yaml", registry);
  EXPECT_TRUE(parsed.scenario) << (parsed.errors.empty() ? "" : parsed.errors[0].text());
  if (!parsed.scenario) return {};
  runner::RunCapture capture;
  runner::RunOptions options;
  options.seed = seed;
  options.timeline = true;
  options.capture = &capture;
  Measured m;
  m.result = runner::run_seed(*parsed.scenario, registry, options);
  m.metrics = measure_run(*parsed.scenario, m.result, capture, kAll);
  return m;
}

// One replica leads; it dies at 30s and comes back at 40s, when it takes its own lease again at
// once (the record still names it): one failover of exactly 10s, one new term.
const char* kCrashedLeader = R"(name: crashed-leader
duration: 1m
processes:
  - name: ctl
    run:
      - elector: {lock: leases/default/ctl, leaseDuration: 5s, renewDeadline: 4s, retryPeriod: 1s}
timeline:
  - at: 30s
    crash: {process: ctl-0, restartAfter: 10s}
)";

TEST(Measure, ACrashedLeaderIsOneFailoverAsLongAsItWasDown) {
  const Measured m = measure(kCrashedLeader);
  EXPECT_EQ(m["failoverTime"], 10.0);
  EXPECT_EQ(m["leaderTransitions"], 1.0);
  EXPECT_EQ(m["checksBroken"], 0.0);
  EXPECT_EQ(m["watchRestarts"], 0.0);
  EXPECT_EQ(m["convergenceTime"], 0.0);  // lease writes do not count
  EXPECT_EQ(m["queueDepth.p50"], std::nullopt);  // no controller, no queue
  const double calls = *m["apiCalls"];
  EXPECT_EQ(calls, static_cast<double>(m.result.requests));
  double by_verb = 0;
  for (const char* verb : {"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}) {
    by_verb += m["apiCalls." + std::string(verb)].value_or(-1e9);
  }
  EXPECT_EQ(by_verb, calls);
  EXPECT_GT(*m["apiCalls.update"], 0.0);  // renewals
  EXPECT_EQ(*m["apiCalls.create"], 1.0);  // the lease, once
  EXPECT_DOUBLE_EQ(*m["requestsPerSecond"], calls / 60.0);
}

TEST(Measure, WithoutALeaderLossThereIsNoFailover) {
  std::string text = kCrashedLeader;
  text = text.substr(0, text.find("timeline:"));
  const Measured m = measure(text);
  EXPECT_EQ(m["failoverTime"], std::nullopt);
  EXPECT_EQ(m["leaderTransitions"], 0.0);
}

TEST(Measure, ALeaderThatNeverComesBackIsAFailoverUntilTheEnd) {
  std::string text = kCrashedLeader;
  const std::string restart = ", restartAfter: 10s";
  text.replace(text.find(restart), restart.size(), "");
  const Measured m = measure(text);
  EXPECT_EQ(m["failoverTime"], 30.0);
  EXPECT_EQ(m["leaderTransitions"], 0.0);
}

// The mirror copies each ConfigMap the workload creates every 5s until 50s (the last at 45s); it
// is cut off from 20s to 30s, the last fault. Its last copy is at 45s: converged 15s after it.
const char* kMirror = R"(name: mirror
duration: 1m
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: a}}
    - {apiVersion: v1, kind: Namespace, metadata: {name: b}}
processes:
  - name: mirror
    run:
      - controller: {type: configmap-mirror, params: {source: a, target: b}}
workload:
  - every: 5s
    until: 50s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: "c{{n}}", namespace: a}}}
timeline:
  - at: 20s
    partition: {process: mirror-0, for: 10s}
expect:
  finally:
    - {count: {resource: configmaps, namespace: b}, equals: 10}
)";

TEST(Measure, ConvergenceRunsFromTheLastFaultToTheLastWriteOfAReplica) {
  const Measured m = measure(kMirror);
  EXPECT_EQ(m["checksBroken"], 0.0) << (m.result.failures.empty() ? "" : m.result.failures[0].detail);
  EXPECT_EQ(m["convergenceTime"], 15.0);
  EXPECT_EQ(m["failoverTime"], std::nullopt);
  ASSERT_TRUE(m["queueDepth.p50"]);
  EXPECT_GE(*m["queueDepth.p95"], *m["queueDepth.p50"]);
}

TEST(Measure, AnApiServerRestartRestartsTheWatches) {
  std::string text = kMirror;
  text.replace(text.find("partition: {process: mirror-0, for: 10s}"), 40, "apiserver: restart");
  const Measured m = measure(text);
  EXPECT_GE(*m["watchRestarts"], 1.0);
  EXPECT_EQ(measure(kCrashedLeader)["watchRestarts"], 0.0);
}

TEST(Measure, ABrokenCheckCounts) {
  std::string text = kMirror;
  text.replace(text.find("equals: 10"), 10, "equals: 11");
  EXPECT_EQ(measure(text)["checksBroken"], 1.0);
}

TEST(Measure, CallsByResourceCountEveryCallOnce) {
  const Measured leader = measure(kCrashedLeader);
  EXPECT_EQ(leader["apiCallsByResource.leases"], leader["apiCalls"]);
  EXPECT_EQ(leader.metrics.end(), std::find_if(leader.metrics.begin(), leader.metrics.end(), [](const auto& c) {
              return c.first == "apiCallsByResource.configmaps";
            }));
  const Measured mirror = measure(kMirror);
  // The mirror's list and watch of every ConfigMap and its ten copies; the workload's ten creates.
  EXPECT_EQ(mirror["apiCallsByResource.configmaps"], mirror["apiCalls"]);
  EXPECT_EQ(mirror["apiCalls.create"], 20.0);
}

// Without faults the mirror's informer opens one watch that streams its list, and the mirror
// creates one copy per change: 11 calls for 10 changes. The Lease calls of an elector in the same
// replica do not count.
TEST(Measure, CallsPerChangeAreTheReplicasCallsOverTheWorkloadsWrites) {
  std::string text = kMirror;
  text = text.substr(0, text.find("timeline:")) + text.substr(text.find("expect:"));
  EXPECT_DOUBLE_EQ(*measure(text)["apiCallsPerChange"], 1.1);
  const std::string run = "    run:\n";
  text.replace(text.find(run), run.size(),
               run + "      - elector: {lock: leases/default/m, leaseDuration: 5s, renewDeadline: 4s, retryPeriod: 1s}\n");
  EXPECT_DOUBLE_EQ(*measure(text)["apiCallsPerChange"], 1.1);
  // Five creates of copies conflict: each is retried, five calls more for the ten changes.
  text.replace(text.find("expect:"), 0,
               "timeline:\n  - at: 0s\n    faults:\n"
               "      - {process: mirror-0, verb: create, resource: configmaps, error: 409, count: 5}\n");
  EXPECT_DOUBLE_EQ(*measure(text)["apiCallsPerChange"], 1.6);
  EXPECT_EQ(measure(kCrashedLeader)["apiCallsPerChange"], std::nullopt);  // no workload
}

// kMirror with its timeline entry replaced by `entry` (an entry's lines after "  - ").
std::string mirror_with(const std::string& entry) {
  std::string text = kMirror;
  const std::string old = "at: 20s\n    partition: {process: mirror-0, for: 10s}";
  return text.replace(text.find(old), old.size(), entry);
}

// A watch refused with 410 makes the reflector list again; a watch cut off is resumed from the
// resourceVersion it reached, with no list; a restarted replica lists as it did the first time.
TEST(Measure, ARelistIsAListAfterAWatchOfTheSameIncarnation) {
  const Measured gone = measure(mirror_with("at: 0s\n    faults: [{process: mirror-0, verb: watch, gone: true, count: 1}]"));
  EXPECT_EQ(gone["relists"], 1.0);
  EXPECT_EQ(gone["watchRestarts"], 1.0);
  const Measured cut = measure(
      mirror_with("at: 0s\n    faults: [{process: mirror-0, verb: watch, drop: afterEvents, events: 2, count: 1}]"));
  EXPECT_EQ(cut["relists"], 0.0);
  EXPECT_EQ(cut["watchRestarts"], 1.0);
  const Measured crash = measure(mirror_with("at: 20s\n    crash: {process: mirror-0, restartAfter: 5s}"));
  EXPECT_EQ(crash["relists"], 0.0);
  EXPECT_EQ(crash["apiCalls.watch"], 2.0);  // a watch streaming its list, once per incarnation
}

// Each change is two items: the source's, one create of the copy, and the copy's own event, which
// needs no call. With 100 ms of latency each way on the mirror's link, the first takes a round
// trip of 200 ms and the second none: half the items 0.2 s, half 0 s.
TEST(Measure, WorkDurationIsEachItemsTimeFromGetToDone) {
  std::string text = kMirror;
  text = text.substr(0, text.find("timeline:")) + text.substr(text.find("expect:"));
  const Measured fast = measure(text);
  EXPECT_EQ(fast["workDuration.p50"], 0.0);
  EXPECT_EQ(fast["workDuration.p95"], 0.0);
  text.replace(text.find("processes:"), 0, "network: {latency: 100ms}\n");
  const Measured slow = measure(text);
  EXPECT_DOUBLE_EQ(*slow["workDuration.p50"], 0.1);
  EXPECT_DOUBLE_EQ(*slow["workDuration.p95"], 0.2);
  EXPECT_EQ(measure(kCrashedLeader)["workDuration.p50"], std::nullopt);  // no controller
}

// The work queues report to the capture without a timer of their own: a run that captures (as a
// measured run does) is the run, event for event.
TEST(Measure, CapturingWorkDurationsDoesNotChangeTheRun) {
  const scenarios::Registry registry = scenarios::Registry::with_builtins();
  scenarios::ParseResult parsed = scenarios::parse_scenario(kMirror, "m.yaml", registry);
  ASSERT_TRUE(parsed.scenario);
  runner::RunOptions plain;
  plain.seed = 3;
  const runner::SeedResult unmeasured = runner::run_seed(*parsed.scenario, registry, plain);
  runner::RunCapture capture;
  runner::RunOptions captured = plain;
  captured.capture = &capture;
  const runner::SeedResult measured = runner::run_seed(*parsed.scenario, registry, captured);
  EXPECT_FALSE(capture.work.empty());
  EXPECT_EQ(measured.trace_hash, unmeasured.trace_hash);
  EXPECT_EQ(measured.trace_events, unmeasured.trace_events);
}

TEST(Measure, PercentilesInterpolateBetweenRanks) {
  EXPECT_EQ(percentile({}, 50), std::nullopt);
  EXPECT_EQ(percentile({7}, 95), 7.0);
  EXPECT_EQ(percentile({4, 1, 3, 2}, 50), 2.5);
  EXPECT_DOUBLE_EQ(*percentile({1, 2, 3, 4, 5}, 95), 4.8);
  EXPECT_EQ(percentile({1, 2, 3, 4, 5}, 5), 1.2);
}

TEST(Measure, MetricColumns) {
  EXPECT_EQ(metric_columns("queueDepth"), (std::vector<std::string>{"queueDepth.p50", "queueDepth.p95"}));
  EXPECT_EQ(metric_columns("apiCalls").size(), 9u);
  EXPECT_EQ(metric_columns("failoverTime"), (std::vector<std::string>{"failoverTime"}));
  EXPECT_EQ(metric_columns("workDuration"), (std::vector<std::string>{"workDuration.p50", "workDuration.p95"}));
  EXPECT_TRUE(metric_columns("apiCallsByResource").empty());  // one per resource the run called
}

std::vector<MeasuredRun> sample_runs() {
  return {
      {"x[p=1]", "x", {{"p", "1"}}, 1, true, {{"m", 1.5}, {"n", std::nullopt}}},
      {"x[p=1]", "x", {{"p", "1"}}, 2, false, {{"m", 2.5}, {"n", 4.0}}},
      {"y, \"quoted\"[q=a]", "y, \"quoted\"", {{"q", "a"}}, 1, true, {{"m", 10.0}}},
  };
}

TEST(Output, CsvHasAColumnPerParameterAndMetricQuotedWhenNeeded) {
  std::ostringstream out;
  write_csv(sample_runs(), out);
  EXPECT_EQ(out.str(),
            "scenario,p,q,seed,passed,m,n\n"
            "x[p=1],1,,1,true,1.5,\n"
            "x[p=1],1,,2,false,2.5,4\n"
            "\"y, \"\"quoted\"\"[q=a]\",,a,1,true,10,\n");
}

TEST(Output, TheTableGivesMedianAndP5ToP95PerPoint) {
  std::ostringstream out;
  write_table(sample_runs(), out);
  EXPECT_EQ(out.str(),
            "x[p=1]  (1/2 seeds passed)\n"
            "  m  median 2  p5–p95 1.55–2.45\n"
            "  n  median 4  p5–p95 4–4  (1 seeds)\n"
            "y, \"quoted\"[q=a]  (1/1 seeds passed)\n"
            "  m  median 10  p5–p95 10–10\n");
}

}  // namespace
}  // namespace kubesim::sweep
