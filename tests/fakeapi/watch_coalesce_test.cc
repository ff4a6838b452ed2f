// coalesceWatch rules through the front door: each way two events for one object merge, the
// order and due instants of held events, bookmarks behind held events, the rule's window, count,
// probability and keys, and a watch that ends while it holds events.
#include "kubesim/fakeapi/watch_delivery.h"

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/process.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;
using Strings = std::vector<std::string>;

constexpr sim::Duration kLink = 5ms;  // one way, server to client

FaultRule coalesce_rule(sim::Duration hold_for) {
  return FaultRule{.verbs = {Verb::kWatch}, .effect = CoalesceWatchFault{hold_for}};
}

ServerOptions bookmarks_every(sim::Duration interval) {
  ServerOptions o;
  o.watch.bookmark_interval = interval;
  return o;
}

class CoalesceTest : public ::testing::Test {
 protected:
  explicit CoalesceTest(ServerOptions options = {}) : server_(loop_, std::move(options)) {
    loop_.trace().enable(&trace_);
    process_.set_link(std::make_shared<sim::NetworkLink>(loop_, kLink));
  }

  // A watch of ConfigMaps in "default" by `client`, from `rv`.
  std::unique_ptr<EventLog> watch(InProcessClient& client, Revision rv, bool bookmarks = false,
                                  std::optional<std::int64_t> timeout_seconds = {}) {
    api::ListOptions o;
    o.resource_version = std::to_string(rv);
    o.allow_watch_bookmarks = bookmarks;
    o.timeout_seconds = timeout_seconds;
    auto w = loop_.run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", o));
    EXPECT_TRUE(w.ok()) << w.status();
    if (!w.ok()) return nullptr;
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }
  // Runs `write` on the server at `at`.
  void at(Time when, std::function<void(ApiServer&)> write) {
    loop_.add_timer(when, [this, write = std::move(write)] { write(server_); });
  }
  static void create(ApiServer& s, const std::string& name, const std::string& v = "1") {
    ASSERT_TRUE(s.create(kConfigMaps, "default", config_map("default", name, {{"v", v}}),
                         api::CreateOptions())
                    .ok());
  }
  static void update(ApiServer& s, const std::string& name, const std::string& v) {
    auto current = s.get(kConfigMaps, "default", name, api::GetOptions());
    ASSERT_TRUE(current.ok());
    auto next = current.value()->edited([&](nlohmann::json& j) { j["data"]["v"] = v; });
    ASSERT_TRUE(s.update(kConfigMaps, "default", next, api::UpdateOptions()).ok());
  }
  static void remove(ApiServer& s, const std::string& name) {
    ASSERT_TRUE(s.delete_(kConfigMaps, "default", name, api::DeleteOptions()).ok());
  }
  std::size_t fault_lines() const {
    std::size_t n = 0;
    std::istringstream in(trace_.str());
    for (std::string line; std::getline(in, line);) {
      n += line.find("\"k\":\"fault\"") != std::string::npos &&
           line.find("coalesceWatch") != std::string::npos;
    }
    return n;
  }

  std::ostringstream trace_;
  sim::Loop loop_;
  ApiServer server_;
  sim::Process process_{loop_, "ctl-0"};
  InProcessClient client_{server_, process_};
};

// One object written twice within the hold time: what the client sees, and when.
struct MergeCase {
  const char* name;
  bool exists_first;                        // "a" exists (at revision 5) before the watch starts
  std::vector<std::function<void(ApiServer&)>> writes;  // at 1 s, 2 s, ...
  Strings seen;                              // all at 2 s + 3 s hold + link
};

TEST_F(CoalesceTest, TwoEventsForOneObjectMergeAsTheContractSays) {
  const std::vector<MergeCase> cases = {
      {"added+modified",
       false,
       {[](ApiServer& s) { create(s, "a"); }, [](ApiServer& s) { update(s, "a", "2"); }},
       {"ADDED default/a@6"}},
      {"added+deleted",
       false,
       {[](ApiServer& s) { create(s, "a"); }, [](ApiServer& s) { remove(s, "a"); }},
       {}},
      {"modified+modified",
       true,
       {[](ApiServer& s) { update(s, "a", "2"); }, [](ApiServer& s) { update(s, "a", "3"); }},
       {"MODIFIED default/a@7"}},
      {"modified+deleted",
       true,
       {[](ApiServer& s) { update(s, "a", "2"); }, [](ApiServer& s) { remove(s, "a"); }},
       {"DELETED default/a@7"}},
      {"deleted+added",
       true,
       {[](ApiServer& s) { remove(s, "a"); }, [](ApiServer& s) { create(s, "a", "new"); }},
       {"MODIFIED default/a@7"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    sim::Loop loop;
    ApiServer server(loop);
    sim::Process process(loop, "ctl-0");
    process.set_link(std::make_shared<sim::NetworkLink>(loop, kLink));
    InProcessClient client(server, process);
    if (c.exists_first) create(server, "a");
    api::ListOptions o;
    o.resource_version = std::to_string(server.revision());
    auto w = loop.run_until_complete(client.watch(sim::Context(), kConfigMaps, "default", o));
    ASSERT_TRUE(w.ok());
    EventLog log(loop, std::move(w.value()));
    server.faults().add(coalesce_rule(3s));  // after the watch started: it acts on it still
    for (std::size_t i = 0; i < c.writes.size(); ++i) {
      loop.add_timer(Time{} + std::chrono::seconds(i + 1), [&server, write = c.writes[i]] { write(server); });
    }
    const Time due = Time{} + 2s + 3s + kLink;
    loop.run_until(due - 1ns);
    EXPECT_EQ(log.size(), 0u);
    loop.run_until(due + 1s);
    EXPECT_EQ(describe(log.events()), c.seen);
    if (std::string(c.name) == "deleted+added") {
      ASSERT_EQ(log.size(), 1u);
      EXPECT_EQ(log[0].object->json()["data"]["v"], "new");  // the new object, its new uid
      EXPECT_EQ(log[0].object->uid(), server.get(kConfigMaps, "default", "a", {}).value()->uid());
    }
    if (std::string(c.name) == "added+modified") {
      EXPECT_EQ(log[0].object->json()["data"]["v"], "2");
    }
  }
}

TEST_F(CoalesceTest, HeldEventsAreDeliveredInResourceVersionOrderAtTheirDueInstants) {
  server_.faults().add(coalesce_rule(3s));
  auto log = watch(client_, 4);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });          // a@5, due 4 s
  at(Time{} + 2s, [](ApiServer& s) { create(s, "b"); });          // b@6, due 5 s
  at(Time{} + 3s, [](ApiServer& s) { update(s, "a", "2"); });     // a@7 replaces a@5, due 6 s
  loop_.run_until(Time{} + 5s + kLink - 1ns);
  EXPECT_EQ(describe(log->events()), Strings{});
  loop_.run_until(Time{} + 5s + kLink);
  EXPECT_EQ(describe(log->events()), Strings{"ADDED default/b@6"});
  loop_.run_until(Time{} + 6s + kLink - 1ns);
  EXPECT_EQ(log->size(), 1u);
  loop_.run_until(Time{} + 6s + kLink);
  EXPECT_EQ(describe(log->events()), (Strings{"ADDED default/b@6", "ADDED default/a@7"}));
  EXPECT_EQ(fault_lines(), 1u);  // the watch was taken once
}

TEST_F(CoalesceTest, WithoutTheRuleEveryVersionIsSeenAtOnce) {
  auto log = watch(client_, 4);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });
  at(Time{} + 2s, [](ApiServer& s) { update(s, "a", "2"); });
  loop_.run_until(Time{} + 2s + kLink);
  EXPECT_EQ(describe(log->events()), (Strings{"ADDED default/a@5", "MODIFIED default/a@6"}));
  EXPECT_EQ(fault_lines(), 0u);
}

class CoalesceBookmarkTest : public CoalesceTest {
 protected:
  CoalesceBookmarkTest() : CoalesceTest(bookmarks_every(2s)) {}
};

TEST_F(CoalesceBookmarkTest, ABookmarkWaitsBehindHeldEventsAndANewerOneReplacesIt) {
  server_.faults().add(coalesce_rule(5s));
  auto log = watch(client_, 4, /*bookmarks=*/true);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });  // a@5, due 6 s
  // Bookmarks at 2 s (@5) and 4 s (@6: a Secret was written at 3 s).
  at(Time{} + 3s, [](ApiServer& s) {
    auto secret = api::make_object({{"apiVersion", "v1"},
                                    {"kind", "Secret"},
                                    {"metadata", {{"name", "s"}, {"namespace", "default"}}}});
    ASSERT_TRUE(s.create(kSecrets, "default", secret, api::CreateOptions()).ok());
  });
  loop_.run_until(Time{} + 6s + kLink - 1ns);
  EXPECT_EQ(describe(log->events()), Strings{});
  loop_.run_until(Time{} + 6s + kLink);
  EXPECT_EQ(describe(log->events()), (Strings{"ADDED default/a@5", "BOOKMARK @6"}));
  // With nothing held, the next bookmark (at 6 s) passes at once.
  loop_.run_until(Time{} + 8s + kLink);
  EXPECT_EQ(describe(log->events()),
            (Strings{"ADDED default/a@5", "BOOKMARK @6", "BOOKMARK @6"}));
}

TEST_F(CoalesceTest, EventsHeldWhenTheWindowEndsAreStillDeliveredAtTheirDueTime) {
  FaultRule rule = coalesce_rule(3s);
  rule.until = Time{} + 4s;
  server_.faults().add(rule);
  auto log = watch(client_, 4);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });         // a@5
  at(Time{} + 2s, [](ApiServer& s) { update(s, "a", "2"); });    // a@6 replaces it, due 5 s
  // After the window: waits behind a@6, not merged with it.
  at(Time{} + 4500ms, [](ApiServer& s) { update(s, "a", "3"); });  // a@7
  at(Time{} + 6s, [](ApiServer& s) { update(s, "a", "4"); });      // a@8, nothing held: at once
  loop_.run_until(Time{} + 5s + kLink - 1ns);
  EXPECT_EQ(log->size(), 0u);
  loop_.run_until(Time{} + 5s + kLink);
  EXPECT_EQ(describe(log->events()), (Strings{"ADDED default/a@6", "MODIFIED default/a@7"}));
  loop_.run_until(Time{} + 6s + kLink);
  EXPECT_EQ(describe(log->events()),
            (Strings{"ADDED default/a@6", "MODIFIED default/a@7", "MODIFIED default/a@8"}));
}

TEST_F(CoalesceTest, AWatchThatEndsWhileHoldingLosesTheHeldEventsButAResumeSeesThem) {
  server_.faults().add(coalesce_rule(3s));
  auto log = watch(client_, 4, false, /*timeout_seconds=*/2);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });  // held until 4 s
  loop_.run_until(Time{} + 5s);
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(log->size(), 0u);
  // The client resumes from the last version it saw; this watch is held too (the rule has it).
  auto resumed = watch(client_, 4);
  loop_.run_until(Time{} + 8s + 2 * kLink);
  EXPECT_EQ(describe(resumed->events()), Strings{"ADDED default/a@5"});
}

TEST_F(CoalesceTest, CountCountsWatchesAndProbabilityIsDrawnOncePerWatch) {
  FaultRule rule = coalesce_rule(3s);
  rule.count = 1;
  server_.faults().add(rule);
  auto first = watch(client_, 4);
  auto second = watch(client_, 4);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });
  at(Time{} + 1500ms, [](ApiServer& s) { update(s, "a", "2"); });
  loop_.run_until(Time{} + 1500ms + kLink);
  // The first watch to get an event used the count; the other sees every version.
  EXPECT_EQ(first->size() + second->size(), 2u);
  loop_.run_until(Time{} + 5s);
  EXPECT_EQ(first->size() + second->size(), 3u);
  EXPECT_EQ(server_.faults().fired(server_.faults().rules()[0].id), 1);

  server_.faults().clear();
  FaultRule never = coalesce_rule(3s);
  never.probability = 0;
  server_.faults().add(never);
  auto third = watch(client_, 6);
  at(Time{} + 6s, [](ApiServer& s) { update(s, "a", "3"); });
  loop_.run_until(Time{} + 6s + kLink);
  EXPECT_EQ(describe(third->events()), Strings{"MODIFIED default/a@7"});
}

TEST_F(CoalesceTest, TheRuleMatchesTheWatchByProcessResourceAndNamespace) {
  sim::Process other(loop_, "ctl-1");
  InProcessClient other_client(server_, other);
  FaultRule rule = coalesce_rule(3s);
  rule.process = "ctl-0";
  rule.resource = "configmaps";
  rule.ns = "default";
  server_.faults().add(rule);
  FaultRule secrets = coalesce_rule(3s);
  secrets.resource = "secrets";
  server_.faults().add(secrets);
  auto mine = watch(client_, 4);
  auto theirs = watch(other_client, 4);
  at(Time{} + 1s, [](ApiServer& s) { create(s, "a"); });
  loop_.run_until(Time{} + 1s + kLink);
  EXPECT_EQ(mine->size(), 0u);
  EXPECT_EQ(describe(theirs->events()), Strings{"ADDED default/a@5"});
  loop_.run_until(Time{} + 4s + kLink);
  EXPECT_EQ(describe(mine->events()), Strings{"ADDED default/a@5"});
}

// The delivery filter by itself, over a hand-fed source: an ERROR event is not held.
TEST(DeliveredWatchTest, AnErrorEventPassesAtOnceAndDiscardsWhatIsHeld) {
  sim::Loop loop;
  FaultInjector faults(loop);
  faults.add(coalesce_rule(3s));
  auto [source, feed] = api::make_watch_pipe(loop);
  Request request;
  request.verb = Verb::kWatch;
  request.resource.resource = "configmaps";
  DeliveredWatch watch(std::move(source), faults, request, std::nullopt, false);
  ASSERT_TRUE(feed.send({api::EventType::kAdded, stored_config_map("default/a", 5)}));
  EXPECT_FALSE(watch.try_next(sim::Context()).has_value());
  EXPECT_EQ(watch.held(), 1u);
  ASSERT_TRUE(feed.send(api::WatchEvent::error(api::new_resource_expired("too old"))));
  auto event = watch.try_next(sim::Context());
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(event->type, api::EventType::kError);
  EXPECT_EQ(watch.held(), 0u);
}

}  // namespace
}  // namespace kubesim::fakeapi
