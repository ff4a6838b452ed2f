// Checks over a run: each broken check reported once, at the first virtual instant it broke,
// with the values that broke it; checks that hold report nothing.
#include "kubesim/runner/runner.h"

#include <gtest/gtest.h>

#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

// No network latency: a workload action reaches the server at its own instant.
constexpr const char* kObjects = R"(
name: objects
duration: 30s
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: team}}
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: seed, namespace: team, labels: {app: x}}, data: {k: v}}
workload:
  - every: 5s
    from: 5s
    until: 16s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: "c-{{n}}", namespace: team, labels: {bad: "{{n}}"}}, data: {k: "{{n}}"}}}
expect:
  always:
    - noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: team, labels: {bad: "2"}}}
    - noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: other}}
    - match: {apiVersion: v1, kind: ConfigMap, metadata: {name: seed}, data: {k: v}}
  eventually:
    - {after: 0s, within: 20s, match: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: team, name: c-1}, data: {k: "1"}}}
    - {after: 1s, within: 5s, match: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: team, name: c-1}, data: {k: nope}}}
  consistently:
    - {after: 6s, for: 14s, count: {resource: configmaps, namespace: team}, equals: 2}
    - {after: 0s, for: 4s, count: {resource: configmaps, namespace: team, labelSelector: app=x}, equals: 1}
  finally:
    - {count: {resource: configmaps, namespace: team}, equals: {count: {resource: configmaps, namespace: default}}}
    - {object: configmaps/team/c-3, path: data.k, equals: "3"}
    - {object: configmaps/team/c-3, path: data.k, equals: "4"}
    - {object: configmaps/team/c-9, path: data.k, equals: "9"}
)";

TEST(ChecksTest, BrokenChecksAreReportedAtTheirFirstBreakWithTheirValues) {
  const Outcome r = run(parse(kObjects), 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto& f = r.result.failures;
  ASSERT_EQ(f.size(), 6u) << failures_of(r.result);
  // In the order they broke.
  EXPECT_EQ(f[0].condition, "match");
  EXPECT_EQ(f[0].at, at(6s));
  EXPECT_EQ(f[0].detail,
            "did not hold at any instant of [1s, 6s]; at the end:\nno ConfigMap matches in team; the closest, team/c-1, "
            "differs in 1 field: data.k: \"1\", want \"nope\"");
  EXPECT_EQ(f[1].condition, "noMatch");
  EXPECT_EQ(f[1].at, at(10s));
  EXPECT_EQ(f[1].detail,
            "team/c-2 matches {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"labels\":{\"bad\":\"2\"},"
            "\"namespace\":\"team\"}}\nright after revision 8: configmaps team/c-2 created");
  EXPECT_EQ(f[2].condition, "count");  // 2 ConfigMaps only until c-2 came at 10 s
  EXPECT_EQ(f[2].at, at(10s));
  EXPECT_EQ(f[2].detail, "count of configmaps in team is 3, want 2\nright after revision 8: configmaps team/c-2 created");
  EXPECT_EQ(f[3].condition, "count");
  EXPECT_EQ(f[3].at, at(30s));
  EXPECT_EQ(f[3].detail, "count of configmaps in team is 4, want the count of configmaps in default: 0");
  EXPECT_EQ(f[4].condition, "object");
  EXPECT_EQ(f[4].detail, "configmaps/team/c-3 data.k is \"3\", want \"4\"");
  EXPECT_EQ(f[5].condition, "object");
  EXPECT_EQ(f[5].detail, "configmaps/team/c-9 does not exist (configmaps \"c-9\" not found)");
  // f[1] and f[2] broke after the same write, in the order the checks are evaluated (always,
  // then the windows, each in file order). The first failure froze the trace tail before its
  // own break line.
  ASSERT_FALSE(r.result.trace_tail.empty());
  EXPECT_EQ(r.result.trace_tail.back().find("check.break"), std::string::npos);
  // A break right after a write comes after the write's own trace line.
  const std::size_t broke = r.trace.find("team/c-2 matches");
  ASSERT_NE(broke, std::string::npos);
  const std::size_t break_line = r.trace.rfind('\n', broke) + 1;
  const std::size_t write_line = r.trace.rfind('\n', break_line - 2) + 1;
  const std::string before = r.trace.substr(write_line, break_line - write_line);
  EXPECT_NE(before.find("\"k\":\"api.create\""), std::string::npos) << before;
  EXPECT_NE(before.find("\"name\":\"c-2\""), std::string::npos) << before;
  EXPECT_EQ(lines_of(r.trace, "check.break").size(), 6u);
  // Failures without a lock are marked on the API server's lane.
  int marks = 0;
  for (const auto& m : r.result.timeline->marks) marks += m.kind == "failure" && m.lane == "apiserver" ? 1 : 0;
  EXPECT_EQ(marks, 6);
}

// A ConfigMap in team every 5 s from 5 s: 2 at 5 s, 3 at 10 s, 4 at 15 s.
constexpr const char* kCounts = R"(
name: counts
duration: 20s
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: team}}
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: seed, namespace: team}}
workload:
  - every: 5s
    from: 5s
    until: 16s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: "c-{{n}}", namespace: team}}}
expect:
  always:
    - {count: {resource: configmaps, namespace: team}, atMost: 3}
    - {count: {resource: configmaps, namespace: team}, atLeast: 1}
  consistently:
    - {after: 11s, for: 9s, count: {resource: configmaps, namespace: team}, atLeast: 3}
  finally:
    - {count: {resource: configmaps, namespace: team}, atLeast: {count: {resource: configmaps, namespace: default}}}
    - {count: {resource: configmaps, namespace: default}, atLeast: {count: {resource: configmaps, namespace: team}}}
)";

TEST(ChecksTest, CountsCompareAtMostAndAtLeast) {
  const Outcome r = run(parse(kCounts), 1, true);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto& f = r.result.failures;
  ASSERT_EQ(f.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(f[0].at, at(15s));  // the fourth ConfigMap
  EXPECT_EQ(f[0].detail, "count of configmaps in team is 4, want at most 3\nright after revision 9: configmaps team/c-3 created");
  EXPECT_EQ(f[1].detail,
            "count of configmaps in default is 0, want at least the count of configmaps in team: 4");
}

TEST(ChecksTest, AMatchAgainstAKindNobodyServesNamesIt) {
  const scenarios::Scenario s = parse(R"(
name: kinds
duration: 5s
cluster:
  resources:
    - {group: example.com, version: v1, kind: Foo, plural: foos, namespaced: true}
  objects:
    - {apiVersion: example.com/v1, kind: Foo, metadata: {name: f, namespace: default}, spec: {size: 3, any: {thing: [1, 2]}}}
expect:
  finally:
    - match: {apiVersion: example.com/v1, kind: Foo, spec: {any: {thing: [1, 2]}}}
    - match: {apiVersion: example.com/v1, kind: Foo, spec: {any: {thing: [1]}}}
    - noMatch: {apiVersion: example.com/v1, kind: Foo, spec: {size: 3.0}}
)");
  const Outcome r = run(s);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  ASSERT_EQ(r.result.failures.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(r.result.failures[0].detail,
            "no Foo matches; the closest, default/f, differs in 1 field: spec.any.thing: a list of 2, want a list of 1");
  EXPECT_EQ(r.result.failures[1].detail,
            "default/f matches {\"apiVersion\":\"example.com/v1\",\"kind\":\"Foo\",\"spec\":{\"size\":3.0}}");
}

// A match that names its object, which does not exist (or was deleted): the object is missing,
// not "the closest differs in metadata.name".
TEST(ChecksTest, AMatchOfANamedObjectThatIsGoneSaysSo) {
  const scenarios::Scenario s = parse(R"(
name: gone
duration: 5s
cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}, data: {k: v}}
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: default}, data: {k: v}}
expect:
  finally:
    - match: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: v}}
    - match: {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: default}, data: {k: w}}
)");
  const Outcome r = run(s);
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  ASSERT_EQ(r.result.failures.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(r.result.failures[0].detail, "no ConfigMap matches: default/c does not exist");
  EXPECT_EQ(r.result.failures[1].detail,
            "no ConfigMap matches in default; the closest, default/b, differs in 1 field: data.k: \"v\", want \"w\"");
}

constexpr const char* kInformers = R"(
name: informers
duration: 1m
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: team}}
network: {latency: {min: 1ms, max: 30ms}}
processes:
  - name: ctl
    replicas: 2
    run:
      - informer: {resource: configmaps, namespace: team}
      - informer: {resource: configmaps}
      - informer: {resource: secrets, resync: 10s}
workload:
  - every: 100ms
    until: 20s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: c-, namespace: team}}}
  - every: 300ms
    until: 20s
    action: {delete: {resource: configmaps, namespace: team, pick: random}}
timeline:
  - {at: 5s, partition: {process: ctl-1, for: 10s}}
expect:
  eventually:
    - {after: 25s, within: 5s, informersConverged: true}
)";

TEST(ChecksTest, InformersConvergeOnceTheWritesStop) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const Outcome r = run(parse(kInformers), seed);
    EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
    EXPECT_EQ(lines_of(r.trace, "check.held").size(), 1u);
  }
}

TEST(ChecksTest, AnInformerThatCannotListNeverConverges) {
  const scenarios::Scenario s = parse(R"(
name: unsynced
duration: 40s
network: {latency: {min: 1ms, max: 1ms}}
processes:
  - name: ctl
    replicas: 1
    run:
      - informer: {resource: configmaps}
      - informer: {resource: secrets}
timeline:
  - {at: 0s, faults: [{verb: list, resource: secrets, error: 500}, {verb: watch, resource: secrets, error: 500}]}
expect:
  consistently:
    - {after: 2s, for: 1s, informersConverged: true}
  eventually:
    - {after: 25s, within: 5s, informersConverged: true}
)");
  const Outcome r = run(s);
  ASSERT_EQ(r.result.failures.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(r.result.failures[0].at, at(2s));
  EXPECT_EQ(r.result.failures[0].condition, "informersConverged");
  EXPECT_EQ(r.result.failures[0].detail, "ctl-0: informer secrets has not synced");
  EXPECT_EQ(r.result.failures[1].at, at(30s));
  EXPECT_EQ(r.result.failures[1].detail,
            "did not hold at any instant of [25s, 30s]; at the end:\nctl-0: informer secrets has not synced");
}

// Checks that held over nothing: an always and a finally whose objects never existed, an
// eventually that held at once because what it counts did not exist. Reported, not failures;
// a strict run makes each a failure of condition "vacuous".
constexpr const char* kVacuous = R"(
name: vacuous
duration: 30s
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: team}}
workload:
  - every: 5s
    from: 5s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: c-, namespace: team, labels: {app: x}}}}
expect:
  always:
    - noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: other}}
    - {count: {resource: configmaps, namespace: team, labelSelector: app=x}, atMost: 10}
    - {count: {resource: configmaps, namespace: team, labelSelector: app=y}, atMost: 10}
  eventually:
    - {after: 0s, within: 10s, count: {resource: secrets, namespace: team}, equals: 0}
    - {after: 0s, within: 20s, count: {resource: configmaps, namespace: team}, atLeast: 2}
  finally:
    - {count: {resource: secrets, namespace: team}, equals: 0}
    - {count: {resource: configmaps, namespace: team}, atLeast: 1}
)";

TEST(ChecksTest, ChecksThatHeldOverNothingAreVacuous) {
  const Outcome r = run(parse(kVacuous));
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  ASSERT_EQ(r.result.vacuous.size(), 4u);
  EXPECT_EQ(r.result.vacuous[0].condition, "noMatch");
  EXPECT_EQ(r.result.vacuous[0].mark.line, 13);
  EXPECT_EQ(r.result.vacuous[0].why, "no configmaps in other existed during [0s, 30s]");
  EXPECT_EQ(r.result.vacuous[1].why, "no configmaps in team with labels app=y existed during [0s, 30s]");
  EXPECT_EQ(r.result.vacuous[2].condition, "count");
  EXPECT_EQ(r.result.vacuous[2].why, "it held at once, at 0s, with no secrets in team in existence");
  EXPECT_EQ(r.result.vacuous[3].why, "no secrets in team existed during [0s, 30s]");
  EXPECT_EQ(lines_of(r.trace, "check.vacuous").size(), 4u);
  // The results file keeps them.
  const auto back = seed_result_from_json(to_json(r.result));
  ASSERT_TRUE(back.ok()) << back.status().message;
  EXPECT_EQ(back.value().vacuous, r.result.vacuous);

  RunOptions strict;
  strict.strict = true;
  const SeedResult s = run_seed(parse(kVacuous), registry(), strict);
  EXPECT_TRUE(s.vacuous.empty());
  ASSERT_EQ(s.failures.size(), 4u);
  for (const Failure& f : s.failures) {
    EXPECT_EQ(f.condition, "vacuous");
    EXPECT_EQ(f.at, at(30s));
  }
  EXPECT_EQ(s.failures[0].detail, "the check held vacuously: no configmaps in other existed during [0s, 30s]");
}

// A check whose objects came and went is not vacuous, nor is one that broke.
TEST(ChecksTest, ObjectsThatCameAndWentAreNotNothing) {
  const Outcome r = run(parse(R"(
name: came-and-went
duration: 30s
workload:
  - every: 10s
    from: 5s
    until: 6s
    action: {create: {apiVersion: v1, kind: Secret, metadata: {name: s, namespace: default}}}
  - every: 10s
    from: 7s
    until: 8s
    action: {delete: {resource: secrets, namespace: default}}
expect:
  always:
    - {count: {resource: secrets, namespace: default}, atMost: 1}
  consistently:
    - {after: 1s, for: 20s, count: {resource: secrets, namespace: default}, atMost: 1}
  finally:
    - {count: {resource: secrets, namespace: default}, equals: 0}
    - {count: {resource: secrets, namespace: other}, equals: 1}
)"));
  ASSERT_EQ(r.result.failures.size(), 1u) << failures_of(r.result);
  EXPECT_TRUE(r.result.vacuous.empty()) << r.result.vacuous.front().why;
}

}  // namespace
}  // namespace kubesim::runner::testing
