// ApiServer::watch: replay and live events, initial events, bookmarks, timeouts, selectors,
// compaction and slow watchers.
#include "kubesim/fakeapi/server.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;
using sim::Time;

class ServerWatchTest : public ::testing::Test {
 protected:
  ServerWatchTest() : ServerWatchTest(ServerOptions()) {}
  explicit ServerWatchTest(ServerOptions options) : server_(loop_, std::move(options)) {}

  api::ObjectPtr create_cm(const std::string& name, const StringMap& labels = {}, const std::string& ns = "default") {
    auto r = server_.create(kConfigMaps, ns, config_map(ns, name, {{"k", "v"}}, labels), api::CreateOptions());
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  api::ObjectPtr update_cm(const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    auto current = server_.get(kConfigMaps, "default", name, api::GetOptions());
    EXPECT_TRUE(current.ok());
    auto r = server_.update(kConfigMaps, "default", current.value()->edited(edit), api::UpdateOptions());
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  void delete_cm(const std::string& name) {
    auto r = server_.delete_(kConfigMaps, "default", name, api::DeleteOptions());
    EXPECT_TRUE(r.ok()) << r.status();
  }
  std::unique_ptr<EventLog> watch(const std::string& ns, const api::ListOptions& options) {
    auto w = server_.watch(kConfigMaps, ns, options);
    EXPECT_TRUE(w.ok()) << w.status();
    if (!w.ok()) return nullptr;
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }
  static api::ListOptions from(std::string rv) {
    api::ListOptions o;
    o.resource_version = std::move(rv);
    return o;
  }

  sim::Loop loop_;
  ApiServer server_;
};

TEST_F(ServerWatchTest, AWatchFromARevisionReplaysTheChangesAfterItThenGoesLive) {
  create_cm("a");                                               // 5
  create_cm("b");                                               // 6
  update_cm("a", [](nlohmann::json& j) { j["data"]["k"] = "w"; });  // 7
  auto log = watch("default", from("5"));
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/b@6", "MODIFIED default/a@7"}));
  delete_cm("b");  // 8
  settle(loop_);
  EXPECT_EQ(describe(log->events()),
            (std::vector<std::string>{"ADDED default/b@6", "MODIFIED default/a@7", "DELETED default/b@8"}));
  EXPECT_FALSE(log->ended());
}

TEST_F(ServerWatchTest, AWatchFromTheCurrentRevisionSeesOnlyNewChanges) {
  create_cm("a");
  auto log = watch("default", from("5"));
  settle(loop_);
  EXPECT_EQ(log->size(), 0u);
  create_cm("b");
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/b@6"}));
}

TEST_F(ServerWatchTest, AWatchWithoutAResourceVersionStartsWithTheStateAsAdded) {
  create_cm("b");
  create_cm("a");
  update_cm("b", [](nlohmann::json& j) { j["data"]["k"] = "w"; });
  for (const std::string rv : {"", "0"}) {
    auto log = watch("default", from(rv));
    settle(loop_);
    EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@6", "ADDED default/b@7"}))
        << "rv=" << rv;
  }
}

TEST_F(ServerWatchTest, SendInitialEventsEndsTheStateWithAnAnnotatedBookmark) {
  create_cm("a");
  create_cm("b");
  api::ListOptions options;
  options.send_initial_events = true;
  options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
  options.allow_watch_bookmarks = true;
  auto log = watch("default", options);
  create_cm("c");
  settle(loop_);
  ASSERT_EQ(describe(log->events()),
            (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6", "BOOKMARK @6", "ADDED default/c@7"}));
  const auto& bookmark = (*log)[2].object;
  EXPECT_EQ(bookmark->annotation("k8s.io/initial-events-end"), "true");
  EXPECT_EQ(bookmark->kind(), "ConfigMap");
  EXPECT_EQ(bookmark->api_version(), "v1");
}

TEST_F(ServerWatchTest, SendInitialEventsFromAnOlderRevisionStillSendsTheCurrentState) {
  create_cm("a");
  create_cm("b");
  api::ListOptions options = from("5");
  options.send_initial_events = true;
  options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
  options.allow_watch_bookmarks = true;
  auto log = watch("default", options);
  settle(loop_);
  EXPECT_EQ(describe(log->events()),
            (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6", "BOOKMARK @6"}));
}

TEST_F(ServerWatchTest, SendInitialEventsWithoutBookmarksHasNoEndBookmark) {
  create_cm("a");
  api::ListOptions options;
  options.send_initial_events = true;
  options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
  auto log = watch("default", options);
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5"}));
}

TEST_F(ServerWatchTest, SendInitialEventsFalseStartsAtTheCurrentRevision) {
  create_cm("a");
  api::ListOptions options;
  options.send_initial_events = false;
  options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
  auto log = watch("default", options);
  create_cm("b");
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/b@6"}));
}

TEST_F(ServerWatchTest, AWatchFromACompactedRevisionGetsOne410ErrorAndEnds) {
  create_cm("a");
  create_cm("b");
  server_.compact_now();  // at 6
  auto log = watch("default", from("5"));
  settle(loop_);
  ASSERT_EQ(log->size(), 1u);
  EXPECT_EQ((*log)[0].type, api::EventType::kError);
  auto status = (*log)[0].status();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(api::is_resource_expired(*status));
  EXPECT_EQ(status->code, 410);
  EXPECT_EQ(status->message, "too old resource version: 5 (6)");
  EXPECT_TRUE(log->ended());
  // The compacted revision itself can still be watched from.
  auto ok = watch("default", from("6"));
  create_cm("c");
  settle(loop_);
  EXPECT_EQ(describe(ok->events()), (std::vector<std::string>{"ADDED default/c@7"}));
}

TEST_F(ServerWatchTest, ATooLargeResourceVersionWaitsThreeSecondsThenEndsWithTooLarge) {
  auto log = watch("default", from("100"));
  loop_.run_until(Time{} + 3s - 1ns);
  EXPECT_FALSE(log->ended());
  EXPECT_EQ(log->size(), 0u);
  loop_.run_until(Time{} + 3s);
  ASSERT_TRUE(log->ended());
  ASSERT_EQ(log->size(), 1u);
  ASSERT_EQ((*log)[0].type, api::EventType::kError);
  const api::Status status = *(*log)[0].status();
  EXPECT_EQ(status.code, 504);
  EXPECT_EQ(status.message, "Timeout: Too large resource version: 100, current: 4");
  ASSERT_TRUE(status.details.has_value());
  EXPECT_EQ(status.details->causes.at(0).type, "ResourceVersionTooLarge");
  EXPECT_EQ(status.details->retry_after_seconds, 1);
}

TEST_F(ServerWatchTest, AWatchFromAComingRevisionStartsWhenTheStoreReachesIt) {
  auto log = watch("default", from("6"));
  loop_.run_until(Time{} + 1s);
  create_cm("a");  // 5
  create_cm("b");  // 6: the watch starts here
  create_cm("c");  // 7
  loop_.run_until(Time{} + 10s);
  EXPECT_FALSE(log->ended());
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/c@7"}));
}

TEST_F(ServerWatchTest, EachWatcherGetsItsBookmarksOnItsOwnScheduleAndOneBeforeItsTimeout) {
  api::ListOptions early = from("4");
  early.allow_watch_bookmarks = true;
  auto first = watch("default", early);
  loop_.run_until(Time{} + 50s);
  api::ListOptions late = early;
  late.timeout_seconds = 100;
  auto second = watch("default", late);
  loop_.run_until(Time{} + 60s);
  EXPECT_EQ(first->size(), 1u);  // its minute
  EXPECT_EQ(second->size(), 0u);  // not yet its minute
  loop_.run_until(Time{} + 110s - 1ns);
  EXPECT_EQ(second->size(), 0u);
  loop_.run_until(Time{} + 110s);
  EXPECT_EQ(second->size(), 1u);
  // Deadline at 150 s: the next one comes 2 s before it, not a minute later.
  loop_.run_until(Time{} + 148s);
  EXPECT_EQ(describe(second->events()), (std::vector<std::string>{"BOOKMARK @4", "BOOKMARK @4"}));
  loop_.run_until(Time{} + 150s);
  EXPECT_TRUE(second->ended());
  EXPECT_EQ(second->size(), 2u);
}

TEST_F(ServerWatchTest, BookmarksComeEveryMinuteWhenAllowed) {
  api::ListOptions with = from("4");
  with.allow_watch_bookmarks = true;
  auto bookmarked = watch("default", with);
  auto plain = watch("default", from("4"));
  loop_.run_until(Time{} + 59s);
  EXPECT_EQ(bookmarked->size(), 0u);
  create_cm("a");  // 5
  loop_.run_until(Time{} + 60s);
  EXPECT_EQ(describe(bookmarked->events()), (std::vector<std::string>{"ADDED default/a@5", "BOOKMARK @5"}));
  create_cm("b");  // 6
  loop_.run_until(Time{} + 119s);
  EXPECT_EQ(bookmarked->size(), 3u);
  loop_.run_until(Time{} + 120s);
  EXPECT_EQ(describe(bookmarked->events()),
            (std::vector<std::string>{"ADDED default/a@5", "BOOKMARK @5", "ADDED default/b@6", "BOOKMARK @6"}));
  EXPECT_EQ(describe(plain->events()), (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6"}));
}

TEST_F(ServerWatchTest, TimeoutSecondsEndsTheStreamAtThatInstant) {
  loop_.run_until(Time{} + 5s);
  api::ListOptions options = from("4");
  options.timeout_seconds = 30;
  auto log = watch("default", options);
  create_cm("a");
  loop_.run_until(Time{} + 34s);
  EXPECT_FALSE(log->ended());
  loop_.run_until(Time{} + 35s);
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(log->ended_at(), Time{} + 35s);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/a@5"}));
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
}

class ServerWatchShortTimeoutTest : public ServerWatchTest {
 protected:
  static ServerOptions options() {
    ServerOptions o;
    o.min_request_timeout = std::chrono::minutes(1);
    return o;
  }
  ServerWatchShortTimeoutTest() : ServerWatchTest(options()) {}
};

TEST_F(ServerWatchShortTimeoutTest, WithoutTimeoutSecondsAWatchEndsBetweenOneAndTwoMinRequestTimeouts) {
  std::vector<std::unique_ptr<EventLog>> logs;
  for (int i = 0; i < 10; ++i) logs.push_back(watch("default", from("4")));
  loop_.run_until(Time{} + 60s - 1ns);
  for (const auto& log : logs) EXPECT_FALSE(log->ended());
  loop_.run_until(Time{} + 120s);
  bool distinct = false;
  for (const auto& log : logs) {
    EXPECT_TRUE(log->ended());
    EXPECT_GE(log->ended_at(), Time{} + 60s);
    EXPECT_LT(log->ended_at(), Time{} + 120s);
    distinct |= log->ended_at() != logs[0]->ended_at();
  }
  EXPECT_TRUE(distinct);
}

class ServerWatchBacklogTest : public ServerWatchTest {
 protected:
  static ServerOptions options() {
    ServerOptions o;
    o.watch.max_backlog = 5;
    return o;
  }
  ServerWatchBacklogTest() : ServerWatchTest(options()) {}
};

TEST_F(ServerWatchBacklogTest, AWatcherThatNeverReadsIsClosedAndTheWriterIsNeverBlocked) {
  auto unread = server_.watch(kConfigMaps, "default", from("4"));
  ASSERT_TRUE(unread.ok());
  auto reader = watch("default", from("4"));
  EXPECT_EQ(server_.watches().watcher_count(), 2u);
  for (int i = 0; i < 20; ++i) {
    create_cm("cm-" + std::to_string(i));
    settle(loop_);  // the reader keeps up; the unread watcher does not
  }
  EXPECT_EQ(server_.revision(), 24);
  EXPECT_EQ(server_.watches().closed_for_backlog(), 1u);
  EXPECT_EQ(server_.watches().watcher_count(), 1u);
  EXPECT_EQ(reader->size(), 20u);
  EXPECT_FALSE(reader->ended());
  // The closed watcher holds what was queued when it fell behind, then its stream ends.
  EventLog late(loop_, std::move(unread.value()));
  settle(loop_);
  EXPECT_EQ(late.size(), 6u);
  EXPECT_TRUE(late.ended());
}

TEST_F(ServerWatchBacklogTest, TheInitialEventsOfAWatchDoNotCountTowardsItsBacklog) {
  for (int i = 0; i < 12; ++i) create_cm("cm-" + std::to_string(i));
  auto unread = server_.watch(kConfigMaps, "default", api::ListOptions());  // 12 ADDED
  ASSERT_TRUE(unread.ok());
  auto replayed = server_.watch(kConfigMaps, "default", from("4"));  // 12 replayed
  ASSERT_TRUE(replayed.ok());
  EXPECT_EQ(server_.watches().closed_for_backlog(), 0u);
  for (int i = 0; i < 5; ++i) create_cm("more-" + std::to_string(i));
  EXPECT_EQ(server_.watches().closed_for_backlog(), 0u);
  create_cm("one-too-many");  // the sixth live event passes max_backlog
  EXPECT_EQ(server_.watches().closed_for_backlog(), 2u);
}

TEST_F(ServerWatchTest, ALabelSelectorTurnsEnteringAndLeavingIntoAddedAndDeleted) {
  auto log = [&] {
    api::ListOptions o = from("4");
    o.label_selector = "color=red";
    return watch("default", o);
  }();
  create_cm("a", {{"color", "blue"}});                                         // 5: not selected
  update_cm("a", [](nlohmann::json& j) { j["metadata"]["labels"]["color"] = "red"; });  // 6: enters
  update_cm("a", [](nlohmann::json& j) { j["data"]["k"] = "w"; });             // 7: stays
  update_cm("a", [](nlohmann::json& j) { j["metadata"]["labels"]["color"] = "green"; });  // 8: leaves
  delete_cm("a");                                                              // 9: not selected
  settle(loop_);
  ASSERT_EQ(describe(log->events()),
            (std::vector<std::string>{"ADDED default/a@6", "MODIFIED default/a@7", "DELETED default/a@8"}));
  // The DELETED event of an object leaving the selection carries its previous content with the
  // resourceVersion of the change.
  EXPECT_EQ((*log)[2].object->label("color"), "red");
  EXPECT_EQ(data_of((*log)[2].object, "k"), "w");
}

TEST_F(ServerWatchTest, AFieldSelectorWatchSeesOnlyItsObject) {
  api::ListOptions o = from("4");
  o.field_selector = "metadata.name=b";
  auto log = watch("default", o);
  create_cm("a");
  create_cm("b");
  delete_cm("a");
  delete_cm("b");
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"ADDED default/b@6", "DELETED default/b@8"}));
}

TEST_F(ServerWatchTest, ANamespaceWatchSeesOnlyItsNamespace) {
  ASSERT_TRUE(server_.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()).ok());  // 5
  auto in_default = watch("default", from("5"));
  auto everywhere = watch("", from("5"));
  create_cm("a", {}, "other");
  create_cm("b", {}, "default");
  settle(loop_);
  EXPECT_EQ(describe(in_default->events()), (std::vector<std::string>{"ADDED default/b@7"}));
  EXPECT_EQ(describe(everywhere->events()), (std::vector<std::string>{"ADDED other/a@6", "ADDED default/b@7"}));
}

TEST_F(ServerWatchTest, EveryWatcherGetsTheSameSharedObject) {
  auto one = watch("default", from("4"));
  auto two = watch("", from("4"));
  auto created = create_cm("a");
  settle(loop_);
  ASSERT_EQ(one->size(), 1u);
  ASSERT_EQ(two->size(), 1u);
  EXPECT_EQ((*one)[0].object.get(), (*two)[0].object.get());
  EXPECT_EQ((*one)[0].object.get(), created.get());
}

TEST_F(ServerWatchTest, RestartEndsEveryWatchAndKeepsTheState) {
  auto a = watch("default", from("4"));
  auto b = watch("", from("4"));
  create_cm("a");
  server_.restart();
  settle(loop_);
  EXPECT_TRUE(a->ended());
  EXPECT_TRUE(b->ended());
  EXPECT_EQ(a->size(), 1u);
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
  EXPECT_TRUE(server_.get(kConfigMaps, "default", "a", api::GetOptions()).ok());
}

TEST_F(ServerWatchTest, StoppingAStreamRemovesItsWatcher) {
  auto log = watch("default", from("4"));
  EXPECT_EQ(server_.watches().watcher_count(), 1u);
  log->stop();
  settle(loop_);
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
  create_cm("a");
  settle(loop_);
  EXPECT_EQ(log->size(), 0u);
}

TEST_F(ServerWatchTest, WatchErrorsAreReturnedBeforeAnyStream) {
  auto unknown = server_.watch(api::GroupVersionResource("", "v1", "gizmos"), "default", from(""));
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(api::is_not_found(unknown.status()));
  api::ListOptions bad = from("");
  bad.label_selector = "a in (";
  auto selector = server_.watch(kConfigMaps, "default", bad);
  ASSERT_FALSE(selector.ok());
  EXPECT_TRUE(api::is_bad_request(selector.status()));
  EXPECT_EQ(server_.watches().watcher_count(), 0u);
}

}  // namespace
}  // namespace kubesim::fakeapi
