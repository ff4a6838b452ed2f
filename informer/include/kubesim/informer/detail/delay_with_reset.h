// The Reflector's backoff: apimachinery's wait.Backoff.DelayWithReset(clock, reset_interval) (as of
// apimachinery 0.36, Kubernetes 1.36), which client-go's reflector uses since 1.36.
//
// Each next() is one step of the Backoff (jittered, growing by its factor up to its cap). The
// reset is periodic, not idle-based: when more than `reset_interval` has passed on the clock
// since construction or the last reset, the Backoff starts over from its initial state. So under
// an outage that never ends the delay still drops back to the initial one every reset_interval
// (client-go 1.35's exponential backoff manager instead reset only after a quiet period and stayed
// at the cap). Edge cases as in wait: a factor <= 0 never resets (the delays cannot grow); a
// reset_interval <= 0 never grows (every delay is the initial one, jittered).
#ifndef KUBESIM_INFORMER_DETAIL_DELAY_WITH_RESET_H_
#define KUBESIM_INFORMER_DETAIL_DELAY_WITH_RESET_H_

#include "kubesim/sim/backoff.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/rng.h"
#include "kubesim/sim/time.h"

namespace kubesim::informer::internal {

class DelayWithReset {
 public:
  // `clock` and `rng` must outlive this.
  DelayWithReset(const sim::Clock& clock, sim::Rng& rng, sim::Backoff backoff, sim::Duration reset_interval);

  // The wait before the next attempt.
  sim::Duration next();

 private:
  const sim::Clock* clock_;
  sim::Rng* rng_;
  sim::Backoff initial_;
  sim::Backoff backoff_;
  sim::Duration reset_interval_;
  bool resets_;
  // When the Backoff last started over (first: construction).
  sim::Time last_start_;
};

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_DETAIL_DELAY_WITH_RESET_H_
