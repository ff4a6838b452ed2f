// Clock: one process's view of time, as Go's time package gives it: a wall reading and a
// monotonic reading.
//
//   monotonic  now() = base_mono + (true_now - base_true) * rate. Drift (the rate) changes how
//              fast it advances from the current instant on; nothing else moves it: steps and
//              offsets never touch it. Its origin is arbitrary (true time when the Clock was
//              made): only differences of two readings mean anything.
//   wall       wall_now() = now() + offset. Skew (set_offset) and steps (step: NTP stepping the
//              node, an operator setting the date) move it at once; between them it advances
//              with the monotonic reading, at the drift rate.
//
// Like Go, where time.Now() carries both readings and Sub/Since/After, timers and context
// deadlines use the monotonic one, every duration, timer, deadline, lease check, backoff and rate
// limiter in kubesim reads now() (so workqueue/ and informer/, which only measure durations, read
// now()); only times written into objects (a lease's renewTime and acquireTime) or logs read
// wall_now(). Sleeping for a local duration d waits d / rate of true time; a later change of
// rate does not move a sleep that has already started, and a step never matters to it.
//
// A rate of 1 is a perfect clock. All members run on the Loop's thread.
#ifndef KUBESIM_SIM_CLOCK_H_
#define KUBESIM_SIM_CLOCK_H_

#include "kubesim/sim/time.h"

namespace kubesim::sim {

class Loop;

class Clock {
 public:
  // The identity view of `loop`'s true time: both readings equal true time, at rate 1.
  explicit Clock(Loop& loop);

  Loop& loop() const { return *loop_; }
  // The monotonic reading now: for durations, timers, deadlines and expiry checks.
  Time now() const;
  // The wall reading now: for timestamps written into objects and logs, never for durations.
  Time wall_now() const { return now() + offset_; }
  // The true duration that passes while this clock advances by `local`.
  Duration to_true(Duration local) const;
  // The true instant at which the monotonic reading will be now() + local.
  Time true_deadline(Duration local) const;

  // Moves the wall reading by `delta` (forward or back) at once; the monotonic one is untouched.
  void step(Duration delta);
  // Sets the wall reading so that it is `offset` ahead of true time now.
  void set_offset(Duration offset);
  // Sets the rate of both readings from now on: 1.0 is exact, 1.0001 runs 100 ppm fast.
  // Must be > 0.
  void set_rate(double rate);
  double rate() const { return rate_; }

 private:
  void rebase();

  Loop* loop_;
  Time base_true_{};
  Time base_mono_{};
  double rate_ = 1.0;
  // wall_now() - now(); changed only by steps and set_offset.
  Duration offset_{};
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_CLOCK_H_
