// RecordLeadership: who leads a lock that exec replicas take, read from the lock's record as the
// server stores it — the only view a live run has of a real program's leader election.
//
// A replica's term on a lock starts with the committed write whose record names it holder (its
// holderIdentity is its replica name, as leaderElected reads it too) and ends with the first of: a write naming another holder
// or none, the record's expiry (the last write naming it + leaseDurationSeconds, in server time),
// the replica's death. Terms go to the cluster (Cluster::start_term, end_term) as in-process
// electors' terms do. This is weaker than a virtual run: a real program may go on believing it
// leads after its record expired, and nothing here can see that.
#ifndef KUBESIM_LIVE_INTERNAL_RECORD_LEADERSHIP_H_
#define KUBESIM_LIVE_INTERNAL_RECORD_LEADERSHIP_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/fakeapi/server.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/time.h"

namespace kubesim::runner {
struct World;
}

namespace kubesim::live {

// The holder and lease duration a lock object's record holds; nullopt when it holds none.
struct RecordView {
  std::string holder;
  sim::Duration lease{};
};
std::optional<RecordView> read_record(const std::string& lock_kind, const api::Object& object,
                                      std::int64_t epoch_unix_seconds);

class RecordLeadership {
 public:
  explicit RecordLeadership(runner::World& world);

  void on_write(const fakeapi::CommittedWrite& write);
  // Ends the terms whose record has expired by now.
  void expire();
  // Ends the terms of replica `index` (the World's) that died.
  void replica_down(std::size_t index);

 private:
  struct Lock {
    std::size_t id = 0;  // in the cluster's Leadership
    scenarios::LockRef ref;
    std::vector<std::size_t> candidates;  // World replica indices whose exec takes it
    std::optional<std::size_t> term;  // the cluster's term while one lasts
    std::size_t holder = 0;
    sim::Time expires{};
  };
  void start_term(Lock& lock, std::size_t replica);
  void end_term(Lock& lock);

  runner::World* world_;
  std::vector<Lock> locks_;
};

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_INTERNAL_RECORD_LEADERSHIP_H_
