// The workload: creates, updates and deletes on a schedule, {{n}} the entry's action count,
// update and delete picking from the server's current state; failures traced, not errors.
#include "kubesim/runner/runner.h"

#include <algorithm>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/resources.h"
#include "kubesim/runner/workload.h"
#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

using nlohmann::json;

json workload_fields_of(const std::string& line) { return json::parse(line)["f"]; }

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

// A create's object is built from its text when it can be: the same object as the tree built
// from substitute_n, or the same error, whatever the template holds.
TEST(WorkloadTest, CreatesFromTextBuildWhatTheTreeBuilds) {
  const json templates[] = {
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
       {"metadata", {{"generateName", "w-"}, {"namespace", "src"}, {"labels", {{"n", "{{n}}"}}}}},
       {"data", {{"count", "{{n}}"}, {"both", "{{n}}/{{n}}"}, {"q", "\"{{n}}\"\\{{n}}"}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "k"}}},
       {"data", {{"key-{{n}}", "{{n}}"}}}},  // a {{n}} in a key: built as a tree
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "caf\u00e9-{{n}}"}}}},
      {{"apiVersion", "v1"}, {"kind", "Widget"}, {"metadata", {{"name", "w{{n}}"}}},
       {"spec", {{"replicas", 2}, {"ratio", 0.5}, {"on", true}, {"none", nullptr}}}},
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", 5}}}},  // an error
      {{"metadata", {{"labels", {{"a", "{{n}}"}, {"b", 1}}}}}},                      // an error
  };
  for (const json& t : templates) {
    SCOPED_TRACE(t.dump());
    const std::string text = runner::create_text(t);
    for (const std::int64_t n : {1, 42, 1234567}) {
      const auto tree = api::Object::from_json(runner::substitute_n(t, n));
      const auto made = runner::object_to_create(text, t, n);
      ASSERT_EQ(made.ok(), tree.ok());
      if (!tree.ok()) {
        EXPECT_EQ(made.status().message, tree.status().message);
        continue;
      }
      EXPECT_EQ(made.value()->serialized(), tree.value()->serialized());
      EXPECT_EQ(made.value()->json(), tree.value()->json());
      EXPECT_EQ(made.value()->name(), tree.value()->name());
    }
  }
  EXPECT_TRUE(runner::create_text(templates[1]).empty());
  EXPECT_TRUE(runner::create_text(templates[2]).empty());
  EXPECT_FALSE(runner::create_text(templates[0]).empty());
}

api::ObjectPtr configmap(const std::string& ns, const std::string& name, const std::string& created) {
  return api::make_object({{"apiVersion", "v1"},
                           {"kind", "ConfigMap"},
                           {"metadata", {{"name", name}, {"namespace", ns}, {"creationTimestamp", created}}}});
}

TEST(WorkloadTest, APickIndexHoldsWhatAListWouldReturn) {
  runner::PickIndex index(api::kConfigMaps, "a");
  sim::Rng rng(1);
  EXPECT_EQ(index.pick(scenarios::Pick::kRandom, rng), std::nullopt);
  EXPECT_TRUE(index.covers({"", "configmaps"}, "a"));
  EXPECT_FALSE(index.covers({"", "configmaps"}, "b"));
  EXPECT_FALSE(index.covers({"apps", "configmaps"}, "a"));
  EXPECT_TRUE(runner::PickIndex(api::kConfigMaps, "").covers({"", "configmaps"}, "b"));
  index.add(configmap("a", "y", "2025-01-01T00:00:05Z"));
  index.add(configmap("a", "x", "2025-01-01T00:00:05Z"));
  index.add(configmap("a", "old", "2025-01-01T00:00:01Z"));
  index.add(configmap("a", "new", "2025-01-01T00:00:09Z"));
  index.add(configmap("a", "x", "2025-01-01T00:00:05Z"));  // already there
  EXPECT_EQ(index.size(), 4u);
  EXPECT_EQ(index.pick(scenarios::Pick::kOldest, rng), "a/old");
  EXPECT_EQ(index.pick(scenarios::Pick::kNewest, rng), "a/new");
  index.remove("a/old");
  index.remove("a/new");
  index.remove("a/missing");
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.pick(scenarios::Pick::kOldest, rng), "a/x");  // same second: by key
  EXPECT_EQ(index.pick(scenarios::Pick::kNewest, rng), "a/y");
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) seen.insert(*index.pick(scenarios::Pick::kRandom, rng));
  EXPECT_EQ(seen, (std::set<std::string>{"a/x", "a/y"}));
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

// The workload's writes as the server traced them: (verb, name) in order.
std::vector<std::pair<std::string, std::string>> writes_of_workload(const std::string& trace) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(trace);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("{\"traceHash\"", 0) == 0) continue;
    const json j = json::parse(line);
    const std::string kind = j["k"];
    if (j["p"] == "workload" && kind.rfind("api.", 0) == 0) out.emplace_back(kind.substr(4), j["f"]["name"]);
  }
  return out;
}

TEST(WorkloadTest, CreatesUpdatesAndDeletesOnItsSchedule) {
  const Outcome r = run(parse(kWorkload));
  ASSERT_FALSE(r.result.broke_any()) << failures_of(r.result);
  // Creates at 1, 2, 3 and 4 s (until is not included); updates of the newest; deletes of the
  // oldest.
  const std::vector<std::pair<std::string, std::string>> want = {
      {"create", "w-1"}, {"create", "w-2"}, {"create", "w-3"}, {"create", "w-4"},
      {"update", "w-4"}, {"update", "w-4"}, {"delete", "w-1"}, {"delete", "w-2"}};
  EXPECT_EQ(writes_of_workload(r.trace), want);
  // Successful actions are the server's trace lines; an action with nothing to pick is traced.
  EXPECT_TRUE(lines_of(r.trace, "workload.create").empty());
  const auto skipped = lines_of(r.trace, "workload.update");
  ASSERT_EQ(skipped.size(), 3u);  // secrets at 25, 27 and 29 s
  EXPECT_EQ(workload_fields_of(skipped[0]), json::parse(R"({"entry":3,"n":1,"skipped":"nothing to pick","verb":"update"})"));
  // The workload's requests went through the front door, as a process of their own.
  EXPECT_EQ(r.result.requests, 4u + 2u + 2u);
}

TEST(WorkloadTest, FailedActionsAreTracedNotErrors) {
  const scenarios::Scenario s = parse(R"(
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
  const auto failed = lines_of(r.trace, "workload.create");
  ASSERT_EQ(failed.size(), 9u + 5u);
  EXPECT_EQ(workload_fields_of(failed[0])["n"], 2);
  EXPECT_EQ(workload_fields_of(failed[0])["code"], 409);
  EXPECT_EQ(workload_fields_of(failed[0])["error"], "configmaps \"same\" already exists");
  int unavailable = 0;
  int not_found = 0;
  for (const auto& line : failed) {
    const json f = workload_fields_of(line);
    unavailable += f.value("code", 0) == 503 ? 1 : 0;
    not_found += f.value("code", 0) == 404 ? 1 : 0;
  }
  EXPECT_EQ(unavailable, 1);
  EXPECT_EQ(not_found, 5);
}

TEST(WorkloadTest, GenerateNameAndRandomPicksAreDeterministic) {
  const scenarios::Scenario s = parse(R"(
name: random
duration: 20s
cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: there-from-the-start, namespace: default}}
workload:
  - every: 500ms
    from: 9500ms
    until: 19500ms
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: r-, namespace: default}}}
  - every: 1s
    action: {delete: {resource: configmaps, namespace: default, pick: random}}
)");
  const Outcome a = run(s, 5);
  const Outcome b = run(s, 5);
  EXPECT_EQ(a.trace, b.trace);
  const auto writes = writes_of_workload(a.trace);
  ASSERT_FALSE(writes.empty());
  EXPECT_EQ(writes[0], std::make_pair(std::string("delete"), std::string("there-from-the-start")));
  const auto is = [](const char* verb) { return [verb](const auto& w) { return w.first == verb; }; };
  EXPECT_EQ(std::count_if(writes.begin(), writes.end(), is("create")), 20);
  const auto deletes = std::count_if(writes.begin(), writes.end(), is("delete"));
  EXPECT_EQ(deletes + static_cast<long>(lines_of(a.trace, "workload.delete").size()), 20);
  EXPECT_EQ(lines_of(a.trace, "workload.delete").size(), 9u);  // from 1 s to 9 s: nothing to pick
  for (const auto& w : writes) {
    if (w.first == "create") {
      EXPECT_EQ(w.second.rfind("r-", 0), 0u) << w.second;
    }
  }
}

// Random picks draw from the workload's own streams (seed, entry, action), not the Loop's Rng: a
// fault rule that draws for requests the picks have nothing to do with leaves every pick as it
// was. The Secrets entry's creates fail at random (each failure a draw, and no uid drawn for
// it), yet the ConfigMap updates and deletes go to the same objects in the same order.
TEST(WorkloadTest, AnUnrelatedFaultDoesNotMoveTheRandomPicks) {
  std::string objects;
  for (int i = 0; i < 8; ++i) {
    objects += "    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c-" + std::to_string(i) +
               ", namespace: default}}\n";
  }
  const std::string plain = R"(
name: streams
duration: 20s
network: {latency: {min: 5ms, max: 5ms}}
cluster:
  objects:
)" + objects + R"(workload:
  - every: 1s
    action: {update: {resource: configmaps, namespace: default, pick: random, set: {data.n: "{{n}}"}}}
  - every: 3s
    from: 500ms
    action: {delete: {resource: configmaps, namespace: default, pick: random}}
  - every: 250ms
    action: {create: {apiVersion: v1, kind: Secret, metadata: {name: "s-{{n}}", namespace: default}}}
)";
  const std::string faulted = plain + R"(timeline:
  - at: 100ms
    faults:
      - {verb: create, resource: secrets, error: 500, probability: 0.5}
)";
  const auto config_map_writes = [](const std::string& trace) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& w : writes_of_workload(trace)) {
      if (w.second.rfind("c-", 0) == 0) out.push_back(w);
    }
    return out;
  };
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const Outcome a = run(parse(plain), seed);
    const Outcome b = run(parse(faulted), seed);
    const auto failed = lines_of(b.trace, "workload.create");
    EXPECT_GT(failed.size(), 10u);  // the rule drew, and failed about half the creates
    EXPECT_LT(failed.size(), 70u);
    EXPECT_TRUE(lines_of(a.trace, "workload.create").empty());
    const auto writes = config_map_writes(a.trace);
    EXPECT_EQ(writes.size(), 20u + 7u);  // every update and delete found an object
    EXPECT_EQ(config_map_writes(b.trace), writes);
  }
  // Another seed picks otherwise.
  EXPECT_NE(config_map_writes(run(parse(plain), 1).trace), config_map_writes(run(parse(plain), 2).trace));
}

}  // namespace
}  // namespace kubesim::runner::testing
