// NetworkLink: the simulated connection between a Process and a server.
//
// A link has a one-way latency (a base plus a uniform extra drawn from the Loop's Rng) and can
// be partitioned. The link only describes the network; the server side (fakeapi) decides what a
// partition does to requests and watches, and waits on healed() to resume.
#ifndef KUBESIM_SIM_NETWORK_LINK_H_
#define KUBESIM_SIM_NETWORK_LINK_H_

#include <memory>

#include "kubesim/sim/event.h"
#include "kubesim/sim/rng.h"
#include "kubesim/sim/time.h"

namespace kubesim::sim {

class NetworkLink {
 public:
  explicit NetworkLink(Loop& loop, Duration base_latency = Duration::zero(),
                       Duration extra_latency = Duration::zero());

  // One crossing's latency: base + uniform [0, extra).
  Duration sample_latency(Rng& rng) const;
  void set_latency(Duration base, Duration extra);
  Duration base_latency() const { return base_; }
  Duration extra_latency() const { return extra_; }

  bool partitioned() const { return partitioned_; }
  void partition();
  void heal();
  // Set when the current partition heals (a fresh Event for each partition).
  Event& healed() { return *healed_; }

 private:
  Loop* loop_;
  Duration base_;
  Duration extra_;
  bool partitioned_ = false;
  std::unique_ptr<Event> healed_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_NETWORK_LINK_H_
