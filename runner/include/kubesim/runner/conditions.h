// Conditions: what a check asks at one instant, answered from the World (the server's current
// state read directly, the leadership record, the replicas' informer caches).
//
// evaluate_condition says nothing when the condition holds, and otherwise the values that break
// it, one fact a line (for atMostOneLeader: which replicas lead, since when in true time, and
// what their clocks read). dependencies_of says what can change the answer, so the checks are
// evaluated only after the writes and leadership changes that matter.
#ifndef KUBESIM_RUNNER_CONDITIONS_H_
#define KUBESIM_RUNNER_CONDITIONS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/cluster/invariant.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::runner {

struct World;

using cluster::Dependencies;

Dependencies dependencies_of(World& world, const scenarios::Condition& condition);

// nullopt when `condition` holds now; else why not. `write`, when given, is the committed write
// this evaluation follows and every earlier evaluation held: a noMatch then looks at the written
// object alone.
std::optional<std::string> evaluate_condition(World& world, const scenarios::Condition& condition,
                                              const fakeapi::CommittedWrite* write = nullptr);

// True when some running informer of a live, unpaused replica watches what `write` wrote: its
// cache cannot have the write yet (write listeners run before any watcher receives it), so
// informersConverged does not hold at this instant.
bool informers_lag(World& world, const fakeapi::CommittedWrite& write);

// The lock text a condition is about, or "".
std::string lock_of(const scenarios::Condition& condition);

// What a condition is about, to tell a check that held over something from one that held over
// nothing (a vacuous check): objects in a scope, or the leaders of a lock. informersConverged
// and leaderElected have none (they cannot hold by absence).
struct Subject {
  struct Objects {
    api::GroupVersionResource gvr;
    std::string ns;        // "" for all namespaces
    std::string name;      // "" for any
    std::string selector;  // a label selector; "" for all
  };
  std::vector<Objects> objects;  // something in any of them counts
  std::string lock;              // a lock some replica led counts

  bool empty() const { return objects.empty() && lock.empty(); }
  // "no configmaps in team with labels app=x", "no replica leading leases/a/b".
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
