#include "kubesim/workqueue/rate_limiter.h"

#include <cmath>
#include <string>

namespace kubesim::workqueue {
namespace {

// 2^63 as a double: the first value that does not fit in a Duration's int64.
constexpr double kTwoTo63 = 9223372036854775808.0;

// Go's Duration.Seconds(): whole seconds and the remainder converted separately.
double seconds_of(sim::Duration d) {
  const auto whole = d.count() / 1'000'000'000;
  const auto rest = d.count() % 1'000'000'000;
  return static_cast<double>(whole) + static_cast<double>(rest) / 1e9;
}

sim::Time add_saturating(sim::Time t, sim::Duration d) {
  if (d == kInfiniteDuration) return sim::Time::max();
  if (t > sim::Time{} && d > sim::Time::max() - t) return sim::Time::max();
  return t + d;
}

void check_rate(double rate) {
  if (std::isnan(rate) || rate < 0) {
    throw std::invalid_argument("TokenBucket: the rate must be a non-negative number of events per second, got " +
                                std::to_string(rate));
  }
}

void check_burst(int burst) {
  if (burst < 0) {
    throw std::invalid_argument("TokenBucket: the burst must not be negative, got " + std::to_string(burst));
  }
}

}  // namespace

double every(sim::Duration interval) {
  if (interval <= sim::Duration::zero()) return kInfiniteRate;
  return 1 / seconds_of(interval);
}

void check_non_negative(sim::Duration d, const char* what) {
  if (d < sim::Duration::zero()) {
    throw std::invalid_argument(std::string(what) + " must not be negative, got " + std::to_string(d.count()) +
                                " ns");
  }
}

sim::Duration TokenBucket::Reservation::delay_from(sim::Time t) const {
  if (!ok_) return kInfiniteDuration;
  if (time_to_act_ <= t) return sim::Duration::zero();
  return time_to_act_ - t;
}

TokenBucket::TokenBucket(const sim::Clock& clock, double rate, int burst)
    : clock_(&clock), rate_(rate), burst_(burst), tokens_(burst), last_(clock.now()) {
  check_rate(rate);
  check_burst(burst);
}

double TokenBucket::advance(sim::Time t) const {
  const sim::Time last = t < last_ ? t : last_;
  const double delta = rate_ <= 0 ? 0.0 : seconds_of(t - last) * rate_;
  return std::min(tokens_ + delta, static_cast<double>(burst_));
}

TokenBucket::Reservation TokenBucket::reserve(sim::Time t, int n, sim::Duration max_future_reserve) {
  Reservation r;
  if (rate_ == kInfiniteRate) {
    r.ok_ = true;
    r.tokens_ = n;
    r.time_to_act_ = t;
    return r;
  }
  const double tokens = advance(t) - n;
  sim::Duration wait = sim::Duration::zero();
  if (tokens < 0) {
    // rate.Limit.durationFromTokens: truncated toward zero, infinite when it does not fit.
    if (rate_ <= 0) {
      wait = kInfiniteDuration;
    } else {
      const double ns = (-tokens / rate_) * 1e9;
      wait = ns >= kTwoTo63 ? kInfiniteDuration : sim::Duration(static_cast<sim::Duration::rep>(ns));
    }
  }
  r.ok_ = n <= burst_ && wait <= max_future_reserve;
  if (r.ok_) {
    r.tokens_ = n;
    r.time_to_act_ = add_saturating(t, wait);
    last_ = t;
    tokens_ = tokens;
  }
  return r;
}

void TokenBucket::set_rate_at(sim::Time t, double rate) {
  check_rate(rate);
  tokens_ = advance(t);
  last_ = t;
  rate_ = rate;
}

void TokenBucket::set_burst_at(sim::Time t, int burst) {
  check_burst(burst);
  tokens_ = advance(t);
  last_ = t;
  burst_ = burst;
}

sim::Duration exponential_failure_delay(sim::Duration base, sim::Duration max_delay, int failures) {
  if (base <= sim::Duration::zero()) return std::min(sim::Duration::zero(), max_delay);
  // 2^63 ns does not fit whatever the base; the power of two is exact in a double up to here.
  if (failures > 62) return max_delay;
  const double backoff = static_cast<double>(base.count()) * std::ldexp(1.0, failures);
  if (backoff >= kTwoTo63) return max_delay;
  return std::min(sim::Duration(static_cast<sim::Duration::rep>(backoff)), max_delay);
}

}  // namespace kubesim::workqueue
