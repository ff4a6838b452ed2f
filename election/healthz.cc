#include "kubesim/election/healthz.h"

#include "kubesim/election/leader_elector.h"

namespace kubesim::election {

HealthzAdaptor::~HealthzAdaptor() { set_leader_election(nullptr); }

std::optional<std::string> HealthzAdaptor::check() const {
  if (elector_ == nullptr) return std::nullopt;
  return elector_->check(timeout_);
}

void HealthzAdaptor::set_leader_election(LeaderElector* elector) {
  if (elector_ != nullptr && elector_->watchdog_ == this) elector_->watchdog_ = nullptr;
  elector_ = elector;
  if (elector_ == nullptr) return;
  if (elector_->watchdog_ != nullptr && elector_->watchdog_ != this) {
    elector_->watchdog_->elector_ = nullptr;
  }
  elector_->watchdog_ = this;
}

}  // namespace kubesim::election
