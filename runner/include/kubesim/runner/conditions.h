// Conditions: what a check asks at one instant, answered from the World (the server's current
// state read directly, the leadership record, the replicas' informer caches).
//
// evaluate_condition says nothing when the condition holds, and otherwise the values that break
// it, one fact a line (for atMostOneLeader: which replicas lead, since when in true time, and
// what their clocks read). dependencies_of says what can change the answer, so the checks are
// evaluated only after the writes, leadership changes and calls that matter. A calls budget is
// judged by a cluster::CallBudget that follows the recorder's log call by call (call_budget).

#ifndef KUBESIM_RUNNER_CONDITIONS_H_
#define KUBESIM_RUNNER_CONDITIONS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/cluster/call_budget.h"
#include "kubesim/cluster/calls.h"
#include "kubesim/cluster/invariant.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::runner {

struct World;

using cluster::Dependencies;

Dependencies dependencies_of(World& world, const scenarios::Condition& condition);

// nullopt when `condition` holds now; else why not. `write`, when given, is the committed write
// this evaluation follows and every earlier evaluation held: a noMatch then looks at the written
// object alone. A calls budget is judged here over the whole log at once (calls the recorder
// dropped are not seen); the Checker keeps a call_budget per check instead.
std::optional<std::string> evaluate_condition(World& world, const scenarios::Condition& condition,
                                              const fakeapi::CommittedWrite* write = nullptr);

// True when some running informer of a live, unpaused replica watches what `write` wrote: its
// cache cannot have the write yet (write listeners run before any watcher receives it), so
// informersConverged does not hold at this instant.
bool informers_lag(World& world, const fakeapi::CommittedWrite& write);

// The lock text a condition is about, or "".
std::string lock_of(const scenarios::Condition& condition);

// The calls a `calls:` check counts, as a pattern of the cluster's call log; a whole process is
// any of its replicas.
cluster::CallPattern call_pattern(const scenarios::CallMatch& match);
// The budget of a `calls:` check, with no call taken yet.
cluster::CallBudget call_budget(const scenarios::CallBudget& budget);

// What a condition is about, to tell a check that held over something from one that held over
// nothing (a vacuous check): objects in a scope, the leaders of a lock, or calls of a process on
// a resource (a calls budget: CallBudget::subject). informersConverged and leaderElected have
// none (they cannot hold by absence).
struct Subject {
  struct Objects {
    api::GroupVersionResource gvr;
    std::string ns;        // "" for all namespaces
    std::string name;      // "" for any
    std::string selector;  // a label selector; "" for all
  };
  std::vector<Objects> objects;  // something in any of them counts
  std::string lock;              // a lock some replica led counts
  std::optional<cluster::CallPattern> calls;  // a call of this pattern logged counts

  bool empty() const { return objects.empty() && lock.empty() && !calls; }
  // "no configmaps in team with labels app=x", "no replica leading leases/a/b", "no call on
  // configmaps by ctl-0".
  std::string absence() const;
};
Subject subject_of(World& world, const scenarios::Condition& condition);
// Some object the subject names exists now.
bool objects_present(World& world, const Subject& subject);
// `write` created or changed an object the subject names.
bool objects_written(const Subject& subject, const fakeapi::CommittedWrite& write);
// Some replica led the subject's lock at an instant of [from, to].
bool lock_led(World& world, const Subject& subject, sim::Time from, sim::Time to);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_CONDITIONS_H_
