#include "kubesim/workqueue/rate_limiter.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/loop.h"

namespace kubesim::workqueue {
namespace {

using namespace std::chrono_literals;
using sim::Duration;
using sim::Loop;
using sim::Time;

std::vector<Duration> whens(RateLimiter<std::string>& l, const std::string& item, int n) {
  std::vector<Duration> out;
  for (int i = 0; i < n; ++i) out.push_back(l.when(item));
  return out;
}

TEST(ItemExponentialFailureRateLimiterTest, DoublesPerFailureOfEachItem) {
  ItemExponentialFailureRateLimiter<std::string> l(5ms, 1000s);
  EXPECT_EQ(whens(l, "a", 6), (std::vector<Duration>{5ms, 10ms, 20ms, 40ms, 80ms, 160ms}));
  EXPECT_EQ(l.num_requeues("a"), 6);
  EXPECT_EQ(l.when("b"), 5ms) << "failures are counted per item";
  EXPECT_EQ(l.num_requeues("b"), 1);
  l.forget("a");
  EXPECT_EQ(l.num_requeues("a"), 0);
  EXPECT_EQ(l.when("a"), 5ms);
  EXPECT_EQ(l.num_requeues("b"), 1);
  l.forget("never-seen");
}

TEST(ItemExponentialFailureRateLimiterTest, IsCappedAtItsMaximum) {
  ItemExponentialFailureRateLimiter<std::string> l(1ms, 1s);
  EXPECT_EQ(whens(l, "a", 12), (std::vector<Duration>{1ms, 2ms, 4ms, 8ms, 16ms, 32ms, 64ms, 128ms, 256ms, 512ms,
                                                      1s, 1s}));
}

TEST(ItemExponentialFailureRateLimiterTest, NeverOverflows) {
  ItemExponentialFailureRateLimiter<std::string> ms(1ms, 1000s);
  for (int i = 0; i < 1000; ++i) ms.when("overflow");
  EXPECT_EQ(ms.when("overflow"), 1000s);
  ItemExponentialFailureRateLimiter<std::string> minutes(1min, 1000h);
  EXPECT_EQ(whens(minutes, "a", 3), (std::vector<Duration>{1min, 2min, 4min}));
  for (int i = 0; i < 1000; ++i) minutes.when("overflow");
  EXPECT_EQ(minutes.when("overflow"), 1000h);
}

TEST(ExponentialFailureDelayTest, HandlesTheEdgesOfTheArithmetic) {
  const Duration max = Duration::max();
  EXPECT_EQ(exponential_failure_delay(1ns, max, 62), Duration(std::int64_t{1} << 62));
  EXPECT_EQ(exponential_failure_delay(1ns, max, 63), max) << "exponents above 62 never fit";
  EXPECT_EQ(exponential_failure_delay(1ns, 1s, 1'000'000), 1s);
  EXPECT_EQ(exponential_failure_delay(2ns, max, 62), max) << "2^63 ns does not fit";
  EXPECT_EQ(exponential_failure_delay(3ns, 1h, 61), 1h);
  EXPECT_EQ(exponential_failure_delay(0ns, 1h, 100), 0ns);
  EXPECT_EQ(exponential_failure_delay(5ms, 1000s, 0), 5ms);
  EXPECT_EQ(exponential_failure_delay(5ms, 1000s, 17), 655360ms);
  EXPECT_EQ(exponential_failure_delay(5ms, 1000s, 18), 1000s);
}

TEST(ItemFastSlowRateLimiterTest, SwitchesToSlowAfterTheFastAttempts) {
  ItemFastSlowRateLimiter<std::string> l(5ms, 10s, 3);
  EXPECT_EQ(whens(l, "a", 5), (std::vector<Duration>{5ms, 5ms, 5ms, 10s, 10s}));
  EXPECT_EQ(l.num_requeues("a"), 5);
  EXPECT_EQ(l.when("b"), 5ms);
  l.forget("a");
  EXPECT_EQ(l.num_requeues("a"), 0);
  EXPECT_EQ(whens(l, "a", 4), (std::vector<Duration>{5ms, 5ms, 5ms, 10s}));
}

TEST(MaxOfRateLimiterTest, ReturnsTheLongestDelayAndReachesEveryLimiter) {
  auto l = max_of<std::string>(std::make_unique<ItemFastSlowRateLimiter<std::string>>(5ms, 3s, 3),
                               std::make_unique<ItemExponentialFailureRateLimiter<std::string>>(1ms, 1s));
  EXPECT_EQ(whens(*l, "a", 5), (std::vector<Duration>{5ms, 5ms, 5ms, 3s, 3s}));
  EXPECT_EQ(l->num_requeues("a"), 5);
  l->forget("a");
  EXPECT_EQ(l->num_requeues("a"), 0);
  EXPECT_EQ(whens(*l, "a", 4), (std::vector<Duration>{5ms, 5ms, 5ms, 3s}));
  // Every limiter is asked on every call: the growing exponential delay wins over the fast one.
  auto e = max_of<std::string>(std::make_unique<ItemFastSlowRateLimiter<std::string>>(1ms, 2ms, 100),
                               std::make_unique<ItemExponentialFailureRateLimiter<std::string>>(1ms, 1s));
  EXPECT_EQ(whens(*e, "b", 4), (std::vector<Duration>{1ms, 2ms, 4ms, 8ms}));
}

TEST(WithMaxWaitRateLimiterTest, CapsTheDelay) {
  WithMaxWaitRateLimiter<std::string> l(std::make_unique<ItemExponentialFailureRateLimiter<std::string>>(1s, 1h),
                                        10s);
  EXPECT_EQ(whens(l, "a", 6), (std::vector<Duration>{1s, 2s, 4s, 8s, 10s, 10s}));
  EXPECT_EQ(l.num_requeues("a"), 6);
  l.forget("a");
  EXPECT_EQ(l.when("a"), 1s);
}

TEST(BucketRateLimiterTest, BurstThenOneEveryHundredMillisecondsAtTenQps) {
  Loop loop;
  BucketRateLimiter<std::string> l(loop.clock(), 10, 100);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(l.when("x" + std::to_string(i)), 0ns) << i;
  EXPECT_EQ(whens(l, "y", 4), (std::vector<Duration>{100ms, 200ms, 300ms, 400ms}));
  EXPECT_EQ(l.num_requeues("y"), 0);
  loop.run_for(1s);  // 10 tokens refill; 4 were owed
  for (int i = 0; i < 6; ++i) ASSERT_EQ(l.when("z"), 0ns) << i;
  EXPECT_EQ(whens(l, "z", 2), (std::vector<Duration>{100ms, 200ms}));
}

TEST(DefaultControllerRateLimiterTest, ExponentialPerItemAndTenQpsOverall) {
  Loop loop;
  auto l = default_controller_rate_limiter<std::string>(loop.clock());
  EXPECT_EQ(whens(*l, "a", 4), (std::vector<Duration>{5ms, 10ms, 20ms, 40ms}));
  for (int i = 0; i < 96; ++i) ASSERT_EQ(l->when("k" + std::to_string(i)), 5ms) << i;
  // The bucket is empty now: first failures of new items wait for tokens.
  EXPECT_EQ(l->when("late-1"), 100ms);
  EXPECT_EQ(l->when("late-2"), 200ms);
  EXPECT_EQ(l->num_requeues("a"), 4);
  l->forget("a");
  EXPECT_EQ(l->num_requeues("a"), 0);
}

TEST(DefaultItemBasedRateLimiterTest, StartsAtOneMillisecond) {
  auto l = default_item_based_rate_limiter<std::string>();
  EXPECT_EQ(whens(*l, "a", 3), (std::vector<Duration>{1ms, 2ms, 4ms}));
}

TEST(RateLimiterConfigTest, RejectsBadConfigurationWithAClearMessage) {
  Loop loop;
  EXPECT_THROW((ItemExponentialFailureRateLimiter<std::string>(-1ms, 1s)), std::invalid_argument);
  EXPECT_THROW((ItemFastSlowRateLimiter<std::string>(1ms, 1s, -1)), std::invalid_argument);
  EXPECT_THROW((WithMaxWaitRateLimiter<std::string>(nullptr, 1s)), std::invalid_argument);
  EXPECT_THROW(max_of<std::string>(std::unique_ptr<RateLimiter<std::string>>()), std::invalid_argument);
  try {
    TokenBucket bucket(loop.clock(), 10, -1);
    FAIL() << "a negative burst must be rejected";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("burst"), std::string::npos) << e.what();
  }
  EXPECT_THROW(TokenBucket(loop.clock(), -1, 1), std::invalid_argument);
}

// ---- the token bucket itself ----

TEST(TokenBucketTest, ReservationsMayBorrowAndSayHowLongToWait) {
  Loop loop;
  TokenBucket b(loop.clock(), 2, 3);
  EXPECT_DOUBLE_EQ(b.tokens(), 3);
  auto r = b.reserve_n(Time{}, 5);
  EXPECT_FALSE(r.ok()) << "more than the burst can never be honoured";
  EXPECT_EQ(r.delay_from(Time{}), kInfiniteDuration);
  EXPECT_DOUBLE_EQ(b.tokens(), 3) << "a failed reservation takes nothing";
  r = b.reserve_n(Time{}, 3);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.delay_from(Time{}), 0ns);
  r = b.reserve_n(Time{}, 2);
  EXPECT_EQ(r.time_to_act(), Time{} + 1s);
  EXPECT_EQ(r.delay_from(Time{} + 250ms), 750ms);
  EXPECT_EQ(r.delay_from(Time{} + 2s), 0ns);
  EXPECT_DOUBLE_EQ(b.tokens_at(Time{}), -2);
  EXPECT_DOUBLE_EQ(b.tokens_at(Time{} + 500ms), -1);
  EXPECT_DOUBLE_EQ(b.tokens_at(Time{} + 1h), 3) << "never more than the burst";
  EXPECT_FALSE(b.allow_n(Time{} + 500ms, 1));
  EXPECT_TRUE(b.allow_n(Time{} + 1500ms, 1));
}

TEST(TokenBucketTest, ZeroRateAllowsOnlyTheBurstAndInfiniteRateEverything) {
  Loop loop;
  TokenBucket none(loop.clock(), 0, 2);
  EXPECT_TRUE(none.allow());
  EXPECT_TRUE(none.allow());
  EXPECT_FALSE(none.allow());
  EXPECT_EQ(none.reserve().delay_from(Time{}), kInfiniteDuration);
  TokenBucket all(loop.clock(), kInfiniteRate, 0);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(all.allow());
  EXPECT_EQ(all.reserve_n(Time{}, 1'000'000).delay_from(Time{}), 0ns);
}

TEST(TokenBucketTest, RateChangesKeepTheTokensAccumulatedSoFar) {
  Loop loop;
  TokenBucket b(loop.clock(), 1, 10);
  (void)b.reserve_n(Time{}, 10);
  b.set_rate_at(Time{} + 2s, 4);  // 2 tokens by now, 4/s from here
  EXPECT_DOUBLE_EQ(b.tokens_at(Time{} + 2s), 2);
  EXPECT_DOUBLE_EQ(b.tokens_at(Time{} + 3s), 6);
  b.set_burst_at(Time{} + 3s, 5);
  EXPECT_DOUBLE_EQ(b.tokens_at(Time{} + 10s), 5);
  EXPECT_DOUBLE_EQ(every(100ms), 10);
  EXPECT_EQ(every(0s), kInfiniteRate);
}

// Over any window of admissions [a_i, a_j], the bucket admits at most burst + rate·(a_j - a_i).
RC_GTEST_PROP(TokenBucketProperty, NeverAdmitsMoreThanBurstPlusRateTimesTime, ()) {
  const double rate = *rc::gen::element(0.5, 1.0, 3.0, 10.0, 100.0, 1000.0);
  const int burst = *rc::gen::inRange(1, 20);
  const auto gaps = *rc::gen::container<std::vector<std::int64_t>>(rc::gen::inRange<std::int64_t>(0, 300'000'000));
  const auto sizes = *rc::gen::container<std::vector<int>>(gaps.size(), rc::gen::inRange(1, burst + 1));
  const auto mode = *rc::gen::container<std::vector<bool>>(gaps.size(), rc::gen::arbitrary<bool>());
  Loop loop;
  TokenBucket b(loop.clock(), rate, burst);
  std::vector<std::pair<Time, int>> admitted;  // (instant, tokens)
  Time t{};
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    t += Duration(gaps[i]);
    if (mode[i]) {
      auto r = b.reserve_n(t, sizes[i]);
      RC_ASSERT(r.ok());
      admitted.emplace_back(r.time_to_act(), sizes[i]);
    } else if (b.allow_n(t, sizes[i])) {
      admitted.emplace_back(t, sizes[i]);
    }
  }
  std::sort(admitted.begin(), admitted.end());
  for (std::size_t i = 0; i < admitted.size(); ++i) {
    double taken = 0;
    for (std::size_t j = i; j < admitted.size(); ++j) {
      taken += admitted[j].second;
      const double window = sim::to_seconds(admitted[j].first - admitted[i].first);
      // Reservation instants are truncated to the nanosecond: allow that much slack per window.
      RC_ASSERT(taken <= burst + rate * (window + 2e-9) + 1e-9);
    }
  }
}

}  // namespace
}  // namespace kubesim::workqueue
