// The workload: creates, updates and deletes on a schedule, {{n}} the entry's action count,
// update and delete picking from the server's current state; every action counted by outcome,
// refusals breaking the seed unless the entry expects them, conflicts retried.
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

constexpr std::string_view kRefusals = R"(
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
)";

EntryWrites entry_writes(std::size_t entry, std::string verb, std::uint64_t written, std::uint64_t refused,
                         std::uint64_t failed, bool expect_refused = false) {
  EntryWrites w;
  w.entry = entry;
  w.verb = std::move(verb);
  w.written = written;
  w.refused = refused;
  w.failed = failed;
  w.expect_refused = expect_refused;
  return w;
}

// A write the server refuses (409 AlreadyExists, a namespace that does not exist) breaks the
// seed at the entry's line, once per entry, naming the answer; an injected 503 is a failure
// the scenario asked for, counted apart. Every action that wrote nothing is traced.
TEST(WorkloadTest, RefusedWritesBreakTheSeed) {
  const Outcome r = run(parse(kRefusals));
  ASSERT_EQ(r.result.failures.size(), 2u) << failures_of(r.result);
  const Failure& taken = r.result.failures[0];
  EXPECT_EQ(taken.condition, "refusedWrite");
  EXPECT_EQ(taken.check, "workload create refused");
  EXPECT_EQ(taken.mark.line, 5);
  EXPECT_EQ(taken.at, at(1s));  // the second create (at 1 s) of the same name
  EXPECT_NE(taken.detail.find("action 2 of the entry (create ConfigMap default/same): 409 AlreadyExists: "
                              "configmaps \"same\" already exists"), std::string::npos) << taken.detail;
  EXPECT_NE(taken.detail.find("expect: {refused: true}"), std::string::npos) << taken.detail;
  const Failure& nowhere = r.result.failures[1];
  EXPECT_EQ(nowhere.mark.line, 7);
  EXPECT_EQ(nowhere.at, at(5s));
  EXPECT_NE(nowhere.detail.find("404 NotFound: namespaces \"nowhere\" not found"), std::string::npos) << nowhere.detail;
  // 10 creates of "same": 1 written, 8 refused, the one at 3 s failed by the fault.
  const std::vector<EntryWrites> want = {entry_writes(0, "create", 1, 8, 1), entry_writes(1, "create", 0, 5, 0)};
  EXPECT_EQ(r.result.writes, want);
  EXPECT_EQ(lines_of(r.trace, "workload.create").size(), 9u + 5u);
  EXPECT_EQ(lines_of(r.trace, "check.break").size(), 2u);
  WriteTotals totals;
  totals.add(r.result.writes);
  EXPECT_EQ(totals.text(), "1 written, 13 refused, 1 failed");
}

// expect: {refused: true} makes refusals what the entry tests: counted, not failures.
TEST(WorkloadTest, AnEntryMayExpectRefusals) {
  std::string yaml(kRefusals);
  for (std::size_t at = yaml.find("    action:"); at != std::string::npos; at = yaml.find("    action:", at + 40)) {
    yaml.insert(at, "    expect: {refused: true}\n");
  }
  const Outcome r = run(parse(yaml));
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  const std::vector<EntryWrites> want = {entry_writes(0, "create", 1, 8, 1, true),
                                         entry_writes(1, "create", 0, 5, 0, true)};
  EXPECT_EQ(r.result.writes, want);
  WriteTotals totals;
  totals.add(r.result.writes);
  EXPECT_EQ(totals.text(), "1 written, 13 refused (expected), 1 failed");
  // A results file keeps the counts.
  const auto back = seed_result_from_json(to_json(r.result));
  ASSERT_TRUE(back.ok()) << back.status().message;
  EXPECT_EQ(back.value().writes, want);
}

TEST(WorkloadTest, ExpectTakesOnlyRefused) {
  const scenarios::ParseResult bad = scenarios::parse_scenario(R"(
name: x
duration: 10s
workload:
  - every: 1s
    expect: {refusd: true}
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: a-}}}
)", "test.yaml", registry());
  ASSERT_FALSE(bad.scenario.has_value());
  std::string errors;
  for (const auto& e : bad.errors) errors += e.text() + "\n";
  EXPECT_NE(errors.find("test.yaml:6:14: unknown key \"refusd\""), std::string::npos) << errors;
}

// Two entries update the same object at the same instants, each its own field: the second
// write of each instant meets a conflict, and re-reads and writes again as RetryOnConflict
// does, so neither change is lost.
TEST(WorkloadTest, AConflictIsRetriedAndNoChangeIsLost) {
  const Outcome r = run(parse(R"(
name: conflicts
duration: 10500ms
network: {latency: {min: 5ms, max: 5ms}}
cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}
workload:
  - every: 1s
    action: {update: {resource: configmaps, namespace: default, pick: oldest, set: {data.a: "{{n}}"}}}
  - every: 1s
    action: {update: {resource: configmaps, namespace: default, pick: oldest, set: {data.b: "{{n}}"}}}
expect:
  finally:
    - match: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: default, name: c}, data: {a: "11", b: "11"}}
)"));
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  ASSERT_EQ(r.result.writes.size(), 2u);
  EXPECT_EQ(r.result.writes[0].written + r.result.writes[1].written, 22u);
  EXPECT_EQ(r.result.writes[0].failed + r.result.writes[1].failed, 0u);
  EXPECT_EQ(r.result.writes[0].retried + r.result.writes[1].retried, 11u);  // one a tick
}

// A conflict that outlasts five tries fails the action (it is not the entry's fault); the
// retries are counted.
TEST(WorkloadTest, ConflictsPastFiveTriesFailTheAction) {
  const Outcome r = run(parse(R"(
name: conflicts
duration: 2500ms
cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}
workload:
  - every: 1s
    action: {update: {resource: configmaps, namespace: default, set: {data.a: "{{n}}"}}}
timeline:
  - at: 500ms
    faults:
      - {verb: update, resource: configmaps, error: 409, count: 7}
)"));
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  ASSERT_EQ(r.result.writes.size(), 1u);
  const EntryWrites& w = r.result.writes[0];
  EXPECT_EQ(w.written, 2u);  // at 0 s; at 2 s after two more conflicts
  EXPECT_EQ(w.failed, 1u);   // at 1 s: five conflicts
  EXPECT_EQ(w.retried, 4u + 2u);
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
