#include "kubesim/sim/process.h"

#include <nlohmann/json.hpp>

#include "kubesim/sim/loop.h"

namespace kubesim::sim {

Process::Process(Loop& loop, std::string name)
    : loop_(&loop),
      name_(std::move(name)),
      clock_(loop),
      ctx_(internal::with_freeze_gate(Context::background(), gate_)) {}

Process::~Process() {
  if (paused()) {
    loop_->cancel_timer(pause_timer_);
    gate_->thaw();
  }
  ctx_.cancel();
}

void Process::start(Main main) {
  main_ = std::move(main);
  launch();
}

void Process::launch() {
  alive_ = true;
  if (main_) loop_->spawn(main_(ctx_.ctx), name_);
}

void Process::crash() {
  if (!alive_) return;
  alive_ = false;
  if (paused()) end_pause("crash");
  ctx_.cancel();
  loop_->trace().record(loop_->now(), name_, "process.crash", {{"incarnation", incarnation_}});
}

void Process::restart() {
  crash();
  ctx_ = internal::with_freeze_gate(Context::background(), gate_);
  ++incarnation_;
  loop_->trace().record(loop_->now(), name_, "process.restart", {{"incarnation", incarnation_}});
  launch();
}

void Process::pause(Duration d) {
  if (d <= Duration::zero()) return;
  const Time until = loop_->now() + d;
  if (paused() && until <= paused_until_) return;
  loop_->cancel_timer(pause_timer_);
  gate_->freeze();
  paused_until_ = until;
  pause_timer_ = loop_->add_timer(until, &Process::on_pause_end, this);
  loop_->trace().record(loop_->now(), name_, "process.pause",
                        {{"until", until.time_since_epoch().count()}});
}

void Process::on_pause_end(void* self) { static_cast<Process*>(self)->end_pause("elapsed"); }

void Process::end_pause(const char* why) {
  loop_->cancel_timer(pause_timer_);
  gate_->thaw();
  loop_->trace().record(loop_->now(), name_, "process.pause_end", {{"why", why}});
}

}  // namespace kubesim::sim
