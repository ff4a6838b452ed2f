// What a run cannot do is SeedResult::error, never an exception out of run_seed; and a run
// torn down with everything still running (partitions, pauses, crashed processes, faults,
// workload requests in flight, leaders and their controllers) is clean under ASan.
#include "kubesim/runner/runner.h"

#include <gtest/gtest.h>

#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

constexpr const char* kEverything = R"(
name: everything
duration: 1m
cluster:
  resources:
    - {group: example.com, version: v1, kind: Widget, plural: widgets, namespaced: true}
    - {group: example.com, version: v1, kind: Foo, plural: foos, namespaced: false}
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}
    - {apiVersion: v1, kind: Namespace, metadata: {name: dst}}
    - {apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: src}, spec: {replicas: 3}}
    - {apiVersion: example.com/v1, kind: Foo, metadata: {name: f}, spec: {anything: [1, {deep: true}]}}
network: {latency: {min: 1ms, max: 50ms}}
processes:
  - name: a
    replicas: 3
    clock: {skew: [-1s, 1s], drift: [-0.01, 0.01]}
    run:
      - elector: {lock: {multi: {primary: configmaps/src/a, secondary: leases/src/a}}, releaseOnCancel: true}
      - informer: {resource: configmaps, namespace: dst, resync: 5s}
      - controller: {type: configmap-mirror, onlyWhenLeader: true, workers: 3, params: {source: src, target: dst}}
      - controller: {type: widget, params: {}}
      - controller: {type: idle}
  - name: b
    replicas: 2
    run:
      - elector: {lock: endpoints/src/b, leaseDuration: 4s, renewDeadline: 3s, retryPeriod: 1s}
      - informer: {resource: example.com/v1/foos}
workload:
  - every: 100ms
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: w-, namespace: src}}}
  - every: 150ms
    action: {update: {resource: configmaps, namespace: src, pick: random, set: {data.tick: "{{n}}"}}}
  - every: 200ms
    action: {update: {resource: example.com/v1/widgets, namespace: src, pick: newest, set: {spec.replicas: 2}}}
timeline:
  - {at: 20s, faults: [{verb: watch, resource: configmaps, drop: afterEvents, events: 5}, {verb: update, resource: configmaps, latency: 2s}]}
  - {at: 40s, partition: {process: a-0, for: 1m}}
  - {at: 45s, pause: {process: a-1, for: 1m}}
  - {at: 50s, crash: {process: a-2}}
  - {at: 58s, partition: {process: b-0, for: 10s}}
  - {at: 55s, faults: [{verb: list, resource: configmaps, staleBy: 30s}, {verb: watch, resource: configmaps, stall: true}]}
expect:
  always:
    - atMostOneLeader: leases/src/a
  eventually:
    - {after: 50s, within: 10s, informersConverged: true}
)";

TEST(ErrorsTest, ARunTornDownWithEverythingStillRunningIsClean) {
  const scenarios::Scenario s = parse(kEverything);
  for (std::uint64_t seed : {1, 2}) {
    const Outcome r = run(s, seed, true);
    EXPECT_TRUE(r.result.error.empty()) << r.result.error;
    EXPECT_GT(r.result.requests, 1000u);
    ASSERT_TRUE(r.result.timeline.has_value());
    EXPECT_FALSE(r.result.timeline->samples.empty());  // the controllers' queues, each second
  }
}

TEST(ErrorsTest, AThrowingControllerEndsTheRunWithAnError) {
  const scenarios::Scenario s = parse(R"(
name: thrower
duration: 1m
processes:
  - name: ctl
    replicas: 1
    run:
      - elector: {lock: leases/default/t}
      - informer: {resource: configmaps}
      - controller: {type: idle}
      - controller: {type: thrower}
expect:
  finally:
    - {count: {resource: configmaps}, equals: 0}
)");
  const Outcome r = run(s);
  EXPECT_EQ(r.result.error, "controller \"thrower\" of ctl-0: boom");
  EXPECT_TRUE(r.result.failures.empty()) << "the run stopped before its end: finally was not judged";
  EXPECT_TRUE(r.result.broke_any());
  ASSERT_EQ(lines_of(r.trace, "run.error").size(), 1u);
  EXPECT_NE(lines_of(r.trace, "run.error")[0].find("\"t\":5000000000"), std::string::npos);
  EXPECT_FALSE(r.result.trace_tail.empty());
}

TEST(ErrorsTest, AControllerTypeThatCannotMakeItsControllerIsAnError) {
  const scenarios::Scenario s = parse(R"(
name: broken-factory
duration: 1m
processes:
  - name: ctl
    replicas: 1
    run:
      - controller: {type: broken-factory}
)");
  const Outcome r = run(s);
  EXPECT_EQ(r.result.error, "controller \"broken-factory\" of ctl-0: cannot make it");
}

TEST(ErrorsTest, AClusterObjectThatCannotBeCreatedNamesTheObject) {
  const scenarios::Scenario s = parse(R"(
name: bad-object
duration: 1m
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: here}}
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: nowhere}}
processes:
  - name: ctl
    replicas: 1
    run:
      - informer: {resource: configmaps}
)");
  const Outcome r = run(s);
  EXPECT_EQ(r.result.error, "cluster.objects[1] (ConfigMap nowhere/cm): namespaces \"nowhere\" not found");
  EXPECT_EQ(r.result.requests, 0u);
  EXPECT_EQ(lines_of(r.trace, "run.error").size(), 1u);
}

TEST(ErrorsTest, AProcessThatRunsACommandNeedsLiveMode) {
  const scenarios::Scenario s = parse(R"(
name: live
duration: 1m
processes:
  - name: op
    replicas: 1
    exec: {command: [python3, op.py]}
)");
  const Outcome r = run(s);
  EXPECT_EQ(r.result.error, "process \"op\" runs a command (exec), which only live mode (kubesim run --live) starts");
}

}  // namespace
}  // namespace kubesim::runner::testing
