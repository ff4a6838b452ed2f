#include "kubesim/informer/reflector.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cluster.h"
#include "running_reflector.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/sim/context.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using testing::Cluster;
using testing::CountingStore;
using testing::kConfigMaps;
using testing::list_then_watch;
using testing::RecordingListerWatcher;
using testing::Running;

TEST(ReflectorTest, ListsFromZeroThenWatchesFromTheListsResourceVersion) {
  Cluster c;
  for (int i = 0; i < 3; ++i) c.create("default", "cm-" + std::to_string(i));
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(1s);
  ASSERT_GE(lw.requests.size(), 2u);
  EXPECT_EQ(lw.requests[0].verb, "list");
  EXPECT_EQ(lw.requests[0].options.resource_version, "0");
  EXPECT_EQ(lw.requests[1].verb, "watch");
  EXPECT_EQ(lw.requests[1].options.resource_version, c.revision());
  EXPECT_TRUE(lw.requests[1].options.allow_watch_bookmarks);
  EXPECT_EQ(store.state(), c.server_state());
  EXPECT_EQ(run.reflector.last_sync_resource_version(), c.revision());

  auto obj = c.create("default", "late");
  c.touch(obj, "x");
  c.remove("default", "cm-0");
  c.loop.run_for(1s);
  EXPECT_EQ(store.state(), c.server_state());
  EXPECT_EQ(store.adds, 1);
  EXPECT_EQ(store.updates, 1);
  EXPECT_EQ(store.deletes, 1);
  EXPECT_EQ(run.reflector.last_sync_resource_version(), c.revision());
}

TEST(ReflectorTest, WatchTimeoutsAreRandomBetweenFiveAndTenMinutesAndAWatchIsReopened) {
  Cluster c;
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(2h);
  EXPECT_EQ(lw.count("list"), 1) << "a watch that times out is re-opened without a re-list";
  ASSERT_GE(lw.count("watch"), 12);
  for (const auto& r : lw.requests) {
    if (r.verb != "watch") continue;
    ASSERT_TRUE(r.options.timeout_seconds);
    EXPECT_GE(*r.options.timeout_seconds, 300);
    EXPECT_LT(*r.options.timeout_seconds, 600);
  }
}

TEST(ReflectorTest, AnExpiredFirstListFallsBackToAConsistentPaginatedList) {
  Cluster c;
  for (int i = 0; i < 1200; ++i) c.create("default", "cm-" + std::to_string(i));
  fakeapi::FaultRule expired;
  expired.verbs = {fakeapi::Verb::kList};
  expired.effect = fakeapi::ErrorFault{api::new_resource_expired("too old")};
  expired.count = 1;
  c.server.faults().add(expired);
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(1s);
  ASSERT_GE(lw.requests.size(), 5u);
  EXPECT_EQ(lw.requests[0].options.resource_version, "0");
  EXPECT_EQ(lw.requests[0].options.limit, 500);
  EXPECT_EQ(lw.requests[1].options.resource_version, "") << "after Expired: a consistent read";
  EXPECT_EQ(lw.requests[1].options.limit, 500);
  EXPECT_FALSE(lw.requests[2].options.continue_token.empty());
  EXPECT_FALSE(lw.requests[3].options.continue_token.empty());
  EXPECT_EQ(lw.requests[4].verb, "watch");
  EXPECT_EQ(store.replaces, 1);
  EXPECT_EQ(store.replaced_sizes.front(), 1200u);
  EXPECT_EQ(store.state(), c.server_state());
}

TEST(ReflectorTest, AnExpiredContinueFallsBackToAFullList) {
  Cluster c;
  for (int i = 0; i < 1200; ++i) c.create("default", "cm-" + std::to_string(i));
  fakeapi::FaultRule expired;
  expired.verbs = {fakeapi::Verb::kList};
  expired.effect = fakeapi::ErrorFault{api::new_resource_expired("too old")};
  expired.count = 1;
  c.server.faults().add(expired);
  fakeapi::FaultRule gone_continue;
  gone_continue.effect = fakeapi::ForceGoneFault{};
  gone_continue.verbs = {fakeapi::Verb::kList};
  gone_continue.count = 1;
  c.server.faults().add(gone_continue);
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(1s);
  ASSERT_GE(lw.requests.size(), 4u);
  EXPECT_FALSE(lw.requests[2].options.continue_token.empty());
  EXPECT_EQ(lw.requests[3].verb, "list");
  EXPECT_TRUE(lw.requests[3].options.continue_token.empty());
  EXPECT_EQ(lw.requests[3].options.limit, 0) << "the fallback asks for everything at once";
  EXPECT_EQ(store.replaced_sizes, (std::vector<std::size_t>{1200}));
  EXPECT_EQ(store.state(), c.server_state());
}

TEST(ReflectorTest, RelistsAfterAWatchGets410BecauseHistoryWasCompacted) {
  Cluster c;
  auto obj = c.create("default", "a");
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(1s);
  const std::string seen = run.reflector.last_sync_resource_version();
  // All in one instant: the watch is cut, writes happen that it never saw, history goes.
  c.server.restart();
  c.touch(obj, "1");
  c.create("default", "b");
  c.server.compact_now();
  const sim::Time cut = c.loop.now();
  c.loop.run_for(10s);
  EXPECT_EQ(store.state(), c.server_state());
  ASSERT_EQ(lw.count("list"), 2);
  const testing::Request* relist = nullptr;
  for (const auto& r : lw.requests) {
    if (r.verb == "list") relist = &r;
  }
  EXPECT_EQ(relist->options.resource_version, seen) << "a re-list asks for at least what was seen";
  EXPECT_EQ(relist->options.limit, 0) << "a re-list at a resourceVersion is not paginated";
  const sim::Duration wait = relist->at - cut;
  EXPECT_GE(wait, 800ms) << "the re-list waits for the backoff";
  EXPECT_LT(wait, 1600ms + 50ms);
}

TEST(ReflectorTest, BookmarksAdvanceTheResourceVersionSoAWatchSurvivesCompaction) {
  Cluster c;
  c.create("default", "a");
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(1s);
  // Other resources move the revision on; only bookmarks tell the reflector.
  for (int i = 0; i < 5; ++i) {
    auto secret = api::make_object({{"apiVersion", "v1"}, {"kind", "Secret"},
                                    {"metadata", {{"name", "s" + std::to_string(i)}, {"namespace", "default"}}}});
    ASSERT_TRUE(c.server.create(testing::kSecrets, "default", secret, api::CreateOptions()).ok());
  }
  c.loop.run_for(61s);
  ASSERT_FALSE(store.bookmarks.empty());
  EXPECT_EQ(run.reflector.last_sync_resource_version(), c.revision());
  c.server.compact_now();
  c.server.restart();
  c.loop.run_for(10s);
  EXPECT_EQ(lw.count("list"), 1) << "re-watching from the bookmark's revision needs no re-list";
}

TEST(ReflectorTest, FailedListsBackOffExponentiallyWithJitter) {
  Cluster c;
  c.server.faults().add(testing::failing_lists(8));
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  ReflectorOptions options = list_then_watch();
  std::vector<api::Status> errors;
  options.watch_error_handler = [&](Reflector&, const api::Status& s) { errors.push_back(s); };
  Running run(c, lw, store, options);
  c.loop.run_for(10min);
  std::vector<sim::Time> lists;
  for (const auto& r : lw.requests) {
    if (r.verb == "list") lists.push_back(r.at);
  }
  ASSERT_EQ(lists.size(), 9u) << "eight failures, then the list that works";
  ASSERT_EQ(errors.size(), 8u);
  EXPECT_TRUE(api::is_internal_error(errors.front()));
  sim::Duration base = 800ms;
  for (std::size_t i = 1; i < lists.size(); ++i) {
    const sim::Duration gap = lists[i] - lists[i - 1];
    // base·[1, 2) of jitter, plus the round trip of the failed call (a few ms).
    EXPECT_GE(gap, base) << "attempt " << i;
    EXPECT_LT(gap, 2 * base + 20ms) << "attempt " << i;
    base = std::min<sim::Duration>(2 * base, 30s);
  }
  EXPECT_EQ(store.replaces, 1);
}

TEST(ReflectorTest, TooManyRequestsOnAWatchBacksOffAndWatchesAgainWithoutAList) {
  Cluster c;
  fakeapi::FaultRule throttled;
  throttled.verbs = {fakeapi::Verb::kWatch};
  throttled.effect = fakeapi::ErrorFault{api::new_too_many_requests("slow down", 1)};
  throttled.count = 2;
  c.server.faults().add(throttled);
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, list_then_watch());
  c.loop.run_for(30s);
  EXPECT_EQ(lw.count("list"), 1);
  EXPECT_EQ(lw.count("watch"), 3);
  auto obj = c.create("default", "a");
  c.loop.run_for(1s);
  EXPECT_EQ(store.state(), c.server_state());
}

TEST(ReflectorTest, StreamingListFillsTheStoreInOneReplaceAndKeepsTheStream) {
  Cluster c;
  for (int i = 0; i < 7; ++i) c.create("default", "cm-" + std::to_string(i));
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, ReflectorOptions());
  c.loop.run_for(1s);
  ASSERT_EQ(lw.requests.size(), 1u);
  const api::ListOptions& o = lw.requests[0].options;
  EXPECT_EQ(lw.requests[0].verb, "watch");
  EXPECT_EQ(o.send_initial_events, std::optional<bool>(true));
  EXPECT_EQ(o.resource_version_match, api::ResourceVersionMatch::kNotOlderThan);
  EXPECT_TRUE(o.allow_watch_bookmarks);
  EXPECT_EQ(o.resource_version, "");
  EXPECT_EQ(store.replaced_sizes, (std::vector<std::size_t>{7}));
  EXPECT_EQ(store.adds, 0) << "the initial events go to the store as one replace";
  EXPECT_EQ(run.reflector.last_sync_resource_version(), c.revision());
  c.create("default", "late");
  c.loop.run_for(1s);
  EXPECT_EQ(lw.requests.size(), 1u) << "the same stream carries on as the watch";
  EXPECT_EQ(store.adds, 1);
  EXPECT_EQ(store.state(), c.server_state());
}

TEST(ReflectorTest, StreamingListFallsBackToAPaginatedListOnError) {
  Cluster c;
  c.create("default", "a");
  fakeapi::FaultRule broken;
  broken.verbs = {fakeapi::Verb::kWatch};
  broken.effect = fakeapi::ErrorFault{api::new_internal_error("no streaming today")};
  broken.count = 1;
  c.server.faults().add(broken);
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, ReflectorOptions());
  c.loop.run_for(1s);
  ASSERT_GE(lw.requests.size(), 3u);
  EXPECT_EQ(lw.requests[1].verb, "list");
  EXPECT_EQ(lw.requests[1].options.limit, 500);
  EXPECT_EQ(lw.requests[2].verb, "watch");
  EXPECT_FALSE(lw.requests[2].options.send_initial_events.has_value());
  EXPECT_EQ(store.state(), c.server_state());
}

TEST(ReflectorTest, AnExpiredStreamingReListIsRetriedAsAStreamFromTheLatestState) {
  Cluster c;
  c.create("default", "a");
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Running run(c, lw, store, ReflectorOptions());  // streaming list, the default
  c.loop.run_for(1s);
  const std::string seen = run.reflector.last_sync_resource_version();
  // The next watch is refused with 410: the streaming re-list after the server's restart.
  fakeapi::FaultRule gone;
  gone.effect = fakeapi::ForceGoneFault{};
  gone.verbs = {fakeapi::Verb::kWatch};
  gone.count = 1;
  c.server.faults().add(gone);
  c.server.restart();
  c.create("default", "b");
  c.loop.run_for(10s);
  EXPECT_EQ(store.state(), c.server_state());
  EXPECT_EQ(lw.count("list"), 0) << "an expired streaming list is retried as one, not paginated";
  ASSERT_EQ(lw.requests.size(), 3u);
  const auto& relist = lw.requests[1].options;
  EXPECT_EQ(relist.send_initial_events, std::optional<bool>(true));
  EXPECT_EQ(relist.resource_version, seen) << "a re-list first asks for at least what was seen";
  const auto& latest = lw.requests[2].options;
  EXPECT_EQ(latest.send_initial_events, std::optional<bool>(true));
  EXPECT_EQ(latest.resource_version, "") << "after a 410 the stream starts from the latest state";
  EXPECT_LT(lw.requests[2].at - lw.requests[1].at, 800ms)
      << "a 410 is retried as soon as it arrives, without the backoff (800 ms at least)";
  EXPECT_EQ(run.reflector.last_sync_resource_version(), c.revision());
}

TEST(ReflectorTest, ResyncsEveryPeriodWhenAsked) {
  Cluster c;
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  ReflectorOptions options;
  options.resync_period = 30s;
  bool allow = true;
  options.should_resync = [&] { return allow; };
  Running run(c, lw, store, options);
  c.loop.run_for(95s);
  EXPECT_EQ(store.resyncs, 3);
  allow = false;
  c.loop.run_for(60s);
  EXPECT_EQ(store.resyncs, 3);
}

TEST(ReflectorTest, ResourceVersionChoiceFollowsClientGo) {
  Cluster c;
  RecordingListerWatcher lw(c, kConfigMaps);
  CountingStore store;
  Reflector reflector(c.process.clock(), lw, store);
  EXPECT_EQ(reflector.relist_resource_version(), "0");
  EXPECT_EQ(reflector.rewatch_resource_version(), "");
}

}  // namespace
}  // namespace kubesim::informer
