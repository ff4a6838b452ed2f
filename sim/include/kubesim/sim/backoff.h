// Backoff arithmetic of client-go's wait package, on virtual time and the Loop's seeded Rng.
//
// jitter(d, f) is d plus a random extra of up to f·d (f <= 0 means 1.0). Backoff is wait.Backoff:
// each step returns the current duration (jittered) and multiplies the next one by `factor`, up
// to `cap`; once `steps` run out it keeps returning the last duration. ExponentialBackoffManager
// is client-go's exponential backoff manager: it starts over from `initial` when the previous
// backoff began more than `reset_after` ago on its clock's monotonic reading (the reflector uses
// 800 ms, 30 s cap, reset after 2 min, factor 2, jitter 1).
#ifndef KUBESIM_SIM_BACKOFF_H_
#define KUBESIM_SIM_BACKOFF_H_

#include <climits>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/rng.h"
#include "kubesim/sim/time.h"

namespace kubesim::sim {

Duration jitter(Duration d, double max_factor, Rng& rng);

struct Backoff {
  Duration duration{};
  double factor = 0;
  double jitter = 0;
  int steps = 0;
  Duration cap{};

  // The next wait, advancing the state as wait.Backoff.Step does.
  Duration step(Rng& rng);
};

class ExponentialBackoffManager {
 public:
  ExponentialBackoffManager(const Clock& clock, Rng& rng, Duration initial, Duration max,
                            Duration reset_after, double factor, double jitter);

  // The wait before the next attempt.
  Duration next();

 private:
  const Clock* clock_;
  Rng* rng_;
  Duration initial_;
  Duration reset_after_;
  Backoff backoff_;
  Time last_start_{};
  bool started_ = false;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_BACKOFF_H_
