// ResourceLock: the object a leader election is held on (client-go's resourcelock.Interface).
//
// A lock reads, creates and updates one LeaderElectionRecord kept in a Kubernetes object. It
// caches the object it last read or wrote, and update() writes over *that* version: the write
// carries its resourceVersion, so of several candidates that read the same version and race to
// update it, only the first to reach the server wins and the others get 409 Conflict. This is
// the whole of the election's mutual exclusion; nothing else is atomic.
//
// A lock belongs to one LeaderElector and is used by one coroutine at a time. Implementations:
// LeaseLock (coordination.k8s.io/v1 Lease), ConfigMapLock and EndpointsLock (the record as JSON
// in the `control-plane.alpha.kubernetes.io/leader` annotation), and MultiLock (two locks, for
// migrating between lock types).
#ifndef KUBESIM_ELECTION_RESOURCE_LOCK_H_
#define KUBESIM_ELECTION_RESOURCE_LOCK_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "kubesim/api/client.h"
#include "kubesim/api/result.h"
#include "kubesim/election/record.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::election {

// What every lock needs besides its object's name.
struct ResourceLockConfig {
  // Unique among all candidates of an election (a pod name, a host name); kept across restarts.
  std::string identity{};
  // The Unix second that sim::Time{} stands for, for the record's timestamps.
  std::int64_t epoch_unix_seconds = sim::kDefaultEpochUnixSeconds;
};

// A record as read, with its raw form. Candidates compare raw forms to notice a renewal.
struct LockRecord {
  LockRecord() {}
  LockRecord(LeaderElectionRecord record_, std::string raw_)
      : record(std::move(record_)), raw(std::move(raw_)) {}

  LeaderElectionRecord record;
  std::string raw;
};

class ResourceLock {
 public:
  virtual ~ResourceLock() = default;

  // Reads the record and caches the object. NotFound when the object does not exist; an object
  // without a record (a ConfigMap without the annotation) reads as an empty record.
  virtual sim::Task<api::Result<LockRecord>> get(sim::Context ctx) = 0;
  // Creates the object holding `record`. AlreadyExists when it exists.
  virtual sim::Task<api::Result<void>> create(sim::Context ctx, LeaderElectionRecord record) = 0;
  // Writes `record` over the cached object, conditional on its resourceVersion. Fails (code 0,
  // "... not initialized") when neither get nor create has succeeded yet.
  virtual sim::Task<api::Result<void>> update(sim::Context ctx, LeaderElectionRecord record) = 0;

  virtual const std::string& identity() const = 0;
  // "namespace/name", for messages and traces.
  virtual std::string describe() const = 0;
};

// The lock types of client-go's resourcelock.New: "leases", "configmaps", "endpoints",
// "configmapsleases" and "endpointsleases" (the last two are MultiLocks: the old kind first,
// the Lease second). Anything else is a 400 BadRequest Status naming the valid types; an empty
// identity, namespace or name is a 400 too.
api::Result<std::shared_ptr<ResourceLock>> new_lock(std::string_view lock_type, api::Client& client,
                                                    std::string ns, std::string name,
                                                    ResourceLockConfig config);

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_RESOURCE_LOCK_H_
