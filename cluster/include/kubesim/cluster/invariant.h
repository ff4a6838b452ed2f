// Invariants: what must hold of a cluster, checked by it right after each committed write, each
// leadership change and (for those that ask) each call that can change the answer.
//
//   cluster::Dependencies on_lease;
//   on_lease.leadership = true;
//   on_lease.locks = {c.leadership().add_lock("leases/kube-system/m")};
//   c.add_invariant({"one leader", [&](const cluster::Trigger&) { if (two_lead()) report(); }, on_lease});
//
// The cluster calls `check` in the order the invariants were added: after a committed write of a
// resource they depend on (synchronously, from the API server's write listener, before any
// watcher has received the write), and after a term starts or ends on a lock they depend on (Cluster::start_term,
// end_term), and after each call the server's recorder logs, for those that depend on calls
// (synchronously, once the log holds it). It never calls them once the cluster is closing. What to do with the answer —
// record it, fail a test, freeze a trace — is the check's. A check must not write to the server.
#ifndef KUBESIM_CLUSTER_INVARIANT_H_
#define KUBESIM_CLUSTER_INVARIANT_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/fakeapi/recorded_call.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::cluster {

// What can change an invariant's answer.
struct Dependencies {
  bool leadership = false;
  std::vector<std::size_t> locks;  // with `leadership`: terms on these locks (Leadership ids; empty: any)
  bool any_write = false;
  std::vector<api::GroupResource> resources;  // committed writes of these resources
  bool calls = false;  // every call the server's recorder logs

  bool depends_on(const api::GroupResource& resource) const;
  bool depends_on_locks(const std::vector<std::size_t>& changed) const;
};

// What a check follows: a committed write, a term that started or ended on some locks, or a
// logged call; exactly one is set.
struct Trigger {
  const fakeapi::CommittedWrite* write = nullptr;
  const std::vector<std::size_t>* locks = nullptr;
  const fakeapi::RecordedCall* call = nullptr;
};

struct Invariant {
  std::string name;
  std::function<void(const Trigger&)> check;
  Dependencies dependencies;
};

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_INVARIANT_H_
