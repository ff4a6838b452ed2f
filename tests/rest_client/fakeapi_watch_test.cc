// Watches over both transports against the same fake API server: events in order from a list's
// resourceVersion, DELETED at the deletion's revision, 410 for a compacted revision, initial
// events with their bookmark, and selector watches.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

using WatchTest = BothTransportsTest;

std::string describe_event(const WatchEvent& e) {
  return std::string(to_string(e.type)) + " " + std::string(e.object->name()) + "@" +
         std::string(e.object->resource_version());
}

TEST_P(WatchTest, EventsFromAListsResourceVersionInOrder) {
  create_cm("before");
  auto listed = run(c().list(ctx(), kConfigMaps, "default", ListOptions()));
  ASSERT_TRUE(listed.ok());
  ListOptions from;
  from.resource_version = listed->resource_version;
  auto w = run(c().watch(ctx(), kConfigMaps, "default", from));
  ASSERT_TRUE(w.ok()) << w.status();
  ObjectPtr a = create_cm("a", "1");
  auto updated = run(c().update(ctx(), kConfigMaps, "default",
                                a->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }), UpdateOptions()));
  ASSERT_TRUE(updated.ok());
  ASSERT_TRUE(run(c().delete_(ctx(), kConfigMaps, "default", "a", DeleteOptions())).ok());
  const std::string deletion_rv = std::to_string(api_->revision());
  auto events = take(*w.value(), 3);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(describe_event(events[0]), "ADDED a@" + std::string(a->resource_version()));
  EXPECT_EQ(describe_event(events[1]), "MODIFIED a@" + std::string(updated.value()->resource_version()));
  EXPECT_EQ(describe_event(events[2]), "DELETED a@" + deletion_rv);
  EXPECT_EQ(events[1].object->json()["data"]["k"], "2");
  w.value()->stop();
  EXPECT_FALSE(run(w.value()->next(ctx())).has_value());
}

TEST_P(WatchTest, CompactedRevisionIsA410ErrorEventThenTheEnd) {
  ObjectPtr a = create_cm("a");
  create_cm("b");
  api_->compact_now();
  ListOptions old;
  old.resource_version = std::string(a->resource_version());
  auto w = run(c().watch(ctx(), kConfigMaps, "default", old));
  ASSERT_TRUE(w.ok()) << w.status();
  auto events = take(*w.value(), 2);
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(events[0].type, EventType::kError);
  const Status s = *events[0].status();
  EXPECT_TRUE(is_resource_expired(s));
  EXPECT_EQ(s.code, 410);
  EXPECT_EQ(s.message, too_old_resource_version_message(std::stoll(old.resource_version),
                                                        static_cast<std::int64_t>(api_->revision())));
}

TEST_P(WatchTest, InitialEventsEndWithAnAnnotatedBookmark) {
  create_cm("a");
  create_cm("b");
  ListOptions o;
  o.send_initial_events = true;
  o.resource_version_match = ResourceVersionMatch::kNotOlderThan;
  o.allow_watch_bookmarks = true;
  auto w = run(c().watch(ctx(), kConfigMaps, "default", o));
  ASSERT_TRUE(w.ok()) << w.status();
  create_cm("c");
  auto events = take(*w.value(), 4);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, EventType::kAdded);
  EXPECT_EQ(events[1].type, EventType::kAdded);
  ASSERT_EQ(events[2].type, EventType::kBookmark);
  EXPECT_EQ(events[2].object->annotation("k8s.io/initial-events-end"), "true");
  EXPECT_EQ(describe_event(events[3]).substr(0, 7), "ADDED c");
}

TEST_P(WatchTest, LabelSelectorWatchSeesObjectsEnterAndLeave) {
  ListOptions o;
  o.label_selector = "team=blue";
  auto w = run(c().watch(ctx(), kConfigMaps, "default", o));
  ASSERT_TRUE(w.ok()) << w.status();
  ObjectPtr red = create_cm("x", "v", {{"team", "red"}});
  auto blue = run(c().update(ctx(), kConfigMaps, "default", red->with_labels({{"team", "blue"}}),
                             UpdateOptions()));
  ASSERT_TRUE(blue.ok());
  auto green = run(c().update(ctx(), kConfigMaps, "default", blue.value()->with_labels({{"team", "green"}}),
                              UpdateOptions()));
  ASSERT_TRUE(green.ok());
  auto events = take(*w.value(), 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(describe_event(events[0]), "ADDED x@" + std::string(blue.value()->resource_version()));
  EXPECT_EQ(describe_event(events[1]), "DELETED x@" + std::string(green.value()->resource_version()));
}

TEST_P(WatchTest, ManyEventsArriveInOrder) {
  auto w = run(c().watch(ctx(), kConfigMaps, "default", ListOptions()));
  ASSERT_TRUE(w.ok()) << w.status();
  ObjectPtr obj = create_cm("n", "0");
  for (int i = 1; i <= 200; ++i) {
    auto r = run(c().update(ctx(), kConfigMaps, "default",
                            obj->edited([i](nlohmann::json& j) { j["data"]["k"] = std::to_string(i); }),
                            UpdateOptions()));
    ASSERT_TRUE(r.ok()) << r.status();
    obj = r.value();
  }
  auto events = take(*w.value(), 201);
  ASSERT_EQ(events.size(), 201u);
  for (int i = 0; i <= 200; ++i) EXPECT_EQ(events[i].object->json()["data"]["k"], std::to_string(i));
}

INSTANTIATE_TEST_SUITE_P(Transports, WatchTest,
                         ::testing::Values(Transport::kInProcess, Transport::kRest), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
