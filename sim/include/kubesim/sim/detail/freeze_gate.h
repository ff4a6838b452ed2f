// FreezeGate: what makes a paused process's coroutines stand still.
//
// A Process owns one gate; its root context carries it and every context derived from that root
// inherits it. While the gate is frozen, a sim awaiter (sim::Waiter: sleeps, channels,
// events, wait groups, queues) whose context carries the gate does not resume its coroutine when
// its wait completes or is cancelled: the resume is held. thaw() resumes the held coroutines
// through the Loop's ready queue in the order they were held, so a pause changes when code runs,
// never the order in which it would have run. Not held: resumes already in the Loop's ready
// queue when the freeze starts, plain Loop callbacks (add_timer, post), the first run of a
// spawned task, yield(), and waits on contexts not derived from the process's root (the
// background context included). Single-threaded: the Loop's thread only.
#ifndef KUBESIM_SIM_DETAIL_FREEZE_GATE_H_
#define KUBESIM_SIM_DETAIL_FREEZE_GATE_H_

#include "kubesim/sim/wait_list.h"

namespace kubesim::sim::internal {

class FreezeGate {
 public:
  FreezeGate() = default;
  FreezeGate(const FreezeGate&) = delete;
  FreezeGate& operator=(const FreezeGate&) = delete;

  bool frozen() const { return frozen_; }
  void freeze() { frozen_ = true; }
  // Ends the freeze and fires every held node, oldest first.
  void thaw() {
    frozen_ = false;
    held_.fire_all();
  }
  // For Waiter: `node` fires at thaw(). Only while frozen.
  void hold(WaitNode* node) { held_.push_back(node); }

 private:
  bool frozen_ = false;
  WaitList held_;
};

}  // namespace kubesim::sim::internal

#endif  // KUBESIM_SIM_DETAIL_FREEZE_GATE_H_
