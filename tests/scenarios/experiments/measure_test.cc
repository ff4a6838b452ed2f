// measure_run on real runs whose values follow from the scenario, and the CSV and table outputs.
#include "kubesim/scenarios/measure.h"

#include <gtest/gtest.h>

#include <sstream>

#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios {
namespace {

const std::vector<std::string> kAll = {"failoverTime",  "leaderTransitions", "convergenceTime",
                                       "apiCalls",      "requestsPerSecond", "watchRestarts",
                                       "queueDepth",    "checksBroken"};

struct Measured {
  SeedResult result;
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
  const Registry registry = Registry::with_builtins();
  ParseResult parsed = parse_scenario(text, "m.yaml", registry);
  EXPECT_TRUE(parsed.scenario) << (parsed.errors.empty() ? "" : parsed.errors[0].text());
  if (!parsed.scenario) return {};
  RunCapture capture;
  RunOptions options;
  options.seed = seed;
  options.timeline = true;
  options.capture = &capture;
  Measured m;
  m.result = run_seed(*parsed.scenario, registry, options);
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
}  // namespace kubesim::scenarios
