// Sleeping on virtual time.
//
//   if (!co_await sim::sleep_for(ctx, clock, 5s)) co_return;  // false: ctx was done first
//
// sleep_for waits a duration of the given Clock (a Process's clock runs at its own rate);
// sleep_until waits for an instant of the Loop's true timeline. A non-positive wait returns at
// once without suspending. yield() lets the work already queued run first. until_done(ctx) waits
// for the context itself, as `<-ctx.Done()` does in Go:
//
//   co_await sim::until_done(ctx, loop);  // returns once ctx is cancelled or past its deadline
#ifndef KUBESIM_SIM_SLEEP_H_
#define KUBESIM_SIM_SLEEP_H_

#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/waiter.h"

namespace kubesim::sim {

class SleepAwaiter : public Waiter {
 public:
  SleepAwaiter(Loop& loop, Context ctx, Time when) : Waiter(loop, std::move(ctx)), when_(when) {}
  ~SleepAwaiter() override { loop_->cancel_timer(timer_); }

  bool await_ready() {
    if (ctx_.done()) {
      cancelled_ = true;
      return true;
    }
    return when_ <= loop_->now();
  }
  bool await_suspend(std::coroutine_handle<> h) {
    if (!arm(h)) return false;
    timer_ = loop_->add_timer(when_, &SleepAwaiter::on_timer, this);
    return true;
  }
  // True when the full time passed, false when the context was done first.
  bool await_resume() const { return !cancelled_; }

 private:
  static void on_timer(void* self) { static_cast<SleepAwaiter*>(self)->complete_inline(); }
  void detach() override { loop_->cancel_timer(timer_); }

  Time when_;
  TimerId timer_;
};

inline SleepAwaiter sleep_until(Context ctx, Loop& loop, Time when) {
  return SleepAwaiter(loop, std::move(ctx), when);
}

inline SleepAwaiter sleep_for(Context ctx, const Clock& clock, Duration d) {
  return SleepAwaiter(clock.loop(), std::move(ctx), clock.true_deadline(d));
}

inline SleepAwaiter sleep_for(Context ctx, Loop& loop, Duration d) {
  return SleepAwaiter(loop, std::move(ctx), loop.now() + d);
}

// Waits until `ctx` is done (cancelled, or its deadline passed) and returns; at once when it
// already is. A context that can never be done (background()) waits forever: the Loop goes idle.
class DoneAwaiter : public Waiter {
 public:
  DoneAwaiter(Loop& loop, Context ctx) : Waiter(loop, std::move(ctx)) {}

  bool await_ready() const { return ctx_.done(); }
  bool await_suspend(std::coroutine_handle<> h) { return arm(h); }
  void await_resume() const {}

 private:
  void detach() override {}
};

inline DoneAwaiter until_done(Context ctx, Loop& loop) { return DoneAwaiter(loop, std::move(ctx)); }

// Suspends until the work queued before it has run; time does not move.
struct YieldAwaiter {
  Loop* loop;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const { loop->post(h); }
  void await_resume() const noexcept {}
};

inline YieldAwaiter yield(Loop& loop) { return YieldAwaiter{&loop}; }

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_SLEEP_H_
