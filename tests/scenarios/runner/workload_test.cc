// The workload: creates, updates and deletes on a schedule, {{n}} the entry's action count,
// update and delete picking from the server's current state; failures traced, not errors.
#include "kubesim/scenarios/runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scenarios/internal/run_workload.h"
#include "tests/scenarios/runner/runner_util.h"

namespace kubesim::scenarios::testing {
namespace {

using nlohmann::json;

json fields_of(const std::string& line) { return json::parse(line)["f"]; }

TEST(WorkloadTest, SubstitutesTheActionCountInEveryString) {
  const json in = {{"metadata", {{"name", "w-{{n}}"}, {"labels", {{"n", "{{n}}{{n}}"}}}}},
                   {"data", {{"k", "{{n}} of {{n}}"}, {"x", 3}}},
                   {"list", {"{{n}}", 1}}};
  const json want = {{"metadata", {{"name", "w-12"}, {"labels", {{"n", "1212"}}}}},
                     {"data", {{"k", "12 of 12"}, {"x", 3}}},
                     {"list", {"12", 1}}};
  EXPECT_EQ(runner::substitute_n(in, 12), want);
  EXPECT_EQ(runner::substitute_n("{{m}}", 3), "{{m}}");
}

constexpr const char* kWorkload = R"(
name: workload
duration: 30s
network: {latency: {min: 5ms, max: 5ms}}
workload:
  - every: 1s
    from: 1s
    until: 5s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: "w-{{n}}", namespace: default}, data: {num: "{{n}}"}}}
  - every: 1s
    from: 10s
    until: 12s
    action: {update: {resource: configmaps, namespace: default, pick: newest, set: {data.tick: "t{{n}}", metadata.labels.seen: "yes"}}}
  - every: 1s
    from: 20s
    until: 22s
    action: {delete: {resource: configmaps, namespace: default, pick: oldest}}
  - every: 2s
    from: 25s
    action: {update: {resource: secrets, namespace: default, pick: random, set: {data.x: "eA=="}}}
expect:
  finally:
    - {count: {resource: configmaps, namespace: default}, equals: 2}
    - {count: {resource: configmaps, namespace: default, labelSelector: seen=yes}, equals: 1}
    - {object: configmaps/default/w-4, path: data.tick, equals: t2}
    - {object: configmaps/default/w-3, path: data.num, equals: "3"}
    - noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {name: w-1}}
)";

TEST(WorkloadTest, CreatesUpdatesAndDeletesOnItsSchedule) {
  const Outcome r = run(parse(kWorkload));
  ASSERT_FALSE(r.result.broke_any()) << failures_of(r.result);
  const auto creates = lines_of(r.trace, "workload.create");
  ASSERT_EQ(creates.size(), 4u);  // at 1, 2, 3 and 4 s: until is not included
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(fields_of(creates[i])["key"], "default/w-" + std::to_string(i + 1));
    EXPECT_EQ(fields_of(creates[i])["ok"], true);
  }
  const auto updates = lines_of(r.trace, "workload.update");
  ASSERT_EQ(updates.size(), 2u + 3u);
  EXPECT_EQ(fields_of(updates[0])["key"], "default/w-4");  // the newest
  EXPECT_EQ(fields_of(updates[1])["key"], "default/w-4");
  // Nothing to pick: skipped, traced.
  EXPECT_EQ(fields_of(updates[2])["skipped"], "nothing to pick");
  const auto deletes = lines_of(r.trace, "workload.delete");
  ASSERT_EQ(deletes.size(), 2u);
  EXPECT_EQ(fields_of(deletes[0])["key"], "default/w-1");  // the oldest
  EXPECT_EQ(fields_of(deletes[1])["key"], "default/w-2");
  // The workload's requests went through the front door, as a process of their own.
  EXPECT_EQ(r.result.requests, 4u + 2u + 2u);
}

TEST(WorkloadTest, FailedActionsAreTracedNotErrors) {
  const Scenario s = parse(R"(
name: failing-workload
duration: 10s
workload:
  - every: 1s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: same, namespace: default}}}
  - every: 1s
    from: 5s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: elsewhere, namespace: nowhere}}}
timeline:
  - at: 3s
    faults:
      - {verb: create, resource: configmaps, error: 503, count: 1}
)");
  const Outcome r = run(s);
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  const auto creates = lines_of(r.trace, "workload.create");
  ASSERT_EQ(creates.size(), 10u + 5u);
  EXPECT_EQ(fields_of(creates[0])["ok"], true);
  EXPECT_EQ(fields_of(creates[1])["code"], 409);
  EXPECT_NE(fields_of(creates[1])["error"].get<std::string>().find("already exists"), std::string::npos);
  int unavailable = 0;
  int not_found = 0;
  for (const auto& line : creates) {
    const json f = fields_of(line);
    unavailable += f.value("code", 0) == 503 ? 1 : 0;
    not_found += f.value("code", 0) == 404 ? 1 : 0;
  }
  EXPECT_EQ(unavailable, 1);
  EXPECT_EQ(not_found, 5);
}

TEST(WorkloadTest, GenerateNameAndRandomPicksAreDeterministic) {
  const Scenario s = parse(R"(
name: random
duration: 20s
workload:
  - every: 500ms
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: r-, namespace: default}}}
  - every: 1s
    action: {delete: {resource: configmaps, namespace: default, pick: random}}
)");
  const Outcome a = run(s, 5);
  const Outcome b = run(s, 5);
  EXPECT_EQ(a.trace, b.trace);
  const auto deletes = lines_of(a.trace, "workload.delete");
  ASSERT_EQ(deletes.size(), 20u);
  EXPECT_EQ(fields_of(lines_of(a.trace, "workload.create")[0])["key"].get<std::string>().rfind("default/r-", 0), 0u);
}

}  // namespace
}  // namespace kubesim::scenarios::testing
