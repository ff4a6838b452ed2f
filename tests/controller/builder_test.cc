// ControllerBuilder's and Manager's refusals with their exact messages, ReconcileRequest keys,
// ReconcileResult::fail(Status), owner_reference(), and reads of an undeclared resource.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "fixture.h"
#include "kubesim/api/status.h"
#include "kubesim/controller/builder.h"

namespace kubesim::controller {
namespace {

using namespace controller_test;  // NOLINT: the fixture, its helpers and chrono literals

// --- keys ---

struct KeyCase {
  std::string key;
  std::optional<ReconcileRequest> request;
};

class KeyCases : public ::testing::TestWithParam<KeyCase> {};

TEST_P(KeyCases, ParseAndPrint) {
  const KeyCase& c = GetParam();
  EXPECT_EQ(ReconcileRequest::from_key(c.key), c.request);
  if (c.request) {
    EXPECT_EQ(c.request->key(), c.key);
  }
}

INSTANTIATE_TEST_SUITE_P(All, KeyCases,
                         ::testing::Values(KeyCase{"shop/w1", ReconcileRequest{"shop", "w1"}},
                                           KeyCase{"node-1", ReconcileRequest{"", "node-1"}},
                                           KeyCase{"a/b/c", std::nullopt}, KeyCase{"//", std::nullopt}));

TEST(ReconcileResultTest, FailWithAStatusSaysItsCodeReasonAndMessage) {
  const ReconcileResult r = ReconcileResult::fail(api::new_conflict({"", "configmaps"}, "w-0", "try again"));
  EXPECT_EQ(r.kind, ReconcileResult::Kind::kError);
  EXPECT_EQ(r.error, "409 Conflict: Operation cannot be fulfilled on configmaps \"w-0\": try again");
}

TEST(OwnerReferenceTest, IsAControllerReference) {
  auto owner = api::make_object({{"apiVersion", "example.com/v1"},
                                 {"kind", "Widget"},
                                 {"metadata", {{"name", "w1"}, {"namespace", "shop"}, {"uid", "u-1"}}}});
  EXPECT_EQ(owner_reference(*owner), (nlohmann::json{{"apiVersion", "example.com/v1"},
                                                     {"kind", "Widget"},
                                                     {"name", "w1"},
                                                     {"uid", "u-1"},
                                                     {"controller", true},
                                                     {"blockOwnerDeletion", true}}));
}

// --- refusals ---

struct RefusalCase {
  std::string name;
  std::function<void(Manager&)> build;
  std::string message;
};

class RefusalCases : public ::testing::TestWithParam<RefusalCase> {};

TEST_P(RefusalCases, ThrowsInvalidArgument) {
  Fixture f;
  std::size_t index = f.add_replica([](Manager&) {});
  Replica& r = *f.replicas[index];
  informer::SharedInformerFactory factory(*r.client, r.process->clock());
  Manager manager(ManagerEnv{*r.process, *r.client, factory});
  ControllerBuilder(manager).named("taken").for_(kWidgets).reconcile(log_reconciles(f));
  ControllerBuilder(manager).for_(api::kPods).reconcile(log_reconciles(f));
  try {
    GetParam().build(manager);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), GetParam().message);
  }
  EXPECT_EQ(manager.controller_names(), (std::vector<std::string>{"taken", "pods"}));
}

sim::Task<ReconcileResult> done_at_once(ReconcileContext, ReconcileRequest) { co_return ReconcileResult::done(); }

ReconcileFn nothing() { return done_at_once; }

std::vector<ReconcileRequest> no_keys(const api::Object&) { return {}; }

INSTANTIATE_TEST_SUITE_P(
    All, RefusalCases,
    ::testing::Values(
        RefusalCase{"NoFor", [](Manager& m) { ControllerBuilder(m).named("x").owns(api::kConfigMaps).reconcile(nothing()); },
                    "ControllerBuilder: for_() was not given (a controller reconciles one resource)"},
        RefusalCase{"NoForNorName",
                    [](Manager& m) { ControllerBuilder(m).watches(api::kSecrets, no_keys).reconcile(nothing()); },
                    "ControllerBuilder: for_() was not given (a controller reconciles one resource)"},
        RefusalCase{"OwnsWithoutFor",
                    [](Manager& m) {
                      ControllerBuilder(m).named("x").owns(api::kConfigMaps).watches(api::kSecrets, no_keys).reconcile(
                          nothing());
                    },
                    "ControllerBuilder \"x\": owns() needs for_() (an owned object queues its owner, of the for_ kind)"},
        RefusalCase{"ZeroWorkers", [](Manager& m) { ControllerBuilder(m).for_(api::kSecrets).workers(0).reconcile(nothing()); },
                    "ControllerBuilder \"secrets\": workers must be at least 1, not 0"},
        RefusalCase{"EmptyReconcile", [](Manager& m) { ControllerBuilder(m).for_(api::kSecrets).reconcile(nullptr); },
                    "ControllerBuilder \"secrets\": the reconcile function is empty"},
        RefusalCase{"EmptyMap",
                    [](Manager& m) { ControllerBuilder(m).for_(api::kSecrets).watches(api::kPods, nullptr).reconcile(nothing()); },
                    "ControllerBuilder \"secrets\": the map function of watches(pods) is empty"},
        RefusalCase{"NameTaken", [](Manager& m) { ControllerBuilder(m).named("taken").for_(api::kSecrets).reconcile(nothing()); },
                    "ControllerBuilder \"taken\": the manager already has a controller of that name"},
        RefusalCase{"DefaultNameTaken",
                    [](Manager& m) { ControllerBuilder(m).for_(api::kPods).owns(api::kSecrets).reconcile(nothing()); },
                    "ControllerBuilder \"pods\": the manager already has a controller of that name"}),
    [](const ::testing::TestParamInfo<RefusalCase>& info) { return info.param.name; });

TEST(ManagerTest, RefusesAnElectionWithoutALockName) {
  Fixture f;
  Replica& r = *f.replicas[f.add_replica([](Manager&) {})];
  informer::SharedInformerFactory factory(*r.client, r.process->clock());
  ManagerOptions options;
  options.leader_election = LeaderElection("kube-system");
  try {
    Manager manager(ManagerEnv{*r.process, *r.client, factory}, options);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "Manager: LeaderElection needs a lock name (LeaderElection::name is empty)");
  }
}

TEST(ManagerTest, ExpectationsOfAnUnknownControllerThrowOutOfRange) {
  Fixture f;
  Replica& r = *f.replicas[f.add_replica([](Manager&) {})];
  informer::SharedInformerFactory factory(*r.client, r.process->clock());
  Manager manager(ManagerEnv{*r.process, *r.client, factory});
  ControllerBuilder(manager).for_(kWidgets).reconcile(nothing());
  EXPECT_EQ(manager.controller_names(), std::vector<std::string>{"widgets"});
  EXPECT_NO_THROW(manager.expectations("widgets"));
  try {
    manager.expectations("gadgets");
    ADD_FAILURE() << "no exception";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "Manager: no controller named \"gadgets\"");
  }
}

// --- reads ---

sim::Task<ReconcileResult> read_secrets(ReconcileContext rc, ReconcileRequest request) {
  (void)rc.list(api::kSecrets, request.ns);
  co_return ReconcileResult::done();
}

TEST(ReconcileContextTest, ReadingAnUndeclaredResourceStopsTheControllerWithLogicError) {
  Fixture f;
  f.widget("w1", 0);
  Replica& r = f.run([](Manager& m) { ControllerBuilder(m).for_(kWidgets).reconcile(read_secrets); });
  try {
    f.loop.run_for(10s);
    ADD_FAILURE() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(),
                 "controller \"widgets\" reads secrets, which it did not declare (for_, owns, "
                 "watches) nor take with Manager::informer()");
  }
  // start() rethrew it after shutting the informers down.
  EXPECT_EQ(r.returned, 0);
  EXPECT_EQ(r.manager, nullptr);
}

sim::Task<ReconcileResult> count_secrets(Fixture* f, ReconcileContext rc, ReconcileRequest request) {
  const auto secrets = rc.list(api::kSecrets, request.ns);
  const auto all = rc.list(api::kSecrets, "");
  const auto one = rc.get(api::kSecrets, "shop", "s1");
  const auto none = rc.get(api::kSecrets, "shop", "missing");
  f->log.push_back({std::to_string(secrets.size()) + " " + std::to_string(all.size()) + " " + (one ? "s1" : "-") +
                        " " + (none ? "missing" : "-"),
                    request.key(), f->loop.now()});
  co_return ReconcileResult::done();
}

TEST(ReconcileContextTest, ReadsAResourceTheManagerTookAnInformerFor) {
  Fixture f;
  f.create(api::kSecrets, {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s1"}, {"namespace", "shop"}}}});
  f.create(api::kSecrets,
           {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s2"}, {"namespace", "kube-system"}}}});
  f.widget("w1", 0);
  Fixture* fp = &f;
  f.run([fp](Manager& m) {
    m.informer(api::kSecrets);
    ControllerBuilder(m).for_(kWidgets).reconcile(
        [fp](ReconcileContext rc, ReconcileRequest request) { return count_secrets(fp, rc, request); });
  });
  f.loop.run_for(10s);
  ASSERT_EQ(f.log.size(), 1u);
  // Its cache had synced before the first reconcile.
  EXPECT_EQ(f.log[0].process, "1 2 s1 -");
}

}  // namespace
}  // namespace kubesim::controller
