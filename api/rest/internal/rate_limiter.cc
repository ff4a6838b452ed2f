#include "api/rest/internal/rate_limiter.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "api/rest/internal/response.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::api::rest::internal {

TokenBucket::TokenBucket(double qps, int burst, sim::Time now)
    : qps_(qps), burst_(burst), tokens_(burst), last_(now) {
  assert(qps > 0 && burst >= 1);
}

void TokenBucket::advance(sim::Time now) {
  if (now <= last_) return;
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
  last_ = now;
}

double TokenBucket::tokens(sim::Time now) const {
  if (now <= last_) return tokens_;
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  return std::min(burst_, tokens_ + elapsed * qps_);
}

std::optional<sim::Time> TokenBucket::reserve(sim::Time now, std::optional<sim::Time> latest) {
  advance(now);
  const double left = tokens_ - 1;
  sim::Time at = now;
  if (left < 0) {
    const auto wait = std::chrono::duration<double>(-left / qps_);
    at = now + std::chrono::ceil<sim::Duration>(wait);
  }
  if (latest && at > *latest) return std::nullopt;
  tokens_ = left;
  return at;
}

void TokenBucket::cancel(sim::Time at, sim::Time now) {
  if (at <= now) return;
  advance(now);
  tokens_ = std::min(burst_, tokens_ + 1);
}

RateLimiter::RateLimiter(sim::Loop& loop, double qps, int burst) : loop_(&loop) {
  if (qps > 0) bucket_ = std::make_shared<TokenBucket>(qps, std::max(burst, 1), loop.now());
}

sim::Task<std::optional<Status>> RateLimiter::wait(sim::Context ctx) {
  return wait_for(bucket_, loop_, std::move(ctx));
}

sim::Task<std::optional<Status>> RateLimiter::wait_for(std::shared_ptr<TokenBucket> bucket,
                                                       sim::Loop* loop, sim::Context ctx) {
  if (ctx.done()) co_return new_context_error(ctx.err());
  if (!bucket) co_return std::nullopt;
  const sim::Time now = loop->now();
  const auto at = bucket->reserve(now, ctx.deadline());
  if (!at) {
    co_return new_client_error(
        ClientError::kDeadlineExceeded,
        "client rate limiter Wait returned an error: rate: Wait(n=1) would exceed context deadline");
  }
  if (*at <= now) co_return std::nullopt;
  const bool slept = co_await sim::sleep_until(ctx, *loop, *at);
  if (!slept) {
    bucket->cancel(*at, loop->now());
    co_return new_context_error(ctx.err());
  }
  co_return std::nullopt;
}

}  // namespace kubesim::api::rest::internal
