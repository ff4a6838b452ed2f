// Safety: inside the region derived in safe_region.h, under random latency, partitions, crashes
// and restarts, clean stops, server restarts, errors on lock requests and per-process clock
// offsets and drift, no two candidates ever lead at the same instant of true time.
#include "tests/election/safe_region.h"

#include <gtest/gtest.h>

namespace kubesim::election::testing {
namespace {

constexpr std::uint64_t kSeeds = 40;
constexpr Duration kFaults = 6min;

TEST(ElectionSafetyTest, NoTwoLeadersInsideTheSafeRegion) {
  int leaderships = 0;
  int seeds_with_takeovers = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Scenario s = safe_scenario(seed, kFaults);
    Cluster cl(s.options);
    schedule_faults(cl, s.plan);
    cl.start_all();
    cl.loop.run_for(kFaults + 1min);
    const auto violation = cl.double_leader();
    ASSERT_FALSE(violation.has_value()) << s.describe() << ": " << *violation;
    leaderships += static_cast<int>(cl.intervals.size());
    seeds_with_takeovers += cl.intervals.size() > 1 ? 1 : 0;
  }
  // The faults are not idle: leadership changes hands many times.
  EXPECT_GT(seeds_with_takeovers, static_cast<int>(kSeeds) * 3 / 4);
  EXPECT_GT(leaderships, static_cast<int>(kSeeds) * 5);
  std::printf("%d leaderships over %d seeds\n", leaderships, static_cast<int>(kSeeds));
}

}  // namespace
}  // namespace kubesim::election::testing
