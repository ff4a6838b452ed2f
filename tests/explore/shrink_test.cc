// shrink_scenario: with synthetic predicates (what is removed, how far values go, the run budget,
// refused candidates, determinism, pinned choices) and end to end with real runs.
#include "explore/internal/shrink.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::explore {
namespace {

std::string testdata(const std::string& name) {
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "testdata" / "shrink" / name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

YAML::Node busy() { return YAML::Load(testdata("busy.yaml")); }

// The node at a dotted path ("workload.0.action"), or an undefined node.
YAML::Node at(const YAML::Node& doc, const std::string& dotted) {
  YAML::Node n = doc;
  std::istringstream parts(dotted);
  for (std::string part; std::getline(parts, part, '.');) {
    YAML::Node next(YAML::NodeType::Undefined);
    if (n.IsSequence() && !part.empty() && std::isdigit(static_cast<unsigned char>(part[0]))) {
      const std::size_t i = std::stoul(part);
      if (i < n.size()) next.reset(n[i]);
    } else if (n.IsMap()) {
      const YAML::Node& map = n;
      const YAML::Node v = map[part];
      if (v.IsDefined()) next.reset(v);
    }
    if (!next.IsDefined()) return next;
    n.reset(next);
  }
  return n;
}

std::string get(const YAML::Node& doc, const std::string& dotted) {
  const YAML::Node n = at(doc, dotted);
  return n.IsScalar() ? n.Scalar() : "";
}

std::size_t size(const YAML::Node& doc, const std::string& dotted) {
  const YAML::Node n = at(doc, dotted);
  return n.IsSequence() || n.IsMap() ? n.size() : 0;
}

bool has_event(const YAML::Node& doc, const std::string& action, const std::string& process) {
  for (std::size_t i = 0; i < size(doc, "timeline"); ++i) {
    if (get(doc, "timeline." + std::to_string(i) + "." + action + ".process") == process)
      return true;
  }
  return false;
}

long seconds(const std::string& duration) {
  if (duration.ends_with("m")) return std::stol(duration) * 60;
  if (duration.find('m') != std::string::npos) {
    return std::stol(duration) * 60 + std::stol(duration.substr(duration.find('m') + 1));
  }
  return std::stol(duration);
}

std::string steps_text(const ShrinkResult& r) {
  std::string out;
  for (const auto& s : r.steps) out += s + "\n";
  return out;
}

TEST(ScenarioEntries, CountsTimelineEventsFaultRulesAndWorkloadEntries) {
  EXPECT_EQ(scenario_entries(busy()), 6u + 2u + 2u);
  EXPECT_EQ(scenario_entries(YAML::Load("name: x")), 0u);
  EXPECT_EQ(scenario_entries(YAML::Load("[1, 2]")), 0u);
}

// The contract of a value search: for a predicate that fails from a threshold up, the value ends
// at the threshold rounded up to a whole second (or at its lower bound, here the last `at`).
TEST(ShrinkScenario, KeepsTheOneEventThatMattersAndTheDurationItNeeds) {
  const auto fails = [](const YAML::Node& d) {
    const std::string duration = get(d, "duration");
    return has_event(d, "crash", "ctl-0") && !duration.empty() && seconds(duration) >= 40;
  };
  const auto result = shrink_scenario(busy(), fails);
  SCOPED_TRACE(steps_text(result));
  ASSERT_EQ(size(result.doc, "timeline"), 1u);
  EXPECT_EQ(get(result.doc, "timeline.0.crash.process"), "ctl-0");
  EXPECT_EQ(get(result.doc, "timeline.0.at"), "30s");
  EXPECT_EQ(get(result.doc, "duration"), "40s");
  EXPECT_EQ(get(result.doc, "timeline.0.crash.restartAfter"), "0s");
  // Emptied lists stay, as []: nothing in the predicate needs the workload or the processes.
  EXPECT_EQ(scenarios::emit_scenario(at(result.doc, "workload")), "[]\n");
  EXPECT_EQ(scenarios::emit_scenario(at(result.doc, "processes")), "[]\n");
  EXPECT_EQ(get(result.doc, "seeds"), "");  // a list, untouched
  EXPECT_EQ(get(result.doc, "seeds.0"), "3");
  EXPECT_EQ(get(result.doc, "name"), "busy");
  EXPECT_EQ(result.entries, 1u);
  EXPECT_TRUE(fails(result.doc));
  EXPECT_NE(std::find(result.steps.begin(), result.steps.end(), "duration 10m → 40s"),
            result.steps.end());
}

TEST(ShrinkScenario, DurationStopsAtItsLowerBound) {
  // Everything fails: the duration goes down to the latest `at`, the end of the latest check
  // window, or a second past explore.settle, whichever is latest.
  struct Case {
    std::string extra;
    std::string duration;
  };
  for (const Case& c : std::vector<Case>{
           {"", "3m"},  // the pause at 3m (the last event, whose removal the predicate refuses)
           {"expect: {eventually: [{after: 3m, within: 30s, leaderElected: leases/src/ctl}]}",
            "3m30s"},
           {"expect: {consistently: [{after: 1m, for: 2m40s, leaderElected: leases/src/ctl}]}",
            "3m40s"},
           {"explore: {settle: 4m}", "4m1s"},
       }) {
    SCOPED_TRACE(c.extra);
    YAML::Node doc = busy();
    if (!c.extra.empty()) {
      const YAML::Node extra = YAML::Load(c.extra);
      for (const auto& kv : extra) doc[kv.first.Scalar()] = kv.second;
    }
    const auto result =
        shrink_scenario(doc, [](const YAML::Node& d) { return has_event(d, "pause", "ctl-1"); });
    EXPECT_EQ(get(result.doc, "duration"), c.duration) << steps_text(result);
  }
}

TEST(ShrinkScenario, NamedReplicasStayAndTheRestGo) {
  // Fails while the pause of ctl-1 and the processes are there.
  const auto fails = [](const YAML::Node& d) {
    return has_event(d, "pause", "ctl-1") && size(d, "processes") == 1;
  };
  const auto result = shrink_scenario(busy(), fails);
  EXPECT_EQ(get(result.doc, "processes.0.replicas"), "2") << steps_text(result);
  EXPECT_EQ(get(result.doc, "timeline.0.pause.for"), "1s");
}

TEST(ShrinkScenario, RespectsMaxRunsAndReturnsTheBestSoFar) {
  std::size_t calls = 0;
  const auto fails = [&](const YAML::Node& d) {
    ++calls;
    return has_event(d, "crash", "ctl-0");
  };
  const std::size_t unlimited = shrink_scenario(busy(), fails).runs;
  ASSERT_GT(unlimited, 12u);
  for (std::size_t max_runs : {std::size_t{0}, std::size_t{1}, std::size_t{5}, unlimited - 1}) {
    calls = 0;
    const auto result = shrink_scenario(busy(), fails, ShrinkOptions{max_runs});
    EXPECT_EQ(calls, max_runs);
    EXPECT_EQ(result.runs, max_runs);
    EXPECT_TRUE(has_event(result.doc, "crash", "ctl-0"));
    EXPECT_EQ(result.entries, scenario_entries(result.doc));
  }
}

TEST(ShrinkScenario, NeverRunsTheSameTextTwiceAndLeavesTheInputAlone) {
  const YAML::Node input = busy();
  const std::string before = scenarios::emit_scenario(input);
  std::set<std::string> seen;
  bool repeated = false;
  bool lists_kept = true;  // an emptied list stays as [], so d["timeline"] may be asked
  const auto fails = [&](const YAML::Node& d) {
    repeated = !seen.insert(scenarios::emit_scenario(d)).second || repeated;
    for (const char* key : {"timeline", "workload", "processes"})
      lists_kept = lists_kept && d[key].IsSequence();
    return has_event(d, "partition", "ctl-1");
  };
  const auto result = shrink_scenario(input, fails);
  EXPECT_FALSE(repeated);
  EXPECT_TRUE(lists_kept);
  EXPECT_EQ(result.runs, seen.size());
  EXPECT_EQ(scenarios::emit_scenario(input), before);
  EXPECT_EQ(scenarios::emit_scenario(busy()), before);
}

TEST(ShrinkScenario, RefusedCandidatesAreKeptOut) {
  // As a parser would refuse them: a document without processes, or naming ctl-0 with fewer
  // replicas than it needs, does not fail.
  const auto fails = [](const YAML::Node& d) {
    return size(d, "processes.0.run") >= 1 && has_event(d, "skew", "ctl-2");
  };
  const auto result = shrink_scenario(busy(), fails);
  EXPECT_EQ(size(result.doc, "processes.0.run"), 1u) << steps_text(result);
  EXPECT_EQ(get(result.doc, "processes.0.replicas"), "3");
  EXPECT_EQ(result.entries, 1u);
}

TEST(ShrinkScenario, UnchangedWhenNothingSmallerFails) {
  const std::string text = scenarios::emit_scenario(busy());
  const auto result =
      shrink_scenario(busy(), [&](const YAML::Node& d) { return scenarios::emit_scenario(d) == text; });
  EXPECT_EQ(scenarios::emit_scenario(result.doc), text);
  EXPECT_TRUE(result.steps.empty());
  EXPECT_GT(result.runs, 20u);
}

TEST(ShrinkScenario, IsDeterministic) {
  const auto fails = [](const YAML::Node& d) {
    return has_event(d, "crash", "ctl-0") && at(d, "workload").IsSequence();
  };
  const auto a = shrink_scenario(busy(), fails);
  const auto b = shrink_scenario(busy(), fails);
  EXPECT_EQ(scenarios::emit_scenario(a.doc), scenarios::emit_scenario(b.doc));
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.runs, b.runs);
}

TEST(ShrinkScenario, PinsRandomChoicesAndSaysSo) {
  // Fails while the lease fault, the update workload, the network and clock settings are there.
  const auto fails = [](const YAML::Node& d) {
    bool lease_fault = false;
    for (std::size_t i = 0; i < size(d, "timeline"); ++i) {
      const std::string event = "timeline." + std::to_string(i);
      lease_fault = lease_fault || get(d, event + ".faults.0.resource") == "leases";
    }
    return lease_fault && at(d, "workload.1.action.update").IsMap() && at(d, "network").IsMap() &&
           at(d, "processes.0.clock").IsMap();
  };
  const auto result = shrink_scenario(busy(), fails);
  const std::string steps = steps_text(result);
  for (const char* step : {
           "timeline[0].faults[0].probability 0.5 dropped (1)\n",
           "workload[1].action.update.pick random → oldest\n",
           "network.latency {min: 1ms, max: 20ms} → 1ms\n",
           "processes[0].clock.skew [-500ms, 500ms] → -500ms\n",
           "shuffle → false\n",
       }) {
    EXPECT_NE(steps.find(step), std::string::npos) << step << " in\n" << steps;
  }
  EXPECT_EQ(get(result.doc, "shuffle"), "false");
  EXPECT_EQ(get(result.doc, "workload.1.action.update.pick"), "oldest");
  EXPECT_EQ(get(result.doc, "network.latency"), "1ms");
  // The update entry acts once: until its first action's next second.
  EXPECT_EQ(get(result.doc, "workload.1.until"), "1s");
}

TEST(ShrinkScenario, WorkloadActsLessOften) {
  // Fails while the create entry is there: it ends after a second and acts every 800ms.
  const auto fails = [](const YAML::Node& d) { return at(d, "workload.0.action.create").IsMap(); };
  const auto result = shrink_scenario(busy(), fails);
  const std::string steps = steps_text(result);
  EXPECT_NE(steps.find("workload[0].until 5m → 1s\n"), std::string::npos) << steps;
  EXPECT_NE(steps.find("workload[0].every 200ms → 400ms\n"), std::string::npos) << steps;
  EXPECT_NE(steps.find("workload[0].every 400ms → 800ms\n"), std::string::npos) << steps;
  EXPECT_EQ(get(result.doc, "workload.0.every"), "800ms");
}

TEST(ShrinkScenario, InstantsWithFractionsGoToAWholeSecond) {
  struct Case {
    std::string at;
    std::string needs;  // the predicate: the crash at or after this instant ("" : any)
    std::string result;
  };
  for (const Case& c : std::vector<Case>{
           {"8.297s", "", "8s"},
           {"8.297s", "8.2s", "9s"},
           {"500ms", "", "500ms"},  // below a second: kept
           {"12s", "", "12s"},
       }) {
    SCOPED_TRACE(c.at + " " + c.needs);
    YAML::Node doc = busy();
    doc["timeline"][2]["at"] = c.at;
    // A check window to 20s keeps the run longer than the instant, so it may round up too.
    doc["expect"]["eventually"].push_back(
        YAML::Load("{after: 0s, within: 20s, leaderElected: leases/src/ctl}"));
    const std::string needs = c.needs;
    const auto fails = [needs](const YAML::Node& d) {
      for (std::size_t i = 0; i < size(d, "timeline"); ++i) {
        const std::string e = "timeline." + std::to_string(i);
        if (get(d, e + ".crash.process") != "ctl-0") continue;
        const std::string at = get(d, e + ".at");
        return needs.empty() || std::stod(at) >= std::stod(needs);
      }
      return false;
    };
    const auto result = shrink_scenario(doc, fails);
    EXPECT_EQ(get(result.doc, "timeline.0.at"), c.result) << steps_text(result);
  }
}

TEST(ShrinkScenario, ARateBecomesALongerEvery) {
  YAML::Node doc = busy();
  doc["workload"][0] = YAML::Load(
      "{rate: 5/s, until: 2s, action: {create: {apiVersion: v1, kind: Secret, metadata: "
      "{generateName: s-, namespace: src}}}}");
  const auto fails = [](const YAML::Node& d) { return at(d, "workload.0.action.create").IsMap(); };
  const auto result = shrink_scenario(doc, fails);
  const std::string steps = steps_text(result);
  EXPECT_NE(steps.find("workload[0].rate 5/s → every 400ms\n"), std::string::npos) << steps;
  EXPECT_NE(steps.find("workload[0].every 400ms → 800ms\n"), std::string::npos) << steps;
  EXPECT_EQ(
      scenarios::emit_scenario(at(result.doc, "workload")),
      "- every: 800ms\n"
      "  until: 1s\n"
      "  action: {create: {apiVersion: v1, kind: Secret, metadata: {generateName: s-, namespace: "
      "src}}}\n");
}

TEST(ShrinkScenario, ChoicesThatMatterStayRandom) {
  const auto fails = [](const YAML::Node& d) {
    return at(d, "network.latency").IsMap() && has_event(d, "crash", "ctl-0");
  };
  const auto result = shrink_scenario(busy(), fails);
  EXPECT_EQ(get(result.doc, "network.latency.min"), "1ms");
  EXPECT_EQ(get(result.doc, "network.latency.max"), "20ms");
}

// For a predicate that fails exactly while some chosen events and workload entries are there,
// the shrinker keeps exactly those, in order.
RC_GTEST_PROP(ShrinkScenario, KeepsExactlyTheEntriesAMonotonePredicateNeeds, ()) {
  const auto events = *rc::gen::inRange(1, 12);
  const auto entries = *rc::gen::inRange(0, 6);
  const auto needed_events =
      *rc::gen::container<std::vector<bool>>(events, rc::gen::arbitrary<bool>());
  const auto needed_entries =
      *rc::gen::container<std::vector<bool>>(entries, rc::gen::arbitrary<bool>());
  YAML::Node doc = YAML::Load("{name: p, duration: 10m, seeds: [1], timeline: [], workload: []}");
  std::set<std::string> needed;
  for (int i = 0; i < events; ++i) {
    const std::string at = std::to_string(i + 1) + "s";
    doc["timeline"].push_back(YAML::Load("{at: " + at + ", apiserver: restart}"));
    if (needed_events[i]) needed.insert("at " + at);
  }
  for (int i = 0; i < entries; ++i) {
    const std::string every = std::to_string(i + 1) + "s";
    doc["workload"].push_back(YAML::Load(
        "{every: " + every + ", action: {delete: {resource: configmaps, pick: oldest}}}"));
    if (needed_entries[i]) needed.insert("every " + every);
  }
  // What a document holds of the chosen ones, in order.
  const auto held = [](const YAML::Node& d) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < size(d, "timeline"); ++i)
      out.push_back("at " + get(d, "timeline." + std::to_string(i) + ".at"));
    for (std::size_t i = 0; i < size(d, "workload"); ++i)
      out.push_back("every " + get(d, "workload." + std::to_string(i) + ".every"));
    return out;
  };
  const auto fails = [&](const YAML::Node& d) {
    const auto h = held(d);
    return std::all_of(needed.begin(), needed.end(), [&](const std::string& n) {
      return std::find(h.begin(), h.end(), n) != h.end();
    });
  };
  const auto result = shrink_scenario(doc, fails);
  std::vector<std::string> expected;
  for (const auto& h : held(doc)) {
    if (needed.count(h) > 0) expected.push_back(h);
  }
  // The entries kept may have acted less often (every doubled): compare the events exactly and
  // the workload by count.
  const auto kept = held(result.doc);
  RC_ASSERT(kept.size() == expected.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].starts_with("at ")) RC_ASSERT(kept[i] == expected[i]);
  }
  RC_ASSERT(result.entries == needed.size());
}

// End to end (testdata/shrink/refused.yaml): the predicate parses and runs seed 1, and asks for
// the same failure, the count check broken and nothing else.
TEST(ShrinkScenario, EndToEndKeepsOnlyTheRefusalThatBreaksTheMirror) {
  const auto registry = scenarios::Registry::with_builtins();
  const auto fails = [&](const YAML::Node& d) {
    auto parsed = scenarios::parse_scenario(scenarios::emit_scenario(d), "refused.yaml", registry);
    if (!parsed.scenario) return false;
    runner::RunOptions options;
    options.seed = 1;
    const auto run = runner::run_seed(*parsed.scenario, registry, options);
    return run.error.empty() && run.failures.size() == 1 && run.failures[0].condition == "count";
  };
  const YAML::Node input = YAML::Load(testdata("refused.yaml"));
  ASSERT_TRUE(fails(input));
  const auto result = shrink_scenario(input, fails);
  const std::string text = scenarios::emit_scenario(result.doc);
  SCOPED_TRACE(steps_text(result) + text);
  EXPECT_TRUE(fails(result.doc));
  EXPECT_EQ(result.entries, 2u);
  ASSERT_EQ(size(result.doc, "timeline"), 1u);
  EXPECT_NE(
      text.find("timeline:\n"
                "  - at: 0s\n"
                "    faults:\n"
                "      - {verb: create, resource: configmaps, namespace: dst, name: b, error: "
                "403}\n"),
      std::string::npos);
  EXPECT_NE(text.find("\nworkload: []\n"), std::string::npos);
  EXPECT_EQ(get(result.doc, "duration"), "20s");
  EXPECT_EQ(get(result.doc, "processes.0.replicas"), "1");
  EXPECT_EQ(size(result.doc, "processes.0.run"), 2u);  // the elector and the controller
  EXPECT_EQ(size(result.doc, "cluster.objects"), 4u);
  std::cerr << "end to end: " << result.runs << " runs, " << result.steps.size() << " steps\n";
}

}  // namespace
}  // namespace kubesim::explore
