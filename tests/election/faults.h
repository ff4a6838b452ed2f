// Random fault schedules for the election tests: partitions, crashes and restarts, clean stops,
// pauses (Process::pause: a GC pause, SIGSTOP), server restarts, errors injected on lock
// requests, and per-process clock offsets and drift. All
// drawn up front from a fork of the Loop's Rng, so a seed replays exactly. (The boundary test's
// forward clock step is not random: it targets a follower, see boundary_test.cc.)
#ifndef KUBESIM_TESTS_ELECTION_FAULTS_H_
#define KUBESIM_TESTS_ELECTION_FAULTS_H_

#include <string>

#include "kubesim/api/resources.h"
#include "tests/election/harness.h"

namespace kubesim::election::testing {

struct FaultPlan {
  FaultPlan() {}
  // Faults start in [0, until); a partition or an outage begun before may last past it.
  Duration until = 10min;
  Duration mean_partition_gap = 40s;
  Duration max_partition = 25s;
  Duration mean_outage_gap = 90s;  // crashes and clean stops
  Duration max_down = 30s;
  Duration mean_server_restart_gap = 120s;
  double error_probability = 0.1;  // per lock request, spread over a few error kinds
  // Clock rates are drawn from [1 - drift, 1 + drift] at the start and again every 10–120 s.
  double drift = 0;
  Duration max_offset = 1h;
  // Pauses of each process, each at most max_pause long (none when 0), separated by at least
  // min_pause_gap: safe_region.h bounds the pause time within any window shorter than the gap.
  Duration max_pause = 0s;
  Duration mean_pause_gap = 60s;
  Duration min_pause_gap = 0s;
};

namespace internal {

inline Time after_gap(Time t, Duration mean, sim::Rng& rng) {
  return t + rng.uniform_duration(1ms, 2 * mean);
}

inline void plan_partitions(Cluster& cl, const FaultPlan& plan, int i, sim::Rng& rng) {
  auto link = cl.candidates[static_cast<std::size_t>(i)].link;
  for (Time t = after_gap(Time{}, plan.mean_partition_gap, rng); t < Time{} + plan.until;) {
    const Duration length = rng.uniform_duration(100ms, plan.max_partition);
    cl.at(t, [link] { link->partition(); });
    cl.at(t + length, [link] { link->heal(); });
    t = after_gap(t + length, plan.mean_partition_gap, rng);
  }
}

inline void plan_outages(Cluster& cl, const FaultPlan& plan, int i, sim::Rng& rng) {
  Candidate* c = &cl.candidates[static_cast<std::size_t>(i)];
  for (Time t = after_gap(Time{}, plan.mean_outage_gap, rng); t < Time{} + plan.until;) {
    const Duration down = rng.uniform_duration(0ms, plan.max_down);
    if (rng.bernoulli(0.5)) {
      cl.at(t, [c] { c->process->crash(); });
    } else {
      cl.at(t, [c] { c->stop(); });
    }
    cl.at(t + down, [c] {
      if (!c->process->alive() || !c->running) c->process->restart();
    });
    t = after_gap(t + down, plan.mean_outage_gap, rng);
  }
}

inline void plan_pauses(Cluster& cl, const FaultPlan& plan, int i, sim::Rng& rng) {
  if (plan.max_pause <= Duration::zero()) return;
  sim::Process* process = cl.candidates[static_cast<std::size_t>(i)].process.get();
  for (Time t = after_gap(Time{}, plan.mean_pause_gap, rng); t < Time{} + plan.until;) {
    const Duration length = rng.uniform_duration(1ms, plan.max_pause);
    cl.at(t, [process, length] {
      if (process->alive()) process->pause(length);
    });
    t = after_gap(t + length + plan.min_pause_gap, plan.mean_pause_gap, rng);
  }
}

inline void plan_clock(Cluster& cl, const FaultPlan& plan, int i, sim::Rng& rng) {
  sim::Clock* clock = &cl.candidates[static_cast<std::size_t>(i)].process->clock();
  clock->set_offset(rng.uniform_duration(-plan.max_offset, plan.max_offset));
  auto rate = [&rng, &plan] { return 1.0 - plan.drift + 2 * plan.drift * rng.uniform_real(); };
  clock->set_rate(rate());
  if (plan.drift > 0) {
    for (Time t = Time{} + rng.uniform_duration(10s, 120s); t < Time{} + plan.until;
         t += rng.uniform_duration(10s, 120s)) {
      const double r = rate();
      cl.at(t, [clock, r] { clock->set_rate(r); });
    }
  }
}

inline void plan_errors(Cluster& cl, const FaultPlan& plan) {
  if (plan.error_probability <= 0) return;
  const api::Status statuses[] = {
      api::new_internal_error("etcdserver: request timed out"),
      api::new_too_many_requests("the server is busy", 1),
      api::new_timeout("request did not complete within the allowed duration", 1),
      api::new_conflict(api::kLeases.group_resource(), kLockName,
                        api::kOptimisticLockErrorMsg),
  };
  for (const auto& status : statuses) {
    fakeapi::FaultRule rule;
    rule.verbs = {fakeapi::Verb::kGet, fakeapi::Verb::kUpdate, fakeapi::Verb::kCreate};
    rule.probability = plan.error_probability / 4;
    rule.until = Time{} + plan.until;
    rule.effect = fakeapi::ErrorFault{status};
    cl.server.faults().add(rule);
  }
}

}  // namespace internal

// Schedules `plan` on `cl` (before its candidates start).
inline void schedule_faults(Cluster& cl, const FaultPlan& plan) {
  sim::Rng rng = cl.loop.rng().fork();
  for (int i = 0; i < cl.options().candidates; ++i) {
    internal::plan_partitions(cl, plan, i, rng);
    internal::plan_outages(cl, plan, i, rng);
    internal::plan_clock(cl, plan, i, rng);
    internal::plan_pauses(cl, plan, i, rng);
  }
  for (Time t = internal::after_gap(Time{}, plan.mean_server_restart_gap, rng);
       t < Time{} + plan.until; t = internal::after_gap(t, plan.mean_server_restart_gap, rng)) {
    cl.at(t, [&cl] { cl.server.restart(); });
  }
  internal::plan_errors(cl, plan);
}

}  // namespace kubesim::election::testing

#endif  // KUBESIM_TESTS_ELECTION_FAULTS_H_
