// FaultPlan: the Statuses fail() takes, each builder's rule as the server holds it, the builders'
// refusals with their exact messages, rules firing against a served ApiServer, and the report.
#include "kubesim/testing/fault_plan.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/informer/reflector.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::testing {
namespace {

using namespace std::chrono_literals;
using fakeapi::FaultKind;
using fakeapi::FaultRule;
using fakeapi::Verb;
using fakeapi::testutil::config_map;
using fakeapi::testutil::EventLog;
using sim::Time;

using api::kConfigMaps;
const api::GroupVersionResource kPlanWidgets{"example.com", "v1", "widgets"};

class FaultPlanTest : public ::testing::Test {
 protected:
  FaultPlanTest() {
    process_.set_link(link_);
    for (const char* name : {"a", "b"}) {
      EXPECT_TRUE(server_.create(kConfigMaps, "default", config_map("default", name), api::CreateOptions()).ok());
    }
  }

  const std::vector<FaultRule>& rules() { return server_.faults().rules(); }
  api::Result<api::ObjectPtr> get(const std::string& name) {
    return loop_.run_until_complete(client_.get(sim::Context(), kConfigMaps, "default", name, api::GetOptions()));
  }
  api::Result<api::ObjectPtr> update(const std::string& name) {
    auto current = server_.get(kConfigMaps, "default", name, api::GetOptions()).value();
    return loop_.run_until_complete(client_.update(sim::Context(), kConfigMaps, "default", current, api::UpdateOptions()));
  }
  api::Result<api::ObjectList> list() {
    return loop_.run_until_complete(client_.list(sim::Context(), kConfigMaps, "default", api::ListOptions()));
  }
  // A watch; with `initial_events`, the streaming list client-go's informers (re)list with.
  std::unique_ptr<EventLog> watch(bool initial_events = false) {
    api::ListOptions options;
    if (initial_events) {
      options.send_initial_events = true;
      options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
      options.allow_watch_bookmarks = true;
    }
    auto w = loop_.run_until_complete(client_.watch(sim::Context(), kConfigMaps, "default", options));
    EXPECT_TRUE(w.ok()) << w.status();
    return w.ok() ? std::make_unique<EventLog>(loop_, std::move(w.value())) : nullptr;
  }

  sim::Loop loop_;
  fakeapi::ApiServer server_{loop_};
  sim::Process process_{loop_, "widgets-0"};
  std::shared_ptr<sim::NetworkLink> link_ = std::make_shared<sim::NetworkLink>(loop_, 5ms);
  fakeapi::InProcessClient client_{server_, process_};
  FaultPlan plan_{server_};
};

TEST(FaultStatusesTest, AreWhatKubeApiserverAnswers) {
  struct Case {
    api::Status status;
    int code;
    api::StatusReason reason;
    std::string message;
    int retry_after;
  };
  const std::vector<Case> cases = {
      {Conflict(), 409, api::StatusReason::kConflict,
       "Operation cannot be fulfilled on  \"\": the object has been modified; please apply your changes to the "
       "latest version and try again", 0},
      {InternalError(), 500, api::StatusReason::kInternalError, "Internal error occurred: fault injected by the test", 0},
      {ServiceUnavailable(), 503, api::StatusReason::kServiceUnavailable,
       "the server is currently unable to handle the request", 0},
      {TooManyRequests(), 429, api::StatusReason::kTooManyRequests, "Too many requests, please try again later.", 1},
      {TooManyRequests(7), 429, api::StatusReason::kTooManyRequests, "Too many requests, please try again later.", 7},
      {ServerTimeout(), 504, api::StatusReason::kTimeout,
       "Timeout: request did not complete within requested timeout - context deadline exceeded", 0},
      {NotFoundError(), 404, api::StatusReason::kNotFound, " \"\" not found", 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    EXPECT_EQ(c.status.code, c.code);
    EXPECT_EQ(c.status.reason, c.reason);
    EXPECT_EQ(c.status.message, c.message);
    EXPECT_EQ(api::retry_after_seconds(c.status).value_or(0), c.retry_after);
  }
}

TEST_F(FaultPlanTest, OnTurnsThePatternAndTheSettersIntoOneRule) {
  loop_.run_for(5s);
  plan_.on(Update(kPlanWidgets).status().in("default").named("w1").by("widgets-0"))
      .fail(Conflict())
      .probability(0.5)
      .times(6)
      .during(10s, 40s)
      .id("conflicts");
  ASSERT_EQ(rules().size(), 1u);
  const FaultRule& r = rules()[0];
  EXPECT_EQ(r.id, "conflicts");
  EXPECT_EQ(r.kind(), FaultKind::kError);
  EXPECT_EQ(r.verbs, std::vector<Verb>{Verb::kUpdate});
  EXPECT_EQ(r.resource, "widgets");
  EXPECT_EQ(r.subresource, "status");
  EXPECT_EQ(r.ns, "default");
  EXPECT_EQ(r.name, "w1");
  EXPECT_EQ(r.process, "widgets-0");
  EXPECT_EQ(r.probability, 0.5);
  EXPECT_EQ(r.count, 6);
  EXPECT_EQ(r.from, Time{} + 15s);
  EXPECT_EQ(r.until, Time{} + 45s);
  // Conflict() names the rule's resource and object, as the registry's conflict does.
  EXPECT_EQ(r.as<fakeapi::ErrorFault>()->status,
            api::new_conflict({"example.com", "widgets"}, "w1", api::kOptimisticLockErrorMsg));
  EXPECT_EQ(plan_.fired().at(0).description,
            "update widgets/status in default named w1 by widgets-0: 409 Conflict, p=0.5, ≤6 times, "
            "15.000s–45.000s");
}

TEST_F(FaultPlanTest, DelayAnyCallAndAutomaticIds) {
  plan_.on(AnyCall(kConfigMaps)).delay(2s);
  plan_.on(AnyCall()).fail(NotFoundError());
  plan_.on(Writes(kConfigMaps)).fail(InternalError()).times(1);
  ASSERT_EQ(rules().size(), 3u);
  EXPECT_EQ(rules()[0].kind(), FaultKind::kLatency);
  EXPECT_EQ(rules()[0].as<fakeapi::LatencyFault>()->latency, 2s);
  EXPECT_TRUE(rules()[0].verbs.empty());
  EXPECT_EQ(rules()[0].resource, "configmaps");
  EXPECT_FALSE(rules()[0].count.has_value());
  EXPECT_EQ(rules()[1].resource, "");
  EXPECT_EQ(rules()[1].as<fakeapi::ErrorFault>()->status, NotFoundError());  // no resource to name
  EXPECT_EQ(rules()[2].verbs,
            (std::vector<Verb>{Verb::kCreate, Verb::kUpdate, Verb::kPatch, Verb::kDelete, Verb::kDeleteCollection}));
  std::vector<std::string> texts;
  for (const auto& f : plan_.fired()) texts.push_back(f.id + " " + f.description);
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "rule-1 any call on configmaps: +2s delay",
                       "rule-2 any call: 404 NotFound",
                       "rule-3 any write on configmaps: 500 InternalError, ≤1 time"}));
}

TEST_F(FaultPlanTest, WatchFaultsAndStaleReadsAsRules) {
  plan_.drop_watches(kConfigMaps);
  plan_.drop_watches(kPlanWidgets).after_events(3).times(2).by("widgets-1");
  plan_.stall_watches(kPlanWidgets).during(0s, 30s);
  plan_.stale_reads(kPlanWidgets, 30s);
  ASSERT_EQ(rules().size(), 4u);
  EXPECT_EQ(rules()[0].kind(), FaultKind::kDropWatch);
  EXPECT_EQ(rules()[0].verbs, std::vector<Verb>{Verb::kWatch});
  EXPECT_EQ(rules()[0].as<fakeapi::DropWatchFault>()->after_events, 0);
  EXPECT_EQ(rules()[0].count, 1);  // neither times() nor during(): once
  EXPECT_EQ(rules()[1].as<fakeapi::DropWatchFault>()->after_events, 3);
  EXPECT_EQ(rules()[1].count, 2);
  EXPECT_EQ(rules()[1].process, "widgets-1");
  EXPECT_EQ(rules()[2].kind(), FaultKind::kStallWatch);
  EXPECT_FALSE(rules()[2].count.has_value());
  EXPECT_EQ(rules()[2].until, Time{} + 30s);
  EXPECT_EQ(rules()[3].kind(), FaultKind::kStaleRead);
  EXPECT_EQ(rules()[3].as<fakeapi::StaleReadFault>()->stale_by, 30s);
  std::vector<std::string> texts;
  for (const auto& f : plan_.fired()) texts.push_back(f.description);
  EXPECT_EQ(texts, (std::vector<std::string>{"drop watches of configmaps, ≤1 time",
                                             "drop watches of widgets after 3 events by widgets-1, ≤2 times",
                                             "stall watches of widgets, 0.000s–30.000s",
                                             "stale reads of widgets (resourceVersion \"0\" served 30s behind)"}));
}

// coalesce_watches acts on every watch while it lasts, the open ones too: a watch opened before
// the rule sees an object's two updates as one MODIFIED, 3 s after the last.
TEST_F(FaultPlanTest, CoalescedWatchesHoldEventsAndMergeThoseOfOneObject) {
  auto log = watch();
  plan_.coalesce_watches(kConfigMaps, 3s).by("widgets-0").during(0s, 20s);
  ASSERT_EQ(rules().size(), 1u);
  EXPECT_EQ(rules()[0].kind(), FaultKind::kCoalesceWatch);
  EXPECT_EQ(rules()[0].as<fakeapi::CoalesceWatchFault>()->hold, 3s);
  EXPECT_EQ(rules()[0].verbs, std::vector<Verb>{Verb::kWatch});
  EXPECT_FALSE(rules()[0].count.has_value());  // every watch
  const std::string description = plan_.fired().at(0).description;  // then the window, from now
  EXPECT_EQ(description.rfind("coalesce watches of configmaps (each event held 3s) by widgets-0, ", 0), 0u)
      << description;
  loop_.run_until(loop_.now() + 1s);
  EXPECT_EQ(log->size(), 2u);  // the initial ADDED events of a and b, sent before the rule
  for (const char* value : {"1", "2"}) {
    auto current = server_.get(kConfigMaps, "default", "a", api::GetOptions()).value();
    auto changed = current->edited([&](nlohmann::json& j) { j["data"]["v"] = value; });
    ASSERT_TRUE(server_.update(kConfigMaps, "default", changed, api::UpdateOptions()).ok());
    loop_.run_until(loop_.now() + 100ms);
  }
  loop_.run_until(loop_.now() + 2s);
  EXPECT_EQ(log->size(), 2u);  // held
  loop_.run_until(loop_.now() + 2s);
  ASSERT_EQ(log->size(), 3u);
  EXPECT_EQ((*log)[2].type, api::EventType::kModified);
  EXPECT_EQ((*log)[2].object->resource_version(), std::to_string(server_.revision()));
  EXPECT_EQ(plan_.fired().at(0).fired, 1);  // one watch taken
}

TEST_F(FaultPlanTest, RefusedValuesThrowWithTheirMessageAndAddNothing) {
  const std::vector<std::pair<std::function<void()>, std::string>> cases = {
      {[&] { plan_.on(Get(kConfigMaps)).fail(Conflict()).probability(0); }, "FaultPlan: probability(0): must be in (0, 1]"},
      {[&] { plan_.on(Get(kConfigMaps)).fail(Conflict()).probability(1.5); }, "FaultPlan: probability(1.5): must be in (0, 1]"},
      {[&] { plan_.on(Get(kConfigMaps)).fail(Conflict()).times(0); }, "FaultPlan: times(0): must be at least 1"},
      {[&] { plan_.on(Get(kConfigMaps)).delay(1s).during(40s, 10s); },
       "FaultPlan: during(40s, 10s): the window must end after it starts"},
      {[&] { plan_.on(Get(kConfigMaps)).delay(1s).during(10s, 10s); },
       "FaultPlan: during(10s, 10s): the window must end after it starts"},
      {[&] { plan_.on(Get(kConfigMaps)).delay(1s).during(-1s, 10s); },
       "FaultPlan: during(-1s, 10s): the window cannot start in the past"},
      {[&] { plan_.on(Get(kConfigMaps)).fail(Conflict()).delay(1s); },
       "FaultPlan: a rule takes fail() or delay(), not both; add one rule for each"},
      {[&] { plan_.on(Get(kConfigMaps)).delay(1s).fail(Conflict()); },
       "FaultPlan: a rule takes fail() or delay(), not both; add one rule for each"},
      {[&] { plan_.on(Get(kConfigMaps)).delay(0s); }, "FaultPlan: delay(0s): must be positive"},
      {[&] { plan_.on(Get(kConfigMaps)).fail(api::Status{}); },
       "FaultPlan: fail(0): the status must have a code from 400 to 599"},
      {[&] { plan_.on(Get(kConfigMaps)).fail(Conflict()).id(""); }, "FaultPlan: id(\"\"): must not be empty"},
      {[&] { plan_.stall_watches(kPlanWidgets).after_events(2); },
       "FaultPlan: after_events(2): only drop_watches cuts a watch after events"},
      {[&] { plan_.drop_watches(kPlanWidgets).after_events(-1); }, "FaultPlan: after_events(-1): must not be negative"},
      {[&] { plan_.drop_watches(kPlanWidgets).by(""); }, "FaultPlan: by(\"\"): must name a process"},
      {[&] { plan_.drop_watches(kPlanWidgets).times(-2); }, "FaultPlan: times(-2): must be at least 1"},
      {[&] { plan_.stale_reads(kPlanWidgets, 0s); }, "FaultPlan: stale_reads(widgets, 0s): the lag must be positive"},
      {[&] { plan_.coalesce_watches(kPlanWidgets, 0s); },
       "FaultPlan: coalesce_watches(widgets, 0s): the hold time must be positive"},
      {[&] { plan_.on(Update(kPlanWidgets).ok()).fail(Conflict()); },
       "FaultPlan: on(update widgets.example.com answered ok): a fault cannot depend on the answer (ok(), "
       "failed()); it decides the answer"},
      {[&] { plan_.on(AnyCall().failed()).delay(1s); },
       "FaultPlan: on(any call answered with a failure): a fault cannot depend on the answer (ok(), failed()); "
       "it decides the answer"},
  };
  for (const auto& [call, message] : cases) {
    try {
      call();
      ADD_FAILURE() << "no exception; expected: " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  }
  EXPECT_TRUE(rules().empty());
  EXPECT_TRUE(plan_.fired().empty());
}

TEST_F(FaultPlanTest, ARuleWithNeitherFailNorDelayIsATestFailure) {
  EXPECT_NONFATAL_FAILURE(plan_.on(Update(kConfigMaps).status()).probability(0.5),
                          "FaultPlan: on(update configmaps/status) needs fail(status) or delay(latency); the rule "
                          "was not added");
  EXPECT_TRUE(rules().empty());
}

TEST_F(FaultPlanTest, AnErrorRuleFiresItsTimesThroughTheFrontDoor) {
  plan_.on(Update(kConfigMaps).named("a")).fail(Conflict()).times(2);
  for (int i = 0; i < 2; ++i) {
    auto r = update("a");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status(), api::new_conflict({"", "configmaps"}, "a", api::kOptimisticLockErrorMsg));
  }
  EXPECT_TRUE(update("a").ok());
  EXPECT_TRUE(update("b").ok());
  ASSERT_EQ(plan_.fired().size(), 1u);
  EXPECT_EQ(plan_.fired()[0].fired, 2);
}

// Which of 40 gets a rule with probability 0.5 failed, in a run with `seed`.
std::string failed_gets(std::uint64_t seed) {
  sim::LoopOptions options;
  options.seed = seed;
  sim::Loop loop(options);
  fakeapi::ApiServer server(loop);
  fakeapi::InProcessClient client(server, "widgets-0");
  FaultPlan plan(server);
  plan.on(Get(kConfigMaps)).fail(InternalError()).probability(0.5);
  std::string pattern;
  for (int i = 0; i < 40; ++i) {
    auto r = loop.run_until_complete(client.get(sim::Context(), kConfigMaps, "default", "a", api::GetOptions()));
    pattern += api::is_internal_error(r.status()) ? 'x' : '.';
  }
  EXPECT_EQ(plan.fired().at(0).fired, static_cast<std::int64_t>(std::count(pattern.begin(), pattern.end(), 'x')));
  return pattern;
}

TEST(FaultPlanSeedTest, TheSeedDecidesWhichCallsAProbableRuleFails) {
  const std::string first = failed_gets(7);
  EXPECT_EQ(failed_gets(7), first);
  EXPECT_NE(failed_gets(8), first);
  const auto failed = std::count(first.begin(), first.end(), 'x');
  EXPECT_GT(failed, 5) << first;
  EXPECT_LT(failed, 35) << first;
}

TEST_F(FaultPlanTest, ADelayRuleSlowsOnlyItsWindow) {
  plan_.on(Get(kConfigMaps).by("widgets-0")).delay(2s).during(1s, 3s);
  Time sent = loop_.now();
  EXPECT_TRUE(get("a").ok());
  EXPECT_EQ(loop_.now() - sent, 10ms);  // before the window
  loop_.run_for(1s);
  sent = loop_.now();
  EXPECT_TRUE(get("a").ok());
  EXPECT_EQ(loop_.now() - sent, 2010ms);
  sent = loop_.now();
  EXPECT_TRUE(get("a").ok());
  EXPECT_EQ(loop_.now() - sent, 10ms);  // after it
  EXPECT_EQ(plan_.fired().at(0).fired, 1);
}

TEST_F(FaultPlanTest, DropWatchesEndsTheOpenWatchesAndCompacts) {
  auto open = watch();
  loop_.run_for(1s);
  const auto revision = server_.revision();
  plan_.drop_watches(kConfigMaps).compact();
  loop_.run_for(1s);
  EXPECT_TRUE(open->ended());
  EXPECT_EQ(server_.store().compacted(), revision);
  // The next watch is cut at once (the rule fires once).
  auto next = watch();
  loop_.run_for(1s);
  EXPECT_TRUE(next->ended());
  auto third = watch();
  loop_.run_for(1s);
  EXPECT_FALSE(third->ended());
  EXPECT_EQ(plan_.report(),
            "fault plan: 1 rule, 1 compaction\n"
            "  rule-1: drop watches of configmaps, ≤1 time, compact — fired 1 time, ended 1 open watch\n"
            "    no relist of configmaps followed: the clients resumed 2 watches from where they were\n"
            "  compaction at 1.010s (revision 6) — no relist after it\n");
  ASSERT_TRUE(list().ok());
  EXPECT_EQ(plan_.report(),
            "fault plan: 1 rule, 1 compaction\n"
            "  rule-1: drop watches of configmaps, ≤1 time, compact — fired 1 time, ended 1 open watch\n"
            "    then 1 relist of configmaps: widgets-0 (1)\n"
            "  compaction at 1.010s (revision 6) — then 1 relist: widgets-0 (1)\n");
}

TEST_F(FaultPlanTest, AStreamingListCountsAsARelist) {
  plan_.drop_watches(kConfigMaps).compact();
  auto cut = watch();  // the rule's one firing
  loop_.run_for(1s);
  EXPECT_TRUE(cut->ended());
  auto relist = watch(/*initial_events=*/true);
  loop_.run_for(1s);
  EXPECT_FALSE(relist->ended());
  EXPECT_EQ(plan_.report(),
            "fault plan: 1 rule, 1 compaction\n"
            "  rule-1: drop watches of configmaps, ≤1 time, compact — fired 1 time, ended 0 open watches\n"
            "    then 1 relist of configmaps: widgets-0 (1)\n"
            "  compaction at 0.000s (revision 6) — then 1 relist: widgets-0 (1)\n");
}

sim::Task<void> run_reflector(informer::Reflector* reflector, sim::Context ctx) { co_await reflector->run(ctx); }

TEST_F(FaultPlanTest, AnInformersRelistAfterADropIsTheEffectSeen) {
  informer::ListWatch list_watch(client_, kConfigMaps, [] {
    informer::ListWatchOptions o;
    o.ns = "default";
    return o;
  }());
  informer::Indexer store;
  informer::Reflector reflector(process_.clock(), list_watch, store);
  auto running = sim::with_cancel(sim::Context());
  loop_.spawn(run_reflector(&reflector, running.ctx), "reflector");
  loop_.run_for(5s);
  ASSERT_EQ(store.list().size(), 2u);
  plan_.drop_watches(kConfigMaps).compact();
  loop_.run_for(30s);
  EXPECT_EQ(store.list().size(), 2u);
  EXPECT_EQ(plan_.report(),
            "fault plan: 1 rule, 1 compaction\n"
            "  rule-1: drop watches of configmaps, ≤1 time, compact — fired 1 time, ended 1 open watch\n"
            "    then 1 relist of configmaps: widgets-0 (1)\n"
            "  compaction at 5.000s (revision 6) — then 1 relist: widgets-0 (1)\n");
  running.cancel();
  loop_.run_for(1s);
}

TEST_F(FaultPlanTest, ADropForOneProcessLeavesTheOpenWatchesAlone) {
  auto open = watch();
  plan_.drop_watches(kConfigMaps).by("widgets-0");
  plan_.drop_watches(kConfigMaps).during(10s, 20s);
  loop_.run_for(1s);
  EXPECT_FALSE(open->ended());
  EXPECT_EQ(server_.watches().watcher_count(), 1u);
}

TEST_F(FaultPlanTest, TheReportSaysWhichRulesNeverFired) {
  plan_.on(Get(kConfigMaps)).fail(ServiceUnavailable()).times(1).id("busy");
  plan_.on(Delete(kConfigMaps)).fail(InternalError());
  plan_.stall_watches(kPlanWidgets);
  EXPECT_FALSE(get("a").ok());
  EXPECT_EQ(plan_.report(),
            "fault plan: 3 rules\n"
            "  busy: get configmaps: 503 ServiceUnavailable, ≤1 time — fired 1 time\n"
            "    failed 1 request: widgets-0 (1)\n"
            "    not retried: none was made again by its process and answered ok: 0.005s widgets-0 get configmaps "
            "default/a → 503 ServiceUnavailable (fault busy)\n"
            "  rule-1: delete configmaps: 500 InternalError — never fired: its fault did not happen\n"
            "  rule-2: stall watches of widgets, ≤1 time — never fired: its fault did not happen\n");
}

TEST_F(FaultPlanTest, ClearRemovesTheRulesAndKeepsThemInTheReport) {
  plan_.on(Get(kConfigMaps)).fail(ServiceUnavailable());
  EXPECT_FALSE(get("a").ok());
  plan_.clear();
  EXPECT_TRUE(rules().empty());
  EXPECT_TRUE(get("a").ok());
  EXPECT_EQ(plan_.report(),
            "fault plan: 1 rule\n"
            "  rule-1: get configmaps: 503 ServiceUnavailable — fired 1 time (cleared)\n"
            "    failed 1 request: widgets-0 (1)\n"
            "    retried: made again by its process and answered ok\n");
  plan_.on(Get(kConfigMaps)).fail(ServiceUnavailable()).id("again");
  EXPECT_EQ(rules().size(), 1u);
  EXPECT_EQ(plan_.fired().size(), 2u);
}

TEST_F(FaultPlanTest, AnEmptyPlanReportsNoRules) { EXPECT_EQ(plan_.report(), "fault plan: 0 rules\n"); }

}  // namespace
}  // namespace kubesim::testing
