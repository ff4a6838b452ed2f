#include "kubesim/sim/network_link.h"

namespace kubesim::sim {

NetworkLink::NetworkLink(Loop& loop, Duration base_latency, Duration extra_latency)
    : loop_(&loop), base_(base_latency), extra_(extra_latency), healed_(std::make_unique<Event>(loop)) {
  healed_->set();
}

Duration NetworkLink::sample_latency(Rng& rng) const {
  if (extra_ <= Duration::zero()) return base_;
  return base_ + rng.uniform_duration(Duration::zero(), extra_);
}

void NetworkLink::set_latency(Duration base, Duration extra) {
  base_ = base;
  extra_ = extra;
}

void NetworkLink::partition() {
  if (partitioned_) return;
  partitioned_ = true;
  // Waiters on the previous (set) event have all been released; keep that object alive until
  // now by replacing it only here.
  healed_ = std::make_unique<Event>(*loop_);
}

void NetworkLink::heal() {
  if (!partitioned_) return;
  partitioned_ = false;
  healed_->set();
}

}  // namespace kubesim::sim
