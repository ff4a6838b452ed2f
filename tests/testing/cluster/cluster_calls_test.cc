// CallsAtMost and CallsPerSecond on a SimCluster: a controller in a hot loop (each update it
// makes is an event that makes it update again) breaks an always() at the call that spent the
// budget, with the pattern, the count and the last calls; Consistently stops at that call; a
// budget kept passes; one on calls its process never makes held vacuously; one on a resource
// the server does not serve can never be judged.
#include "kubesim/testing/conditions.h"

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/cluster/format.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {
namespace cluster_calls_test {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Writes every ConfigMap it is told of again, unconditionally: its own write comes back as an
// event and it writes again — the hot loop a budget catches.
sim::Task<ReconcileResult> stamp(ReconcileContext rc, ReconcileRequest request) {
  const api::ObjectPtr cached = rc.get(api::kConfigMaps, request.ns, request.name);
  if (cached == nullptr) co_return ReconcileResult::done();
  api::ObjectPtr next = cached->edited([](nlohmann::json& j) {
    j["data"]["stamp"] = j["metadata"]["resourceVersion"];
    j["metadata"].erase("resourceVersion");
  });
  auto updated = co_await rc.client().update(rc.ctx(), api::kConfigMaps, request.ns, std::move(next));
  (void)updated;
  co_return ReconcileResult::done();
}

void setup_stamper(Manager& manager) { ControllerBuilder(manager).named("stamper").for_(api::kConfigMaps).reconcile(stamp); }

void start_hot_loop(SimCluster& c) {
  c.run_controller("ctl", setup_stamper);
  c.apply_yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}}");
}

TEST(CallsConditionTest, BreakAtTheCallThatSpentTheBudget) {
  SimCluster c(ClusterOptions().seed(7));
  start_hot_loop(c);
  const CallPattern updates = Update(api::kConfigMaps).by("ctl-0");
  c.record_always("ten updates", CallsAtMost(updates, 10));
  c.record_always("twenty a second", CallsPerSecond(Update(api::kConfigMaps).by_group("ctl"), 20));
  c.run_for(2s);
  const std::vector<fakeapi::RecordedCall> made = c.calls().matching(updates);
  ASSERT_GT(made.size(), 21u);
  ASSERT_LT(made[20].answered - made[0].answered, 1s);  // a hot loop: 21 within a second
  ASSERT_EQ(c.violations().size(), 2u);
  const Violation& at_most = c.violations()[0];
  EXPECT_EQ(at_most.check, "ten updates");
  EXPECT_EQ(at_most.at, made[10].answered);  // the eleventh
  EXPECT_THAT(at_most.why, StartsWith("11 calls of update configmaps by ctl-0, at most 10 allowed; the last 5:\n  "));
  std::ostringstream eleventh;
  fakeapi::PrintTo(made[10], &eleventh);
  EXPECT_THAT(at_most.why, ::testing::EndsWith("\n  " + eleventh.str()));
  const Violation& per_second = c.violations()[1];
  EXPECT_EQ(per_second.at, made[20].answered);  // the 21st
  EXPECT_THAT(per_second.why, StartsWith("21 calls of update configmaps by any replica of ctl within one second, from " +
                                         cluster::format_instant(made[0].answered) + " to " +
                                         cluster::format_instant(made[20].answered) + ", at most 20 a second allowed; "
                                         "the last 5 of them:\n"));
  EXPECT_GT(per_second.checks_failed, 1u);  // it stays broken
}

// Runs the hot loop for a second with the checks `add` makes, their failures reported into
// `failures` instead of failing the test (a strict cluster reports vacuous checks as it ends).
void run_checked(::testing::TestPartResultArray& failures, const std::function<void(SimCluster&)>& add) {
  ::testing::ScopedFakeTestPartResultReporter reporter(::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
                                                       &failures);
  SimCluster c;
  start_hot_loop(c);
  add(c);
  c.run_for(1s);
}

TEST(CallsConditionTest, AnAlwaysNamedByItsBudgetFailsAtItsLine) {
  ::testing::TestPartResultArray failures;
  int line = 0;
  run_checked(failures, [&](SimCluster& c) {
    line = __LINE__ + 1;
    c.always(CallsAtMost(Update(api::kConfigMaps).by("ctl-0"), 3));
  });
  ASSERT_EQ(failures.size(), 1);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), line);
  EXPECT_THAT(failures.GetTestPartResult(0).message(),
              HasSubstr("always(\"at most 3 calls of update configmaps by ctl-0\") broke: 4 calls of update configmaps by "
                        "ctl-0, at most 3 allowed; the last 4:\n"));
}

TEST(CallsConditionTest, ConsistentlyStopsAtTheCallThatBrokeIt) {
  SimCluster c;
  start_hot_loop(c);
  const CallPattern updates = Update(api::kConfigMaps).by("ctl-0");
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(Consistently(CallsAtMost(updates, 5), 10s).MatchAndExplain(c, &listener));
  const std::vector<fakeapi::RecordedCall> made = c.calls().matching(updates);
  ASSERT_EQ(made.size(), 6u);  // the loop stopped at the sixth
  EXPECT_EQ(c.now(), made[5].answered);
  EXPECT_THAT(listener.str(), HasSubstr(": 6 calls of update configmaps by ctl-0, at most 5 allowed; the last 5:"));
}

// A read commits nothing: Consistently looks again after each call, not only after writes.
TEST(CallsConditionTest, ConsistentlyStopsAtAReadThatBrokeIt) {
  SimCluster c;
  c.run_controller("ctl", setup_stamper);  // no ConfigMap to write: it lists and watches
  const CallPattern reads = AnyCall(api::kConfigMaps).by("ctl-0");
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(Consistently(CallsAtMost(reads, 0), 10s).MatchAndExplain(c, &listener));
  const std::vector<fakeapi::RecordedCall> made = c.calls().matching(reads);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(c.now(), made[0].answered);
  EXPECT_EQ(c.calls().count(Writes(api::kConfigMaps)), 0u);
}

TEST(CallsConditionTest, ABudgetKeptPasses) {
  SimCluster c;
  start_hot_loop(c);
  c.always("no deletes", CallsAtMost(Delete(api::kConfigMaps).by("ctl-0"), 0));  // it lists and watches: not vacuous
  c.always("plenty", CallsPerSecond(AnyCall().by_group("ctl"), 100'000));
  EXPECT_THAT(c, Consistently(CallsAtMost(Writes(api::kSecrets), 0), 1s));
  EXPECT_TRUE(c.violations().empty());
}

TEST(CallsConditionTest, ABudgetOnCallsItsProcessNeverMakesHeldVacuously) {
  ::testing::TestPartResultArray failures;
  int line = 0;
  run_checked(failures, [&](SimCluster& c) {
    line = __LINE__ + 1;
    c.always("no secret writes", CallsAtMost(Writes(api::kSecrets).by("ctl-0"), 0));
    c.always("nothing by a process that never ran", CallsAtMost(AnyCall().by("ctl-9"), 5));
  });
  ASSERT_EQ(failures.size(), 2);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), line);
  EXPECT_THAT(failures.GetTestPartResult(0).message(),
              HasSubstr("always(\"no secret writes\"): it held vacuously: nothing it is about (at most 0 calls of any write "
                        "on secrets by ctl-0) existed while the cluster ran"));
  EXPECT_THAT(failures.GetTestPartResult(1).message(), HasSubstr("always(\"nothing by a process that never ran\"): it held vacuously"));
}

TEST(CallsConditionTest, ABudgetOnAResourceNotServedCanNeverBeJudged) {
  SimCluster c;
  const api::GroupVersionResource things{"x.io", "v1", "things"};
  c.record_always("things", CallsPerSecond(Update(things), 1));
  ASSERT_EQ(c.violations().size(), 1u);
  EXPECT_THAT(c.violations()[0].why, StartsWith("it can never be judged: the API server does not serve things.x.io/v1"));
  EXPECT_THROW(CallsAtMost(AnyCall(), -1), std::invalid_argument);
  EXPECT_THROW(CallsPerSecond(AnyCall(), -1), std::invalid_argument);
}

// A condition follows the calls of the cluster it is checked on: on a second cluster it counts
// that cluster's calls from its start, not the first one's.
TEST(CallsConditionTest, OneConditionOnTwoClustersCountsEachOnItsOwn) {
  const CallPattern updates = Update(api::kConfigMaps).by("ctl-0");
  const Condition budget = CallsAtMost(updates, 20);
  {
    SimCluster c;
    start_hot_loop(c);
    c.run_for(500ms);
    ASSERT_GT(c.calls().count(updates), 20u);
    EXPECT_TRUE(budget.check(c).has_value());
  }
  SimCluster c;
  start_hot_loop(c);
  ASSERT_TRUE(c.run_until(Holds("an update", [&](const SimCluster& s) { return s.calls().count(updates) > 0; }), 10s));
  ASSERT_LE(c.calls().count(updates), 20u);
  EXPECT_EQ(budget.check(c), std::nullopt);
  EXPECT_TRUE(budget.present(c));
}

}  // namespace cluster_calls_test
}  // namespace kubesim::testing
