// The region of election configurations in which no two candidates ever lead at once, and a
// generator of configurations inside it.
//
// Notation. LD, RD, RP: lease_duration, renew_deadline, retry_period. ρ: the drift bound, every
// clock's rate stays within [1 − ρ, 1 + ρ] of true time (rates may change at any time). δ: the
// worst response delay, from the server applying a request to the caller receiving the answer;
// with the in-process client it is the link's base + extra latency plus partition_timeout (an
// answer waits at most that long for a partitioned link to heal). P: the longest pause
// (Process::pause) of a process, when pauses of one process are at least LD apart.
//
// Claim: if  LD / (1 + ρ)  >  (RP + RD) / (1 − ρ) + δ + P,  and RP ≥ 1 s, then at no instant of
// true time do two candidates both lead (from on_started_leading until the leading context is
// cancelled).
//
// 1. A leader's leadership ends at most RP + RD after it received the answer to its last
//    successful write, on its own clock: the next renewal round starts RP after that answer and
//    gives up RD after it started, cancelling its requests, which then never reach the server.
//    Timers run at rate ≥ 1 − ρ, so in true time: end_L ≤ r + (RP + RD)/(1 − ρ), where the
//    answer arrived at r ≤ c + δ and c is that write's commit. A pause stops L's timers and holds
//    the answers it waits for while true time runs: it adds its length to that span. The span
//    from c to end_L is shorter than LD, so at most one pause of L touches it (pauses are LD
//    apart): end_L ≤ c + δ + (RP + RD)/(1 − ρ) + P.
// 2. Another candidate F takes over only with a write conditional on the version it read, so
//    nothing may be written between that read and F's write. F decides only when the raw record
//    R it read has not changed for LD on F's clock since F first saw it (observed_time), and F
//    first saw it after R was committed at c_R. F's clock runs at rate ≤ 1 + ρ, so F leads
//    only after c_R + LD/(1 + ρ).
// 3. Order takeovers by commit. Between the previous holder L's takeover and F's, only L writes
//    (any other writer's write would be a takeover in between; by induction it started after L
//    stopped, and F's takeover then follows it). L cannot write after F's takeover (its version
//    is stale: 409). So R is L's last write and c_R ≥ c, hence
//        end_L ≤ c_R + δ + (RP + RD)/(1 − ρ) + P < c_R + LD/(1 + ρ) ≤ start_F.
//    A pause of F only delays F.
//    Releases need nothing more when they are written after the releaser's leadership ended and
//    only over a record naming it: kubesim's cancel_before_release and release_only_if_holder
//    (ClusterOptions::safe_release). client-go does neither (release_test.cc): its leader leads
//    on through the release's round trips, and a stale release can clear a newer holder's lock,
//    so the claim is made for release_on_cancel only with both options on. A restarted process
//    that finds its own identity as holder continues: its previous incarnation stopped leading
//    at the crash, and nobody took over (the holder would differ).
// 4. RP ≥ 1 s makes successive renewals differ in their raw form, whose times have second
//    precision (client-go's metav1.Time), so every write is seen as a change.
//
// Clock offsets and wall steps appear nowhere: a candidate only subtracts two monotonic readings
// of its own clock and never compares the record's timestamps (wall readings) with its clock, as
// in client-go, where Go's time.Time carries a monotonic reading. Drift enters through the
// (1 + ρ)/(1 − ρ) stretch (the boundary tests find drift beyond the bound; a forward wall step
// finds no second leader). A pause enters as P: the safety test draws pauses inside the bound,
// and a pause longer than the slack (about LD − RP − RD) gives two leaders whatever the
// durations (pause_test.cc, boundary_test.cc).
#ifndef KUBESIM_TESTS_ELECTION_SAFE_REGION_H_
#define KUBESIM_TESTS_ELECTION_SAFE_REGION_H_

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "tests/election/faults.h"

namespace kubesim::election::testing {

struct Scenario {
  ClusterOptions options;
  FaultPlan plan;
  Duration worst_response;  // δ

  std::string describe() const {
    std::ostringstream out;
    out << "seed=" << options.seed << " candidates=" << options.candidates
        << " LD=" << sim::to_seconds(options.lease_duration) << "s RD="
        << sim::to_seconds(options.renew_deadline) << "s RP=" << sim::to_seconds(options.retry_period)
        << "s drift=" << plan.drift << " latency=" << sim::to_seconds(options.latency_base) << "+"
        << sim::to_seconds(options.latency_extra) << "s partition_timeout="
        << sim::to_seconds(options.partition_timeout) << "s errors=" << plan.error_probability
        << " max_pause=" << sim::to_seconds(plan.max_pause) << "s";
    return out.str();
  }
};

// The smallest lease duration, in whole seconds, inside the region for the other parameters.
inline Duration min_safe_lease(Duration retry, Duration renew, Duration worst_response, double drift,
                               Duration max_pause = Duration::zero()) {
  const double bound = (1 + drift) * ((sim::to_seconds(retry + renew)) / (1 - drift) +
                                      sim::to_seconds(worst_response) + sim::to_seconds(max_pause));
  return std::chrono::seconds(static_cast<std::int64_t>(std::floor(bound + 0.001)) + 1);
}

// A random scenario inside the region: 2–7 candidates, drift up to 8 %, random latency,
// partitions, crashes, clean stops, pauses of up to 4 s (unless `pauses` is false), server
// restarts and errors for `faults` of virtual time.
inline Scenario safe_scenario(std::uint64_t seed, Duration faults, bool pauses = true) {
  sim::Rng rng(seed * 0x9E3779B97F4A7C15ULL + 7);
  Scenario s;
  ClusterOptions& o = s.options;
  o.seed = seed;
  o.candidates = static_cast<int>(rng.uniform_int(2, 7));
  o.retry_period = std::chrono::seconds(rng.uniform_int(1, 3));
  o.renew_deadline = std::chrono::duration_cast<Duration>(o.retry_period * kJitterFactor) +
                     std::chrono::milliseconds(rng.uniform_int(100, 6000));
  o.latency_base = std::chrono::milliseconds(rng.uniform_int(0, 50));
  o.latency_extra = std::chrono::milliseconds(rng.uniform_int(0, 100));
  o.partition_timeout = std::chrono::milliseconds(rng.uniform_int(500, 3000));
  o.release_on_cancel = rng.bernoulli(0.5);
  o.safe_release = o.release_on_cancel;  // see step 3 above
  s.plan.until = faults;
  s.plan.drift = 0.08 * rng.uniform_real();
  s.plan.error_probability = 0.3 * rng.uniform_real();
  s.worst_response = o.latency_base + o.latency_extra + o.partition_timeout;
  const Duration extra_lease = std::chrono::seconds(rng.uniform_int(0, 2));
  if (pauses) {  // drawn last, so that a scenario without pauses draws as before they existed
    s.plan.max_pause = std::chrono::milliseconds(rng.uniform_int(0, 4000));
    s.plan.mean_pause_gap = 90s;
  }
  o.lease_duration = min_safe_lease(o.retry_period, o.renew_deadline, s.worst_response, s.plan.drift,
                                    s.plan.max_pause) +
                     extra_lease;
  s.plan.min_pause_gap = o.lease_duration;
  return s;
}

}  // namespace kubesim::election::testing

#endif  // KUBESIM_TESTS_ELECTION_SAFE_REGION_H_
