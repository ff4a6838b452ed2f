// The timed behaviour of watches and reads over both transports, with the expectations of the
// core suites (tests/fakeapi/server_watch_test.cc, future_revision_test.cc): periodic bookmarks,
// timeoutSeconds, the min-request-timeout, and reads and watches at a revision the store has
// not reached (the watch cache waits fresh_wait for it, then answers 504 ResourceVersionTooLarge).
//
// The loop runs in real time here, so the server's timers are shortened (ServerOptions) to keep
// each case well under a second; the expectations are the core suite's, scaled. Only lower
// bounds of elapsed time are asserted: a loaded machine may be late, never early.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

using namespace std::chrono_literals;

constexpr auto kFreshWait = 300ms;
constexpr auto kBookmarkInterval = 200ms;

fakeapi::ServerOptions fast_timers() {
  fakeapi::ServerOptions o;
  o.watch.fresh_wait = kFreshWait;
  o.watch.bookmark_interval = kBookmarkInterval;
  return o;
}

class WatchTimersTest : public BothTransportsTest {
 protected:
  WatchTimersTest() : BothTransportsTest(fast_timers()) {}
  static ListOptions from(std::string rv) {
    ListOptions o;
    o.resource_version = std::move(rv);
    return o;
  }
  // The ResourceVersionTooLarge 504 of a read at `requested` while the store is at `current`.
  static void expect_too_large(const Status& s, int requested, int current) {
    EXPECT_TRUE(is_timeout(s)) << s;
    EXPECT_EQ(s.code, 504);
    EXPECT_EQ(s.message, "Timeout: Too large resource version: " + std::to_string(requested) +
                             ", current: " + std::to_string(current));
    ASSERT_TRUE(s.details.has_value()) << s;
    ASSERT_EQ(s.details->causes.size(), 1u) << s;
    EXPECT_EQ(s.details->causes[0].type, "ResourceVersionTooLarge");
    EXPECT_EQ(s.details->retry_after_seconds, 1);
  }
  sim::Duration since(sim::Time start) { return loop_.now() - start; }
};

TEST_P(WatchTimersTest, BookmarksComeOnlyWhenAllowed) {
  ListOptions with = from("4");
  with.allow_watch_bookmarks = true;
  auto bookmarked = watch(kConfigMaps, "default", with);
  ListOptions plain = from("4");
  plain.timeout_seconds = 1;
  auto unmarked = watch(kConfigMaps, "default", plain);
  ASSERT_TRUE(bookmarked && unmarked);
  create_cm("a");  // 5
  // Bookmarks come every interval, at the revision of the moment; one may come before the
  // create lands on a slow machine, so read up to the first one at 5.
  std::vector<std::string> seen;
  for (int i = 0; i < 20 && (seen.empty() || seen.back() != "BOOKMARK @5"); ++i) {
    auto e = take(*bookmarked, 1);
    ASSERT_EQ(e.size(), 1u);
    if (e[0].type == EventType::kBookmark) {
      EXPECT_EQ(e[0].object->kind(), "ConfigMap");
      EXPECT_FALSE(e[0].object->annotation("k8s.io/initial-events-end").has_value());
      if (e[0].object->resource_version() == "4") continue;
    }
    seen.push_back(describe(e)[0]);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"ADDED default/a@5", "BOOKMARK @5"}));
  // Five bookmark intervals pass before the plain watch's timeout: it got none.
  bool ended = false;
  EXPECT_EQ(describe(take_all(*unmarked, &ended)), (std::vector<std::string>{"ADDED default/a@5"}));
  EXPECT_TRUE(ended);
}

TEST_P(WatchTimersTest, TimeoutSecondsEndsTheStreamCleanly) {
  const sim::Time start = loop_.now();
  ListOptions o = from("4");
  o.timeout_seconds = 1;
  auto w = watch(kConfigMaps, "default", o);
  ASSERT_TRUE(w);
  create_cm("a");
  bool ended = false;
  EXPECT_EQ(describe(take_all(*w, &ended)), (std::vector<std::string>{"ADDED default/a@5"}));
  EXPECT_TRUE(ended);
  EXPECT_GE(since(start), 1s);
  EXPECT_EQ(api_->watches().watcher_count(), 0u);
}

TEST_P(WatchTimersTest, AWatchFromAFutureRevisionWaitsThenEndsWithTooLarge) {
  const sim::Time start = loop_.now();
  auto w = watch(kConfigMaps, "default", from("100"));
  ASSERT_TRUE(w);
  bool ended = false;
  auto events = take_all(*w, &ended);
  EXPECT_TRUE(ended);
  EXPECT_GE(since(start), kFreshWait);
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(events[0].type, EventType::kError);
  expect_too_large(*events[0].status(), 100, 4);
}

TEST_P(WatchTimersTest, AWatchFromAComingRevisionStartsWhenTheStoreReachesIt) {
  auto w = watch(kConfigMaps, "default", from("6"));
  ASSERT_TRUE(w);
  create_cm("a");  // 5
  create_cm("b");  // 6: the watch starts here
  create_cm("c");  // 7
  EXPECT_EQ(describe(take(*w, 1)), (std::vector<std::string>{"ADDED default/c@7"}));
}

// kube-apiserver serves a get or list at resourceVersion N > current from its watch cache once
// that reaches N, waiting up to 3 s before the 504.
TEST_P(WatchTimersTest, AGetAtAFutureRevisionWaitsThenIsTooLarge) {
  create_cm("a");  // 5
  const sim::Time start = loop_.now();
  GetOptions at;
  at.resource_version = "6";
  auto r = get(kConfigMaps, "default", "a", at);
  ASSERT_FALSE(r.ok());
  expect_too_large(r.status(), 6, 5);
  EXPECT_GE(since(start), kFreshWait);
}

TEST_P(WatchTimersTest, AListAtAFutureRevisionWaitsThenIsTooLarge) {
  for (const auto match : {ResourceVersionMatch::kNotOlderThan, ResourceVersionMatch::kExact,
                           ResourceVersionMatch::kUnset}) {
    const sim::Time start = loop_.now();
    ListOptions o = from("5");
    o.resource_version_match = match;
    auto r = list_cms("default", o);
    ASSERT_FALSE(r.ok());
    expect_too_large(r.status(), 5, 4);
    EXPECT_GE(since(start), kFreshWait) << to_string(match);
  }
}

INSTANTIATE_TEST_SUITE_P(Transports, WatchTimersTest, both_transports(), transport_name);

// Watches without timeoutSeconds end after a time in [min, 2·min) of --min-request-timeout.
class MinRequestTimeoutTest : public BothTransportsTest {
 protected:
  static fakeapi::ServerOptions options() {
    fakeapi::ServerOptions o;
    o.min_request_timeout = 300ms;
    return o;
  }
  MinRequestTimeoutTest() : BothTransportsTest(options()) {}
};

TEST_P(MinRequestTimeoutTest, AWatchWithoutTimeoutSecondsEndsAfterTheMinRequestTimeout) {
  const sim::Time start = loop_.now();
  ListOptions o;
  o.resource_version = "4";
  auto w = watch(kConfigMaps, "default", o);
  ASSERT_TRUE(w);
  bool ended = false;
  EXPECT_TRUE(take_all(*w, &ended).empty());
  EXPECT_TRUE(ended);
  EXPECT_GE(loop_.now() - start, 300ms);
}

INSTANTIATE_TEST_SUITE_P(Transports, MinRequestTimeoutTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
