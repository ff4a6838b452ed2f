// The client-side token bucket on virtual time: burst at once, then exactly qps; a wait that
// would pass the deadline fails without taking a token; a cancelled wait gives its token back.
#include "api/rest/internal/rate_limiter.h"

#include <gtest/gtest.h>

#include <vector>

namespace kubesim::api::rest::internal {
namespace {

using namespace std::chrono_literals;

sim::Task<void> take(RateLimiter* limiter, sim::Loop* loop, sim::Context ctx,
                     std::vector<sim::Duration>* at, std::vector<Status>* failures) {
  auto denied = co_await limiter->wait(ctx);
  if (denied) {
    failures->push_back(*denied);
  } else {
    at->push_back(loop->now() - sim::Time{});
  }
}

// Virtual instants computed through floating-point token counts: equal to within a microsecond.
::testing::AssertionResult near(sim::Duration got, sim::Duration want) {
  if (std::chrono::abs(got - want) <= 1us) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << got.count() << "ns, want " << want.count() << "ns";
}

TEST(RateLimiterTest, BurstThenQps) {
  sim::Loop loop;
  RateLimiter limiter(loop, 5, 10);
  std::vector<sim::Duration> at;
  std::vector<Status> failures;
  for (int i = 0; i < 13; ++i) loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  loop.run_until_idle();
  ASSERT_EQ(at.size(), 13u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(at[i], 0ms) << i;
  EXPECT_TRUE(near(at[10], 200ms));
  EXPECT_TRUE(near(at[11], 400ms));
  EXPECT_TRUE(near(at[12], 600ms));
  // The bucket was 3 tokens short at 600 ms; a second later it holds 5.
  loop.run_for(1s);
  at.clear();
  for (int i = 0; i < 6; ++i) loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  loop.run_until_idle();
  ASSERT_EQ(at.size(), 6u);
  EXPECT_TRUE(near(at[4], 1600ms));
  EXPECT_TRUE(near(at[5], 1800ms));
  EXPECT_TRUE(failures.empty());
}

TEST(RateLimiterTest, WaitPastTheDeadlineFailsAtOnceAndTakesNothing) {
  sim::Loop loop;
  RateLimiter limiter(loop, 1, 1);
  std::vector<sim::Duration> at;
  std::vector<Status> failures;
  loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  auto short_ctx = sim::with_timeout(sim::Context(), loop, 500ms);
  loop.spawn(take(&limiter, &loop, short_ctx.ctx, &at, &failures));
  loop.run_until_idle();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].code, 0);
  EXPECT_EQ(failures[0].message,
            "client rate limiter Wait returned an error: rate: Wait(n=1) would exceed context deadline");
  // The refused request took nothing: the next one waits one period, not two.
  loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  loop.run_until_idle();
  ASSERT_EQ(at.size(), 2u);
  EXPECT_TRUE(near(at[1], 1s));
}

TEST(RateLimiterTest, CancelledWaitReturnsItsToken) {
  sim::Loop loop;
  RateLimiter limiter(loop, 1, 1);
  std::vector<sim::Duration> at;
  std::vector<Status> failures;
  loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  auto cancellable = sim::with_cancel(sim::Context());
  loop.spawn(take(&limiter, &loop, cancellable.ctx, &at, &failures));
  loop.run_for(100ms);
  cancellable.cancel();
  loop.run_for(1ms);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].message, "context canceled");
  loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  loop.run_until_idle();
  ASSERT_EQ(at.size(), 2u);
  EXPECT_TRUE(near(at[1], 1s));  // the cancelled reservation no longer holds its slot
}

TEST(RateLimiterTest, NegativeQpsIsUnlimited) {
  sim::Loop loop;
  RateLimiter limiter(loop, -1, 0);
  std::vector<sim::Duration> at;
  std::vector<Status> failures;
  for (int i = 0; i < 1000; ++i) loop.spawn(take(&limiter, &loop, sim::Context(), &at, &failures));
  loop.run_until_idle();
  EXPECT_EQ(at.size(), 1000u);
  EXPECT_EQ(at.back(), 0ms);
}

}  // namespace
}  // namespace kubesim::api::rest::internal
