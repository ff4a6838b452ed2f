// Client-side rate limiting: client-go's token-bucket limiter (flowcontrol.NewTokenBucketRateLimiter,
// built on golang.org/x/time/rate) on the loop's clock.
//
// The bucket holds up to `burst` tokens, starts full and refills at `qps` tokens per second. Each
// request takes one; when none is left it reserves the next one to come and waits for it, so
// waiting requests proceed in arrival order at exactly `qps`. As x/time/rate's Wait: a request
// whose wait would pass its context's deadline fails at once, taking nothing; one whose context
// is done while it waits gives its token back. It follows loop.now(), so it is exact and
// deterministic on a virtual-time loop too.
#ifndef KUBESIM_API_REST_INTERNAL_RATE_LIMITER_H_
#define KUBESIM_API_REST_INTERNAL_RATE_LIMITER_H_

#include <memory>
#include <optional>

#include "kubesim/api/status.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/time.h"

namespace kubesim::api::rest::internal {

class TokenBucket {
 public:
  // qps > 0, burst >= 1.
  TokenBucket(double qps, int burst, sim::Time now);

  // Takes a token and returns when it may be used (`now` when one was there). Takes nothing and
  // returns nullopt when that would be later than `latest`.
  std::optional<sim::Time> reserve(sim::Time now, std::optional<sim::Time> latest);
  // Gives back a token reserved for `at` and not used, when `at` is still in the future.
  void cancel(sim::Time at, sim::Time now);
  // Tokens available at `now` (may be negative while reservations are outstanding).
  double tokens(sim::Time now) const;

 private:
  void advance(sim::Time now);

  double qps_;
  double burst_;
  double tokens_;
  sim::Time last_;
};

class RateLimiter {
 public:
  // A limiter that never waits when qps <= 0.
  RateLimiter(sim::Loop& loop, double qps, int burst);

  // Waits for a token. nullopt: go ahead; otherwise the failure, as client-go words it ("client
  // rate limiter Wait returned an error: rate: Wait(n=1) would exceed context deadline", or the
  // context's error).
  sim::Task<std::optional<Status>> wait(sim::Context ctx);

 private:
  static sim::Task<std::optional<Status>> wait_for(std::shared_ptr<TokenBucket> bucket,
                                                   sim::Loop* loop, sim::Context ctx);
  sim::Loop* loop_;
  std::shared_ptr<TokenBucket> bucket_;  // null: unlimited
};

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_RATE_LIMITER_H_
