// Process: a simulated OS process — a controller replica, an election candidate.
//
// A Process has a name, its own Clock (skew, drift, steps against true time), its own root
// Context, and optionally a NetworkLink to the API server. start(main) runs main(ctx) as
// detached work; crash() cancels the root context, so everything the process runs unwinds at its
// next await, and marks it down; restart() makes a fresh root context and runs main again, with
// the clock kept (a machine's clock survives a process restart). Crashes and restarts are
// written to the Loop's trace.
#ifndef KUBESIM_SIM_PROCESS_H_
#define KUBESIM_SIM_PROCESS_H_

#include <functional>
#include <memory>
#include <string>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
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
  // Cancels whatever the process still runs. Its coroutines unwind later, when the Loop resumes
  // them: code that may still be running then must not use the Process after a cancelled await.
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

  void set_link(std::shared_ptr<NetworkLink> link) { link_ = std::move(link); }
  NetworkLink* link() const { return link_.get(); }
  // The link, shared: for work that may outlive the Process (a watch's delivery).
  const std::shared_ptr<NetworkLink>& shared_link() const { return link_; }

 private:
  void launch();

  Loop* loop_;
  std::string name_;
  Clock clock_;
  ContextWithCancel ctx_;
  Main main_;
  bool alive_ = true;
  int incarnation_ = 0;
  std::shared_ptr<NetworkLink> link_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_PROCESS_H_
