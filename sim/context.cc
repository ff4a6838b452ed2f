#include "kubesim/sim/context.h"

#include <utility>

#include "kubesim/sim/detail/freeze_gate.h"
#include "kubesim/sim/loop.h"

namespace kubesim::sim {
namespace internal {

class ContextState final : public ContextStateHead {
 public:
  explicit ContextState(std::shared_ptr<ContextState> parent) : parent_(std::move(parent)) {
    parent_link_.owner = this;
  }
  ~ContextState() {
    if (loop_ != nullptr) loop_->cancel_timer(timer_);
  }

  void cancel(ContextError error) {
    if (err_ != ContextError::kNone) return;
    err_ = error;
    // The timer is done with: forget the loop so that a done context may outlive it.
    if (loop_ != nullptr) std::exchange(loop_, nullptr)->cancel_timer(timer_);
    parent_link_.unlink();
    waiters_.fire_all();
  }

  struct ParentLink : WaitNode {
    ContextState* owner = nullptr;
    void fire() override { owner->cancel(owner->parent_->err_); }
  };

  std::shared_ptr<ContextState> parent_;
  std::optional<Time> deadline_;
  Loop* loop_ = nullptr;
  TimerId timer_;
  ParentLink parent_link_;
};

}  // namespace internal

using internal::ContextState;

const char* to_string(ContextError error) {
  switch (error) {
    case ContextError::kNone:
      return "";
    case ContextError::kCanceled:
      return "context canceled";
    case ContextError::kDeadlineExceeded:
      return "context deadline exceeded";
  }
  return "";
}

Context::Context(std::shared_ptr<internal::ContextState> state) : state_(std::move(state)) {}

// The state's whole: every Context's state is a ContextState.
ContextState* Context::full_state() const { return static_cast<ContextState*>(state_.get()); }

std::optional<Time> Context::deadline() const { return state_ ? full_state()->deadline_ : std::nullopt; }

void CancelFunc::operator()() const {
  if (state_) state_->cancel(ContextError::kCanceled);
}

namespace internal {

ContextWithCancel make_child(const Context& parent, Loop* loop, std::optional<Time> deadline) {
  auto state =
      std::make_shared<ContextState>(std::static_pointer_cast<ContextState>(parent.state_));
  if (parent.state_) state->gate_ = parent.state_->gate_;
  std::optional<Time> inherited = parent.deadline();
  if (inherited && (!deadline || *inherited <= *deadline)) deadline.reset();
  state->deadline_ = deadline ? deadline : inherited;
  if (parent.done()) {
    state->err_ = parent.err();
  } else if (parent.state_) {
    parent.state_->waiters_.push_back(&state->parent_link_);
  }
  if (deadline && state->err_ == ContextError::kNone) {
    if (*deadline <= loop->now()) {
      state->cancel(ContextError::kDeadlineExceeded);
    } else {
      state->loop_ = loop;
      state->timer_ = loop->add_timer(
          *deadline,
          [](void* arg) { static_cast<ContextState*>(arg)->cancel(ContextError::kDeadlineExceeded); },
          state.get());
    }
  }
  return ContextWithCancel{Context(state), CancelFunc(state)};
}

ContextWithCancel with_freeze_gate(const Context& parent, std::shared_ptr<FreezeGate> gate) {
  ContextWithCancel child = make_child(parent, nullptr, std::nullopt);
  child.ctx.state_->gate_ = std::move(gate);
  return child;
}

}  // namespace internal

using internal::make_child;

ContextWithCancel with_cancel(const Context& parent) { return make_child(parent, nullptr, std::nullopt); }

ContextWithCancel with_deadline(const Context& parent, Loop& loop, Time deadline) {
  return make_child(parent, &loop, deadline);
}

ContextWithCancel with_timeout(const Context& parent, Loop& loop, Duration timeout) {
  return make_child(parent, &loop, loop.now() + timeout);
}

}  // namespace kubesim::sim
