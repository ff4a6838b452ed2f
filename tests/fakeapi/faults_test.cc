// Fault injection: every FaultKind through the in-process client or the server, matching rules,
// count / probability / time windows, the JSON form of rules, and the trace of every injection.
#include "kubesim/fakeapi/faults.h"

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

FaultRule error_rule(int code, api::StatusReason reason, std::string message) {
  api::Status status;
  status.code = code;
  status.reason = reason;
  status.message = std::move(message);
  return FaultRule::error(std::move(status));
}

sim::Task<void> discard(sim::Task<api::Result<api::ObjectPtr>> call) {
  auto r = co_await std::move(call);
  (void)r;
}

// Counts the trace lines of one kind.
std::size_t count_lines(const std::string& trace, const std::string& needle) {
  std::size_t n = 0;
  std::istringstream in(trace);
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

class FaultsTest : public ::testing::Test {
 protected:
  FaultsTest() {
    loop_.trace().enable(&trace_);
    process_.set_link(link_);
  }
  api::Result<api::ObjectPtr> get(InProcessClient& client, const std::string& name) {
    return loop_.run_until_complete(client.get(sim::Context(), kConfigMaps, "default", name, api::GetOptions()));
  }
  api::Result<api::ObjectPtr> create(InProcessClient& client, const std::string& name) {
    return loop_.run_until_complete(client.create(sim::Context(), kConfigMaps, "default",
                                                  config_map("default", name), api::CreateOptions()));
  }
  // A list or get through the front door, where the fault rules act (the server's operator calls
  // never see them).
  api::Result<api::ObjectList> served_list(const api::ListOptions& options) {
    return loop_.run_until_complete(client_.list(sim::Context(), kConfigMaps, "default", options));
  }
  api::Result<api::ObjectPtr> served_get(const std::string& name, const api::GetOptions& options) {
    return loop_.run_until_complete(client_.get(sim::Context(), kConfigMaps, "default", name, options));
  }
  void seed_object(const std::string& name) {
    ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", name), api::CreateOptions()).ok());
  }
  std::unique_ptr<EventLog> watch(InProcessClient& client, api::ListOptions options) {
    auto w = loop_.run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", options));
    EXPECT_TRUE(w.ok()) << w.status();
    if (!w.ok()) return nullptr;
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }
  static api::ListOptions from(Revision rv) {
    api::ListOptions o;
    o.resource_version = std::to_string(rv);
    return o;
  }

  std::ostringstream trace_;
  sim::Loop loop_;
  ApiServer server_{loop_};
  sim::Process process_{loop_, "replica-1"};
  std::shared_ptr<sim::NetworkLink> link_ = std::make_shared<sim::NetworkLink>(loop_, 5ms);
  InProcessClient client_{server_, process_};
};

TEST_F(FaultsTest, AnErrorRuleAnswersItsStatusWithoutTouchingTheServer) {
  for (const auto& [code, reason] : std::vector<std::pair<int, api::StatusReason>>{
           {500, api::StatusReason::kInternalError},
           {503, api::StatusReason::kServiceUnavailable},
           {429, api::StatusReason::kTooManyRequests},
           {409, api::StatusReason::kConflict},
           {504, api::StatusReason::kTimeout}}) {
    server_.faults().clear();
    FaultRule rule = error_rule(code, reason, "injected");
    if (code == 429) {
      rule.as<ErrorFault>()->status.details.emplace();
      rule.as<ErrorFault>()->status.details->retry_after_seconds = 7;
    }
    rule.verbs = {Verb::kCreate};
    server_.faults().add(rule);
    const Time sent = loop_.now();
    auto r = create(client_, "a");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code, code);
    EXPECT_EQ(r.status().reason, reason);
    EXPECT_EQ(r.status().message, "injected");
    // The error still crosses the link both ways.
    EXPECT_EQ(loop_.now(), sent + 10ms);
    EXPECT_EQ(server_.revision(), 4);
    if (code == 429) {
      EXPECT_TRUE(api::is_too_many_requests(r.status()));
      EXPECT_EQ(api::retry_after_seconds(r.status()), 7);
    }
  }
  EXPECT_EQ(count_lines(trace_.str(), "\"k\":\"fault\""), 5u);
}

TEST_F(FaultsTest, RulesMatchVerbResourceNamespaceNameAndProcess) {
  seed_object("a");
  seed_object("b");
  sim::Process other(loop_, "other");
  InProcessClient other_client(server_, other);
  FaultRule rule = error_rule(500, api::StatusReason::kInternalError, "boom");
  rule.verbs = {Verb::kGet};
  rule.resource = "configmaps";
  rule.ns = "default";
  rule.name = "a";
  rule.process = "replica-1";
  server_.faults().add(rule);
  EXPECT_FALSE(get(client_, "a").ok());
  EXPECT_TRUE(get(client_, "b").ok());        // other name
  EXPECT_TRUE(get(other_client, "a").ok());   // other process
  EXPECT_TRUE(create(client_, "c").ok());     // other verb
  auto secret = loop_.run_until_complete(
      client_.get(sim::Context(), kSecrets, "default", "a", api::GetOptions()));
  EXPECT_TRUE(api::is_not_found(status_of(secret)));  // other resource: the real answer
  EXPECT_EQ(count_lines(trace_.str(), "\"k\":\"fault\""), 1u);
}

TEST_F(FaultsTest, ACountedRuleFiresThatManyTimes) {
  seed_object("a");
  FaultRule rule = error_rule(503, api::StatusReason::kServiceUnavailable, "busy");
  rule.count = 2;
  server_.faults().add(rule);
  EXPECT_FALSE(get(client_, "a").ok());
  EXPECT_FALSE(get(client_, "a").ok());
  EXPECT_TRUE(get(client_, "a").ok());
  EXPECT_TRUE(get(client_, "a").ok());
  EXPECT_EQ(server_.faults().rules().at(0).count, 0);
}

TEST_F(FaultsTest, AProbableRuleFiresAboutThatOftenAndTheSeedDecidesWhich) {
  auto pattern = [](std::uint64_t seed) {
    sim::LoopOptions options;
    options.seed = seed;
    sim::Loop loop(options);
    ApiServer server(loop);
    EXPECT_TRUE(server.create(kConfigMaps, "default", config_map("default", "a"), api::CreateOptions()).ok());
    InProcessClient client(server, "tool");
    FaultRule rule = error_rule(500, api::StatusReason::kInternalError, "flaky");
    rule.probability = 0.3;
    server.faults().add(rule);
    std::string out;
    for (int i = 0; i < 1000; ++i) {
      auto r = loop.run_until_complete(client.get(sim::Context(), kConfigMaps, "default", "a", api::GetOptions()));
      out.push_back(r.ok() ? '.' : 'x');
    }
    return out;
  };
  const std::string a = pattern(7);
  const auto failures = std::count(a.begin(), a.end(), 'x');
  EXPECT_GT(failures, 240);
  EXPECT_LT(failures, 360);
  EXPECT_EQ(pattern(7), a);
  EXPECT_NE(pattern(8), a);
}

TEST_F(FaultsTest, AWindowedRuleFiresOnlyInsideItsWindow) {
  seed_object("a");
  InProcessClient direct(server_, "tool");
  FaultRule rule = error_rule(500, api::StatusReason::kInternalError, "window");
  rule.from = Time{} + 10s;
  rule.until = Time{} + 20s;
  server_.faults().add(rule);
  EXPECT_TRUE(get(direct, "a").ok());
  loop_.run_until(Time{} + 10s - 1ns);
  EXPECT_TRUE(get(direct, "a").ok());
  loop_.run_until(Time{} + 10s);
  EXPECT_FALSE(get(direct, "a").ok());
  loop_.run_until(Time{} + 20s - 1ns);
  EXPECT_FALSE(get(direct, "a").ok());
  loop_.run_until(Time{} + 20s);
  EXPECT_TRUE(get(direct, "a").ok());
}

TEST_F(FaultsTest, ALatencyRuleAddsExactlyItsDelayOnce) {
  seed_object("a");
  FaultRule rule = FaultRule::latency(100ms);
  rule.verbs = {Verb::kGet};
  server_.faults().add(rule);
  EXPECT_TRUE(get(client_, "a").ok());
  EXPECT_EQ(loop_.now(), Time{} + 110ms);
  EXPECT_EQ(count_lines(trace_.str(), "\"kind\":\"latency\""), 1u);
  EXPECT_TRUE(create(client_, "b").ok());  // not a get
  EXPECT_EQ(loop_.now(), Time{} + 120ms);
}

TEST_F(FaultsTest, ALatencyRuleDelaysTheRequestBeforeTheServerSeesIt) {
  server_.faults().add(FaultRule::latency(1s));
  loop_.spawn(discard(client_.create(sim::Context(), kConfigMaps, "default", config_map("default", "a"),
                                     api::CreateOptions())));
  loop_.run_until(Time{} + 1s + 5ms - 1ns);
  EXPECT_EQ(server_.revision(), 4);
  loop_.run_until(Time{} + 1s + 5ms);
  EXPECT_EQ(server_.revision(), 5);
}

TEST_F(FaultsTest, ADropWatchRuleCutsTheWatchAfterNEvents) {
  FaultRule rule = FaultRule::drop_watch(2);
  rule.count = 1;
  server_.faults().add(rule);
  auto log = watch(client_, from(4));
  for (const char* name : {"a", "b", "c"}) seed_object(name);
  loop_.run_until(Time{} + 1s);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6"}));
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
  // The rule is used up: the next watch is whole.
  auto next = watch(client_, from(4));
  loop_.run_until(Time{} + 2s);
  EXPECT_EQ(next->size(), 3u);
  EXPECT_FALSE(next->ended());
}

TEST_F(FaultsTest, AStalledWatchDeliversNothingUntilItTimesOut) {
  server_.faults().add(FaultRule::stall_watch());
  api::ListOptions options = from(4);
  options.timeout_seconds = 60;
  auto log = watch(client_, options);
  seed_object("a");
  loop_.run_until(Time{} + 59s);
  EXPECT_EQ(log->size(), 0u);
  EXPECT_FALSE(log->ended());
  // The server ends it at 5 ms + 60 s.
  loop_.run_until(Time{} + 61s);
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(log->size(), 0u);
}

TEST_F(FaultsTest, ForceGoneRefusesTheNextWatchWith410) {
  seed_object("a");
  FaultRule rule = FaultRule::force_gone();
  rule.count = 1;
  server_.faults().add(rule);
  auto gone = watch(client_, from(5));
  loop_.run_until(Time{} + 1s);
  ASSERT_EQ(gone->size(), 1u);
  EXPECT_EQ((*gone)[0].type, api::EventType::kError);
  auto status = (*gone)[0].status();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(api::is_resource_expired(*status));
  EXPECT_EQ(status->code, 410);
  EXPECT_TRUE(gone->ended());
  auto fine = watch(client_, from(5));
  seed_object("b");
  loop_.run_until(Time{} + 2s);
  EXPECT_EQ(describe(fine->events()), (std::vector<std::string>{"ADDED default/b@6"}));
}

TEST_F(FaultsTest, ForceGoneRefusesAListContinue) {
  for (const char* name : {"a", "b", "c"}) seed_object(name);
  api::ListOptions page;
  page.limit = 1;
  auto first = server_.list(kConfigMaps, "default", page);
  ASSERT_TRUE(first.ok());
  FaultRule rule = FaultRule::force_gone();
  rule.verbs = {Verb::kList};
  rule.count = 1;
  server_.faults().add(rule);
  // A list without continue is not affected and does not use the rule up.
  EXPECT_TRUE(served_list(page).ok());
  page.continue_token = first->continue_token;
  // The operator's own calls never meet fault rules.
  EXPECT_TRUE(server_.list(kConfigMaps, "default", page).ok());
  auto expired = served_list(page);
  ASSERT_FALSE(expired.ok());
  EXPECT_TRUE(api::is_resource_expired(expired.status()));
  EXPECT_TRUE(served_list(page).ok());
}

TEST_F(FaultsTest, AStaleReadServesTheStateFromStaleByAgo) {
  seed_object("a");  // 5 at 0 s
  loop_.run_until(Time{} + 10s);
  seed_object("b");  // 6 at 10 s
  loop_.run_until(Time{} + 20s);
  seed_object("c");  // 7 at 20 s
  loop_.run_until(Time{} + 25s);
  server_.faults().add(FaultRule::stale_read(10s));
  api::ListOptions any;
  any.resource_version = "0";
  auto stale = served_list(any);
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(stale->resource_version, "6");
  EXPECT_EQ(stale->items.size(), 2u);
  api::GetOptions get_any;
  get_any.resource_version = "0";
  EXPECT_TRUE(api::is_not_found(status_of(served_get("c", get_any))));
  // Reads that ask for the latest are never stale, and the operator's calls never meet the rule.
  auto latest = served_list(api::ListOptions());
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(latest->items.size(), 3u);
  EXPECT_TRUE(served_get("c", api::GetOptions()).ok());
  EXPECT_EQ(server_.list(kConfigMaps, "default", any)->items.size(), 3u);
  EXPECT_EQ(count_lines(trace_.str(), "\"kind\":\"staleRead\""), 2u);
}

TEST_F(FaultsTest, AStaleReadNeverGoesBehindCompaction) {
  seed_object("a");
  loop_.run_until(Time{} + 10s);
  seed_object("b");
  server_.compact_now();  // at 6
  server_.faults().add(FaultRule::stale_read(1h));
  api::ListOptions any;
  any.resource_version = "0";
  auto stale = served_list(any);
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(stale->resource_version, "6");
  EXPECT_EQ(stale->items.size(), 2u);
}

TEST_F(FaultsTest, EveryInjectionIsTraced) {
  seed_object("a");
  seed_object("b");
  auto rule = [](const std::string& id, FaultEffect effect, std::vector<Verb> verbs) {
    return FaultRule{.id = id, .verbs = std::move(verbs), .count = 1, .effect = std::move(effect)};
  };
  server_.faults().add(rule("e", ErrorFault{api::new_internal_error("injected")}, {Verb::kGet}));
  server_.faults().add(rule("l", LatencyFault{1s}, {Verb::kCreate}));
  server_.faults().add(rule("d", DropWatchFault{}, {Verb::kWatch}));
  server_.faults().add(rule("s", StallWatchFault{}, {Verb::kWatch}));
  server_.faults().add(rule("g", ForceGoneFault{}, {Verb::kList}));
  server_.faults().add(rule("r", StaleReadFault{1s}, {Verb::kList}));

  EXPECT_FALSE(get(client_, "a").ok());
  EXPECT_TRUE(create(client_, "c").ok());
  auto log = watch(client_, from(4));
  settle(loop_);  // the watch's faults are drawn when its events start to flow
  api::ListOptions any;
  any.resource_version = "0";
  EXPECT_TRUE(served_list(any).ok());
  api::ListOptions page;
  page.limit = 1;
  auto first = served_list(page);
  ASSERT_TRUE(first.ok());
  page.continue_token = first->continue_token;
  EXPECT_TRUE(api::is_resource_expired(status_of(served_list(page))));

  std::map<std::string, std::string> fired;  // rule id -> kind
  std::istringstream in(trace_.str());
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j["k"] != "fault") continue;
    EXPECT_EQ(fired.count(j["f"]["rule"]), 0u) << line;
    fired[j["f"]["rule"]] = j["f"]["kind"];
  }
  EXPECT_EQ(fired, (std::map<std::string, std::string>{{"e", "error"},
                                                       {"l", "latency"},
                                                       {"d", "dropWatch"},
                                                       {"s", "stallWatch"},
                                                       {"g", "forceGone"},
                                                       {"r", "staleRead"}}));
}

TEST_F(FaultsTest, InjectorIdsAndRemoval) {
  FaultInjector& f = server_.faults();
  EXPECT_EQ(f.add(FaultRule()), "rule-1");
  EXPECT_EQ(f.add(FaultRule()), "rule-2");
  FaultRule named;
  named.id = "mine";
  named.probability = 0.5;
  EXPECT_EQ(f.add(named), "mine");
  named.probability = 0.25;
  EXPECT_EQ(f.add(named), "mine");  // same id: replaced
  EXPECT_EQ(f.rules().size(), 3u);
  EXPECT_EQ(f.rules().back().probability, 0.25);
  EXPECT_TRUE(f.remove("rule-1"));
  EXPECT_FALSE(f.remove("rule-1"));
  EXPECT_EQ(f.rules().size(), 2u);
  f.clear();
  EXPECT_TRUE(f.rules().empty());
}

}  // namespace
}  // namespace kubesim::fakeapi
