// LiveFilter: the front-door filter of a live run, for the requests of exec replicas (the
// caller's user name is the replica's name; other callers pass untouched).
//
// It notes that a replica has spoken to the server (a program that exits before that is broken,
// not crashed), delays each request by the replica's link latency (drawn from the seed, as a
// virtual run's link does), answers 503 to every request of a partitioned replica, and keeps a
// handle on each of the replica's watches so that a partition can cut them when it starts (the
// stream ends; the client watches again, and is refused while the partition lasts).
#ifndef KUBESIM_LIVE_INTERNAL_LIVE_FILTER_H_
#define KUBESIM_LIVE_INTERNAL_LIVE_FILTER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kubesim/fakeapi/filter.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/rng.h"

namespace kubesim::live {

// A watch of a replica that the filter can end; `stream` is null once the watch is gone.
struct WatchHandle {
  api::WatchStream* stream = nullptr;
};

class LiveFilter final : public fakeapi::Filter {
 public:
  struct ReplicaLink {
    scenarios::LatencySpec latency;
    const sim::NetworkLink* shadow = nullptr;  // the stand-in's link: partitioned by the timeline
    bool partitioned = false;                  // the watches were cut for the partition
    bool requested = false;  // sent at least one request
    std::vector<std::weak_ptr<WatchHandle>> watches;
  };

  explicit LiveFilter(sim::Rng rng) : rng_(rng) {}

  // Makes `replica` one of the filter's callers.
  // Makes `replica` one of the filter's callers; its requests are refused while `shadow` (the
  // link of its stand-in process, which the timeline partitions) is partitioned.
  void add(const std::string& replica, scenarios::LatencySpec latency, const sim::NetworkLink* shadow);
  ReplicaLink* find(const std::string& replica);
  // Notes a partition of the replica's link or its end; a partition ends every watch it has open.
  void set_partitioned(const std::string& replica, bool partitioned);

  Step admit(fakeapi::Request& request) override;
  void complete(const fakeapi::Request& request, fakeapi::Response& response) override;

 private:
  sim::Rng rng_;
  std::map<std::string, ReplicaLink, std::less<>> links_;
};

// The message a partitioned replica's requests are answered with (503 ServiceUnavailable).
std::string partition_message(const std::string& replica);

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_INTERNAL_LIVE_FILTER_H_
