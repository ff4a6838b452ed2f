// Watch starts, ends and filters over both transports, with the expectations of the core suite
// (tests/fakeapi/server_watch_test.cc): replay from a revision then live, the state as ADDED,
// sendInitialEvents, 410 for a compacted revision, selectors and namespaces, restart and stop.
// Timed behaviour (bookmarks, timeoutSeconds, future revisions) is in fakeapi_watch_timers_test.cc.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class WatchReplayTest : public BothTransportsTest {
 protected:
  static ListOptions from(std::string rv) {
    ListOptions o;
    o.resource_version = std::move(rv);
    return o;
  }
  ObjectPtr edit_cm(const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    auto current = must(get_cm(name));
    return current ? must(update_cm(current->edited(edit))) : nullptr;
  }
};

TEST_P(WatchReplayTest, AWatchFromARevisionReplaysTheChangesAfterItThenGoesLive) {
  create_cm("a");                                                 // 5
  create_cm("b");                                                 // 6
  edit_cm("a", [](nlohmann::json& j) { j["data"]["k"] = "w"; });  // 7
  auto w = watch(kConfigMaps, "default", from("5"));
  ASSERT_TRUE(w);
  EXPECT_EQ(describe(take(*w, 2)), (std::vector<std::string>{"ADDED default/b@6", "MODIFIED default/a@7"}));
  ASSERT_TRUE(delete_cm("b").ok());  // 8
  EXPECT_EQ(describe(take(*w, 1)), (std::vector<std::string>{"DELETED default/b@8"}));
}

TEST_P(WatchReplayTest, AWatchFromTheCurrentRevisionSeesOnlyNewChanges) {
  create_cm("a");
  auto w = watch(kConfigMaps, "default", from("5"));
  ASSERT_TRUE(w);
  create_cm("b");
  EXPECT_EQ(describe(take(*w, 1)), (std::vector<std::string>{"ADDED default/b@6"}));
}

TEST_P(WatchReplayTest, AWatchWithoutAResourceVersionStartsWithTheStateAsAdded) {
  create_cm("b");
  create_cm("a");
  edit_cm("b", [](nlohmann::json& j) { j["data"]["k"] = "w"; });  // 7
  for (const std::string rv : {"", "0"}) {
    auto w = watch(kConfigMaps, "default", from(rv));
    ASSERT_TRUE(w);
    EXPECT_EQ(describe(take(*w, 2)), (std::vector<std::string>{"ADDED default/a@6", "ADDED default/b@7"}))
        << "rv=" << rv;
  }
}

TEST_P(WatchReplayTest, SendInitialEventsSendsTheCurrentStateThenAnAnnotatedBookmark) {
  create_cm("a");  // 5
  create_cm("b");  // 6
  for (const std::string rv : {"", "5"}) {
    ListOptions o = from(rv);
    o.send_initial_events = true;
    o.resource_version_match = ResourceVersionMatch::kNotOlderThan;
    o.allow_watch_bookmarks = true;
    auto w = watch(kConfigMaps, "default", o);
    ASSERT_TRUE(w);
    auto events = take(*w, 3);
    EXPECT_EQ(describe(events), (std::vector<std::string>{"ADDED default/a@5", "ADDED default/b@6", "BOOKMARK @6"}))
        << "rv=" << rv;
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[2].object->annotation("k8s.io/initial-events-end"), "true");
    EXPECT_EQ(events[2].object->kind(), "ConfigMap");
    EXPECT_EQ(events[2].object->api_version(), "v1");
  }
}

TEST_P(WatchReplayTest, SendInitialEventsWithoutBookmarksHasNoEndBookmark) {
  create_cm("a");
  ListOptions o;
  o.send_initial_events = true;
  o.resource_version_match = ResourceVersionMatch::kNotOlderThan;
  auto w = watch(kConfigMaps, "default", o);
  ASSERT_TRUE(w);
  create_cm("marker");
  EXPECT_EQ(describe(take(*w, 2)), (std::vector<std::string>{"ADDED default/a@5", "ADDED default/marker@6"}));
}

TEST_P(WatchReplayTest, SendInitialEventsFalseStartsAtTheCurrentRevision) {
  create_cm("a");
  ListOptions o;
  o.send_initial_events = false;
  o.resource_version_match = ResourceVersionMatch::kNotOlderThan;
  auto w = watch(kConfigMaps, "default", o);
  ASSERT_TRUE(w);
  create_cm("b");
  EXPECT_EQ(describe(take(*w, 1)), (std::vector<std::string>{"ADDED default/b@6"}));
}

TEST_P(WatchReplayTest, ACompactedRevisionGetsOne410ErrorAndTheCompactedOneCanBeWatched) {
  create_cm("a");
  create_cm("b");
  api_->compact_now();  // at 6
  auto w = watch(kConfigMaps, "default", from("5"));
  ASSERT_TRUE(w);
  bool ended = false;
  auto events = take_all(*w, &ended);
  EXPECT_TRUE(ended);
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(events[0].type, EventType::kError);
  const Status s = *events[0].status();
  EXPECT_TRUE(is_resource_expired(s)) << s;
  EXPECT_EQ(s.code, 410);
  EXPECT_EQ(s.message, "too old resource version: 5 (6)");
  auto ok = watch(kConfigMaps, "default", from("6"));
  ASSERT_TRUE(ok);
  create_cm("c");
  EXPECT_EQ(describe(take(*ok, 1)), (std::vector<std::string>{"ADDED default/c@7"}));
}

TEST_P(WatchReplayTest, ALabelSelectorTurnsEnteringAndLeavingIntoAddedAndDeleted) {
  ListOptions o = from("4");
  o.label_selector = "color=red";
  auto w = watch(kConfigMaps, "default", o);
  ASSERT_TRUE(w);
  create_cm("a", "v", {{"color", "blue"}});                                                // 5: not selected
  edit_cm("a", [](nlohmann::json& j) { j["metadata"]["labels"]["color"] = "red"; });    // 6: enters
  edit_cm("a", [](nlohmann::json& j) { j["data"]["k"] = "w"; });                        // 7: stays
  edit_cm("a", [](nlohmann::json& j) { j["metadata"]["labels"]["color"] = "green"; });  // 8: leaves
  ASSERT_TRUE(delete_cm("a").ok());                                                       // 9: not selected
  create_cm("marker", "v", {{"color", "red"}});                                           // 10
  auto events = take(*w, 4);
  EXPECT_EQ(describe(events), (std::vector<std::string>{"ADDED default/a@6", "MODIFIED default/a@7",
                                                        "DELETED default/a@8", "ADDED default/marker@10"}));
  ASSERT_EQ(events.size(), 4u);
  // Leaving the selection: the previous content with the resourceVersion of the change.
  EXPECT_EQ(events[2].object->label("color"), "red");
  EXPECT_EQ(events[2].object->json()["data"]["k"], "w");
}

TEST_P(WatchReplayTest, AFieldSelectorWatchSeesOnlyItsObject) {
  ListOptions o = from("4");
  o.field_selector = "metadata.name=b";
  auto w = watch(kConfigMaps, "default", o);
  ASSERT_TRUE(w);
  create_cm("a");
  create_cm("b");
  ASSERT_TRUE(delete_cm("a").ok());
  ASSERT_TRUE(delete_cm("b").ok());
  EXPECT_EQ(describe(take(*w, 2)), (std::vector<std::string>{"ADDED default/b@6", "DELETED default/b@8"}));
}

TEST_P(WatchReplayTest, ANamespaceWatchSeesOnlyItsNamespace) {
  ASSERT_TRUE(create_namespace("other"));  // 5
  auto in_default = watch(kConfigMaps, "default", from("5"));
  auto everywhere = watch(kConfigMaps, "", from("5"));
  ASSERT_TRUE(in_default && everywhere);
  create_cm("a", "v", nlohmann::json::object(), "other");
  create_cm("b");
  EXPECT_EQ(describe(take(*in_default, 1)), (std::vector<std::string>{"ADDED default/b@7"}));
  EXPECT_EQ(describe(take(*everywhere, 2)), (std::vector<std::string>{"ADDED other/a@6", "ADDED default/b@7"}));
}

TEST_P(WatchReplayTest, ARestartEndsEveryWatchAndKeepsTheState) {
  auto a = watch(kConfigMaps, "default", from("4"));
  auto b = watch(kConfigMaps, "", from("4"));
  ASSERT_TRUE(a && b);
  create_cm("a");
  EXPECT_EQ(describe(take(*a, 1)), (std::vector<std::string>{"ADDED default/a@5"}));
  api_->restart();
  bool a_ended = false;
  bool b_ended = false;
  EXPECT_TRUE(take_all(*a, &a_ended).empty());
  EXPECT_EQ(describe(take_all(*b, &b_ended)), (std::vector<std::string>{"ADDED default/a@5"}));
  EXPECT_TRUE(a_ended);
  EXPECT_TRUE(b_ended);
  EXPECT_TRUE(get_cm("a").ok());
}

TEST_P(WatchReplayTest, StoppingAStreamEndsItAndRemovesTheServersWatcher) {
  auto w = watch(kConfigMaps, "default", from("4"));
  ASSERT_TRUE(w);
  create_cm("a");
  EXPECT_EQ(take(*w, 1).size(), 1u);
  EXPECT_EQ(api_->watches().watcher_count(), 1u);
  w->stop();
  EXPECT_FALSE(run(w->next(ctx())).has_value());
  // The server learns of it through the stream (a closed connection, over HTTP): a write makes
  // every watcher look, and the stopped one goes.
  for (int i = 0; i < 50 && api_->watches().watcher_count() != 0; ++i) create_cm("poke-" + std::to_string(i));
  EXPECT_EQ(api_->watches().watcher_count(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Transports, WatchReplayTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
