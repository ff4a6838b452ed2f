// WaitGroup: waits for a counted set of activities to finish, like Go's sync.WaitGroup.
#ifndef KUBESIM_SIM_WAIT_GROUP_H_
#define KUBESIM_SIM_WAIT_GROUP_H_

#include <cassert>
#include <cstdint>

#include "kubesim/sim/waiter.h"

namespace kubesim::sim {

class WaitGroup {
 public:
  explicit WaitGroup(Loop& loop) : loop_(&loop) {}
  WaitGroup(const WaitGroup&) = delete;
  WaitGroup& operator=(const WaitGroup&) = delete;

  // Adds `n` (may be negative) to the counter; waiters wake when it reaches zero. The counter
  // must never go below zero.
  void add(std::int64_t n) {
    count_ += n;
    assert(count_ >= 0 && "WaitGroup counter went negative");
    if (count_ == 0) waiters_.fire_all();
  }
  void done() { add(-1); }
  std::int64_t count() const { return count_; }

  class Awaiter : public ListWaiter {
   public:
    Awaiter(WaitGroup& group, Context ctx) : ListWaiter(*group.loop_, std::move(ctx)), group_(&group) {}
    bool await_ready() {
      if (group_->count_ == 0) return true;
      cancelled_ = ctx_.done();
      return cancelled_;
    }
    bool await_suspend(std::coroutine_handle<> h) {
      if (!arm(h)) return false;
      park(group_->waiters_);
      return true;
    }
    // True when the counter reached zero, false when the context was done first.
    bool await_resume() const { return !cancelled_; }

   private:
    WaitGroup* group_;
  };

  Awaiter wait(Context ctx) { return Awaiter(*this, std::move(ctx)); }

 private:
  Loop* loop_;
  std::int64_t count_ = 0;
  WaitList waiters_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_WAIT_GROUP_H_
