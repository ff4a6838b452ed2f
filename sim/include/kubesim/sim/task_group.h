// TaskGroup: detached tasks that belong to an owner and are joined before it goes away
// (Seastar's gate). Failures are reported to the Loop like any spawned task's.
//
// The group's bookkeeping is shared with its tasks, so a task finishing after the TaskGroup
// object is gone is harmless; still, owners join (co_await wait()) before they are destroyed.
#ifndef KUBESIM_SIM_TASK_GROUP_H_
#define KUBESIM_SIM_TASK_GROUP_H_

#include <memory>
#include <string>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/wait_group.h"

namespace kubesim::sim {

class TaskGroup {
 public:
  explicit TaskGroup(Loop& loop) : loop_(&loop), state_(std::make_shared<State>(loop)) {}
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  // Starts `task` after the work already queued.
  void spawn(Task<void> task, std::string name = {}) {
    state_->running.add(1);
    loop_->spawn(run(state_, std::move(task)), std::move(name));
  }
  // Tasks spawned and not yet finished.
  std::int64_t size() const { return state_->running.count(); }
  // Waits until every task has finished (true) or `ctx` is done (false).
  WaitGroup::Awaiter wait(Context ctx) { return state_->running.wait(std::move(ctx)); }

 private:
  struct State {
    explicit State(Loop& loop) : running(loop) {}
    WaitGroup running;
  };
  // The group's count drops even when the task throws; the exception goes on to the Loop.
  static Task<void> run(std::shared_ptr<State> state, Task<void> task) {
    struct Done {
      State* s;
      ~Done() { s->running.done(); }
    } done{state.get()};
    co_await std::move(task);
  }

  Loop* loop_;
  std::shared_ptr<State> state_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_TASK_GROUP_H_
