// Process: a simulated OS process — a controller replica, an election candidate.
//
// A Process has a name, its own Clock (skew, drift, steps against true time), its own root
// Context, and optionally a NetworkLink to the API server. start(main) runs main(ctx) as
// detached work; crash() cancels the root context, so everything the process runs unwinds at its
// next await, and marks it down; restart() makes a fresh root context and runs main again, with
// the clock kept (a machine's clock survives a process restart). Crashes and restarts are
// written to the Loop's trace.
//
// pause(d) freezes the process for d of true time (a long GC pause, SIGSTOP, a stopped VM):
// none of its coroutines that wait under its context (see sim/detail/freeze_gate.h for exactly
// which waits) resumes until the pause ends; a sleep or deadline that comes due during the
// pause, and a reply to a request it has in flight, take effect only then, in the order they
// came. Its clock keeps running (both readings), so after the pause it sees the time that passed.
// A pause that starts while another lasts extends it to the later end. crash() ends a pause at
// once (the process is gone; its coroutines unwind as after any crash). Pauses and their ends are
// written to the Loop's trace. Limits: a request's way *to* the server runs in the caller's
// coroutine, so a request still crossing the link when the pause starts arrives after it; plain
// Loop callbacks the process scheduled (add_timer, post) still run.
#ifndef KUBESIM_SIM_PROCESS_H_
#define KUBESIM_SIM_PROCESS_H_

#include <functional>
#include <memory>
#include <string>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/detail/freeze_gate.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/task.h"

namespace kubesim::sim {

class Loop;

class Process {
 public:
  using Main = std::function<Task<void>(Context)>;

  Process(Loop& loop, std::string name);
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  // Cancels whatever the process still runs (ending a pause first). Its coroutines unwind later,
  // when the Loop resumes them: code that may still be running then must not use the Process
  // after a cancelled await. A Process may outlive its Loop unless it is paused.
  ~Process();

  const std::string& name() const { return name_; }
  Loop& loop() const { return *loop_; }
  Clock& clock() { return clock_; }
  const Clock& clock() const { return clock_; }
  // The root context of the current incarnation; done after crash().
  Context context() const { return ctx_.ctx; }
  bool alive() const { return alive_; }
  // Incremented by every restart; 0 for the first run.
  int incarnation() const { return incarnation_; }

  // Runs main(context()) now and again after every restart.
  void start(Main main);
  void crash();
  // Starts a new incarnation (crashing the current one first if it is alive).
  void restart();

  // Freezes the process from now until now + d (true time), or until the end of a pause already
  // under way if that is later. A non-positive d does nothing.
  void pause(Duration d);
  bool paused() const { return gate_->frozen(); }
  // The true instant the current pause ends; only meaningful while paused().
  Time paused_until() const { return paused_until_; }

  void set_link(std::shared_ptr<NetworkLink> link) { link_ = std::move(link); }
  NetworkLink* link() const { return link_.get(); }
  // The link, shared: for work that may outlive the Process (a watch's delivery).
  const std::shared_ptr<NetworkLink>& shared_link() const { return link_; }

 private:
  void launch();
  void end_pause(const char* why);
  static void on_pause_end(void* self);

  Loop* loop_;
  std::string name_;
  Clock clock_;
  // Shared with every context derived from ctx_; declared before it.
  std::shared_ptr<internal::FreezeGate> gate_ = std::make_shared<internal::FreezeGate>();
  ContextWithCancel ctx_;
  Time paused_until_{};
  TimerId pause_timer_;
  Main main_;
  bool alive_ = true;
  int incarnation_ = 0;
  std::shared_ptr<NetworkLink> link_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_PROCESS_H_
