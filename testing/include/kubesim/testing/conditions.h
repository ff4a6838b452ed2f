// Conditions on a SimCluster, and the virtual-time assertions built on them.
//
//   ASSERT_THAT(c, Eventually(AllReady(kWidgets, "status.readyReplicas", "spec.replicas"), 2min));
//   EXPECT_THAT(c, Consistently(CountIs(kConfigMaps, "default", 2), 30s));
//   c.always("never over-creates", OwnedCountAtMost(kWidgets, kConfigMaps, "spec.replicas"));
//   c.always(CallsPerSecond(Update(kConfigMaps).by("widgets-0"), 20));  // no hot retry loop
//
// A Condition reads the cluster (the server's state, leadership) and says why it does not hold,
// or nothing when it holds. It must not change the cluster. The built-in ones are the cluster's
// (kubesim/cluster/conditions.h), which the scenario checks evaluate too. Eventually(cond, within) runs the
// cluster's loop until cond holds, checking after every committed write and every 100 ms of
// virtual time, and fails when `within` of virtual time passes first; Consistently(cond, for)
// runs for `for` and fails at the first check where cond does not hold. Both leave the clock
// where they stopped. A failure's text names the condition, why it does not hold, the seed, the
// virtual time and the last trace events and calls (SimCluster::failure_context). A condition
// on a resource the server does not serve, or on a field path its kind's schema does not have
// ("spec.replica"), fails at once, naming it; a field the schema has but an object lacks reads
// "absent", never zero.
#ifndef KUBESIM_TESTING_CONDITIONS_H_
#define KUBESIM_TESTING_CONDITIONS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <gmock/gmock.h>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/sim/time.h"
#include "kubesim/testing/calls.h"

namespace kubesim::testing {

class SimCluster;

struct Condition {
  std::string description;  // "every widget ready"
  // nullopt when the condition holds; otherwise why not ("widget default/w1: readyReplicas 1, want 2").
  std::function<std::optional<std::string>(const SimCluster& cluster)> check;
  // Optional: why the condition can never be judged on this cluster (a resource the server does
  // not serve, a field its kind does not have), or nullopt. Eventually, Consistently and
  // SimCluster::always ask it first and fail at once, naming it: such a condition would
  // otherwise hold, or never hold, by reading nothing. The built-in conditions set it.
  std::function<std::optional<std::string>(const SimCluster& cluster)> unjudgeable = nullptr;
  // Optional: whether what the condition is about exists now (an object in its scope, a leader
  // of its lock). A condition that held while its subject never existed tested nothing: a strict
  // SimCluster (the default) fails such an always() at the cluster's end, and an Eventually
  // that holds at its first check at t=0 by absence. Unset: the condition is never vacuous.
  std::function<bool(const SimCluster& cluster)> present = nullptr;
  // Whether the condition reads the log of calls (CallsAtMost, CallsPerSecond): always() and
  // Eventually/Consistently then also check it after every call the server's recorder logs, so
  // it breaks at the call that broke it.
  bool reads_calls = false;
};

// Builds a Condition from a predicate on the cluster; its failure says only the description.
Condition Holds(std::string description, std::function<bool(const SimCluster&)> pred);

// The object exists / does not exist.
Condition Exists(const api::GroupVersionResource& resource, std::string ns, std::string name);
Condition Gone(const api::GroupVersionResource& resource, std::string ns, std::string name);
// The object exists and matches `m` (any matcher of matchers.h, e.g. HasField(…)).
Condition ObjectMatches(const api::GroupVersionResource& resource, std::string ns, std::string name,
                        ::testing::Matcher<const api::Object&> m);
// Exactly n objects of `resource` in `ns` ("" = all namespaces).
Condition CountIs(const api::GroupVersionResource& resource, std::string ns, std::size_t n);
// Every object of `resource` has the value at `have` equal to the value at `want` (e.g.
// status.readyReplicas == spec.replicas); an absent `have` counts as not ready.
Condition AllReady(const api::GroupVersionResource& resource, std::string have, std::string want);
// No object of `owner_resource` controls more objects of `owned` (by controller owner reference,
// same namespace) than the integer at `field` of the owner. Objects whose owner is gone are not
// counted. The invariant a ReplicaSet-style controller must never break.
Condition OwnedCountAtMost(const api::GroupVersionResource& owner_resource,
                           const api::GroupVersionResource& owned, std::string field);
// At most one replica leads `lock` (as the cluster tracks leadership: from the elector's
// started-leading until its leading context ends). "" = every lock.
Condition AtMostOneLeader(std::string lock = {});

// API-call budgets (kubesim/cluster/call_budget.h): at most `n` calls of `pattern` (calls.h:
// Update(kConfigMaps).by("ctl-0"), List(kWidgets).by_group("ctl")) from the start of the
// cluster's run; at most `r` in any window of one second (the calls answered in (t − 1 s, t] for
// any instant t). Every logged call counts, whatever its answer. Once broken they stay broken:
// c.always("no hot loop", CallsPerSecond(…)) breaks at the call that spent the budget, naming
// the pattern, the count (or the second's calls and their span) and the last matching calls with
// their times; Consistently fails at that call too; Eventually is of no use with
// them. A budget on a resource the server does not serve can never be judged; one held while
// its process never called its resource (any verb) held vacuously. A condition follows the
// calls of the cluster it is checked on; checked on another cluster, it starts over. A negative
// n or r throws std::invalid_argument.
Condition CallsAtMost(CallPattern pattern, std::int64_t n);
Condition CallsPerSecond(CallPattern pattern, std::int64_t r);

// Matchers of a const SimCluster& so that EXPECT_THAT/ASSERT_THAT accept them (gmock hands the
// value over as const); they run the cluster's loop all the same.
::testing::Matcher<const SimCluster&> Eventually(Condition condition, sim::Duration within);
::testing::Matcher<const SimCluster&> Consistently(Condition condition, sim::Duration for_);

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_CONDITIONS_H_
