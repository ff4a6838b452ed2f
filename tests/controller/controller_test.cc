// A controller built with ControllerBuilder against the fake API server: which events queue which
// keys (for_, owns, watches), what each ReconcileResult does over virtual time, that two workers
// never hold one key at once, that owns() feeds the Expectations, and that run() works again on
// a fresh context.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/controller/builder.h"

namespace kubesim::controller {
namespace {

using namespace controller_test;  // NOLINT: the fixture, its helpers and chrono literals

// Widgets, owning ConfigMaps, and Secrets labelled widget=NAME mapped to that Widget.
std::vector<ReconcileRequest> secret_to_widget(const api::Object& secret) {
  auto widget = secret.label("widget");
  if (!widget) return {};
  return {ReconcileRequest{std::string(secret.namespace_()), std::string(*widget)}};
}

TEST(ControllerTest, EventsQueueTheKeysOfForOwnsAndWatches) {
  Fixture f;
  auto w1 = f.widget("w1", 1);
  Fixture* fp = &f;
  f.run([fp](Manager& m) {
    ControllerBuilder(m).for_(kWidgets).owns(api::kConfigMaps).watches(api::kSecrets, secret_to_widget).reconcile(
        log_reconciles(*fp));
  });
  f.loop.run_for(5s);
  EXPECT_EQ(f.reconciles("shop/w1"), 1u);  // the initial list

  struct Step {
    std::string what;
    std::function<void()> act;
    std::map<std::string, std::size_t> more;  // reconciles each key gains
  };
  const std::vector<Step> steps = {
      {"an owned ConfigMap", [&] { f.config_map("c1", {{"ownerReferences", {owner_reference(*w1)}}}); }, {{"shop/w1", 1}}},
      {"a ConfigMap owned by a Widget not in the cache",
       [&] {
         nlohmann::json ref = owner_reference(*w1);
         ref["name"] = "gone";
         f.config_map("c2", {{"ownerReferences", {ref}}});
       },
       {{"shop/gone", 1}}},
      {"a ConfigMap with no owner", [&] { f.config_map("c3"); }, {}},
      {"a ConfigMap owned by another kind",
       [&] {
         f.config_map("c4", {{"ownerReferences",
                              {{{"apiVersion", "v1"}, {"kind", "Secret"}, {"name", "w1"}, {"uid", "u"}, {"controller", true}}}}});
       },
       {}},
      {"a ConfigMap not the controller's",
       [&] {
         nlohmann::json ref = owner_reference(*w1);
         ref["controller"] = false;
         f.config_map("c5", {{"ownerReferences", {ref}}});
       },
       {}},
      {"a mapped Secret",
       [&] {
         f.create(api::kSecrets, {{"apiVersion", "v1"},
                                  {"kind", "Secret"},
                                  {"metadata", {{"name", "s"}, {"namespace", "shop"}, {"labels", {{"widget", "w9"}}}}}});
       },
       {{"shop/w9", 1}}},
      {"an unmapped Secret",
       [&] { f.create(api::kSecrets, {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "t"}, {"namespace", "shop"}}}}); },
       {}},
      {"the Widget updated", [&] { f.update(kWidgets, f.get(kWidgets, "shop", "w1")->with_value_at("spec.replicas", 2)); },
       {{"shop/w1", 1}}},
      {"the owned ConfigMap deleted", [&] { f.remove(api::kConfigMaps, "shop", "c1"); }, {{"shop/w1", 1}}},
      {"the Widget deleted", [&] { f.remove(kWidgets, "shop", "w1"); }, {{"shop/w1", 1}}},
  };
  for (const auto& step : steps) {
    SCOPED_TRACE(step.what);
    std::map<std::string, std::size_t> before;
    for (const auto& r : f.log) ++before[r.key];
    step.act();
    f.loop.run_for(5s);
    std::map<std::string, std::size_t> after;
    for (const auto& r : f.log) ++after[r.key];
    std::map<std::string, std::size_t> gained;
    for (const auto& [key, n] : after) {
      if (n != before[key]) gained[key] = n - before[key];
    }
    EXPECT_EQ(gained, step.more);
  }
}

// A named controller without for_ takes its keys from its watches alone: the initial list and
// each event queue what the map returns (here a ConfigMap's name, a key of no namespace, for
// the ConfigMaps of shop only).
std::vector<ReconcileRequest> shop_config_map_name(const api::Object& config_map) {
  if (config_map.namespace_() != "shop") return {};
  return {ReconcileRequest{"", std::string(config_map.name())}};
}

TEST(ControllerTest, ANamedControllerWithoutForIsKeyedByItsWatches) {
  Fixture f;
  f.config_map("c1");
  f.create(api::kConfigMaps,
           {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c1"}, {"namespace", "kube-system"}}}});
  f.run([&f](Manager& m) {
    ControllerBuilder(m).named("by-name").watches(api::kConfigMaps, shop_config_map_name).reconcile(log_reconciles(f));
  });
  f.loop.run_for(5s);
  EXPECT_EQ(f.reconciles("c1"), 1u);
  EXPECT_EQ(f.log.size(), 1u);
  f.config_map("c2");
  f.create(api::kConfigMaps,
           {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c3"}, {"namespace", "kube-system"}}}});
  f.loop.run_for(5s);
  EXPECT_EQ(f.reconciles("c2"), 1u);
  EXPECT_EQ(f.reconciles("c3"), 0u);
  EXPECT_EQ(f.log.size(), 2u);
}

// Before any for_ object is seen, an owner reference is matched by the plural its kind guesses
// ("Widget" → widgets); afterwards by the kind the for_ objects carry.
TEST(ControllerTest, OwnersMatchByKindBeforeAnyForObjectIsSeen) {
  Fixture f;
  f.run([&f](Manager& m) { ControllerBuilder(m).for_(kWidgets).owns(api::kConfigMaps).reconcile(log_reconciles(f)); });
  f.loop.run_for(5s);
  auto owner = [](const char* api_version, const char* kind) {
    return nlohmann::json{{"ownerReferences",
                           {{{"apiVersion", api_version}, {"kind", kind}, {"name", "x"}, {"uid", "u"}, {"controller", true}}}}};
  };
  f.config_map("c1", owner("example.com/v1", "Widget"));
  f.config_map("c2", owner("example.com/v2", "Widget"));     // another version of the group
  f.config_map("c3", owner("other.com/v1", "Widget"));       // another group
  f.config_map("c4", owner("example.com/v1", "Gadget"));     // another kind
  f.loop.run_for(5s);
  EXPECT_EQ(f.reconciles("shop/x"), 2u);
  EXPECT_EQ(f.log.size(), 2u);
}

// Results: a script of what successive reconciles of one key return, and the gaps between them.
struct ResultCase {
  std::string name;
  std::vector<ReconcileResult> script;  // then done()
  std::vector<sim::Duration> gaps;
};

sim::Task<ReconcileResult> scripted(Fixture* f, std::vector<ReconcileResult> script, ReconcileContext rc,
                                    ReconcileRequest request) {
  const std::size_t n = f->reconciles(request.key());
  f->log.push_back({rc.process().name(), request.key(), f->loop.now()});
  co_return n < script.size() ? script[n] : ReconcileResult::done();
}

class ResultCases : public ::testing::TestWithParam<ResultCase> {};

TEST_P(ResultCases, RequeueAsDocumented) {
  Fixture f;
  f.widget("w1", 0);
  Fixture* fp = &f;
  const std::vector<ReconcileResult> script = GetParam().script;
  f.run([fp, script](Manager& m) {
    ControllerBuilder(m).for_(kWidgets).reconcile(
        [fp, script](ReconcileContext rc, ReconcileRequest request) { return scripted(fp, script, rc, request); });
  });
  f.loop.run_for(30min);
  const std::vector<sim::Time> times = f.reconcile_times("shop/w1");
  std::vector<sim::Duration> gaps;
  for (std::size_t i = 1; i < times.size(); ++i) gaps.push_back(times[i] - times[i - 1]);
  EXPECT_EQ(gaps, GetParam().gaps);
}

using std::chrono::milliseconds;
const ReconcileResult kFail = ReconcileResult::fail("boom");

INSTANTIATE_TEST_SUITE_P(
    All, ResultCases,
    ::testing::Values(
        ResultCase{"DoneOnce", {}, {}},
        // client-go's default controller rate limiter: 5 ms · 2^n per key.
        ResultCase{"RequeueBacksOff",
                   {ReconcileResult::requeue(), ReconcileResult::requeue(), ReconcileResult::requeue(),
                    ReconcileResult::requeue()},
                   {milliseconds(5), milliseconds(10), milliseconds(20), milliseconds(40)}},
        ResultCase{"FailBacksOff", {kFail, kFail, kFail}, {milliseconds(5), milliseconds(10), milliseconds(20)}},
        ResultCase{"RequeueAfterWaitsExactly",
                   {ReconcileResult::requeue_after(std::chrono::seconds(10)),
                    ReconcileResult::requeue_after(std::chrono::minutes(3))},
                   {std::chrono::seconds(10), std::chrono::minutes(3)}},
        // requeue_after forgets the backoff: the next failure waits 5 ms again.
        ResultCase{"RequeueAfterForgetsTheBackoff",
                   {kFail, kFail, kFail, ReconcileResult::requeue_after(std::chrono::seconds(1)), kFail},
                   {milliseconds(5), milliseconds(10), milliseconds(20), std::chrono::seconds(1), milliseconds(5)}},
        // done forgets it too.
        ResultCase{"DoneForgetsTheBackoff", {kFail, kFail}, {milliseconds(5), milliseconds(10)}}),
    [](const ::testing::TestParamInfo<ResultCase>& info) { return info.param.name; });

TEST(ControllerTest, FailingForeverIsCappedByTheRateLimiter) {
  Fixture f;
  f.widget("w1", 0);
  f.run([&f](Manager& m) { ControllerBuilder(m).for_(kWidgets).reconcile(log_reconciles(f, ReconcileResult::fail("x"))); });
  f.loop.run_for(2s);
  const auto times = f.reconcile_times("shop/w1");
  ASSERT_FALSE(times.empty());
  f.loop.run_for(1s);
  // Within a second of the first: at 0, 5, 15, 35, 75, 155, 315 and 635 ms.
  const auto first = times.front();
  const auto in_first_second = std::count_if(times.begin(), times.end(), [&](sim::Time t) { return t - first < std::chrono::seconds(1); });
  EXPECT_EQ(in_first_second, 8);
}

// Two workers: many events for few keys while each reconcile takes 100 ms.
struct Overlap {
  std::set<std::string> in_flight;
  std::size_t most_at_once = 0;
  std::vector<std::string> violations;
};

sim::Task<ReconcileResult> slow(Fixture* f, Overlap* o, ReconcileContext rc, ReconcileRequest request) {
  const std::string key = request.key();
  if (!o->in_flight.insert(key).second) o->violations.push_back(key);
  o->most_at_once = std::max(o->most_at_once, o->in_flight.size());
  f->log.push_back({rc.process().name(), key, f->loop.now()});
  co_await sim::sleep_for(rc.ctx(), rc.clock(), milliseconds(100));
  o->in_flight.erase(key);
  co_return ReconcileResult::done();
}

TEST(ControllerTest, TwoWorkersNeverReconcileOneKeyAtOnce) {
  Fixture f;
  for (const char* name : {"a", "b", "c"}) f.widget(name, 0);
  Overlap overlap;
  Fixture* fp = &f;
  Overlap* op = &overlap;
  f.run([fp, op](Manager& m) {
    ControllerBuilder(m).for_(kWidgets).workers(2).reconcile(
        [fp, op](ReconcileContext rc, ReconcileRequest request) { return slow(fp, op, rc, request); });
  });
  f.loop.run_for(5s);
  for (int i = 0; i < 60; ++i) {
    for (const char* name : {"a", "b"}) {
      f.update(kWidgets, f.get(kWidgets, "shop", name)->with_value_at("spec.replicas", i));
    }
    f.loop.run_for(milliseconds(30));
  }
  f.loop.run_for(5s);
  EXPECT_TRUE(overlap.violations.empty()) << overlap.violations.size() << " overlapping reconciles";
  EXPECT_EQ(overlap.most_at_once, 2u);
  // Events for a key under reconcile fold into one more reconcile after it.
  EXPECT_GT(f.reconciles("shop/a"), 10u);
  EXPECT_LT(f.reconciles("shop/a"), 30u);
}

// owns() feeds the Expectations: the reconcile creates two owned ConfigMaps after expecting them.
sim::Task<ReconcileResult> create_two(Fixture* f, ReconcileContext rc, ReconcileRequest request) {
  f->log.push_back({rc.process().name(), request.key(), f->loop.now()});
  const api::ObjectPtr widget = rc.get(kWidgets, request.ns, request.name);
  if (widget == nullptr || !rc.owned_by(api::kConfigMaps, *widget).empty()) co_return ReconcileResult::done();
  rc.expectations().expect_creations(request.key(), 2);
  for (int i = 0; i < 2; ++i) {
    auto cm = api::make_object({{"apiVersion", "v1"},
                                {"kind", "ConfigMap"},
                                {"metadata",
                                 {{"name", request.name + "-" + std::to_string(i)},
                                  {"namespace", request.ns},
                                  {"ownerReferences", {owner_reference(*widget)}}}}});
    auto created = co_await rc.client().create(rc.ctx(), api::kConfigMaps, request.ns, cm, api::CreateOptions());
    if (!created.ok()) co_return ReconcileResult::fail(created.status());
  }
  co_return ReconcileResult::done();
}

TEST(ControllerTest, OwnsFeedsTheExpectations) {
  Fixture f;
  f.widget("w1", 0);
  Fixture* fp = &f;
  Replica& r = f.run([fp](Manager& m) {
    ControllerBuilder(m).named("w").for_(kWidgets).owns(api::kConfigMaps).reconcile(
        [fp](ReconcileContext rc, ReconcileRequest request) { return create_two(fp, rc, request); });
  });
  f.loop.run_for(10s);
  ASSERT_NE(r.manager, nullptr);
  Expectations& e = r.manager->expectations("w");
  ASSERT_NE(e.pending("shop/w1"), nullptr);
  EXPECT_EQ(e.pending("shop/w1")->add, 0);
  EXPECT_TRUE(e.satisfied("shop/w1"));
  // Deletions are observed too.
  e.expect_deletions("shop/w1", 2);
  f.remove(api::kConfigMaps, "shop", "w1-0");
  f.loop.run_for(5s);
  EXPECT_EQ(e.pending("shop/w1")->del, 1);
  EXPECT_FALSE(e.satisfied("shop/w1"));
}

// Manager::run on a fresh context after it returned: what changed in between is caught up.
sim::Task<void> two_terms(Fixture* f, Replica* r, sim::Context ctx, int* terms) {
  informer::SharedInformerFactory factory(*r->client, r->process->clock());
  Manager manager(ManagerEnv{*r->process, *r->client, factory});
  ControllerBuilder(manager).for_(kWidgets).reconcile(log_reconciles(*f));
  auto informers = sim::with_cancel(ctx);
  factory.start(informers.ctx);
  for (int i = 0; i < 2; ++i) {
    auto term = sim::with_timeout(ctx, f->loop, std::chrono::seconds(10));
    co_await manager.run(term.ctx);
    ++*terms;
    if (i == 0) f->widget("w2", 0);  // while no run is going
    co_await sim::sleep_for(ctx, r->process->clock(), std::chrono::seconds(5));
  }
  informers.cancel();
  co_await factory.shutdown();
}

TEST(ControllerTest, RunsAgainOnAFreshContext) {
  Fixture f;
  f.widget("w1", 0);
  Replica& r = *f.replicas[f.add_replica([](Manager&) {})];
  int terms = 0;
  Fixture* fp = &f;
  Replica* rp = &r;
  r.process->start([fp, rp, &terms](sim::Context ctx) { return two_terms(fp, rp, ctx, &terms); });
  f.loop.run_for(1min);
  EXPECT_EQ(terms, 2);
  EXPECT_EQ(f.reconciles("shop/w1"), 2u);  // once per term
  EXPECT_EQ(f.reconciles("shop/w2"), 1u);  // made between the terms, queued when the second began
}

}  // namespace
}  // namespace kubesim::controller
