// LeaderElector: client-go's leader election over any api::Client, on a process's own clock.
//
// Matches client-go's tools/leaderelection at master 32ce75a7 (July 2026, after v0.36.3; its
// tryRelease, which retries a release on 409 Conflict, is not in a release yet).
//
// run() loops acquire → lead → renew, as client-go's LeaderElector.Run:
// - acquire: every retry_period, jittered by up to kJitterFactor (drawn from the Loop's seeded
//   Rng), try_acquire_or_renew() until it succeeds or the context is done.
// - lead: on_started_leading's task is spawned with a leading context.
// - renew: retry_period after each successful renewal, a new round retries every retry_period
//   (on a fixed ticker) for at most renew_deadline; a round that does not succeed in time ends
//   leadership. Then, with release_on_cancel, the record is released (client-go's renew), and
//   only then is the leading context cancelled (client-go's Run, in a deferred call), so leader
//   work overlaps the released lock for the release's round trips; on_stopped_leading runs
//   last. When run's own context is done, the leading context (its child) is done at once.
//
// try_acquire_or_renew() is client-go's tryAcquireOrRenew: the leader first writes over the
// version it last wrote (fast path); otherwise the record is read (created when missing). A
// candidate remembers the record's raw form and the instant, on its clock's monotonic reading,
// it first saw that raw form; the lock is taken over only when that raw form has stayed the same
// for the record's leaseDurationSeconds, or when the holder is empty or is this candidate.
// Writes are conditional on the resourceVersion read, so of racing candidates only the first
// write wins. Taking the lock from another holder increments leaderTransitions. The record's
// renewTime and acquireTime are the wall reading and are never compared with any clock, so
// clock offsets and wall steps are harmless (as Go's monotonic readings make them in
// client-go); clock *rates* (drift) are not, nor are pauses of the process (Process::pause):
// a leader frozen past its lease resumes still leading, for up to a renewal round.
//
// The release (client-go's tryRelease) reads the record and, when the last *observation* names
// this candidate, writes an empty holder over the version just read, retrying on 409 Conflict
// (5 attempts at most, where client-go retries until its timeout). So a leader stopped before it
// noticed a takeover clears the lock the other candidate now holds.
//
// Improvements over client-go, each off by default (LeaderElectionConfig) and each hiding a
// hazard of real client-go:
// - cancel_before_release: the leading context is cancelled before the release is written,
//   hiding leader work that runs on over a released lock.
// - release_only_if_holder: the release is written only when the fresh read still names this
//   candidate, hiding the release that clears another candidate's lock (after which a third can
//   take it while the second still leads).
// Differences that stay: a crashed process (its lifetime context done) does not release (a
// crash runs no code). Not ported: coordinated leader election and event recording
// (transitions go to the Loop's trace instead).
//
// The elector must outlive run(). Everything runs on the Loop's thread.
#ifndef KUBESIM_ELECTION_LEADER_ELECTOR_H_
#define KUBESIM_ELECTION_LEADER_ELECTOR_H_

#include <optional>
#include <string>

#include "kubesim/election/config.h"
#include "kubesim/election/record.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task.h"

namespace kubesim::election {

class LeaderElector {
 public:
  // Throws std::invalid_argument with validate()'s message when `config` is invalid. `clock` is
  // the candidate's clock and must outlive the elector. `lifetime` is the context of the
  // candidate's process: once it is done (a crash) nothing more is written, not even a release.
  LeaderElector(LeaderElectionConfig config, const sim::Clock& clock,
                sim::Context lifetime = sim::Context());
  // The clock and lifetime of `process`'s current incarnation.
  LeaderElector(LeaderElectionConfig config, sim::Process& process);
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;
  ~LeaderElector();

  // Runs the election until ctx is done or leadership is lost (see above). Call it once at a time.
  sim::Task<void> run(sim::Context ctx);

  // Whether the last observed record names this candidate. Informational: a leader learns it
  // has lost the lock only when a renewal fails, so is_leader() can be true for a short while
  // after another candidate has taken over. The leading context is the authority.
  bool is_leader() const;
  // The holder of the last observed record; "" before any was observed.
  const std::string& get_leader() const { return observed_record_.holder_identity; }
  const LeaderElectionRecord& observed_record() const { return observed_record_; }
  // When observed_record() was set: the monotonic reading of this candidate's clock.
  sim::Time observed_time() const { return observed_time_; }
  const LeaderElectionConfig& config() const { return config_; }

  // The health check (client-go's Check): an error when this candidate holds the lock but has
  // not renewed it for longer than lease_duration + max_tolerable_expired_lease, on its clock.
  std::optional<std::string> check(sim::Duration max_tolerable_expired_lease) const;

  // One attempt to take or renew the lock (client-go's tryAcquireOrRenew); true on success.
  sim::Task<bool> try_acquire_or_renew(sim::Context ctx);

 private:
  friend class HealthzAdaptor;

  void stop_leading(const sim::CancelFunc& cancel_leading);
  sim::Task<bool> acquire(sim::Context ctx);
  sim::Task<void> acquire_attempt(sim::Context ctx, bool* succeeded, sim::CancelFunc done);
  sim::Task<void> renew(sim::Context ctx);
  sim::Task<void> renew_round(sim::Context ctx, sim::CancelFunc stop_renewing);
  sim::Task<void> renew_attempt(sim::Context ctx, bool* renewed, sim::CancelFunc done);
  sim::Task<void> release();
  sim::Task<bool> try_release(sim::Context ctx);
  bool is_lease_valid(sim::Time now) const;
  void set_observed_record(const LeaderElectionRecord& record);
  void maybe_report_transition();
  LeaderElectionRecord new_record(sim::Time now) const;
  void trace(std::string_view kind) const;

  LeaderElectionConfig config_;
  const sim::Clock* clock_;
  sim::Context lifetime_;
  LeaderElectionRecord observed_record_;
  std::string observed_raw_;
  sim::Time observed_time_{};
  // The holder last reported to on_new_leader; lags observed_record_ until reported.
  std::string reported_leader_;
  HealthzAdaptor* watchdog_ = nullptr;  // set while a watchdog points at this elector
};

// client-go's RunOrDie: validates (throwing std::invalid_argument), ties config.watchdog to the
// elector, and runs it. The elector lives for the duration of the call.
sim::Task<void> run_or_die(sim::Context ctx, LeaderElectionConfig config, const sim::Clock* clock,
                           sim::Context lifetime = sim::Context());

}  // namespace kubesim::election

#endif  // KUBESIM_ELECTION_LEADER_ELECTOR_H_
