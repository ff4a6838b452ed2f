#include "kubesim/sim/wait.h"

#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {

Task<void> jitter_until(Context ctx, const Clock* clock, AsyncFn fn, Duration period,
                        double jitter_factor, bool sliding) {
  Rng& rng = clock->loop().rng();
  while (!ctx.done()) {
    const Duration wait = jitter_factor > 0 ? jitter(period, jitter_factor, rng) : period;
    const Time not_before = clock->true_deadline(wait);
    co_await fn();
    if (ctx.done()) break;
    const Time next = sliding ? clock->true_deadline(wait) : not_before;
    const bool slept = co_await sleep_until(ctx, clock->loop(), next);
    if (!slept) break;
  }
}

Task<void> until(Context ctx, const Clock* clock, Duration period, AsyncFn fn) {
  co_await jitter_until(std::move(ctx), clock, std::move(fn), period, 0.0, true);
}

Task<void> non_sliding_until(Context ctx, const Clock* clock, Duration period, AsyncFn fn) {
  co_await jitter_until(std::move(ctx), clock, std::move(fn), period, 0.0, false);
}

Task<bool> poll_immediate_until(Context ctx, const Clock* clock, Duration interval,
                                AsyncCondition condition) {
  for (;;) {
    if (ctx.done()) co_return false;
    const bool ok = co_await condition();
    if (ok) co_return true;
    const bool slept = co_await sleep_for(ctx, *clock, interval);
    if (!slept) co_return false;
  }
}

Task<bool> poll_until(Context ctx, const Clock* clock, Duration interval, AsyncCondition condition) {
  const bool slept = co_await sleep_for(ctx, *clock, interval);
  if (!slept) co_return false;
  const bool ok = co_await poll_immediate_until(std::move(ctx), clock, interval, std::move(condition));
  co_return ok;
}

Task<bool> exponential_backoff(Context ctx, const Clock* clock, Backoff backoff,
                               AsyncCondition condition) {
  // The condition runs `steps` times at most, as in client-go.
  Rng& rng = clock->loop().rng();
  while (backoff.steps > 0) {
    if (ctx.done()) co_return false;
    const bool ok = co_await condition();
    if (ok) co_return true;
    if (backoff.steps == 1) break;
    const Duration wait = backoff.step(rng);
    const bool slept = co_await sleep_for(ctx, *clock, wait);
    if (!slept) co_return false;
  }
  co_return false;
}

}  // namespace kubesim::sim
