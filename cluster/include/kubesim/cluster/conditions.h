// Conditions: what a check asks of a simulated cluster at one instant — who leads a lock,
// whether an object exists or is gone, how many objects there are, the readiness and ownership
// counts of a resource — each answered from the API server's current state and the leadership
// record: nothing (nullopt) when it holds, otherwise why not, one fact a line, naming objects by
// key ("default/w1") and values as JSON ("absent" when a path has none).
//
// The fixture's conditions (kubesim/testing/conditions.h: Exists, Gone, CountIs, AllReady,
// OwnedCountAtMost, AtMostOneLeader) are these; the scenario checks (atMostOneLeader, count) use
// them too. They read the cluster and never change it. Budgets of API calls, which follow the
// call log through the run rather than read one instant, are CallBudget (call_budget.h).
#ifndef KUBESIM_CLUSTER_CONDITIONS_H_
#define KUBESIM_CLUSTER_CONDITIONS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/result.h"

namespace kubesim::cluster {

class Cluster;

// nullopt when the condition holds; otherwise why not.
using Why = std::optional<std::string>;

// "a, b, c, d, e and 2 more": at most five of `keys`, then how many are left out.
std::string key_list(const std::vector<std::string>& keys);

// --- Whether a condition can be judged at all ---
// A condition on a resource the server does not serve, or on a field its kind does not have,
// would read nothing and hold (or never hold) for that reason alone: these say why it can never
// be judged, so that it fails at once instead.
// The server does not serve `resource`.
Why unserved(const Cluster& c, const api::GroupVersionResource& resource);
// `resource` is not served, or its kind's schema (the built-in Go types, a CRD's openAPIV3Schema:
// kubesim/fakeapi/field_paths.h) has no field at the dotted `path`, or — `integer` — the field
// there cannot hold an integer.
Why unknown_field(const Cluster& c, const api::GroupVersionResource& resource, std::string_view path,
                  bool integer = false);

// --- Leadership (the cluster's record: Cluster::leadership) ---
// At most one replica believes it leads the lock `lock` (a Leadership id) now; else how many do,
// each with the instant its term began (true time) and what its clock reads.
Why at_most_one_leader(const Cluster& c, std::size_t lock);

// --- Objects ---
// The object exists; else that it does not, or why it cannot be read (a resource not served).
Why exists(const Cluster& c, const api::GroupVersionResource& resource, std::string_view ns,
           std::string_view name);
// The object does not exist; else its resourceVersion, and whether (since when, waiting on which
// finalizers) it is being deleted.
Why gone(const Cluster& c, const api::GroupVersionResource& resource, std::string_view ns,
         std::string_view name);

// --- Counts ---
struct Counted {
  std::int64_t count = 0;
  std::vector<std::string> keys;  // the objects counted, in key order
};
// The objects of `resource` in `ns` ("" = all namespaces) that `label_selector` selects (""
// selects all); the server's Status when it cannot list them (a resource not served, a malformed
// selector).
api::Result<Counted> count(const Cluster& c, const api::GroupVersionResource& resource,
                           std::string_view ns, std::string_view label_selector = {});
// Every object of `resource` has a value at `have` equal to the value at `want`; an absent
// `have` is not ready. Else how many are not, naming them with both values.
Why all_ready(const Cluster& c, const api::GroupVersionResource& resource, std::string_view have,
              std::string_view want);
// No object of `owner` controls (by its controller owner reference, in its namespace) more
// objects of `owned` than the integer at `field` of the owner; an owner without an integer
// there has no limit. Else the first owner over its limit, with what it controls.
Why owned_count_at_most(const Cluster& c, const api::GroupVersionResource& owner,
                        const api::GroupVersionResource& owned, std::string_view field);

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_CONDITIONS_H_
