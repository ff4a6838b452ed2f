// The election tests' harness: a fake API server and N candidate processes, each with its own
// clock, network link and in-process client, running a LeaderElector in a loop (a candidate whose
// election ends starts a new one, as a restarted pod would), plus a record of every leadership
// interval in true virtual time: from on_started_leading until the leading context is cancelled.
#ifndef KUBESIM_TESTS_ELECTION_HARNESS_H_
#define KUBESIM_TESTS_ELECTION_HARNESS_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "kubesim/election/lease_lock.h"
#include "kubesim/election/leader_elector.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"

namespace kubesim::election::testing {

using namespace std::chrono_literals;
using sim::Duration;
using sim::Time;

inline constexpr const char* kNamespace = "kube-system";
inline constexpr const char* kLockName = "controller";

// One candidate's leadership: [start, end) in true virtual time; end is unset while it lasts.
struct Interval {
  int candidate = 0;
  Time start{};
  std::optional<Time> end;
};

// Makes a candidate's lock: (client, identity, candidate index, incarnation).
using LockFactory =
    std::function<std::shared_ptr<ResourceLock>(api::Client&, const std::string&, int, int)>;

inline LockFactory lease_locks() {
  return [](api::Client& client, const std::string& identity, int, int) {
    return std::make_shared<LeaseLock>(client, kNamespace, kLockName, ResourceLockConfig{identity});
  };
}

struct ClusterOptions {
  ClusterOptions() {}
  std::uint64_t seed = 1;
  int candidates = 3;
  Duration lease_duration = 15s;
  Duration renew_deadline = 10s;
  Duration retry_period = 2s;
  bool release_on_cancel = false;
  // kubesim's release improvements (LeaderElectionConfig's cancel_before_release and
  // release_only_if_holder), both off as in client-go unless set.
  bool safe_release = false;
  Duration latency_base = 1ms;
  Duration latency_extra = 0ms;
  // How long a request waits for a partitioned link to heal before failing.
  Duration partition_timeout = 10s;
  LockFactory make_lock = lease_locks();
};

class Cluster;

struct Candidate {
  std::string identity;
  std::unique_ptr<sim::Process> process;
  std::shared_ptr<sim::NetworkLink> link;
  std::unique_ptr<fakeapi::InProcessClient> client;
  sim::CancelFunc stop;                // cleanly stops the current elector
  LeaderElector* elector = nullptr;    // the current one, while it runs
  bool running = false;                // the process runs elections (not stopped cleanly)
  std::vector<std::string> new_leaders;  // what on_new_leader reported
};

sim::Task<void> candidate_main(Cluster* cluster, int index, sim::Context ctx);
sim::Task<void> lead(Cluster* cluster, std::size_t interval, sim::Context ctx);

class Cluster {
 public:
  explicit Cluster(ClusterOptions options)
      : options_(std::move(options)), loop(loop_options(options_.seed)), server(loop) {
    candidates.reserve(static_cast<std::size_t>(options_.candidates));
    for (int i = 0; i < options_.candidates; ++i) {
      Candidate c;
      c.identity = "candidate-" + std::to_string(i);
      c.process = std::make_unique<sim::Process>(loop, c.identity);
      c.link = std::make_shared<sim::NetworkLink>(loop, options_.latency_base, options_.latency_extra);
      c.process->set_link(c.link);
      fakeapi::InProcessClientOptions client_options;
      client_options.partition_timeout = options_.partition_timeout;
      c.client = std::make_unique<fakeapi::InProcessClient>(server, *c.process, client_options);
      candidates.push_back(std::move(c));
    }
  }
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;
  ~Cluster() {
    closing_ = true;
    for (auto& c : candidates) c.process->crash();
    loop.run_for(1s);  // lets every cancelled coroutine unwind while the processes still exist
  }

  const ClusterOptions& options() const { return options_; }

  // Starts candidate i's process (its elector starts at once).
  void start(int i) {
    Cluster* self = this;
    candidates[static_cast<std::size_t>(i)].process->start(
        [self, i](sim::Context ctx) { return candidate_main(self, i, ctx); });
  }
  void start_all() {
    for (int i = 0; i < options_.candidates; ++i) start(i);
  }
  // Runs `fn` at true instant `when` (unless the cluster is being torn down by then).
  void at(Time when, std::function<void()> fn) {
    loop.add_timer(when, [this, fn = std::move(fn)] {
      if (!closing_) fn();
    });
  }
  // Restarts every process that is down or whose elector was stopped.
  void restart_stopped() {
    for (auto& c : candidates) {
      if (!c.process->alive() || !c.running) c.process->restart();
    }
  }

  LeaderElectionConfig config_for(int i, int incarnation) {
    Candidate& c = candidates[static_cast<std::size_t>(i)];
    LeaderElectionConfig config;
    config.lock = options_.make_lock(*c.client, c.identity, i, incarnation);
    config.lease_duration = options_.lease_duration;
    config.renew_deadline = options_.renew_deadline;
    config.retry_period = options_.retry_period;
    config.release_on_cancel = options_.release_on_cancel;
    config.cancel_before_release = options_.safe_release;
    config.release_only_if_holder = options_.safe_release;
    config.name = kLockName;
    Cluster* self = this;
    config.callbacks.on_started_leading = [self, i](sim::Context ctx) {
      self->intervals.push_back(Interval{i, self->loop.now(), std::nullopt});
      return lead(self, self->intervals.size() - 1, ctx);
    };
    config.callbacks.on_stopped_leading = [] {};
    config.callbacks.on_new_leader = [self, i](const std::string& id) {
      self->candidates[static_cast<std::size_t>(i)].new_leaders.push_back(id);
    };
    return config;
  }

  bool leading(int candidate) const {
    for (const auto& iv : intervals) {
      if (iv.candidate == candidate && !iv.end) return true;
    }
    return false;
  }
  // Candidates leading now.
  int leaders_now() const {
    int n = 0;
    for (const auto& iv : intervals) n += iv.end ? 0 : 1;
    return n;
  }
  // The first instant >= from at which some candidate leads, if any did by now.
  std::optional<Time> first_leading_at_or_after(Time from) const {
    std::optional<Time> best;
    for (const auto& iv : intervals) {
      if (iv.end && *iv.end <= from) continue;
      const Time t = std::max(iv.start, from);
      if (!best || t < *best) best = t;
    }
    return best;
  }
  // The first instant two candidates both lead, described, or nullopt.
  std::optional<std::string> double_leader() const {
    for (std::size_t a = 0; a < intervals.size(); ++a) {
      for (std::size_t b = a + 1; b < intervals.size(); ++b) {
        const Interval& x = intervals[a];
        const Interval& y = intervals[b];
        const Time x_end = x.end.value_or(Time::max());
        const Time y_end = y.end.value_or(Time::max());
        if (x.candidate == y.candidate || !(x.start < y_end && y.start < x_end)) continue;
        std::ostringstream out;
        out << "candidate-" << x.candidate << " leads over [" << x.start.time_since_epoch().count()
            << ", " << (x.end ? std::to_string(x.end->time_since_epoch().count()) : "now")
            << ") ns and candidate-" << y.candidate << " over [" << y.start.time_since_epoch().count()
            << ", " << (y.end ? std::to_string(y.end->time_since_epoch().count()) : "now") << ") ns";
        return out.str();
      }
    }
    return std::nullopt;
  }

 private:
  static sim::LoopOptions loop_options(std::uint64_t seed) {
    sim::LoopOptions o;
    o.seed = seed;
    return o;
  }

  ClusterOptions options_;
  bool closing_ = false;

 public:
  sim::Loop loop;
  fakeapi::ApiServer server;
  std::vector<Candidate> candidates;
  std::vector<Interval> intervals;
};

// The stored Lease's spec, or null when there is none.
inline nlohmann::json lease_spec(Cluster& cl) {
  auto got = cl.server.get(api::kLeases, kNamespace, kLockName, api::GetOptions());
  return got.ok() ? got.value()->json()["spec"] : nlohmann::json();
}

// Leads until the leading context is cancelled, then closes its interval.
inline sim::Task<void> lead(Cluster* cluster, std::size_t interval, sim::Context ctx) {
  sim::Event never(cluster->loop);
  co_await never.wait(ctx);
  cluster->intervals[interval].end = cluster->loop.now();
}

inline sim::Task<void> candidate_main(Cluster* cluster, int index, sim::Context ctx) {
  Candidate& c = cluster->candidates[static_cast<std::size_t>(index)];
  const int incarnation = c.process->incarnation();
  c.running = true;
  while (!ctx.done()) {
    auto stop = sim::with_cancel(ctx);
    c.stop = stop.cancel;
    LeaderElector elector(cluster->config_for(index, incarnation), c.process->clock(), ctx);
    c.elector = &elector;
    co_await elector.run(stop.ctx);
    if (c.elector == &elector) c.elector = nullptr;
    if (stop.ctx.done()) {
      if (!ctx.done()) c.running = false;  // stopped cleanly: the test restarts the process
      co_return;
    }
  }
}

}  // namespace kubesim::election::testing

#endif  // KUBESIM_TESTS_ELECTION_HARNESS_H_
