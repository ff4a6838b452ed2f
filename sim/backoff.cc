#include "kubesim/sim/backoff.h"

#include <cmath>

namespace kubesim::sim {

Duration jitter(Duration d, double max_factor, Rng& rng) {
  if (max_factor <= 0.0) max_factor = 1.0;
  const double extra = rng.uniform_real() * max_factor * static_cast<double>(d.count());
  return d + Duration(static_cast<Duration::rep>(extra));
}

Duration Backoff::step(Rng& rng) {
  if (steps < 1) {
    return jitter > 0 ? sim::jitter(duration, jitter, rng) : duration;
  }
  --steps;
  Duration current = duration;
  if (factor != 0) {
    duration = Duration(static_cast<Duration::rep>(static_cast<double>(duration.count()) * factor));
    if (cap > Duration::zero() && duration > cap) {
      duration = cap;
      steps = 0;
    }
  }
  if (jitter > 0) current = sim::jitter(current, jitter, rng);
  return current;
}

ExponentialBackoffManager::ExponentialBackoffManager(const Clock& clock, Rng& rng, Duration initial,
                                                     Duration max, Duration reset_after,
                                                     double factor, double jitter)
    : clock_(&clock),
      rng_(&rng),
      initial_(initial),
      reset_after_(reset_after),
      backoff_{initial, factor, jitter, INT_MAX, max} {}

Duration ExponentialBackoffManager::next() {
  const Time now = clock_->now();
  if (started_ && now - last_start_ > reset_after_) {
    backoff_.steps = INT_MAX;
    backoff_.duration = initial_;
  }
  started_ = true;
  last_start_ = now;
  return backoff_.step(*rng_);
}

}  // namespace kubesim::sim
