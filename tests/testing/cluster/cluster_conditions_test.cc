// Conditions (what each says when it does not hold), the virtual-time assertions Eventually and
// Consistently (when they check, where they leave the clock, their failure text) and always().
#include "kubesim/testing/conditions.h"

#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "kubesim/api/match.h"
#include "kubesim/api/resources.h"
#include "kubesim/scenarios/controllers.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {
namespace {

using scenarios::kWidgets;
using ::testing::HasSubstr;
using ::testing::StartsWith;

sim::Time at(sim::Duration d) { return sim::Time{} + d; }

nlohmann::json ns_config_map(const std::string& ns, const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", ns}}}};
}

// Runs `fn` on the cluster's loop at true instant `when` (a write the test makes over time).
void at_time(SimCluster& c, sim::Duration when, std::function<void()> fn) {
  c.loop().add_timer(at(when), std::move(fn));
}

// default/a and default/b; in kube-public, widget w1 (2 wanted, 1 ready) controlling o1..o3 and
// widget w2 (1 wanted, 1 ready).
void make_state(SimCluster& c) {
  c.apply(ns_config_map("default", "a"));
  c.apply(ns_config_map("default", "b"));
  auto w1 = c.apply_yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: kube-public}, "
                         "spec: {replicas: 2}}")[0];
  c.apply_yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w2, namespace: kube-public}, "
               "spec: {replicas: 1}}");
  ASSERT_TRUE(c.patch(kWidgets, "kube-public", "w1", {{"status", {{"readyReplicas", 1}}}}, "status").ok());
  ASSERT_TRUE(c.patch(kWidgets, "kube-public", "w2", {{"status", {{"readyReplicas", 1}}}}, "status").ok());
  for (const char* name : {"o1", "o2", "o3"}) {
    nlohmann::json cm = ns_config_map("kube-public", name);
    cm["metadata"]["ownerReferences"] = {{{"apiVersion", "example.com/v1"},
                                          {"kind", "Widget"},
                                          {"name", "w1"},
                                          {"uid", std::string(w1->uid())},
                                          {"controller", true}}};
    c.apply(cm);
  }
}

struct ConditionCase {
  const char* name;
  Condition condition;
  std::string description;
  std::optional<std::string> why;  // nullopt: holds
};

class ConditionTest : public ::testing::TestWithParam<ConditionCase> {};

TEST_P(ConditionTest, DescribesItselfAndSaysWhyItDoesNotHold) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  make_state(c);
  EXPECT_EQ(GetParam().condition.description, GetParam().description);
  EXPECT_EQ(GetParam().condition.check(c), GetParam().why);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ConditionTest,
    ::testing::Values(
        ConditionCase{"HoldsTrue", Holds("always true", [](const SimCluster&) { return true; }), "always true",
                      std::nullopt},
        ConditionCase{"HoldsFalse", Holds("never true", [](const SimCluster&) { return false; }), "never true",
                      "never true"},
        ConditionCase{"Exists", Exists(api::kConfigMaps, "default", "a"), "configmaps default/a exists",
                      std::nullopt},
        ConditionCase{"ExistsNot", Exists(api::kConfigMaps, "default", "zz"), "configmaps default/zz exists",
                      "configmaps default/zz does not exist"},
        ConditionCase{"ExistsUnserved", Exists(api::GroupVersionResource{"x.io", "v1", "things"}, "default", "t"),
                      "things default/t exists",
                      "things default/t: the server could not find the requested resource"},
        ConditionCase{"Gone", Gone(api::kConfigMaps, "default", "zz"), "configmaps default/zz is gone",
                      std::nullopt},
        ConditionCase{"GoneUnserved", Gone(api::GroupVersionResource{"x.io", "v1", "things"}, "default", "t"),
                      "things default/t is gone",
                      "things default/t: the server could not find the requested resource"},
        ConditionCase{"CountIs", CountIs(api::kConfigMaps, "default", 2), "2 configmaps in default", std::nullopt},
        ConditionCase{"CountIsNot", CountIs(api::kConfigMaps, "default", 3), "3 configmaps in default",
                      "2 configmaps in default (default/a, default/b), want 3"},
        ConditionCase{"CountIsAllNamespaces", CountIs(api::kConfigMaps, "", 1), "1 configmaps in all namespaces",
                      "5 configmaps in all namespaces (default/a, default/b, kube-public/o1, kube-public/o2, "
                      "kube-public/o3), want 1"},
        ConditionCase{"AllReady", AllReady(kWidgets, "status.readyReplicas", "spec.replicas"),
                      "each of the widgets has status.readyReplicas == spec.replicas",
                      "1 of 2 widgets not ready: kube-public/w1 (status.readyReplicas 1, spec.replicas 2)"},
        ConditionCase{"AllReadyAbsent", AllReady(kWidgets, "status.other", "spec.replicas"),
                      "each of the widgets has status.other == spec.replicas",
                      "2 of 2 widgets not ready: kube-public/w1 (status.other absent, spec.replicas 2), "
                      "kube-public/w2 (status.other absent, spec.replicas 1)"},
        ConditionCase{"AllReadyOfNone", AllReady(api::kLeases, "spec.a", "spec.b"),
                      "each of the leases has spec.a == spec.b", std::nullopt},
        ConditionCase{"OwnedCountAtMost", OwnedCountAtMost(kWidgets, api::kConfigMaps, "spec.replicas"),
                      "no widgets controls more configmaps than its spec.replicas",
                      "widgets kube-public/w1 controls 3 configmaps (kube-public/o1, kube-public/o2, "
                      "kube-public/o3), spec.replicas is 2"},
        ConditionCase{"OwnedCountAtMostWithoutLimit", OwnedCountAtMost(kWidgets, api::kConfigMaps, "spec.none"),
                      "no widgets controls more configmaps than its spec.none", std::nullopt},
        ConditionCase{"AtMostOneLeader", AtMostOneLeader(), "at most one leader of every lock", std::nullopt},
        ConditionCase{"ObjectMatches",
                      ObjectMatches(kWidgets, "kube-public", "w2",
                                    ::testing::Property("name", &api::Object::name, "w2")),
                      "widgets kube-public/w2 is an object whose property `name` is equal to \"w2\"", std::nullopt},
        ConditionCase{"ObjectMatchesMissing",
                      ObjectMatches(kWidgets, "kube-public", "w9", ::testing::A<const api::Object&>()),
                      "widgets kube-public/w9 is anything", "widgets kube-public/w9 does not exist"}),
    [](const auto& info) { return std::string(info.param.name); });

// A condition on a resource the server does not serve, or on a field the kind's schema does not
// have, can never be judged: it says so, and Eventually, Consistently and always() fail at once.
TEST(ConditionTest, ConditionsOnWhatDoesNotExistCanNeverBeJudged) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  make_state(c);
  const api::GroupVersionResource mistyped{"example.com", "v1", "widgetz"};
  const auto never = [&](const Condition& cond) { return cond.unjudgeable(c).value_or("(judgeable)"); };
  EXPECT_EQ(never(AllReady(mistyped, "status.readyReplicas", "spec.replicas")),
            "the API server does not serve widgetz.example.com/v1 (a typo, or a CustomResourceDefinition not installed?)");
  EXPECT_EQ(never(OwnedCountAtMost(kWidgets, api::kConfigMaps, "spec.replica")),
            "Widget's spec has no field \"replica\"; its fields: replicas");
  EXPECT_EQ(never(OwnedCountAtMost(kWidgets, api::kConfigMaps, "metadata.name")),
            "metadata.name of widgets holds a string, not an integer");
  EXPECT_EQ(never(OwnedCountAtMost(kWidgets, mistyped, "spec.replicas")),
            "the API server does not serve widgetz.example.com/v1 (a typo, or a CustomResourceDefinition not installed?)");
  EXPECT_EQ(never(AllReady(api::kLeases, "spec.a", "spec.holderIdentity")),
            "Lease's spec has no field \"a\"; its fields: acquireTime, holderIdentity, leaseDurationSeconds, "
            "leaseTransitions, preferredHolder, renewTime, strategy");
  EXPECT_EQ(never(CountIs(mistyped, "default", 0)), never(AllReady(mistyped, "a", "b")));
  EXPECT_EQ(never(Exists(mistyped, "default", "x")), never(AllReady(mistyped, "a", "b")));
  EXPECT_EQ(never(AllReady(kWidgets, "status.readyReplicas", "spec.replicas")), "(judgeable)");
  EXPECT_EQ(never(OwnedCountAtMost(kWidgets, api::kConfigMaps, "spec.replicas")), "(judgeable)");

  const sim::Time before = c.now();
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(Eventually(AllReady(mistyped, "status.readyReplicas", "spec.replicas"), 1min).MatchAndExplain(c, &listener));
  EXPECT_THAT(listener.str(), StartsWith("it can never be judged: the API server does not serve widgetz"));
  EXPECT_FALSE(Consistently(CountIs(mistyped, "default", 0), 1min).MatchAndExplain(c, &listener));
  EXPECT_EQ(c.now(), before);  // neither ran the loop
  EXPECT_THROW(c.list(mistyped), std::invalid_argument);
}

TEST(ConditionTest, ObjectMatchesSaysWhyNotAndShowsTheObject) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  make_state(c);
  const auto w2 = c.get(kWidgets, "kube-public", "w2");
  ASSERT_TRUE(w2.ok());
  const Condition cond =
      ObjectMatches(kWidgets, "kube-public", "w2", ::testing::Property("name", &api::Object::name, "w9"));
  EXPECT_EQ(cond.description, "widgets kube-public/w2 is an object whose property `name` is equal to \"w9\"");
  EXPECT_EQ(cond.check(c), "widgets kube-public/w2 does not match: whose property `name` is \"w2\"\n  the object: " +
                               api::short_json(w2.value()->json(), 400));
}

TEST(ConditionTest, GoneSaysTheObjectStillExists) {
  SimCluster c;
  auto a = c.apply(ns_config_map("default", "a"));
  EXPECT_EQ(Gone(api::kConfigMaps, "default", "a").check(c),
            "configmaps default/a still exists (resourceVersion " + std::string(a->resource_version()) + ")");
}

TEST(ConditionTest, GoneSaysAnObjectIsBeingDeletedAndItsFinalizers) {
  SimCluster c;
  nlohmann::json cm = ns_config_map("default", "a");
  cm["metadata"]["finalizers"] = {"example.com/keep"};
  c.apply(cm);
  auto deleted = c.remove(api::kConfigMaps, "default", "a");
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(Gone(api::kConfigMaps, "default", "a").check(c),
            "configmaps default/a still exists (resourceVersion " + std::string(deleted.value()->resource_version()) +
                "), being deleted since " + std::string(*deleted.value()->deletion_timestamp()) +
                ", finalizers: example.com/keep");
}

TEST(EventuallyTest, StopsAtTheWriteThatMakesItHold) {
  SimCluster c;
  at_time(c, std::chrono::milliseconds(5250), [&c] { c.apply(ns_config_map("default", "late")); });
  EXPECT_THAT(c, Eventually(Exists(api::kConfigMaps, "default", "late"), 10s));
  EXPECT_EQ(c.now(), at(std::chrono::milliseconds(5250)));
}

TEST(EventuallyTest, ChecksEvery100msWithoutWrites) {
  SimCluster c;
  const auto late = Holds("250 ms passed", [](const SimCluster& s) { return s.now() >= at(250ms); });
  EXPECT_TRUE(c.run_until(late, 1s));
  EXPECT_EQ(c.now(), at(300ms));
  EXPECT_FALSE(c.run_until(Holds("never", [](const SimCluster&) { return false; }), 2s));
  EXPECT_EQ(c.now(), at(2300ms));
}

TEST(EventuallyTest, FailureNamesTheConditionWhyAndTheContext) {
  SimCluster c(ClusterOptions().seed(7));
  const auto m = Eventually(Exists(api::kConfigMaps, "default", "never"), 2min);
  EXPECT_EQ(::testing::DescribeMatcher<const SimCluster&>(m),
            "eventually, within 2m0s of virtual time: configmaps default/never exists");
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(m.MatchAndExplain(c, &listener));
  EXPECT_THAT(listener.str(), StartsWith("it still does not hold after 2m0s (t=120.000s): configmaps default/never "
                                         "does not exist\nseed 7, t=120.000s\nlast "));
  EXPECT_EQ(c.now(), at(2min));
}

TEST(EventuallyTest, AFailedAssertionRunsTheLoopOnce) {
  SimCluster c;
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(c, Eventually(Exists(api::kConfigMaps, "default", "x"), 30s)),
                          "Expected: eventually, within 30s of virtual time: configmaps default/x exists\n"
                          "  Actual: SimCluster(seed 1, t=30.000s) (of type kubesim::testing::SimCluster), it still does not hold after 30s (t=30.000s): "
                          "configmaps default/x does not exist\nseed 1, t=30.000s");
  EXPECT_EQ(c.now(), at(30s));
}

TEST(ConsistentlyTest, RunsTheWholePeriodWhenItHolds) {
  SimCluster c;
  c.apply(ns_config_map("default", "a"));
  EXPECT_THAT(c, Consistently(Exists(api::kConfigMaps, "default", "a"), 30s));
  EXPECT_EQ(c.now(), at(30s));
}

TEST(ConsistentlyTest, FailsAtTheWriteThatBreaksIt) {
  SimCluster c;
  c.apply(ns_config_map("default", "a"));
  at_time(c, 7s, [&c] { (void)c.remove(api::kConfigMaps, "default", "a"); });
  const auto m = Consistently(Exists(api::kConfigMaps, "default", "a"), 30s);
  EXPECT_EQ(::testing::DescribeMatcher<const SimCluster&>(m),
            "consistently, for 30s of virtual time: configmaps default/a exists");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(c, m),
                          "  Actual: SimCluster(seed 1, t=7.000s) (of type kubesim::testing::SimCluster), it stopped holding at t=7.000s, 7s into 30s: "
                          "configmaps default/a does not exist\nseed 1, t=7.000s");
  EXPECT_EQ(c.now(), at(7s));
}

TEST(AlwaysTest, ReportsTheFirstBreakOnceAndCountsTheRest) {
  SimCluster c;
  c.apply(ns_config_map("default", "a"));
  c.always("a stays", Exists(api::kConfigMaps, "default", "a"));
  at_time(c, 3s, [&c] { (void)c.remove(api::kConfigMaps, "default", "a"); });
  at_time(c, 4s, [&c] { c.apply(ns_config_map("default", "a")); });
  at_time(c, 5s, [&c] { (void)c.remove(api::kConfigMaps, "default", "a"); });
  EXPECT_NONFATAL_FAILURE(c.run_for(10s),
                          "always(\"a stays\") broke: configmaps default/a does not exist\nseed 1, t=3.000s\n");
  ASSERT_EQ(c.violations().size(), 1u);
  const Violation& v = c.violations()[0];
  EXPECT_EQ(v.check, "a stays");
  EXPECT_EQ(v.why, "configmaps default/a does not exist");
  EXPECT_EQ(v.at, at(3s));
  EXPECT_THAT(v.context, StartsWith("seed 1, t=3.000s\n"));
  EXPECT_EQ(v.checks_failed, 2u);
}

TEST(AlwaysTest, IsCheckedWhenAdded) {
  SimCluster c;
  EXPECT_NONFATAL_FAILURE(c.always("b exists", Exists(api::kConfigMaps, "default", "b")),
                          "always(\"b exists\") broke: configmaps default/b does not exist\nseed 1, t=0.000s");
  EXPECT_EQ(c.violations().size(), 1u);
}

// record_always: the same check, recorded in violations() without failing the test (a failure
// would make this test fail: nothing here expects one).
TEST(AlwaysTest, RecordAlwaysRecordsWithoutFailing) {
  SimCluster c;
  c.apply(ns_config_map("default", "a"));
  c.record_always("a stays", Exists(api::kConfigMaps, "default", "a"));
  at_time(c, 3s, [&c] { (void)c.remove(api::kConfigMaps, "default", "a"); });
  c.run_for(10s);
  ASSERT_EQ(c.violations().size(), 1u);
  EXPECT_EQ(c.violations()[0].check, "a stays");
  EXPECT_EQ(c.violations()[0].why, "configmaps default/a does not exist");
  EXPECT_EQ(c.violations()[0].at, at(3s));
}

TEST(FailureContextTest, ShowsTheSeedTimeAndTheLastTraceEvents) {
  SimCluster c(ClusterOptions().seed(3).failure_tail(2));
  for (const char* name : {"a", "b", "c"}) c.apply(ns_config_map("default", name));
  c.run_for(1500ms);
  const std::string context = c.failure_context();
  EXPECT_THAT(context, StartsWith("seed 3, t=1.500s\nlast 2 trace events:\n  {"));
  EXPECT_THAT(context, HasSubstr("\"name\":\"c\""));
  EXPECT_THAT(context, ::testing::EndsWith("\nlast 0 calls:"));
  EXPECT_EQ(::testing::PrintToString(c), "SimCluster(seed 3, t=1.500s)");
}

// Deletes every ConfigMap it is told of.
sim::Task<ReconcileResult> delete_it(ReconcileContext rc, ReconcileRequest request) {
  (void)co_await rc.client().delete_(rc.ctx(), api::kConfigMaps, request.ns, request.name, api::DeleteOptions());
  co_return ReconcileResult::done();
}

// An always() broken by a controller's write: the write is not yet in the call log (a call is
// logged with its answer), so the context names the request being answered.
TEST(FailureContextTest, NamesTheRequestWhoseWriteBrokeAnAlways) {
  SimCluster c(ClusterOptions().seed(2));
  c.apply(ns_config_map("default", "a"));
  c.record_always("a stays", Exists(api::kConfigMaps, "default", "a"));
  c.run_controller("ctl", [](Manager& m) { ControllerBuilder(m).named("deleter").for_(api::kConfigMaps).reconcile(delete_it); });
  c.run_for(5s);
  ASSERT_EQ(c.violations().size(), 1u);
  const Violation& v = c.violations()[0];
  EXPECT_THAT(v.context, HasSubstr("\nbeing answered: ctl-0 delete configmaps default/a, received at ")) << v.context;
  EXPECT_GE(c.calls().count(Delete(api::kConfigMaps).by("ctl-0")), 1u);
  // Between requests nothing is being answered.
  EXPECT_THAT(c.failure_context(), ::testing::Not(HasSubstr("being answered")));
}

// A broken always() is a failure at the line that called always(), not inside the library.
TEST(ClusterAlwaysTest, FailsAtTheLineThatCalledAlways) {
  ::testing::TestPartResultArray failures;
  int line = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    SimCluster c;
    line = __LINE__ + 1;
    c.always("no config maps", CountIs(api::kConfigMaps, "default", 0));
    c.apply_yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}}");
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_EQ(std::string(failures.GetTestPartResult(0).file_name()), __FILE__);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), line);
  EXPECT_THAT(failures.GetTestPartResult(0).message(), HasSubstr("always(\"no config maps\") broke: 1 configmaps"));
}

TEST(ClusterAlwaysTest, AnAlwaysThatCanNeverBeJudgedFailsAtOnce) {
  ::testing::TestPartResultArray failures;
  int line = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
    line = __LINE__ + 1;
    c.always("never over-creates", OwnedCountAtMost(kWidgets, api::kConfigMaps, "spec.replica"));
    c.record_always("quiet", AllReady(api::GroupVersionResource{"x.io", "v1", "things"}, "a", "b"));
    EXPECT_EQ(c.violations().size(), 2u);
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), line);
  EXPECT_THAT(failures.GetTestPartResult(0).message(),
              HasSubstr("always(\"never over-creates\"): it can never be judged: Widget's spec has no field \"replica\""));
}

// A strict cluster (the default) fails checks that held over nothing: an always() whose
// subject never existed, at its line when the cluster ends; an Eventually that held at t=0 by
// absence. strict(false) lets both pass.
TEST(VacuousTest, AnAlwaysOverNothingFailsAtItsLineWhenTheClusterEnds) {
  // A subject that existed for a moment is something: not vacuous.
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    SimCluster c;
    c.always("few config maps", CountIs(api::kConfigMaps, "kube-public", 0));
    c.always("at most one leader", AtMostOneLeader());
    c.apply(ns_config_map("kube-public", "gone-soon"));
    ASSERT_TRUE(c.remove(api::kConfigMaps, "kube-public", "gone-soon").ok());
    c.run_for(1s);
  }
  // The count broke (and is not vacuous for it); no replica ever led: the leader check is vacuous.
  ASSERT_EQ(failures.size(), 2);
  EXPECT_THAT(failures.GetTestPartResult(0).message(), HasSubstr("always(\"few config maps\") broke"));
  EXPECT_THAT(failures.GetTestPartResult(1).message(), HasSubstr("always(\"at most one leader\"): it held vacuously"));

  int line = 0;
  ::testing::TestPartResultArray vacuous;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &vacuous);
    SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
    line = __LINE__ + 1;
    c.always("every widget ready", AllReady(kWidgets, "status.readyReplicas", "spec.replicas"));
    c.run_for(1s);
  }
  ASSERT_EQ(vacuous.size(), 1);
  EXPECT_EQ(vacuous.GetTestPartResult(0).line_number(), line);
  EXPECT_THAT(vacuous.GetTestPartResult(0).message(),
              HasSubstr("always(\"every widget ready\"): it held vacuously: nothing it is about (each of the widgets "
                        "has status.readyReplicas == spec.replicas) existed while the cluster ran"));

  ::testing::TestPartResultArray lenient;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &lenient);
    SimCluster c(ClusterOptions().crd(scenarios::widget_crd()).strict(false));
    c.always("every widget ready", AllReady(kWidgets, "status.readyReplicas", "spec.replicas"));
    c.run_for(1s);
  }
  EXPECT_EQ(lenient.size(), 0);
}

TEST(VacuousTest, AnEventuallyThatHeldAtZeroByAbsenceFails) {
  SimCluster c;
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(Eventually(Gone(api::kConfigMaps, "default", "never-made"), 1min).MatchAndExplain(c, &listener));
  EXPECT_THAT(listener.str(), StartsWith("it held vacuously: at once, at t=0, with nothing it is about (configmaps "
                                         "default/never-made is gone) in existence"));
  // Once something happened, or with something there, it is a real answer.
  c.apply(ns_config_map("default", "a"));
  EXPECT_THAT(c, Eventually(CountIs(api::kConfigMaps, "default", 1), 1min));
  SimCluster lenient(ClusterOptions().strict(false));
  EXPECT_THAT(lenient, Eventually(Gone(api::kConfigMaps, "default", "never-made"), 1min));
}

}  // namespace
}  // namespace kubesim::testing
