#include "kubesim/informer/detail/delay_with_reset.h"

namespace kubesim::informer::internal {

DelayWithReset::DelayWithReset(const sim::Clock& clock, sim::Rng& rng, sim::Backoff backoff,
                               sim::Duration reset_interval)
    : clock_(&clock), rng_(&rng), reset_interval_(reset_interval), resets_(backoff.factor > 0) {
  if (resets_ && reset_interval <= sim::Duration::zero()) {
    backoff.steps = 0;
    backoff.factor = 0;
    resets_ = false;
  }
  initial_ = backoff;
  backoff_ = backoff;
  last_start_ = clock.now();
}

sim::Duration DelayWithReset::next() {
  if (resets_) {
    const sim::Time now = clock_->now();
    if (now - last_start_ > reset_interval_) {
      backoff_ = initial_;
      last_start_ = now;
    }
  }
  return backoff_.step(*rng_);
}

}  // namespace kubesim::informer::internal
