#include "kubesim/election/config.h"

namespace kubesim::election {

std::optional<std::string> validate(const LeaderElectionConfig& config) {
  const auto jittered_retry = sim::Duration(static_cast<sim::Duration::rep>(
      kJitterFactor * static_cast<double>(config.retry_period.count())));
  if (config.lease_duration <= config.renew_deadline) {
    return "leaseDuration must be greater than renewDeadline";
  }
  if (config.renew_deadline <= jittered_retry) {
    return "renewDeadline must be greater than retryPeriod*JitterFactor";
  }
  if (config.lease_duration <= sim::Duration::zero()) return "leaseDuration must be greater than zero";
  if (config.renew_deadline <= sim::Duration::zero()) return "renewDeadline must be greater than zero";
  if (config.retry_period <= sim::Duration::zero()) return "retryPeriod must be greater than zero";
  if (!config.callbacks.on_started_leading) return "OnStartedLeading callback must not be nil";
  if (!config.callbacks.on_stopped_leading) return "OnStoppedLeading callback must not be nil";
  if (!config.lock) return "Lock must not be nil.";
  if (config.lock->identity().empty()) return "Lock identity is empty";
  return std::nullopt;
}

}  // namespace kubesim::election
