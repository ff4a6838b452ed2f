// HealthzAdaptor: the leader election's health check (client-go's HealthzAdaptor).
//
// It can be created before the elector exists (a health endpoint is usually set up first) and
// is tied to it by run_or_die() or set_leader_election(). check() is healthy while no elector is
// tied, while the candidate does not hold the lock, and while it holds it and has renewed it
// within lease_duration + timeout on its own clock; otherwise it fails, so that a supervisor can
// restart a leader that is stuck without having noticed it lost the lease.
#ifndef KUBESIM_ELECTION_HEALTHZ_H_
#define KUBESIM_ELECTION_HEALTHZ_H_

#include <optional>
#include <string>
#include <string_view>

#include "kubesim/sim/time.h"

namespace kubesim::election {

class LeaderElector;

class HealthzAdaptor {
 public:
  // `timeout`: how long past the lease's expiry the check still passes.
  explicit HealthzAdaptor(sim::Duration timeout) : timeout_(timeout) {}
  HealthzAdaptor(const HealthzAdaptor&) = delete;
  HealthzAdaptor& operator=(const HealthzAdaptor&) = delete;
  ~HealthzAdaptor();

  std::string_view name() const { return "leaderElection"; }
  // nullopt when healthy, else the reason.
  std::optional<std::string> check() const;
  // Ties the adaptor to `elector` (null unties it). An elector unties itself when destroyed.
  void set_leader_election(LeaderElector* elector);

 private:
  LeaderElector* elector_ = nullptr;
  sim::Duration timeout_;
};

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_HEALTHZ_H_
