// Expectations: kube-controller-manager's ControllerExpectations — what a controller has asked
// for and not yet seen in its cache, per controller key, so that it does not act again on a
// stale cache (the ReplicaSet controller's guard against creating twice).
//
// expect_creations(key, n) before issuing n creates; creation_observed(key) when the informer
// delivers one (ControllerBuilder's owns() handlers call it); a create that failed is lowered
// with creation_observed too. satisfied(key) is true when nothing is pending, when no
// expectations were ever set for the key, or when they are older than the TTL (5 minutes, as
// client-go's ExpectationsTimeout), so a lost event cannot wedge a controller forever.
// Lowering below zero is harmless; lowering a key with no record does nothing. Times come from
// the process's clock (monotonic reading).
#ifndef KUBESIM_CONTROLLER_EXPECTATIONS_H_
#define KUBESIM_CONTROLLER_EXPECTATIONS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/time.h"

namespace kubesim::controller {

class Expectations {
 public:
  static constexpr sim::Duration kDefaultTtl = std::chrono::minutes(5);

  explicit Expectations(const sim::Clock& clock, sim::Duration ttl = kDefaultTtl) : clock_(&clock), ttl_(ttl) {}

  void expect_creations(std::string_view key, std::int64_t n);
  void expect_deletions(std::string_view key, std::int64_t n);
  void creation_observed(std::string_view key);
  void deletion_observed(std::string_view key);
  bool satisfied(std::string_view key) const;
  // Forgets the key (its owner is gone).
  void remove(std::string_view key);

  struct Pending {
    std::int64_t add = 0;
    std::int64_t del = 0;
    sim::Time set_at{};  // the clock's monotonic reading when last set
  };
  // The record for `key`, if any.
  const Pending* pending(std::string_view key) const;

 private:
  const sim::Clock* clock_;
  sim::Duration ttl_;
  std::map<std::string, Pending, std::less<>> records_;
};

}  // namespace kubesim::controller

#endif  // KUBESIM_CONTROLLER_EXPECTATIONS_H_
