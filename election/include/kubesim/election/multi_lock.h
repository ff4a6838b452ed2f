// MultiLock: a leader election held on two locks at once, for migrating between lock types
// (client-go's resourcelock.MultiLock).
//
// A cluster moves from lock A to lock B in three steps, and only candidates of adjacent steps
// ever run side by side: A alone; MultiLock(A, B); B alone. The MultiLock reads the primary (A)
// first. If the secondary (B) does not exist yet and the primary is held by someone else, the
// primary's record is the answer (an old-style leader holds it). Otherwise both are read; when
// their holders differ the record's holder reads as kUnknownLeader, so nobody counts as leader
// until the holders agree. The raw form is the two raw forms joined by ',', so a renewal of
// either lock counts as a change. Creating creates both (an existing primary is fine).
//
// Updating is client-go's MultiLock.Update (client-go master 32ce75a7, after v0.36.3, where
// MultiLock is deprecated but unchanged): write the primary over the version read, then read the
// secondary again and write over *that* read (or create it when the read finds none). The
// re-read drops the precondition on the secondary, so a candidate that decided from an old read
// overwrites a secondary that a step-B candidate acquired meanwhile, and both then lead: the
// split-brain window of a lock migration.
//
// set_keep_secondary_precondition(true), off by default, is kubesim's improvement that hides
// that window: the secondary is written over the version the last get() read (or created when
// that read found none), so the overwrite gets 409 Conflict.
#ifndef KUBESIM_ELECTION_MULTI_LOCK_H_
#define KUBESIM_ELECTION_MULTI_LOCK_H_

#include <memory>
#include <string>
#include <string_view>

#include "kubesim/election/resource_lock.h"

namespace kubesim::election {

// The holder a MultiLock reports when its two locks disagree.
inline constexpr std::string_view kUnknownLeader = "leaderelection.k8s.io/unknown";

class MultiLock final : public ResourceLock {
 public:
  // Both must be non-null and have the same identity (asserted). `epoch_unix_seconds` is the
  // locks' (for the raw form of a record whose holder reads as kUnknownLeader).
  MultiLock(std::shared_ptr<ResourceLock> primary, std::shared_ptr<ResourceLock> secondary,
            std::int64_t epoch_unix_seconds = sim::kDefaultEpochUnixSeconds);

  sim::Task<api::Result<LockRecord>> get(sim::Context ctx) override;
  sim::Task<api::Result<void>> create(sim::Context ctx, LeaderElectionRecord record) override;
  sim::Task<api::Result<void>> update(sim::Context ctx, LeaderElectionRecord record) override;
  const std::string& identity() const override { return primary_->identity(); }
  std::string describe() const override { return primary_->describe(); }

  // See the file comment: off (client-go's behaviour) unless set.
  void set_keep_secondary_precondition(bool keep) { keep_secondary_precondition_ = keep; }

  ResourceLock& primary() const { return *primary_; }
  ResourceLock& secondary() const { return *secondary_; }

 private:
  std::shared_ptr<ResourceLock> primary_;
  std::shared_ptr<ResourceLock> secondary_;
  // Whether the secondary must be created rather than updated on the next update: its last
  // read found no object, and nothing has created it since.
  bool secondary_missing_ = false;
  bool keep_secondary_precondition_ = false;
  std::int64_t epoch_unix_seconds_;
};

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_MULTI_LOCK_H_
