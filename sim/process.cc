#include "kubesim/sim/process.h"

#include "kubesim/sim/loop.h"

namespace kubesim::sim {

Process::Process(Loop& loop, std::string name)
    : loop_(&loop), name_(std::move(name)), clock_(loop), ctx_(with_cancel(Context::background())) {}

Process::~Process() { ctx_.cancel(); }

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
  ctx_.cancel();
  loop_->trace().record(loop_->now(), name_, "process.crash", {{"incarnation", incarnation_}});
}

void Process::restart() {
  crash();
  ctx_ = with_cancel(Context::background());
  ++incarnation_;
  loop_->trace().record(loop_->now(), name_, "process.restart", {{"incarnation", incarnation_}});
  launch();
}

}  // namespace kubesim::sim
