// Event: a one-shot signal. Once set it stays set; every waiter, present and future, proceeds.
#ifndef KUBESIM_SIM_EVENT_H_
#define KUBESIM_SIM_EVENT_H_

#include "kubesim/sim/waiter.h"

namespace kubesim::sim {

class Event {
 public:
  explicit Event(Loop& loop) : loop_(&loop) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Wakes every waiter (in the order they started waiting). Idempotent.
  void set() {
    if (set_) return;
    set_ = true;
    waiters_.fire_all();
  }
  bool is_set() const { return set_; }

  class Awaiter : public ListWaiter {
   public:
    Awaiter(Event& event, Context ctx) : ListWaiter(*event.loop_, std::move(ctx)), event_(&event) {}
    bool await_ready() {
      if (event_->set_) return true;
      cancelled_ = ctx_.done();
      return cancelled_;
    }
    bool await_suspend(std::coroutine_handle<> h) {
      if (!arm(h)) return false;
      park(event_->waiters_);
      return true;
    }
    // True when the event is set, false when the context was done first.
    bool await_resume() const { return !cancelled_; }

   private:
    Event* event_;
  };

  // Waits until the event is set or `ctx` is done.
  Awaiter wait(Context ctx) { return Awaiter(*this, std::move(ctx)); }

 private:
  Loop* loop_;
  bool set_ = false;
  WaitList waiters_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_EVENT_H_
