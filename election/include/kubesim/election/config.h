// LeaderElectionConfig: what a LeaderElector needs, and client-go's rules for it.
//
// The three durations are measured on the monotonic reading of the candidate's own clock:
//   lease_duration  how long a candidate waits, after it last saw the record change, before it
//                   takes the lock over (client-go's default 15 s);
//   renew_deadline  how long the leader keeps retrying a renewal before it gives up leading
//                   (10 s);
//   retry_period    the wait between attempts (2 s); acquire attempts are jittered by up to
//                   kJitterFactor · retry_period.
// validate() accepts exactly what client-go's NewLeaderElector accepts: all three positive,
// lease_duration > renew_deadline > kJitterFactor · retry_period, both required callbacks, a
// lock with a non-empty identity. What keeps two candidates from leading at once is a stronger,
// quantitative condition on these durations, the drift of the clocks and the request latency;
// tests/election/safety_test.cc derives it.
#ifndef KUBESIM_ELECTION_CONFIG_H_
#define KUBESIM_ELECTION_CONFIG_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "kubesim/election/resource_lock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/time.h"

namespace kubesim::election {

// client-go's leaderelection.JitterFactor.
inline constexpr double kJitterFactor = 1.2;

class HealthzAdaptor;

struct LeaderCallbacks {
  // Required. Called when this candidate starts leading; the returned task is spawned as
  // detached work on the Loop (as client-go starts a goroutine) and `ctx` is cancelled the
  // instant leadership ends (renewal failed, the elector's context was cancelled, or the
  // process crashed). The task should return once ctx is done. Write it as a named coroutine;
  // the callback itself must not be a capturing-lambda coroutine.
  std::function<sim::Task<void>(sim::Context ctx)> on_started_leading{};
  // Required. Called once when run() ends, whether or not this candidate ever led.
  std::function<void()> on_stopped_leading{};
  // Optional. Called with the holder's identity each time the observed holder changes,
  // including the first holder seen ("" when the lock is released).
  std::function<void(const std::string& identity)> on_new_leader{};
};

struct LeaderElectionConfig {
  std::shared_ptr<ResourceLock> lock{};
  sim::Duration lease_duration = std::chrono::seconds(15);
  sim::Duration renew_deadline = std::chrono::seconds(10);
  sim::Duration retry_period = std::chrono::seconds(2);
  LeaderCallbacks callbacks{};
  // Optional health check, tied to the elector by run_or_die().
  std::shared_ptr<HealthzAdaptor> watchdog{};
  // When the elector's context is cancelled (or renewal fails), clear the holder so another
  // candidate can take over at once instead of waiting out the lease.
  bool release_on_cancel = false;
  // Off by default, as client-go does it: the release is written first and the leading context
  // cancelled after it, so leader work overlaps the released lock (client-go's Run and renew).
  // On: leadership ends before the release is written. Matters only with release_on_cancel.
  bool cancel_before_release = false;
  // Off by default, as client-go's tryRelease: the release is written when the last observed
  // record names this candidate, over the version just read, even if that read names another
  // holder. On: only when the fresh read still names this candidate.
  bool release_only_if_holder = false;
  // The lock's name for messages and traces.
  std::string name{};
};

// The first rule `config` breaks, in client-go's words and order, or nullopt when it is valid.
std::optional<std::string> validate(const LeaderElectionConfig& config);

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_CONFIG_H_
