// The boundary of the safe region is real: outside it the same harness finds an instant at which
// two candidates lead, and reports the seed that replays it.
#include "tests/election/safe_region.h"

#include <gtest/gtest.h>

namespace kubesim::election::testing {
namespace {

constexpr std::uint64_t kMaxSeeds = 20;

// client-go's defaults; partitions only, no errors or outages, so that the only way out of the
// region is the clocks.
Scenario defaults_scenario(std::uint64_t seed) {
  Scenario s;
  s.options.seed = seed;
  s.options.candidates = 3;
  s.options.latency_base = 2ms;
  s.options.latency_extra = 10ms;
  s.options.partition_timeout = 1s;
  s.plan.until = 10min;
  s.plan.mean_outage_gap = 24h;
  s.plan.mean_server_restart_gap = 24h;
  s.plan.error_probability = 0;
  s.worst_response = 13ms + 1s;
  return s;
}

// Runs seeds 1.. until one shows two leaders at once; returns that seed (0 when none did).
std::uint64_t first_double_leader(std::uint64_t seeds,
                                  const std::function<Scenario(std::uint64_t)>& make) {
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const Scenario s = make(seed);
    Cluster cl(s.options);
    schedule_faults(cl, s.plan);
    cl.start_all();
    cl.loop.run_for(s.plan.until + 1min);
    if (auto violation = cl.double_leader()) {
      std::printf("double leader with %s: %s\n", s.describe().c_str(), violation->c_str());
      return seed;
    }
  }
  return 0;
}

TEST(ElectionBoundaryTest, DefaultsAreInsideTheRegionForSmallDrift) {
  const Duration lease = min_safe_lease(2s, 10s, 13ms + 1s, 0.05);
  EXPECT_LE(lease, 15s);  // 15 s / 10 s / 2 s tolerates 5 % drift with 1 s of response delay
  EXPECT_GT(min_safe_lease(2s, 10s, 13ms + 1s, 0.15), 15s);
}

TEST(ElectionBoundaryTest, DriftBeyondTheBoundGivesTwoLeaders) {
  // ρ = 0.3: a follower running 30 % fast waits out 15 s in 11.5 s, while a leader running 30 %
  // slow leads on for up to 12 s / 0.7 = 17 s after its last renewal.
  const std::uint64_t seed = first_double_leader(kMaxSeeds, [](std::uint64_t seed) {
    Scenario s = defaults_scenario(seed);
    s.plan.drift = 0.3;
    return s;
  });
  EXPECT_NE(seed, 0u) << "no double leader within " << kMaxSeeds << " seeds";
  RecordProperty("double_leader_seed", std::to_string(seed));
}

TEST(ElectionBoundaryTest, ForwardClockStepOnAFollowerGivesTwoLeaders) {
  // No drift at all; now and then a clock jumps forward by a lease duration or more. A follower
  // whose clock jumps between two reads of the same record (the leader is cut off for a few
  // seconds, well within its renew deadline) takes over at once, while the leader keeps leading
  // until its renew deadline passes.
  const std::uint64_t seed = first_double_leader(kMaxSeeds, [](std::uint64_t seed) {
    Scenario s = defaults_scenario(seed);
    s.plan.step_min = 15s;
    s.plan.mean_step_gap = 20s;
    s.plan.max_partition = 8s;
    return s;
  });
  EXPECT_NE(seed, 0u) << "no double leader within " << kMaxSeeds << " seeds";
  RecordProperty("double_leader_seed", std::to_string(seed));
}

TEST(ElectionBoundaryTest, ConstantOffsetsAloneAreHarmless) {
  // Offsets of up to ±1 h but no drift and no steps: inside the region (15 s > 12 s + δ).
  EXPECT_EQ(first_double_leader(5, [](std::uint64_t seed) {
              Scenario s = defaults_scenario(seed);
              s.plan.max_offset = 1h;
              return s;
            }),
            0u);
}

}  // namespace
}  // namespace kubesim::election::testing
