#include "kubesim/election/leader_elector.h"

#include <stdexcept>

#include "kubesim/api/status.h"
#include "kubesim/election/healthz.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/wait.h"

namespace kubesim::election {
namespace {

// A release retries when a renewal that was in flight as leadership ended lands first; past a
// few such conflicts somebody else is writing and there is nothing left to release.
constexpr int kMaxReleaseAttempts = 5;

LeaderElectionConfig validated(LeaderElectionConfig config) {
  if (auto error = validate(config)) {
    throw std::invalid_argument("invalid leader election config: " + *error);
  }
  return config;
}

}  // namespace

LeaderElector::LeaderElector(LeaderElectionConfig config, const sim::Clock& clock,
                             sim::Context lifetime)
    : config_(validated(std::move(config))), clock_(&clock), lifetime_(std::move(lifetime)) {}

LeaderElector::LeaderElector(LeaderElectionConfig config, sim::Process& process)
    : LeaderElector(std::move(config), process.clock(), process.context()) {}

LeaderElector::~LeaderElector() {
  if (watchdog_ != nullptr) watchdog_->set_leader_election(nullptr);
}

sim::Task<void> LeaderElector::run(sim::Context ctx) {
  const bool acquired = co_await acquire(ctx);
  if (acquired) {
    auto leading = sim::with_cancel(ctx);
    trace("election.started_leading");
    clock_->loop().spawn(config_.callbacks.on_started_leading(leading.ctx), "on_started_leading");
    co_await renew(leading.ctx);
    // client-go's Run cancels the leading context in a deferred call, after renew has released.
    if (config_.cancel_before_release) stop_leading(leading.cancel);
    if (config_.release_on_cancel && !lifetime_.done()) co_await release();
    if (!config_.cancel_before_release) stop_leading(leading.cancel);
  }
  config_.callbacks.on_stopped_leading();
}

void LeaderElector::stop_leading(const sim::CancelFunc& cancel_leading) {
  cancel_leading();
  trace("election.stopped_leading");
}

sim::Task<bool> LeaderElector::acquire(sim::Context ctx) {
  auto acquiring = sim::with_cancel(ctx);
  bool succeeded = false;
  sim::AsyncFn attempt = [this, c = acquiring.ctx, s = &succeeded, done = acquiring.cancel] {
    return acquire_attempt(c, s, done);
  };
  co_await sim::jitter_until(acquiring.ctx, clock_, std::move(attempt), config_.retry_period,
                             kJitterFactor, /*sliding=*/true);
  co_return succeeded;
}

sim::Task<void> LeaderElector::acquire_attempt(sim::Context ctx, bool* succeeded,
                                               sim::CancelFunc done) {
  const bool ok = co_await try_acquire_or_renew(ctx);
  maybe_report_transition();
  if (!ok) co_return;
  *succeeded = true;
  trace("election.acquired");
  done();
}

sim::Task<void> LeaderElector::renew(sim::Context ctx) {
  auto renewing = sim::with_cancel(ctx);
  sim::AsyncFn round = [this, c = renewing.ctx, stop = renewing.cancel] { return renew_round(c, stop); };
  co_await sim::until(renewing.ctx, clock_, config_.retry_period, std::move(round));
}

// client-go's PollUntilContextTimeout(retry_period, renew_deadline, immediate): attempts on a
// fixed ticker until one succeeds or the deadline, measured on this clock, passes.
sim::Task<void> LeaderElector::renew_round(sim::Context ctx, sim::CancelFunc stop_renewing) {
  auto deadline =
      sim::with_deadline(ctx, clock_->loop(), clock_->true_deadline(config_.renew_deadline));
  auto polling = sim::with_cancel(deadline.ctx);
  bool renewed = false;
  sim::AsyncFn attempt = [this, c = polling.ctx, r = &renewed, done = polling.cancel] {
    return renew_attempt(c, r, done);
  };
  co_await sim::jitter_until(polling.ctx, clock_, std::move(attempt), config_.retry_period, 0.0,
                             /*sliding=*/false);
  deadline.cancel();
  maybe_report_transition();
  if (renewed) co_return;
  trace("election.renew_failed");
  stop_renewing();
}

sim::Task<void> LeaderElector::renew_attempt(sim::Context ctx, bool* renewed, sim::CancelFunc done) {
  const bool ok = co_await try_acquire_or_renew(ctx);
  if (!ok) co_return;
  *renewed = true;
  done();
}

sim::Task<bool> LeaderElector::try_acquire_or_renew(sim::Context ctx) {
  const sim::Time now = clock_->now();
  LeaderElectionRecord record = new_record(clock_->wall_now());

  // 1. Fast path: the leader writes over the version it last wrote.
  if (is_leader() && is_lease_valid(now)) {
    record.acquire_time = observed_record_.acquire_time;
    record.leader_transitions = observed_record_.leader_transitions;
    auto updated = co_await config_.lock->update(ctx, record);
    if (updated.ok()) {
      set_observed_record(record);
      co_return true;
    }
  }

  // 2. Read the record, or create it.
  auto got = co_await config_.lock->get(ctx);
  if (!got.ok()) {
    if (!api::is_not_found(got.status())) co_return false;
    auto created = co_await config_.lock->create(ctx, record);
    if (!created.ok()) co_return false;
    set_observed_record(record);
    co_return true;
  }

  // 3. A changed record restarts the lease on this clock.
  if (observed_raw_ != got->raw) {
    set_observed_record(got->record);
    observed_raw_ = got->raw;
  }
  if (!got->record.holder_identity.empty() && is_lease_valid(now) && !is_leader()) co_return false;

  // 4. Take over or renew, conditional on the version read.
  if (is_leader()) {
    record.acquire_time = got->record.acquire_time;
    record.leader_transitions = got->record.leader_transitions;
  } else {
    record.leader_transitions = got->record.leader_transitions + 1;
  }
  auto updated = co_await config_.lock->update(ctx, record);
  if (!updated.ok()) co_return false;
  set_observed_record(record);
  co_return true;
}

sim::Task<void> LeaderElector::release() {
  auto timeout = sim::with_deadline(lifetime_, clock_->loop(),
                                    clock_->true_deadline(config_.renew_deadline));
  const bool released = co_await try_release(timeout.ctx);
  timeout.cancel();
  if (released) trace("election.released");
}

sim::Task<bool> LeaderElector::try_release(sim::Context ctx) {
  for (int attempt = 0; attempt < kMaxReleaseAttempts; ++attempt) {
    auto got = co_await config_.lock->get(ctx);
    if (!got.ok()) co_return false;
    // client-go's tryRelease trusts its last observation; the fresh read counts only on request.
    if (!is_leader()) co_return true;
    if (config_.release_only_if_holder && got->record.holder_identity != config_.lock->identity()) {
      co_return true;
    }
    const sim::Time now = clock_->wall_now();
    LeaderElectionRecord record;
    record.lease_duration_seconds = 1;
    record.acquire_time = now;
    record.renew_time = now;
    record.leader_transitions = got->record.leader_transitions;
    auto updated = co_await config_.lock->update(ctx, record);
    if (updated.ok()) {
      set_observed_record(record);
      co_return true;
    }
    if (!api::is_conflict(updated.status())) co_return false;
  }
  co_return false;
}

bool LeaderElector::is_leader() const {
  return observed_record_.holder_identity == config_.lock->identity();
}

bool LeaderElector::is_lease_valid(sim::Time now) const {
  return observed_time_ + std::chrono::seconds(observed_record_.lease_duration_seconds) > now;
}

void LeaderElector::set_observed_record(const LeaderElectionRecord& record) {
  observed_record_ = record;
  observed_time_ = clock_->now();
}

void LeaderElector::maybe_report_transition() {
  if (observed_record_.holder_identity == reported_leader_) return;
  reported_leader_ = observed_record_.holder_identity;
  trace("election.new_leader");
  if (config_.callbacks.on_new_leader) config_.callbacks.on_new_leader(reported_leader_);
}

LeaderElectionRecord LeaderElector::new_record(sim::Time now) const {
  LeaderElectionRecord record;
  record.holder_identity = config_.lock->identity();
  record.lease_duration_seconds = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count());
  record.acquire_time = now;
  record.renew_time = now;
  return record;
}

std::optional<std::string> LeaderElector::check(sim::Duration max_tolerable_expired_lease) const {
  if (!is_leader()) return std::nullopt;
  if (clock_->now() - observed_time_ > config_.lease_duration + max_tolerable_expired_lease) {
    return "failed election to renew leadership on lease " + config_.name;
  }
  return std::nullopt;
}

void LeaderElector::trace(std::string_view kind) const {
  sim::Loop& loop = clock_->loop();
  if (!loop.trace().enabled()) return;
  loop.trace().record(loop.now(), config_.lock->identity(), kind,
                      {{"lock", config_.lock->describe()}, {"leader", observed_record_.holder_identity}});
}

sim::Task<void> run_or_die(sim::Context ctx, LeaderElectionConfig config, const sim::Clock* clock,
                           sim::Context lifetime) {
  LeaderElector elector(std::move(config), *clock, std::move(lifetime));
  if (elector.config().watchdog) elector.config().watchdog->set_leader_election(&elector);
  co_await elector.run(std::move(ctx));
}

}  // namespace kubesim::election
