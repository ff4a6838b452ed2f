// Scenario: one scenario file, parsed and checked (the format: docs/scenarios.md).
//
// A Scenario is plain data: what the parser (kubesim/scenarios/parse.h) read, with every
// duration already converted, every default filled in and every reference (a process, a lock, a
// resource, a controller type) known to resolve. The runner (kubesim/runner/runner.h) builds a
// simulation from it; nothing here runs anything. Each element that a report may point at keeps
// the Mark (line and column, 1-based) where the file wrote it.
#ifndef KUBESIM_SCENARIOS_SCENARIO_H_
#define KUBESIM_SCENARIOS_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/request.h"
#include "kubesim/sim/time.h"

namespace kubesim::scenarios {

// Where an element was written: 1-based line and column; 0 when it was not written (a default).
struct Mark {
  int line = 0;
  int column = 0;
};

// "FILE:LINE:COL", as messages point at a place of a file; FILE alone when the place is unknown
// (line 0).
std::string place(const std::string& file, const Mark& mark);

// A value drawn per replica from [min, max] by the seed; min == max when the file gave one value.
template <class T>
struct Range {
  T min{};
  T max{};
};

// A resource as a file names it ("configmaps", "example.com/v1/widgets"), resolved.
struct ResourceRef {
  api::GroupVersionResource gvr;
  std::string text;  // as written, for messages
};

// A leader-election lock: "leases/NS/NAME", "configmaps/NS/NAME", "endpoints/NS/NAME", or a
// MultiLock of two of them. Checks name a lock by its text; a MultiLock answers to the text of
// either of its locks.
struct LockRef {
  std::string kind;  // "leases", "configmaps" or "endpoints"
  std::string ns;
  std::string name;
  std::string text() const { return kind + "/" + ns + "/" + name; }
};
struct Lock {
  LockRef primary;
  std::optional<LockRef> secondary;  // set for multi: {primary, secondary}
  Mark mark;
  bool answers_to(const std::string& text) const {
    return primary.text() == text || (secondary && secondary->text() == text);
  }
};

// --- processes and what runs in them -----------------------------------------------------------

struct ElectorSpec {
  Lock lock;
  sim::Duration lease_duration = std::chrono::seconds(15);
  sim::Duration renew_deadline = std::chrono::seconds(10);
  sim::Duration retry_period = std::chrono::seconds(2);
  bool release_on_cancel = false;
  // kubesim's improvements over client-go, off by default (kubesim/election/config.h).
  bool cancel_before_release = false;
  bool release_only_if_holder = false;
  Mark mark;
};

struct InformerSpec {
  ResourceRef resource;
  std::string ns;  // "" for all namespaces
  sim::Duration resync{};
  Mark mark;
};

struct ControllerSpec {
  std::string type;  // a built-in or registered controller type (kubesim/scenarios/registry.h)
  bool only_when_leader = false;  // needs an elector in the same process
  int workers = 1;
  nlohmann::json params = nlohmann::json::object();
  Mark mark;
};

using Actor = std::variant<ElectorSpec, InformerSpec, ControllerSpec>;

struct ClockSpec {
  Range<sim::Duration> skew;  // constant offset of the wall reading
  Range<double> drift;        // rate error: 0.01 = 1 % fast
};

struct LatencySpec {
  sim::Duration min{};
  sim::Duration max{};
};

// Live mode only (`kubesim run --live`): a real OS process per replica. `lock` names the
// leader-election lock the program takes (its holderIdentity must be the replica's name, given
// to it in KUBESIM_REPLICA): checks on that lock read its record as the server sees it.
struct ExecSpec {
  std::vector<std::string> command;
  std::vector<std::pair<std::string, std::string>> env;
  Mark mark;
  std::optional<LockRef> lock;
};

struct ProcessSpec {
  std::string name;  // replicas are NAME-0, NAME-1, …
  int replicas = 1;
  ClockSpec clock;
  std::optional<LatencySpec> latency;  // unset: the scenario's network default
  // Its informers' first list: a streaming watch-list (client-go >= 1.35's WatchListClient), or,
  // false, a list at resourceVersion "0" served from the watch cache (client-go <= 1.34).
  bool watch_list = true;
  std::vector<Actor> run;
  std::optional<ExecSpec> exec;
  Mark mark;
};

// --- the cluster -------------------------------------------------------------------------------

struct CustomResource {
  std::string group, version, kind, plural;
  bool namespaced = true;
  Mark mark;
};

struct ClusterSpec {
  sim::Duration compaction = std::chrono::minutes(5);
  sim::Duration bookmarks = std::chrono::minutes(1);
  std::vector<CustomResource> resources;
  std::vector<nlohmann::json> objects;  // created at t=0, in order
  std::vector<Mark> object_marks;       // where each of objects is in the file
};

// --- workload ----------------------------------------------------------------------------------

enum class Pick { kRandom, kOldest, kNewest };

struct CreateAction {
  nlohmann::json object;  // string values may hold {{n}}
};
struct UpdateAction {
  ResourceRef resource;
  std::string ns;
  Pick pick = Pick::kRandom;
  // path ("data.tick", "spec.replicas") → value; string values may hold {{n}}.
  std::vector<std::pair<std::string, nlohmann::json>> set;
};
struct DeleteAction {
  ResourceRef resource;
  std::string ns;
  Pick pick = Pick::kRandom;
};
using WorkloadAction = std::variant<CreateAction, UpdateAction, DeleteAction>;

// One generator: an action every `every` of true time in [from, until). {{n}} is the action's
// 1-based count within this entry.
struct WorkloadEntry {
  sim::Duration every = std::chrono::seconds(1);  // `rate: 5/s` is every 200ms
  sim::Duration from{};
  std::optional<sim::Duration> until;  // unset: the scenario's end
  WorkloadAction action;
  // `expect: {refused: true}`: the server refusing an action (a 4xx answer to the request as
  // sent, no fault injected) is what the entry tests, so it is counted but breaks nothing.
  // Unset, a refused action breaks the seed.
  bool expect_refused = false;
  Mark mark;
};

// --- timeline ----------------------------------------------------------------------------------

struct PartitionEvent {
  std::string process;  // a replica name ("manager-0")
  sim::Duration length{};
};
struct CrashEvent {
  std::string process;
  std::optional<sim::Duration> restart_after;  // unset: it stays down
};
struct ApiServerRestartEvent {};
struct CompactEvent {};
// Fault rules added at the event's instant. The parser converts the file's form ({verb,
// resource, error: 500, probability, count, for: 20s, …}) into a fakeapi::FaultRule with no
// window; the runner sets rule.from to the event's instant and rule.until to from + length.
struct FaultEntry {
  fakeapi::FaultRule rule;
  std::optional<sim::Duration> length;  // `for`; unset: until the end (or its count runs out)
  Mark mark;
};
struct FaultsEvent {
  std::vector<FaultEntry> rules;
};
struct SkewEvent {
  std::string process;
  sim::Duration by{};  // a step of the wall reading
};
struct PauseEvent {
  std::string process;
  sim::Duration length{};
};
using TimelineAction = std::variant<PartitionEvent, CrashEvent, ApiServerRestartEvent, CompactEvent,
                                    FaultsEvent, SkewEvent, PauseEvent>;

// `when:`: fires once, right after the recorder logs the `count`-th request of `process`
// matching verb and resource.
struct Trigger {
  std::string process;  // a replica name
  std::optional<fakeapi::Verb> verb;
  std::string resource;  // plural; "" for any
  int count = 1;
};

struct TimelineEvent {
  std::optional<sim::Duration> at;  // exactly one of at and when is set
  std::optional<Trigger> when;
  TimelineAction action;
  Mark mark;
};

// --- expectations ------------------------------------------------------------------------------

struct CountQuery {
  ResourceRef resource;
  std::string ns;              // "" for all namespaces
  std::string label_selector;  // "" for all
};

// What a check asks at one instant.
struct AtMostOneLeader { std::string lock; };
struct LeaderElected { std::string lock; };
struct InformersConverged {};
// count: the number of objects a query lists, compared with a number or with another count
// (`equals`, `atMost`, `atLeast`).
struct CountCompare {
  enum class Op { kEquals, kAtMost, kAtLeast };
  CountQuery count;
  Op op = Op::kEquals;
  std::variant<std::int64_t, CountQuery> than;
};
struct ObjectPathEquals {
  ResourceRef resource;
  std::string ns, name;
  std::string path;  // dotted: "data.k", "status.readyReplicas"
  nlohmann::json equals;
};
struct MaxLeaderTransitions {
  std::string lock;
  int at_most = 0;
};
struct Match {
  nlohmann::json tree;  // partial object: maps by key, lists element-wise, scalars equal
  bool negate = false;  // noMatch
};
// The requests a `calls:` budget counts, named as a fault rule names them; each field left empty
// matches any.
struct CallMatch {
  std::vector<fakeapi::Verb> verbs;
  std::optional<ResourceRef> resource;
  std::string subresource;  // "status"; "" matches the resource and its subresources
  std::string ns, name;
  std::string process;  // a replica ("ctl-0"), or with whole_process a process ("ctl")
  bool whole_process = false;  // process names a process: any of its replicas
};
// calls: at most `limit` matching requests from the start of the run (kAtMost), or in any
// window of one second (kPerSecond), as the server's recorder logs them (kubesim/cluster/call_budget.h).
struct CallBudget {
  enum class Limit { kAtMost, kPerSecond };
  CallMatch calls;
  Limit limit = Limit::kAtMost;
  std::int64_t allowed = 0;  // how many calls (in all, or in a second)
};
using Condition = std::variant<AtMostOneLeader, LeaderElected, InformersConverged, CountCompare,
                               ObjectPathEquals, MaxLeaderTransitions, Match, CallBudget>;

// The name of a condition's kind as the file writes it ("atMostOneLeader", "noMatch", …), the
// names mustFind lists.
std::string condition_name(const Condition& condition);

enum class CheckKind { kAlways, kEventually, kConsistently, kFinally };

struct Check {
  CheckKind kind = CheckKind::kFinally;
  Condition condition;
  sim::Duration after{};   // eventually, consistently
  sim::Duration within{};  // eventually: [after, after + within]
  sim::Duration length{};  // consistently: [after, after + length]
  std::string text;        // the check as written, one line, for reports
  Mark mark;
};

// --- exploration (`kubesim explore`, docs/explore.md) -------------------------------------------

// `explore:`: how `kubesim explore` treats the scenario; `kubesim run` ignores it.
struct ExploreSpec {
  // Dotted paths of every object's fields the differential check ignores ("status.lastSync";
  // a segment `*` matches any key).
  std::vector<std::string> free;
  // The quiet time at the end: every perturbation ends by duration − settle. Unset: a third of
  // the duration.
  std::optional<sim::Duration> settle;
  // Compare the end state of a perturbed run with the unperturbed run of the same seed.
  bool differential = true;
  Mark mark;
};

// --- the whole ---------------------------------------------------------------------------------

struct Scenario {
  std::string file;  // the path it was read from
  std::string name;
  std::string description;
  sim::Duration duration{};
  int seeds = 20;  // how many: seed_list.size() when the file lists them
  // `seeds: [7, 9]`: these seeds instead of 1…seeds; empty when the file gave a count.
  std::vector<std::uint64_t> seed_list;
  bool shuffle = true;
  ClusterSpec cluster;
  LatencySpec network;  // default link latency
  std::vector<ProcessSpec> processes;
  std::vector<WorkloadEntry> workload;
  std::vector<TimelineEvent> timeline;
  std::vector<Check> checks;
  std::vector<std::string> must_find;  // condition names
  ExploreSpec explore;

  // The seeds the file asks for: seed_list, or 1…seeds.
  std::vector<std::uint64_t> seed_numbers() const {
    if (!seed_list.empty()) return seed_list;
    std::vector<std::uint64_t> out;
    for (int i = 1; i <= seeds; ++i) out.push_back(static_cast<std::uint64_t>(i));
    return out;
  }
  // The settle time explore uses: explore.settle, or a third of the duration.
  sim::Duration settle() const { return explore.settle.value_or(duration / 3); }
};

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_SCENARIO_H_
