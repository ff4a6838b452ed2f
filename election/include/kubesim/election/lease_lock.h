// LeaseLock: a leader election held on a coordination.k8s.io/v1 Lease.
//
// The record maps onto the Lease's spec: holderIdentity, leaseDurationSeconds, acquireTime and
// renewTime (microsecond times), leaseTransitions. The raw form the elector compares is the
// record's JSON (second precision), as client-go derives it from the spec. With `labels`, the
// lock creates the Lease with them and puts them back on every update (client-go's
// NewWithLabels); other labels on the Lease are kept.
#ifndef KUBESIM_ELECTION_LEASE_LOCK_H_
#define KUBESIM_ELECTION_LEASE_LOCK_H_

#include <map>
#include <string>

#include "kubesim/api/client.h"
#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/election/resource_lock.h"

namespace kubesim::election {

class LeaseLock final : public ResourceLock {
 public:
  // `client` must outlive the lock.
  LeaseLock(api::Client& client, std::string ns, std::string name, ResourceLockConfig config,
            std::map<std::string, std::string, std::less<>> labels = {});

  sim::Task<api::Result<LockRecord>> get(sim::Context ctx) override;
  sim::Task<api::Result<void>> create(sim::Context ctx, LeaderElectionRecord record) override;
  sim::Task<api::Result<void>> update(sim::Context ctx, LeaderElectionRecord record) override;
  const std::string& identity() const override { return config_.identity; }
  std::string describe() const override { return ns_ + "/" + name_; }

  // The Lease last read or written; null before the first success.
  const api::ObjectPtr& lease() const { return lease_; }

 private:
  api::Client* client_;
  std::string ns_;
  std::string name_;
  ResourceLockConfig config_;
  std::map<std::string, std::string, std::less<>> labels_;
  api::ObjectPtr lease_;
};

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_LEASE_LOCK_H_
