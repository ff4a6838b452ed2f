// Waiter and ListWaiter: the base of every sim awaiter, public so that primitives outside sim
// (workqueue's Queue) are built the same way as sim's own (Event, Channel, WaitGroup, sleeps).
//
// A Waiter holds a suspended coroutine and the Context that may cancel its wait. It guarantees
// that exactly one of "completed" and "cancelled" resumes the coroutine, once, through the Loop's
// ready queue (complete_inline() resumes at once, for a caller already running from that queue).
// While the context's freeze gate is frozen (a paused Process) that resume is held and happens
// when the pause ends. The deriving awaiter must call arm() from await_suspend, and detach() must
// undo every link to its primitive so that a cancelled wait leaves nothing behind. A Waiter lives
// in the coroutine frame; it must not be copied or outlive its wait. Single-threaded: the Loop's
// thread only.
//
// ListWaiter is a Waiter parked in a primitive's WaitList (wait_list.h): park() links it, the
// primitive pops the node and calls wake(), and cancellation unlinks it.
#ifndef KUBESIM_SIM_WAITER_H_
#define KUBESIM_SIM_WAITER_H_

#include <coroutine>

#include "kubesim/sim/context.h"
#include "kubesim/sim/detail/freeze_gate.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/wait_list.h"

namespace kubesim::sim {

class Waiter {
 public:
  Waiter(Loop& loop, Context ctx) : loop_(&loop), ctx_(std::move(ctx)) {
    cancel_node_.owner = this;
    held_node_.owner = this;
  }
  Waiter(const Waiter&) = delete;
  Waiter& operator=(const Waiter&) = delete;
  virtual ~Waiter() = default;

  bool cancelled() const { return cancelled_; }

 protected:
  // Suspends on `h`; returns false (do not suspend) when the context is already done.
  bool arm(std::coroutine_handle<> h) {
    handle_ = h;
    if (ctx_.done()) {
      cancelled_ = true;
      return false;
    }
    ctx_.add_waiter(&cancel_node_);
    return true;
  }
  // The awaited event happened: resume through the ready queue.
  void complete() {
    cancel_node_.unlink();
    if (!held()) loop_->post(handle_);
  }
  // The awaited event happened and we are already running from the ready queue.
  void complete_inline() {
    cancel_node_.unlink();
    if (!held()) handle_.resume();
  }
  // Undo whatever links the wait to its primitive; called before a cancellation resumes.
  virtual void detach() = 0;

  Loop* loop_;
  Context ctx_;
  std::coroutine_handle<> handle_;
  bool cancelled_ = false;

 private:
  // True when the resume is handed to a frozen gate, which posts it when the freeze ends.
  bool held() {
    internal::FreezeGate* gate = ctx_.freeze_gate();
    if (gate == nullptr || !gate->frozen()) return false;
    gate->hold(&held_node_);
    return true;
  }

  struct CancelNode : WaitNode {
    Waiter* owner = nullptr;
    void fire() override {
      owner->detach();
      owner->cancelled_ = true;
      if (!owner->held()) owner->loop_->post(owner->handle_);
    }
  };
  struct HeldNode : WaitNode {
    Waiter* owner = nullptr;
    void fire() override { owner->loop_->post(owner->handle_); }
  };
  CancelNode cancel_node_;
  HeldNode held_node_;
};

// A Waiter parked in a primitive's WaitList.
class ListWaiter : public Waiter {
 public:
  using Waiter::Waiter;

  // For the primitive: unlinked from its list already; resume the coroutine.
  void wake() { complete(); }

 protected:
  void detach() override { node_.unlink(); }
  void park(WaitList& list) {
    node_.owner = this;
    list.push_back(&node_);
  }

 public:
  struct Node : WaitNode {
    ListWaiter* owner = nullptr;
    void fire() override { owner->wake(); }
  };
  Node node_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_WAITER_H_
