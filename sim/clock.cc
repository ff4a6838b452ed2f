#include "kubesim/sim/clock.h"

#include <cassert>
#include <cmath>

#include "kubesim/sim/loop.h"

namespace kubesim::sim {

Clock::Clock(Loop& loop) : loop_(&loop) {}

Time Clock::now() const {
  const Duration elapsed = loop_->now() - base_true_;
  if (rate_ == 1.0) return base_mono_ + elapsed;
  return base_mono_ +
         Duration(static_cast<Duration::rep>(std::llround(static_cast<double>(elapsed.count()) * rate_)));
}

Duration Clock::to_true(Duration local) const {
  if (rate_ == 1.0) return local;
  return Duration(static_cast<Duration::rep>(std::ceil(static_cast<double>(local.count()) / rate_)));
}

Time Clock::true_deadline(Duration local) const { return loop_->now() + to_true(local); }

void Clock::rebase() {
  base_mono_ = now();
  base_true_ = loop_->now();
}

void Clock::step(Duration delta) { offset_ += delta; }

void Clock::set_offset(Duration offset) { offset_ = (loop_->now() + offset) - now(); }

void Clock::set_rate(double rate) {
  assert(rate > 0 && "a clock rate must be positive");
  rebase();
  rate_ = rate;
}

}  // namespace kubesim::sim
