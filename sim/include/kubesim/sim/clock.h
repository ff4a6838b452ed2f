// Clock: one process's view of time, with skew, drift and steps against true virtual time.
//
// local_now = base_local + (true_now - base_true) * rate. A rate of 1 is a perfect clock; drift
// changes the rate from the current instant on; a step moves the local reading at once. Code that
// measures durations (leader election, backoff resets) reads a Clock, so clock experiments are
// real. Sleeping for a local duration d waits d / rate of true time; a later change of rate or a
// step does not move a sleep that has already started (like a monotonic timer).
#ifndef KUBESIM_SIM_CLOCK_H_
#define KUBESIM_SIM_CLOCK_H_

#include "kubesim/sim/time.h"

namespace kubesim::sim {

class Loop;

class Clock {
 public:
  // The identity view of `loop`'s true time.
  explicit Clock(Loop& loop);

  Loop& loop() const { return *loop_; }
  // The local reading now.
  Time now() const;
  // The true duration that passes while this clock advances by `local`.
  Duration to_true(Duration local) const;
  // The true instant at which this clock will read now() + local.
  Time true_deadline(Duration local) const;

  // Moves the local reading by `delta` (forward or back) at once.
  void step(Duration delta);
  // Sets the local reading so that it is `offset` ahead of true time now.
  void set_offset(Duration offset);
  // Sets the rate from now on: 1.0 is exact, 1.0001 runs 100 ppm fast. Must be > 0.
  void set_rate(double rate);
  double rate() const { return rate_; }

 private:
  void rebase();

  Loop* loop_;
  Time base_true_{};
  Time base_local_{};
  double rate_ = 1.0;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_CLOCK_H_
