// MultiLock migration as clusters do it: a rolling upgrade in which candidates of one step are
// replaced one by one by candidates of the next, with partitions, errors and drift throughout.
// Candidates of adjacent steps never both lead: ConfigMap-only beside MultiLock(ConfigMap,
// Lease), and that MultiLock beside Lease-only, with the MultiLock keeping its precondition on
// the secondary (kubesim's option; client-go's MultiLock has a split-brain window here).
#include "kubesim/election/annotation_lock.h"
#include "kubesim/election/multi_lock.h"
#include "tests/election/safe_region.h"

#include <gtest/gtest.h>

namespace kubesim::election::testing {
namespace {

enum class Step { kConfigMap, kMulti, kLease };

std::shared_ptr<ResourceLock> lock_for(Step step, api::Client& client, const std::string& id) {
  auto config_map = [&] { return std::make_shared<ConfigMapLock>(client, kNamespace, kLockName, ResourceLockConfig(id)); };
  auto lease = [&] { return std::make_shared<LeaseLock>(client, kNamespace, kLockName, ResourceLockConfig(id)); };
  switch (step) {
    case Step::kConfigMap: return config_map();
    case Step::kMulti: {
      // client-go's MultiLock can overwrite a Lease-only leader's acquisition (lock_test's
      // SecondaryIsReReadAndOverwrittenAsInClientGo); the migration is safe only without that.
      auto multi = std::make_shared<MultiLock>(config_map(), lease());
      multi->set_keep_secondary_precondition(true);
      return multi;
    }
    case Step::kLease: return lease();
  }
  return nullptr;
}

constexpr std::uint64_t kSeeds = 8;
constexpr Duration kRun = 5min;

// Returns the number of leaderships of new-step candidates, summed over seeds.
int rolling_upgrade(Step from, Step to) {
  int new_step_leaderships = 0;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    Scenario s = safe_scenario(500 + seed, kRun);
    s.options.candidates = 4;
    s.plan.mean_outage_gap = 24h;  // the upgrade is the only restart
    auto upgraded = std::make_shared<std::vector<bool>>(4, false);
    s.options.make_lock = [upgraded, from, to](api::Client& client, const std::string& id, int i, int) {
      return lock_for((*upgraded)[static_cast<std::size_t>(i)] ? to : from, client, id);
    };
    Cluster cl(s.options);
    schedule_faults(cl, s.plan);
    for (int i = 0; i < 4; ++i) {
      cl.at(Time{} + (i + 1) * 70s, [&cl, upgraded, i] {
        (*upgraded)[static_cast<std::size_t>(i)] = true;
        cl.candidates[static_cast<std::size_t>(i)].process->restart();
      });
    }
    cl.start_all();
    cl.loop.run_for(kRun);
    const auto violation = cl.double_leader();
    EXPECT_FALSE(violation.has_value()) << s.describe() << ": " << violation.value_or("");
    if (violation) break;
    for (const auto& iv : cl.intervals) new_step_leaderships += iv.start > Time{} + 70s * (iv.candidate + 1) ? 1 : 0;
  }
  return new_step_leaderships;
}

TEST(ElectionMigrationTest, ConfigMapToMultiLockNeverTwoLeaders) {
  EXPECT_GT(rolling_upgrade(Step::kConfigMap, Step::kMulti), static_cast<int>(kSeeds));
}

TEST(ElectionMigrationTest, MultiLockToLeaseNeverTwoLeaders) {
  EXPECT_GT(rolling_upgrade(Step::kMulti, Step::kLease), static_cast<int>(kSeeds));
}

}  // namespace
}  // namespace kubesim::election::testing
