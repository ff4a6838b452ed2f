// Context: cancellation and deadlines, like Go's context.Context.
//
// A Context is a cheap handle. The default-constructed one (background()) is never done.
// with_cancel / with_deadline / with_timeout derive a child that is done when its cancel function
// is called, when its deadline passes (virtual time on the Loop it was given), or when its parent
// is done, whichever comes first; cancelling a child never affects its parent. Every sim
// awaitable takes a Context and wakes early, reporting cancellation, once it is done.
//
// Deadlines are instants on the Loop's true timeline, not on a Process's skewed clock.
// A context whose deadline has not yet passed holds a timer on that Loop and must not outlive it;
// once done (by deadline or cancel) it no longer refers to the Loop.
//
// A Process's root context carries the process's freeze gate (internal/freeze_gate.h) and every
// context derived from it inherits the gate: while the process is paused, sim awaiters waiting
// under such a context hold their coroutine's resume until the pause ends.
#ifndef KUBESIM_SIM_CONTEXT_H_
#define KUBESIM_SIM_CONTEXT_H_

#include <memory>
#include <optional>

#include "kubesim/sim/time.h"
#include "kubesim/sim/wait_list.h"

namespace kubesim::sim {

class Loop;

enum class ContextError { kNone, kCanceled, kDeadlineExceeded };

// "context canceled" / "context deadline exceeded" / "" as Go spells them.
const char* to_string(ContextError error);

namespace internal {
class FreezeGate;
// What every Context asks of its state on each wait, kept where the inline accessors below read
// it; the rest of the state (parent, deadline, timer) is ContextState's, in context.cc.
class ContextStateHead {
 public:
  ContextError err_ = ContextError::kNone;
  // Inherited from the parent; set on a Process's root.
  std::shared_ptr<FreezeGate> gate_;
  WaitList waiters_;

 protected:
  ContextStateHead() = default;
  ~ContextStateHead() = default;
};
class ContextState;
}

class Context;
struct ContextWithCancel;

namespace internal {
ContextWithCancel make_child(const Context& parent, Loop* loop, std::optional<Time> deadline);
// A cancellable child of `parent` that carries `gate` (for Process: its root context).
ContextWithCancel with_freeze_gate(const Context& parent, std::shared_ptr<FreezeGate> gate);
}

class Context {
 public:
  // The background context: never done, no deadline.
  Context() = default;
  static Context background() { return Context(); }

  bool done() const { return state_ && state_->err_ != ContextError::kNone; }
  // kNone while not done; afterwards why it is done.
  ContextError err() const { return state_ ? state_->err_ : ContextError::kNone; }
  // The earliest deadline of this context and its ancestors, if any.
  std::optional<Time> deadline() const;

  // For awaitables: links `node` so that it fires once when this context becomes done. Returns
  // false, linking nothing, when the context is already done (or can never be, for background).
  bool add_waiter(WaitNode* node) const {
    if (!state_ || state_->err_ != ContextError::kNone) return false;
    state_->waiters_.push_back(node);
    return true;
  }
  // For awaiters: the freeze gate this context carries, or nullptr.
  internal::FreezeGate* freeze_gate() const { return state_ ? state_->gate_.get() : nullptr; }

 private:
  friend class CancelFunc;
  friend ContextWithCancel internal::make_child(const Context&, Loop*, std::optional<Time>);
  friend ContextWithCancel internal::with_freeze_gate(const Context&,
                                                     std::shared_ptr<internal::FreezeGate>);
  explicit Context(std::shared_ptr<internal::ContextState> state);
  internal::ContextState* full_state() const;

  std::shared_ptr<internal::ContextStateHead> state_;
};

// Cancels the context it was made with; idempotent; keeps nothing alive but that context.
class CancelFunc {
 public:
  CancelFunc() = default;
  void operator()() const;

 private:
  friend ContextWithCancel internal::make_child(const Context&, Loop*, std::optional<Time>);
  explicit CancelFunc(std::shared_ptr<internal::ContextState> state) : state_(std::move(state)) {}
  std::shared_ptr<internal::ContextState> state_;
};

struct ContextWithCancel {
  Context ctx;
  CancelFunc cancel;
};

ContextWithCancel with_cancel(const Context& parent);
// Done at `deadline` on `loop`'s timeline (at once if it has passed).
ContextWithCancel with_deadline(const Context& parent, Loop& loop, Time deadline);
ContextWithCancel with_timeout(const Context& parent, Loop& loop, Duration timeout);

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_CONTEXT_H_
