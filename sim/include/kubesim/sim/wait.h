// client-go's wait loops as coroutines on a Clock.
//
//   co_await sim::until(ctx, &clock, 1s, [&] { return resync(); });
//
// The functions passed in return a Task (call a named coroutine; a capturing lambda must not
// itself be a coroutine). Every loop checks its context before each run and returns once it is
// done; none of them runs `fn` concurrently with itself.
#ifndef KUBESIM_SIM_WAIT_H_
#define KUBESIM_SIM_WAIT_H_

#include <functional>

#include "kubesim/sim/backoff.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::sim {

using AsyncFn = std::function<Task<void>()>;
using AsyncCondition = std::function<Task<bool>()>;

// wait.JitterUntil: runs fn, waits period (plus up to jitter_factor·period when > 0), repeats.
// With `sliding` the period starts after fn returns; without, it starts before fn runs.
Task<void> jitter_until(Context ctx, const Clock* clock, AsyncFn fn, Duration period,
                        double jitter_factor, bool sliding);

// wait.Until: jitter_until with no jitter, sliding.
Task<void> until(Context ctx, const Clock* clock, Duration period, AsyncFn fn);

// wait.NonSlidingUntil.
Task<void> non_sliding_until(Context ctx, const Clock* clock, Duration period, AsyncFn fn);

// wait.PollImmediateUntil: checks at once, then every interval. True once the condition holds,
// false when ctx is done first.
Task<bool> poll_immediate_until(Context ctx, const Clock* clock, Duration interval,
                                AsyncCondition condition);

// wait.PollUntil: as poll_immediate_until, but the first check comes after one interval.
Task<bool> poll_until(Context ctx, const Clock* clock, Duration interval, AsyncCondition condition);

// wait.ExponentialBackoffWithContext: checks, then waits backoff.step() between checks until the
// condition holds (true) or ctx is done or it has been checked `steps` times (false).
Task<bool> exponential_backoff(Context ctx, const Clock* clock, Backoff backoff,
                               AsyncCondition condition);

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_WAIT_H_
