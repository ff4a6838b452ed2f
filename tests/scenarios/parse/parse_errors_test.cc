// Broken scenario files: each is reported as FILE:LINE:COL: what is wrong, every error of the
// file, in file order.
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios {
namespace {

// Controller types with validators whose messages these tests own.
Registry test_registry() {
  Registry r;
  r.register_controller(
      "configmap-mirror", [](ControllerEnv) -> std::unique_ptr<Controller> { return nullptr; },
      [](const nlohmann::json& params) -> std::optional<std::string> {
        if (!params.contains("source")) return "source: required";
        return std::nullopt;
      });
  r.register_controller("widget",
                        [](ControllerEnv) -> std::unique_ptr<Controller> { return nullptr; });
  return r;
}

std::vector<std::string> errors_of(const std::string& yaml) {
  auto result = parse_scenario(yaml, "s.yaml", test_registry());
  std::vector<std::string> out;
  for (const auto& e : result.errors) out.push_back(e.text());
  EXPECT_EQ(result.scenario.has_value(), out.empty());
  return out;
}

// Eight lines every case below may build on: a process "manager" with three replicas that runs
// an elector on leases/a/m and a ConfigMap informer. Lines of a case's own text start at 9.
const std::string kHead = R"(name: t
duration: 10m
processes:
  - name: manager
    replicas: 3
    run:
      - elector: {lock: leases/a/m}
      - informer: {resource: configmaps}
)";

struct Case {
  const char* name;
  std::string yaml;
  std::vector<std::string> errors;
};

class BrokenFile : public ::testing::TestWithParam<Case> {};

TEST_P(BrokenFile, ReportsEveryErrorWithItsPlace) {
  EXPECT_EQ(errors_of(GetParam().yaml), GetParam().errors);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

const Case kDocumentCases[] = {
    {"SyntaxError",
     "name: x\nduration: 1m\nprocesses: [\n",
     {"s.yaml:3:12: invalid YAML: this \"[\" is never closed: add \"]\" where the list ends"}},
    // Reported where the flow opened, not on the line where the parser gave up.
    {"UnclosedBrace",
     "name: x\nduration: 1m\nprocesses:\n  - {name: m, replicas: 2\nexpect: {}\n",
     {"s.yaml:4:5: invalid YAML: this \"{\" is never closed: add \"}\" where the mapping ends"}},
    {"UnclosedAfterQuotedAndCommentedBrackets",
     "description: \"{ [\" # {\nname: x\nduration: 1m\nprocesses: [\n",
     {"s.yaml:4:12: invalid YAML: this \"[\" is never closed: add \"]\" where the list ends"}},
    {"Tab",
     "name: x\n\tduration: 1m\n",
     {"s.yaml:2:1: invalid YAML: a tab in the indentation: YAML indents with spaces only"}},
    {"TabAfterSpaces",
     "name: x\nprocesses:\n  \t- {name: m}\n",
     {"s.yaml:3:3: invalid YAML: a tab in the indentation: YAML indents with spaces only"}},
    {"UndefinedAlias",
     "name: *x\nduration: 1m\n",
     {"s.yaml:1:7: invalid YAML: the referenced anchor is not defined"}},
    // yaml-cpp 0.7's LoadAll would loop on these forever.
    {"StrayComma", ",\n", {"s.yaml:1:1: invalid YAML: unexpected \",\""}},
    {"StrayCommaAfterAComment",
     "# c\n  , x\n  |~\n",
     {"s.yaml:2:3: invalid YAML: unexpected \",\""}},
    {"Empty",
     "",
     {"s.yaml:1:1: the file is empty: a scenario is a mapping with at least name and duration"}},
    {"OnlyComments",
     "# nothing\n",
     {"s.yaml:1:1: the file is empty: a scenario is a mapping with at least name and duration"}},
    {"NotAMapping",
     "- a\n- b\n",
     {"s.yaml:1:1: a scenario is a mapping (name: …, duration: …, …), not a list"}},
    {"TwoDocuments",
     "name: a\nduration: 1m\n---\nname: b\n",
     {"s.yaml:4:1: a scenario file holds one YAML document; a second one starts here"}},
    {"NotUtf8",
     "name: a\nduration: 1m\ndescription: caf\xe9\n",
     {"s.yaml:3:17: the file is not UTF-8 text"}},
    {"EscapeOfNoCharacter",
     "name: \"\\ud800\"\nduration: 1m\n",
     {"s.yaml:1:14: invalid YAML: invalid unicode: 55296"}},
    {"UnknownKeyNearAValidOne",
     "name: a\nduration: 1m\nseed: 3\n",
     {"s.yaml:3:1: unknown key \"seed\" in the scenario; did you mean \"seeds\"? (valid keys: "
      "name, "
      "description, duration, seeds, shuffle, cluster, network, processes, workload, timeline, "
      "expect, mustFind, explore, sweep, measure)"}},
    {"UnknownKeyFarFromAll",
     "name: a\nduration: 1m\ncolour: red\n",
     {"s.yaml:3:1: unknown key \"colour\" in the scenario (valid keys: name, description, "
      "duration, seeds, shuffle, cluster, network, processes, workload, timeline, expect, "
      "mustFind, explore, sweep, measure)"}},
    {"KeyTwice",
     "name: a\nname: b\nduration: 1m\n",
     {"s.yaml:2:1: key \"name\" given twice in the scenario (first at 1:1)"}},
    {"MissingNameAndDuration",
     "description: d\n",
     {"s.yaml:1:1: missing required key \"name\" in the scenario",
      "s.yaml:1:1: missing required key \"duration\" in the scenario (the virtual time it runs, "
      "e.g. 10m)"}},
    {"EmptyValues",
     "name:\nduration:\n",
     {"s.yaml:1:1: name: expected a string, got nothing",
      "s.yaml:2:1: duration: expected a duration such as 10s, got nothing"}},
    {"NameNotAString",
     "name: 2024\nduration: 1m\n",
     {"s.yaml:1:7: name: expected a string, got an integer (2024); quote it to make it one"}},
    {"DurationWithoutUnit",
     "name: a\nduration: 10\n",
     {"s.yaml:2:11: duration: time: missing unit in duration \"10\""}},
    {"DurationUnknownUnit",
     "name: a\nduration: 10x\n",
     {"s.yaml:2:11: duration: time: unknown unit \"x\" in duration \"10x\""}},
    {"DurationZero",
     "name: a\nduration: 0s\n",
     {"s.yaml:2:11: duration: must be positive, got 0s"}},
    {"SeedsAndShuffle",
     "name: a\nduration: 1m\nseeds: 0\nshuffle: maybe\n",
     {"s.yaml:3:8: seeds: must be at least 1, got 0",
      "s.yaml:4:10: shuffle: expected true or false, got \"maybe\""}},
    {"Experiments",
     "name: a\nduration: 1m\nsweep: {a: [1s]}\nmeasure: [failoverTime]\n",
     {"s.yaml:3:1: sweep: an experiment's key, expanded by kubesim run (one scenario per point); "
      "not accepted here",
      "s.yaml:4:1: measure: an experiment's key, expanded by kubesim run (one scenario per point); "
      "not accepted here"}},
};
INSTANTIATE_TEST_SUITE_P(Document, BrokenFile, ::testing::ValuesIn(kDocumentCases), case_name);

const Case kProcessCases[] = {
    {"ReplicasNotAnInteger",
     "name: a\nduration: 1m\nprocesses:\n  - {name: p, replicas: three}\n",
     {"s.yaml:4:25: replicas: expected an integer, got \"three\""}},
    {"ReplicasZero",
     "name: a\nduration: 1m\nprocesses:\n  - {name: p, replicas: 0}\n",
     {"s.yaml:4:25: replicas: must be at least 1, got 0"}},
    {"ProcessesNotAList",
     "name: a\nduration: 1m\nprocesses: {name: p}\n",
     {"s.yaml:3:12: processes: expected a list, got a mapping"}},
    {"DuplicateName",
     kHead + "  - name: manager\n",
     {"s.yaml:9:11: name: duplicate process name \"manager\" (first at 4:5)"}},
    {"BadName",
     "name: a\nduration: 1m\nprocesses:\n  - name: Manager\n",
     {"s.yaml:4:11: name: \"Manager\" is not a process name: lowercase letters, digits and '-', "
      "starting and ending with a letter or digit"}},
    {"ProcessMissingName",
     "name: a\nduration: 1m\nprocesses:\n  - replicas: 2\n",
     {"s.yaml:4:5: missing required key \"name\" in a process"}},
    {"SkewUpsideDown",
     "name: a\nduration: 1m\nprocesses:\n  - {name: p, clock: {skew: [1s, -1s]}}\n",
     {"s.yaml:4:29: skew: the range is upside down: 1s > -1s"}},
    {"DriftUpsideDownAndOutOfRange",
     "name: a\nduration: 1m\nprocesses:\n  - {name: p, clock: {drift: [0.1, 0.01]}}\n"
     "  - {name: q, clock: {drift: 1.5}}\n",
     {"s.yaml:4:30: drift: the range is upside down: 0.1 > 0.01",
      "s.yaml:5:30: drift: must be between -1 and 1 (a rate error: 0.01 is 1 % fast)"}},
    {"LatencyUpsideDown",
     "name: a\nduration: 1m\nnetwork: {latency: {min: 50ms, max: 5ms}}\n",
     {"s.yaml:3:20: latency: the range is upside down: min 50ms > max 5ms"}},
    {"LatencyListOfThree",
     "name: a\nduration: 1m\nnetwork: {latency: [1ms, 2ms, 3ms]}\n",
     {"s.yaml:3:20: latency: expected one duration, [min, max] or {min: …, max: …}, got a list of "
      "3"}},
    {"LeaseNotLongerThanRenew",
     "name: a\nduration: 1m\nprocesses:\n  - name: p\n    run:\n"
     "      - elector: {lock: leases/a/m, leaseDuration: 10s, renewDeadline: 10s}\n",
     {"s.yaml:6:72: leaseDuration (10s) must be greater than renewDeadline (10s), as client-go "
      "requires"}},
    {"RenewNotLongerThanJitteredRetry",
     "name: a\nduration: 1m\nprocesses:\n  - name: p\n    run:\n"
     "      - elector: {lock: leases/a/m, renewDeadline: 2s, retryPeriod: 1700ms}\n",
     {"s.yaml:6:69: renewDeadline (2s) must be greater than retryPeriod*JitterFactor (1.2 × 1.7s "
      "= 2.04s), as client-go requires"}},
    {"RetryPeriodZero",
     "name: a\nduration: 1m\nprocesses:\n  - name: p\n    run:\n"
     "      - elector: {lock: leases/a/m, retryPeriod: 0s}\n",
     {"s.yaml:6:50: retryPeriod: must be positive, got 0s"}},
    {"TwoElectors",
     kHead + "      - elector: {lock: leases/a/n}\n",
     {"s.yaml:9:9: a process runs at most one elector (the first is at 7:9)"}},
    {"BadLocks",
     "name: a\nduration: 1m\nprocesses:\n  - name: p\n    run:\n      - elector: {lock: leases/m}\n"
     "  - name: q\n    run:\n      - elector: {lock: lease/a/m}\n",
     {"s.yaml:6:25: lock: \"leases/m\" is not a lock: write leases/NAMESPACE/NAME (or configmaps/… "
      "or endpoints/…)",
      "s.yaml:9:25: lock: unknown lock kind \"lease\" in \"lease/a/m\"; did you mean \"leases\"? "
      "(leases, configmaps or endpoints)"}},
    {"ControllerTypeUnknown",
     kHead + "      - controller: {type: mirror}\n" +
         "      - controller: {type: configmap-mirorr}\n",
     {"s.yaml:9:28: type: unknown controller type \"mirror\" (registered: configmap-mirror, "
      "widget)",
      "s.yaml:10:28: type: unknown controller type \"configmap-mirorr\"; did you mean "
      "\"configmap-mirror\"? (registered: configmap-mirror, widget)"}},
    {"ControllerParamsRefused",
     kHead + "      - controller: {type: configmap-mirror, params: {target: b}}\n",
     {"s.yaml:9:54: configmap-mirror: source: required"}},
    {"ControllerWorkersZero",
     kHead + "      - controller: {type: widget, workers: 0}\n",
     {"s.yaml:9:45: workers: must be at least 1, got 0"}},
    {"OnlyWhenLeaderWithoutElector",
     "name: a\nduration: 1m\nprocesses:\n  - name: p\n    run:\n"
     "      - controller: {type: widget, onlyWhenLeader: true}\n",
     {"s.yaml:6:21: onlyWhenLeader: process \"p\" runs no elector; add one to its run list"}},
    {"InformerResources",
     kHead + "      - informer: {resource: configmap}\n" +
         "      - informer: {resource: example.com/v1/widgets}\n" +
         "      - informer: {resource: namespaces, namespace: a}\n",
     {"s.yaml:9:30: resource: unknown resource \"configmap\": not a built-in resource nor one "
      "declared in cluster.resources; did you mean \"configmaps\"?",
      "s.yaml:10:30: resource: unknown resource \"example.com/v1/widgets\": not a built-in "
      "resource nor one declared in cluster.resources",
      "s.yaml:11:53: namespace: namespaces are cluster-scoped: leave namespace out"}},
    {"RunEntryWithoutOrWithTwoActors",
     kHead + "      - {}\n" + "      - {informer: {resource: pods}, controller: {type: widget}}\n",
     {"s.yaml:9:9: a run entry needs one of elector, informer or controller",
      "s.yaml:10:9: a run entry holds one actor; write informer and controller as separate "
      "entries"}},
    {"ExecAndRun",
     "name: a\nduration: 1m\nprocesses:\n  - name: p\n    run: []\n    exec: {command: []}\n"
     "  - {name: q, exec: {env: {A: [1]}}}\n",
     {"s.yaml:6:5: a process either runs actors (run) or is a real program (exec), not both",
      "s.yaml:6:21: command: must name a program",
      "s.yaml:7:21: missing required key \"command\" in exec ([program, arguments…])",
      "s.yaml:7:31: A: expected a string, got a list"}},
};
INSTANTIATE_TEST_SUITE_P(Processes, BrokenFile, ::testing::ValuesIn(kProcessCases), case_name);

const Case kClusterAndWorkloadCases[] = {
    {"CustomResources",
     "name: a\nduration: 1m\ncluster:\n  resources:\n    - {group: example.com, version: v1, kind: "
     "Foo}\n"
     "    - {group: example, version: v1, kind: Bar, plural: bars}\n"
     "    - {group: example.com, version: v1, kind: Foo, plural: foos}\n"
     "    - {group: example.com, version: v1, kind: Foo, plural: foos}\n",
     {"s.yaml:5:7: missing required key \"plural\" in a custom resource",
      "s.yaml:6:15: group: a custom resource's group must contain a dot (example.com)",
      "s.yaml:8:7: resources: kind Foo of example.com/v1 is already defined"}},
    {"Objects",
     "name: a\nduration: 1m\ncluster:\n  objects:\n    - {apiVersion: v1, kind: ConfigMapp, "
     "metadata: {name: x}}\n"
     "    - {apiVersion: v1, kind: ConfigMap, metadata: {namespace: x}}\n    - [a]\n",
     {"s.yaml:5:7: objects: no resource has kind ConfigMapp in v1 (declare custom resources in "
      "cluster.resources)",
      "s.yaml:6:7: objects: an object needs metadata.name (or metadata.generateName)",
      "s.yaml:7:7: objects: expected an object (a mapping with apiVersion, kind and metadata), got "
      "a list"}},
    {"EveryAndRate",
     "name: a\nduration: 1m\nworkload:\n  - {every: 1s, rate: 5/s, action: {delete: {resource: "
     "pods}}}\n"
     "  - {action: {delete: {resource: pods}}}\n  - {rate: 5/x, action: {delete: {resource: "
     "pods}}}\n"
     "  - {rate: 0/s, action: {delete: {resource: pods}}}\n",
     {"s.yaml:4:17: rate: give either every or rate, not both",
      "s.yaml:5:5: a workload entry needs every (200ms) or rate (5/s)",
      "s.yaml:6:12: rate: \"5/x\" is not a rate: write N/s, N/m or N/h (5/s)",
      "s.yaml:7:12: rate: must be positive, got \"0/s\""}},
    {"WindowUpsideDown",
     "name: a\nduration: 1m\nworkload:\n  - {every: 1s, from: 2m, until: 1m, action: {delete: "
     "{resource: pods}}}\n",
     {"s.yaml:4:34: until: the window is upside down: until 1m is before from 2m"}},
    {"Actions",
     "name: a\nduration: 1m\nworkload:\n  - {every: 1s, action: {}}\n"
     "  - {every: 1s, action: {delete: {resource: pods}, create: {}}}\n"
     "  - {every: 1s, action: {update: {resource: pods, pick: first, set: {}}}}\n"
     "  - {every: 1s, action: {update: {resource: pods, set: {data..x: 1}}}}\n"
     "  - {every: 1s}\n",
     {"s.yaml:4:25: action: needs one of create, update or delete",
      "s.yaml:5:25: action: holds one of create, update or delete, not delete and create",
      "s.yaml:6:57: pick: unknown pick \"first\" (random, oldest or newest)",
      "s.yaml:6:69: set: must set at least one path",
      "s.yaml:7:57: set: \"data..x\" is not a dotted path (data.key)",
      "s.yaml:8:5: missing required key \"action\" in a workload entry ({create: …}, {update: …} "
      "or "
      "{delete: …})"}},
};
INSTANTIATE_TEST_SUITE_P(ClusterAndWorkload, BrokenFile,
                         ::testing::ValuesIn(kClusterAndWorkloadCases), case_name);

const Case kTimelineCases[] = {
    {"AtPastDuration",
     kHead + "timeline:\n  - {at: 11m, compact: {}}\n  - {at: 10m, compact: {}}\n",
     {"s.yaml:10:10: at: 11m is past the scenario's duration (10m)"}},
    {"AtAndWhen",
     kHead + "timeline:\n  - {at: 1m, when: {process: manager-0, after: {}}, compact: {}}\n"
             "  - {compact: {}}\n",
     {"s.yaml:10:14: when: an event happens either at an instant or when a trigger fires, not both",
      "s.yaml:11:5: a timeline event needs at (an instant, e.g. 30s) or when (a trigger)"}},
    {"ZeroOrTwoActions",
     kHead + "timeline:\n  - at: 1m\n  - at: 2m\n    crash: {process: manager-0}\n"
             "    pause: {process: manager-1, for: 1s}\n",
     {"s.yaml:10:5: a timeline event needs an action (one of partition, crash, apiserver, compact, "
      "faults, skew, pause)",
      "s.yaml:13:5: a timeline event holds one action, not crash and pause; write one event for "
      "each"}},
    {"ReplicaReferences",
     kHead + "timeline:\n  - {at: 1m, crash: {process: manager-5}}\n"
             "  - {at: 1m, crash: {process: manager}}\n  - {at: 1m, crash: {process: ctl-0}}\n"
             "  - {at: 1m, partition: {process: manager-0}}\n",
     {"s.yaml:10:31: process: \"manager-5\" does not exist: manager has 3 replicas (manager-0, "
      "manager-1, manager-2)",
      "s.yaml:11:31: process: \"manager\" is a process, not a replica: name one of manager-0, "
      "manager-1, manager-2",
      "s.yaml:12:31: process: \"ctl-0\" does not exist (replicas: manager-0, manager-1, manager-2)",
      "s.yaml:13:25: missing required key \"for\" in a partition"}},
    {"NoProcesses",
     "name: a\nduration: 1m\ntimeline:\n  - {at: 1s, skew: {process: p-0, by: 1s}}\n",
     {"s.yaml:4:30: process: \"p-0\" does not exist: the scenario has no processes"}},
    {"ApiServerAndCompact",
     kHead + "timeline:\n  - {at: 1m, apiserver: stop}\n  - {at: 1m, compact: {x: 1}}\n",
     {"s.yaml:10:25: apiserver: \"stop\" is not supported: the only value is restart",
      "s.yaml:11:24: unknown key \"x\" in compact: it takes no keys"}},
    {"Trigger",
     kHead +
         "timeline:\n  - when: {process: manager-0, after: {verb: frob, resource: cms, count: 0}}\n"
         "    compact: {}\n",
     {"s.yaml:10:46: verb: unknown verb \"frob\" (get, list, watch, create, update, patch, delete, "
      "deletecollection)",
      "s.yaml:10:62: resource: unknown resource \"cms\": not a built-in resource nor one declared "
      "in "
      "cluster.resources",
      "s.yaml:10:74: count: must be at least 1, got 0"}},
    {"PauseForNegative",
     kHead + "timeline:\n  - {at: 1m, pause: {process: manager-0, for: -1s}}\n",
     {"s.yaml:10:47: for: must be positive, got -1s"}},
};
INSTANTIATE_TEST_SUITE_P(Timeline, BrokenFile, ::testing::ValuesIn(kTimelineCases), case_name);

const Case kFaultCases[] = {
    {"ErrorCodeAndProbability",
     kHead + "timeline:\n  - at: 1m\n    faults:\n      - {error: 700, probability: 1.5}\n",
     {"s.yaml:12:17: error: must be an HTTP error code from 400 to 599, got 700",
      "s.yaml:12:35: probability: must be in [0, 1], got 1.5"}},
    {"RetryAfter",
     kHead + "timeline:\n  - at: 1m\n    faults:\n      - {error: 500, retryAfter: 2s}\n"
             "      - {error: 429, retryAfter: 1500ms}\n",
     {"s.yaml:12:22: retryAfter: only 429, 503 and 504 errors carry a Retry-After",
      "s.yaml:13:34: retryAfter: must be whole seconds, at most 24h (Retry-After counts seconds), "
      "got 1.5s"}},
    {"KindCount",
     kHead + "timeline:\n  - at: 1m\n    faults:\n      - {verb: list}\n      - {latency: 1s, "
             "stall: true}\n",
     {"s.yaml:12:9: a fault needs one of error, latency, drop, stall, gone, staleBy, coalesce",
      "s.yaml:13:23: a fault injects one thing, not latency and stall; write two faults"}},
    {"Drop",
     kHead + "timeline:\n  - at: 1m\n    faults:\n      - {drop: afterEvents}\n"
             "      - {drop: later, events: 1}\n      - {verb: update, stall: true}\n"
             "      - {gone: false}\n      - {latency: 1s, message: slow}\n",
     {"s.yaml:12:9: missing required key \"events\" in a fault (drop the watch after N events)",
      "s.yaml:13:16: drop: \"later\" is not supported: the only value is afterEvents",
      "s.yaml:14:16: verb: stall acts on watch requests only, not update",
      "s.yaml:15:16: gone: only true turns it on; leave the key out instead",
      "s.yaml:16:23: message: only an error fault takes it"}},
    {"Matching",
     kHead + "timeline:\n  - at: 1m\n    faults:\n"
             "      - {verb: [watch, frob], resource: leasez, process: manager-3, gone: true}\n",
     {"s.yaml:12:24: verb: unknown verb \"frob\" (get, list, watch, create, update, patch, delete, "
      "deletecollection)",
      "s.yaml:12:41: resource: unknown resource \"leasez\": not a built-in resource nor one "
      "declared "
      "in cluster.resources; did you mean \"leases\"?",
      "s.yaml:12:58: process: \"manager-3\" does not exist: manager has 3 replicas (manager-0, "
      "manager-1, manager-2)"}},
    {"Coalesce",
     kHead + "timeline:\n  - at: 1m\n    faults:\n      - {verb: list, coalesce: 3s}\n"
             "      - {coalesce: 3x}\n      - {coalesce: 0s}\n"
             "      - {coalesce: 2s, stall: true}\n      - {coalesce: 2s, events: 1}\n",
     {"s.yaml:12:16: verb: coalesce acts on watch requests only, not list",
      "s.yaml:13:20: coalesce: time: unknown unit \"x\" in duration \"3x\"",
      "s.yaml:14:20: coalesce: must be positive, got 0s",
      "s.yaml:15:24: a fault injects one thing, not coalesce and stall; write two faults",
      "s.yaml:16:24: events: only a drop fault takes it"}},
    {"EmptyFaults",
     kHead + "timeline:\n  - {at: 1m, faults: []}\n",
     {"s.yaml:10:22: faults: needs at least one fault"}},
};
INSTANTIATE_TEST_SUITE_P(Faults, BrokenFile, ::testing::ValuesIn(kFaultCases), case_name);

const Case kExpectCases[] = {
    {"LockNoElectorHolds",
     kHead + "expect:\n  always:\n    - atMostOneLeader: leases/a/other\n",
     {"s.yaml:11:24: atMostOneLeader: no elector holds lock \"leases/a/other\" (electors hold: "
      "leases/a/m)"}},
    {"LockWithoutElectors",
     "name: a\nduration: 1m\nexpect:\n  finally:\n    - {maxLeaderTransitions: {lock: leases/a/m, "
     "atMost: -1}}\n",
     {"s.yaml:5:37: lock: no elector holds lock \"leases/a/m\" (no process runs an elector)",
      "s.yaml:5:57: atMost: must be at least 0, got -1"}},
    {"Counts",
     kHead + "expect:\n  finally:\n    - {count: {resource: configmaps, labelSelector: \"a in "
             "(b\"}, equals: -1}\n"
             "    - {count: {resource: namespaces, namespace: x}}\n"
             "    - {count: {resource: configmaps}, atMost: 1, atLeast: 2}\n"
             "    - {leaderElected: leases/a/m, atLeast: 1}\n",
     {"s.yaml:11:53: labelSelector: \"a in (b\" is not a label selector: position 7: found end of "
      "string, "
      "expected: ',' or ')'",
      "s.yaml:11:73: equals: must be at least 0, got -1",
      "s.yaml:12:7: a count check needs one of equals, atMost, atLeast (a number or {count: …})",
      "s.yaml:12:49: namespace: namespaces are cluster-scoped: leave namespace out",
      "s.yaml:13:50: a count check compares once, not atMost and atLeast; write two checks",
      "s.yaml:14:35: atLeast: only count checks take it"}},
    {"ObjectPaths",
     kHead + "expect:\n  finally:\n    - {object: configmaps/seed, path: data.k, equals: v}\n"
             "    - {object: namespaces/a/b, path: data..k, equals: v}\n"
             "    - {object: configmaps/a/b}\n",
     {"s.yaml:11:16: object: \"configmaps/seed\": configmaps are namespaced: write "
      "configmaps/NAMESPACE/NAME",
      "s.yaml:12:16: object: \"namespaces/a/b\": namespaces are cluster-scoped: write "
      "namespaces/NAME",
      "s.yaml:12:38: path: \"data..k\" is not a dotted path (data.k)",
      "s.yaml:13:7: missing required key \"path\" in a finally check (a dotted path such as "
      "data.k)",
      "s.yaml:13:7: missing required key \"equals\" in a finally check"}},
    {"Windows",
     kHead + "expect:\n  eventually:\n    - {leaderElected: leases/a/m}\n"
             "    - {within: 15m, leaderElected: leases/a/m}\n"
             "  consistently:\n    - {after: 11m, for: 0s, leaderElected: leases/a/m}\n"
             "    - {after: 9m, for: 2m, leaderElected: leases/a/m}\n"
             "    - {after: 9m, for: 1m, leaderElected: leases/a/m}\n",
     {"s.yaml:11:7: missing required key \"within\" in an eventually check (how long it may take, "
      "e.g. 30s)",
      "s.yaml:12:16: within: the check's window [0s, 15m0s] ends past the scenario's duration (10m); end it "
      "by then, or make the scenario longer",
      "s.yaml:14:15: after: 11m is past the scenario's duration (10m)",
      "s.yaml:14:25: for: must be positive, got 0s",
      "s.yaml:15:24: for: the check's window [9m0s, 11m0s] ends past the scenario's duration (10m); end "
      "it by then, or make the scenario longer"}},
    {"InformersConvergedWithoutInformers",
     "name: a\nduration: 1m\nexpect:\n  finally:\n    - informersConverged: true\n"
     "    - informersConverged: false\n",
     {"s.yaml:5:7: informersConverged: no process runs an informer or a controller",
      "s.yaml:6:7: informersConverged: no process runs an informer or a controller",
      "s.yaml:6:27: informersConverged: only true is a check; leave the check out instead"}},
    {"Matches",
     kHead + "expect:\n  always:\n    - match: {apiVersion: v1, kind: Foo}\n    - noMatch: [a]\n"
             "    - {match: {kind: ConfigMap}}\n",
     {"s.yaml:11:14: match: no resource has kind Foo in v1 (declare custom resources in "
      "cluster.resources)",
      "s.yaml:12:16: noMatch: expected a partial object (a mapping with apiVersion and kind), got "
      "a "
      "list",
      "s.yaml:13:15: match: a partial object needs apiVersion and kind (strings)"}},
    {"ConditionCount",
     kHead + "expect:\n  always:\n    - {}\n    - {leaderElected: leases/a/m, atMostOneLeader: "
             "leases/a/m}\n"
             "    - {leaderElected: leases/a/m, equals: 1}\n    - {after: 1s, leaderElected: "
             "leases/a/m}\n",
     {"s.yaml:11:7: a check needs one of atMostOneLeader, leaderElected, informersConverged, "
      "count, "
      "object, maxLeaderTransitions, match, noMatch, calls",
      "s.yaml:12:35: a check holds one condition, not leaderElected and atMostOneLeader; write two "
      "checks",
      "s.yaml:13:35: equals: only count and object checks take it",
      "s.yaml:14:8: unknown key \"after\" in an always check (valid keys: atMostOneLeader, "
      "leaderElected, informersConverged, count, object, maxLeaderTransitions, match, noMatch, "
      "calls, equals, atMost, atLeast, path, perSecond)"}},
    {"MustFind",
     kHead + "expect:\n  always:\n    - atMostOneLeader: leases/a/m\n"
             "mustFind: [atMostOneLeadr, leaderElected, atMostOneLeader]\n",
     {"s.yaml:12:12: mustFind: unknown check \"atMostOneLeadr\"; did you mean \"atMostOneLeader\"? "
      "(atMostOneLeader, leaderElected, informersConverged, count, object, maxLeaderTransitions, "
      "match, noMatch, calls)",
      "s.yaml:12:28: mustFind: no check of the scenario uses leaderElected (checks use: "
      "atMostOneLeader)"}},
};
INSTANTIATE_TEST_SUITE_P(Expect, BrokenFile, ::testing::ValuesIn(kExpectCases), case_name);

// `calls:` budgets: the pattern read as a fault rule's match is (verbs, resources and replicas
// checked alike), a process or one of its replicas, one limit beside or inside the pattern.
const Case kCallsCases[] = {
    {"CallsPattern",
     kHead + "expect:\n  always:\n"
             "    - {calls: {verb: [get, updat], resource: configmap}, atMost: 1}\n"
             "    - {calls: {process: web, name: x}, atMost: 1}\n"
             "    - {calls: {process: manager-7}, perSecond: 2}\n"
             "    - {calls: {verbs: update}, atMost: 1}\n"
             "    - {calls: {}, atMost: 1}\n"
             "    - {calls: {resource: namespaces, namespace: a}, atMost: 1}\n"
             "    - {calls: [update], atMost: 1}\n",
     {"s.yaml:11:28: verb: unknown verb \"updat\" (get, list, watch, create, update, patch, delete, deletecollection)",
      "s.yaml:11:46: resource: unknown resource \"configmap\": not a built-in resource nor one declared in "
      "cluster.resources; did you mean \"configmaps\"?",
      "s.yaml:12:25: process: \"web\" is neither a process nor a replica (processes: manager (manager-0, manager-1, "
      "manager-2))",
      "s.yaml:13:25: process: \"manager-7\" does not exist: manager has 3 replicas (manager-0, manager-1, manager-2)",
      "s.yaml:14:16: unknown key \"verbs\" in a calls pattern; did you mean \"verb\"? (valid keys: verb, resource, "
      "namespace, name, process, atMost, perSecond)",
      "s.yaml:15:15: calls: name at least one of verb, resource, namespace, name, process (a budget on every call of "
      "every process, the workload's too, is rarely what is meant)",
      "s.yaml:16:49: namespace: namespaces are cluster-scoped: leave namespace out",
      "s.yaml:17:15: calls: expected a mapping, got a list"}},
    {"CallsWithoutProcesses",
     "name: a\nduration: 1m\nexpect:\n  always:\n    - {calls: {process: ctl, perSecond: 1}}\n"
     "    - {calls: {perSecond: 1}}\n",
     {"s.yaml:5:25: process: \"ctl\" is neither a process nor a replica: the scenario has no processes",
      "s.yaml:6:15: calls: name at least one of verb, resource, namespace, name, process (a budget on every call of "
      "every process, the workload's too, is rarely what is meant)"}},
    {"CallsLimits",
     kHead + "expect:\n  finally:\n"
             "    - {calls: {verb: update}}\n"
             "    - {calls: {verb: update}, atMost: 1, perSecond: 2}\n"
             "    - {calls: {verb: update, perSecond: 2}, atMost: 1}\n"
             "    - {calls: {verb: update}, atMost: -1}\n"
             "    - {calls: {verb: update, perSecond: -5}}\n"
             "    - {calls: {verb: update}, perSecond: 2000000000}\n"
             "    - {calls: {verb: update}, perSecond: 1.5}\n",
     {"s.yaml:11:7: a calls check needs atMost (calls in all) or perSecond (calls in any one second)",
      "s.yaml:12:42: a calls check has one limit, not atMost and perSecond; write two checks",
      "s.yaml:13:30: a calls check has one limit, not atMost and perSecond; write two checks",
      "s.yaml:14:39: atMost: must be at least 0, got -1",
      "s.yaml:15:41: perSecond: must be at least 0, got -5",
      "s.yaml:16:42: perSecond: must be at most 1000000000",
      "s.yaml:17:42: perSecond: expected an integer, got a number (1.5)"}},
    {"CallsKeysOfOtherChecks",
     kHead + "expect:\n  always:\n"
             "    - {calls: {verb: update}, atLeast: 1, atMost: 2}\n"
             "    - {count: {resource: configmaps}, perSecond: 1}\n"
             "  eventually:\n"
             "    - {within: 1m, calls: {verb: update}, atMost: 1}\n",
     {"s.yaml:11:31: atLeast: only count checks take it",
      "s.yaml:12:7: a count check needs one of equals, atMost, atLeast (a number or {count: …})",
      "s.yaml:12:39: perSecond: only calls checks take it",
      "s.yaml:14:20: calls: a budget once spent stays spent, so an eventually check of it would hold at its first "
      "instant or never; write it under always, consistently or finally"}},
};
INSTANTIATE_TEST_SUITE_P(Calls, BrokenFile, ::testing::ValuesIn(kCallsCases), case_name);

TEST(ParseErrors, AFileWithSeveralErrorsReportsThemAllInFileOrder) {
  // The sections are read in dependency order (processes before timeline, …), the errors come
  // out in the order of the file.
  const std::string yaml = R"(expect:
  always:
    - atMostOneLeader: leases/x/y
timeline:
  - {at: 20m, crash: {process: web-9}}
processes:
  - name: web
    replicas: 0
name: broken
duration: 10m
seeds: many
)";
  EXPECT_EQ(
      errors_of(yaml),
      (std::vector<std::string>{
          "s.yaml:3:24: atMostOneLeader: no elector holds lock \"leases/x/y\" (no process runs "
          "an elector)",
          "s.yaml:5:10: at: 20m is past the scenario's duration (10m)",
          "s.yaml:5:32: process: \"web-9\" does not exist: web has 1 replica (web-0)",
          "s.yaml:8:15: replicas: must be at least 1, got 0",
          "s.yaml:11:8: seeds: expected an integer, got \"many\"",
      }));
}

TEST(ParseErrors, TextWithoutAPlace) {
  EXPECT_EQ((ParseError{"a.yaml", Mark{}, "cannot read the file: x"}).text(),
            "a.yaml: cannot read the file: x");
  EXPECT_EQ((ParseError{"a.yaml", Mark{3, 7}, "bad"}).text(), "a.yaml:3:7: bad");
}

TEST(ParseErrors, LoadAMissingFile) {
  auto result = load_scenario("/nonexistent/dir/s.yaml", test_registry());
  EXPECT_FALSE(result.scenario.has_value());
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].mark.line, 0);
  EXPECT_EQ(result.errors[0].text(),
            "/nonexistent/dir/s.yaml: cannot read the file: No such file or directory");
}

TEST(ParseErrors, DashReadsStandardInputOnce) {
  std::istringstream in("name: a\nduration: 1m\n");
  std::streambuf* const cin = std::cin.rdbuf(in.rdbuf());
  const Source source = read_source("-");
  const Source again = read_source("-");
  std::cin.rdbuf(cin);
  EXPECT_FALSE(source.error.has_value());
  EXPECT_EQ(source.text, "name: a\nduration: 1m\n");
  EXPECT_EQ(source.name(), "<stdin>");
  auto parsed = parse_source(source, test_registry());
  ASSERT_TRUE(parsed.errors.empty()) << parsed.errors[0].text();
  EXPECT_EQ(parsed.scenario->file, "<stdin>");
  EXPECT_EQ(again.text, "");  // standard input was read to its end the first time
}

TEST(ParseErrors, LoadADirectory) {
  auto result = load_scenario(::testing::TempDir(), test_registry());
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].message, "cannot read the file: it is a directory");
}

}  // namespace
}  // namespace kubesim::scenarios
