#include "kubesim/sim/wait.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <ostream>
#include <vector>

#include "kubesim/sim/backoff.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;
using std::chrono::seconds;

// ---- jitter and Backoff::step ----

TEST(JitterTest, StaysWithinDurationAndDurationPlusFactorTimesDuration) {
  struct Case {
    Duration d;
    double factor;
    Duration hi;  // exclusive
  };
  // A factor <= 0 means 1.0, as in client-go.
  const Case cases[] = {
      {1s, 0.5, 1500ms},    {1s, 1.0, 2s},      {1s, 0.0, 2s},   {1s, -3.0, 2s},
      {800ms, 1.2, 1760ms}, {5ms, 0.1, 5500us}, {30s, 2.0, 90s},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.d.count() << "ns factor " << c.factor);
    Rng rng(42);
    Duration lo = Duration::max();
    Duration hi = Duration::min();
    for (int i = 0; i < 10'000; ++i) {
      const Duration j = jitter(c.d, c.factor, rng);
      lo = std::min(lo, j);
      hi = std::max(hi, j);
    }
    EXPECT_GE(lo, c.d);
    EXPECT_LT(hi, c.hi);
    // The draws cover the range, not one corner of it.
    const Duration span = c.hi - c.d;
    EXPECT_LT(lo, c.d + span / 10);
    EXPECT_GT(hi, c.hi - span / 10);
  }
}

TEST(JitterTest, OfZeroIsZeroAndTinyDurationsDoNotGrow) {
  Rng rng(1);
  EXPECT_EQ(jitter(Duration::zero(), 1.0, rng), Duration::zero());
  // 10 ns with factor 0.05 can add at most 0.5 ns, which truncates away.
  for (int i = 0; i < 100; ++i) EXPECT_EQ(jitter(10ns, 0.05, rng), 10ns);
}

TEST(JitterTest, SameSeedSameDraws) {
  Rng a(9);
  Rng b(9);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(jitter(1s, 1.0, a), jitter(1s, 1.0, b));
}

TEST(BackoffTest, StepSequences) {
  struct Case {
    const char* name;
    Backoff backoff;
    std::vector<Duration> expected;
    int steps_after;
  };
  const Case cases[] = {
      {"capped", Backoff{10ms, 2.0, 0.0, 4, 50ms}, {10ms, 20ms, 40ms, 50ms, 50ms, 50ms}, 0},
      // Once the steps run out the last computed duration repeats.
      {"uncapped", Backoff{10ms, 2.0, 0.0, 3, Duration::zero()}, {10ms, 20ms, 40ms, 80ms, 80ms}, 0},
      {"fractional factor",
       Backoff{100ms, 1.5, 0.0, 4, Duration::zero()},
       {100ms, 150ms, 225ms, 337500us, 506250us, 506250us},
       0},
      {"factor zero is constant", Backoff{1s, 0.0, 0.0, 5, Duration::zero()}, {1s, 1s, 1s}, 2},
      {"no steps", Backoff{7ms, 2.0, 0.0, 0, Duration::zero()}, {7ms, 7ms, 7ms}, 0},
      {"cap below the first duration still returns it once",
       Backoff{100ms, 2.0, 0.0, 10, 50ms},
       {100ms, 50ms, 50ms},
       0},
      {"many steps",
       Backoff{1ms, 2.0, 0.0, 100, 1s},
       {1ms, 2ms, 4ms, 8ms, 16ms, 32ms, 64ms, 128ms, 256ms, 512ms, 1s, 1s},
       0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Backoff b = c.backoff;
    Rng rng(1);
    std::vector<Duration> got;
    for (std::size_t i = 0; i < c.expected.size(); ++i) got.push_back(b.step(rng));
    EXPECT_EQ(got, c.expected);
    EXPECT_EQ(b.steps, c.steps_after);
  }
}

TEST(BackoffTest, JitteredStepsStayAboveTheNominalSequence) {
  const std::vector<Duration> nominal = {100ms, 200ms, 400ms, 800ms, 1600ms, 1600ms};
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Backoff b{100ms, 2.0, 0.5, 4, Duration::zero()};
    Rng rng(seed);
    for (Duration n : nominal) {
      const Duration d = b.step(rng);
      EXPECT_GE(d, n) << seed;
      EXPECT_LT(d, n + n / 2) << seed;
    }
  }
}

// ---- ExponentialBackoffManager ----

TEST(ExponentialBackoffManagerTest, DoublesUpToTheCap) {
  Loop loop;
  Rng rng(1);
  ExponentialBackoffManager m(loop.clock(), rng, 800ms, 30s, 2min, 2.0, 0.0);
  const std::vector<Duration> expected = {800ms,   1600ms, 3200ms, 6400ms, 12800ms,
                                          25600ms, 30s,    30s,    30s};
  std::vector<Duration> got;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    got.push_back(m.next());
    loop.run_for(got.back());  // the caller waits, then fails again
  }
  EXPECT_EQ(got, expected);
}

TEST(ExponentialBackoffManagerTest, StartsOverAfterMoreThanTheResetPeriod) {
  Loop loop;
  Rng rng(1);
  ExponentialBackoffManager m(loop.clock(), rng, 800ms, 30s, 2min, 2.0, 0.0);
  EXPECT_EQ(m.next(), 800ms);
  EXPECT_EQ(m.next(), 1600ms);
  loop.run_for(2min);  // exactly the reset period: no reset
  EXPECT_EQ(m.next(), 3200ms);
  loop.run_for(2min + 1ns);
  EXPECT_EQ(m.next(), 800ms);
  EXPECT_EQ(m.next(), 1600ms);
  // The period is measured from the previous call, not from the first.
  for (int i = 0; i < 10; ++i) {
    loop.run_for(1min);
    EXPECT_NE(m.next(), 800ms) << i;
  }
}

TEST(ExponentialBackoffManagerTest, MeasuresTheResetPeriodOnItsClock) {
  struct Case {
    const char* name;
    double rate;
    Duration local_step;  // a step of the clock's wall reading, at once
    Duration true_gap;
    Duration expected_third;
  };
  const Case cases[] = {
      {"fast clock: 61 s true is 122 s local", 2.0, Duration::zero(), 61s, 800ms},
      {"slow clock: 3 min true is 90 s local", 0.5, Duration::zero(), 3min, 3200ms},
      // client-go's backoff manager measures with clock.Since, Go's monotonic reading: a wall
      // step neither resets it nor delays a reset.
      {"a wall step forward", 1.0, 3min, Duration::zero(), 3200ms},
      {"a wall step back", 1.0, -3min, 3min, 800ms},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Loop loop;
    Clock clock(loop);
    clock.set_rate(c.rate);
    Rng rng(1);
    ExponentialBackoffManager m(clock, rng, 800ms, 30s, 2min, 2.0, 0.0);
    EXPECT_EQ(m.next(), 800ms);
    EXPECT_EQ(m.next(), 1600ms);
    clock.step(c.local_step);
    loop.run_for(c.true_gap);
    EXPECT_EQ(m.next(), c.expected_third);
  }
}

TEST(ExponentialBackoffManagerTest, JitterAddsUpToTheFactorTimesTheNominalWait) {
  Loop loop;
  Rng rng(5);
  ExponentialBackoffManager m(loop.clock(), rng, 800ms, 30s, 2min, 2.0, 1.0);
  const std::vector<Duration> nominal = {800ms, 1600ms, 3200ms, 6400ms, 12800ms, 25600ms, 30s, 30s};
  for (Duration n : nominal) {
    const Duration d = m.next();
    EXPECT_GE(d, n);
    EXPECT_LT(d, 2 * n);
    loop.run_for(d);
  }
}

// ---- until, non_sliding_until, jitter_until ----

struct Span {
  Time start;
  Time end;
  Span(Time s, Time e) : start(s), end(e) {}
  bool operator==(const Span&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Span& s) {
  return os << "[" << s.start.time_since_epoch().count() << "ns, "
            << s.end.time_since_epoch().count() << "ns]";
}

struct Runs {
  std::vector<Span> spans;
  Time returned{};
  bool finished = false;
};

// A unit of work that takes `takes` of virtual time (less when ctx ends first).
Task<void> work(Loop* loop, Context ctx, Duration takes, Runs* runs) {
  const Time start = loop->now();
  co_await sleep_for(ctx, *loop, takes);
  runs->spans.emplace_back(start, loop->now());
}

Task<void> stamp_return(Loop* loop, Task<void> inner, Runs* runs) {
  co_await std::move(inner);
  runs->returned = loop->now();
  runs->finished = true;
}

std::vector<Span> spans_s(std::initializer_list<std::pair<int, int>> list) {
  std::vector<Span> out;
  for (auto [s, e] : list) out.emplace_back(Time{} + seconds(s), Time{} + seconds(e));
  return out;
}

TEST(UntilTest, SlidingAndNonSlidingPeriodsAtExactInstants) {
  struct Case {
    const char* name;
    bool sliding;
    Duration takes;
    Duration deadline;
    std::vector<Span> spans;
  };
  const Case cases[] = {
      // The period starts after fn returns: 3 s of work + 10 s of wait.
      {"sliding", true, 3s, 45s, spans_s({{0, 3}, {13, 16}, {26, 29}, {39, 42}})},
      // The period starts when fn starts.
      {"non-sliding", false, 3s, 45s, spans_s({{0, 3}, {10, 13}, {20, 23}, {30, 33}, {40, 43}})},
      // Work longer than the period: non-sliding runs again at once.
      {"non-sliding overrun", false, 15s, 50s, spans_s({{0, 15}, {15, 30}, {30, 45}, {45, 50}})},
      {"sliding overrun", true, 15s, 55s, spans_s({{0, 15}, {25, 40}, {50, 55}})},
      {"instant work", true, 0s, 25s, spans_s({{0, 0}, {10, 10}, {20, 20}})},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Loop loop;
    Runs runs;
    auto t = with_timeout(Context(), loop, c.deadline);
    Context ctx = t.ctx;
    const Duration takes = c.takes;
    AsyncFn fn = [&loop, ctx, takes, &runs] { return work(&loop, ctx, takes, &runs); };
    if (c.sliding) {
      loop.spawn(stamp_return(&loop, until(ctx, &loop.clock(), 10s, fn), &runs));
    } else {
      loop.spawn(stamp_return(&loop, non_sliding_until(ctx, &loop.clock(), 10s, fn), &runs));
    }
    loop.run_until_idle();
    EXPECT_EQ(runs.spans, c.spans);
    ASSERT_TRUE(runs.finished);
    EXPECT_EQ(runs.returned, Time{} + c.deadline);
    EXPECT_EQ(loop.live_tasks(), 0u);
  }
}

TEST(UntilTest, PeriodIsMeasuredOnTheClockGiven) {
  Loop loop;
  Clock fast(loop);
  fast.set_rate(2.0);  // 10 s on this clock pass in 5 s of true time
  Runs runs;
  auto t = with_timeout(Context(), loop, 12s);
  Context ctx = t.ctx;
  AsyncFn fn = [&loop, ctx, &runs] { return work(&loop, ctx, 0s, &runs); };
  loop.spawn(stamp_return(&loop, until(ctx, &fast, 10s, fn), &runs));
  loop.run_until_idle();
  EXPECT_EQ(runs.spans, spans_s({{0, 0}, {5, 5}, {10, 10}}));
  EXPECT_EQ(runs.returned, Time{} + 12s);
}

TEST(UntilTest, ADoneContextRunsNothing) {
  Loop loop;
  Runs runs;
  auto c = with_cancel(Context());
  c.cancel();
  Context ctx = c.ctx;
  AsyncFn fn = [&loop, ctx, &runs] { return work(&loop, ctx, 0s, &runs); };
  loop.run_until_complete(until(ctx, &loop.clock(), 1s, fn));
  EXPECT_TRUE(runs.spans.empty());
  EXPECT_EQ(loop.now(), Time{});
}

Task<void> cancel_on_call(CancelFunc cancel, int cancel_on, int* calls) {
  if (++*calls == cancel_on) cancel();
  co_return;
}

TEST(UntilTest, CancellingFromInsideFnStopsWithoutAnotherWait) {
  Loop loop;
  auto c = with_cancel(Context());
  int calls = 0;
  CancelFunc cancel = c.cancel;
  AsyncFn fn = [cancel, &calls] { return cancel_on_call(cancel, 3, &calls); };
  loop.run_until_complete(until(c.ctx, &loop.clock(), 10s, fn));
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(loop.now(), Time{} + 20s);
}

std::vector<Time> jittered_starts(std::uint64_t seed) {
  Loop loop(LoopOptions{.seed = seed});
  Runs runs;
  auto t = with_timeout(Context(), loop, 10min);
  Context ctx = t.ctx;
  AsyncFn fn = [&loop, ctx, &runs] { return work(&loop, ctx, 1s, &runs); };
  loop.spawn(jitter_until(ctx, &loop.clock(), fn, 10s, 0.5, true));
  loop.run_until_idle();
  std::vector<Time> starts;
  for (const Span& s : runs.spans) starts.push_back(s.start);
  return starts;
}

TEST(JitterUntilTest, WaitsBetweenPeriodAndPeriodPlusJitterAfterEachRun) {
  const std::vector<Time> starts = jittered_starts(3);
  ASSERT_GT(starts.size(), 30u);
  EXPECT_EQ(starts.front(), Time{});
  bool varied = false;
  for (std::size_t i = 1; i < starts.size(); ++i) {
    const Duration gap = starts[i] - starts[i - 1];
    // Sliding: 1 s of work, then 10 s plus up to 5 s of jitter.
    EXPECT_GE(gap, 11s) << i;
    EXPECT_LT(gap, 16s) << i;
    if (gap != starts[1] - starts[0]) varied = true;
  }
  EXPECT_TRUE(varied);
  EXPECT_EQ(jittered_starts(3), starts);
  EXPECT_NE(jittered_starts(4), starts);
}

// ---- poll_immediate_until, poll_until ----

struct Checks {
  std::vector<Time> at;
  int succeed_on = INT_MAX;  // the check (1-based) that first returns true
};

Task<bool> check(Loop* loop, Checks* checks) {
  checks->at.push_back(loop->now());
  co_return static_cast<int>(checks->at.size()) >= checks->succeed_on;
}

std::vector<Time> at_ms(std::initializer_list<int> ms) {
  std::vector<Time> out;
  for (int m : ms) out.push_back(Time{} + std::chrono::milliseconds(m));
  return out;
}

TEST(PollTest, ImmediateChecksAtOnceThenEveryInterval) {
  Loop loop;
  Checks checks;
  checks.succeed_on = 3;
  AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
  EXPECT_TRUE(loop.run_until_complete(poll_immediate_until(Context(), &loop.clock(), 1s, cond)));
  EXPECT_EQ(checks.at, at_ms({0, 1000, 2000}));
  EXPECT_EQ(loop.now(), Time{} + 2s);
}

TEST(PollTest, ImmediateGivesUpWhenTheContextEnds) {
  Loop loop;
  Checks checks;
  auto t = with_timeout(Context(), loop, 3500ms);
  AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
  EXPECT_FALSE(loop.run_until_complete(poll_immediate_until(t.ctx, &loop.clock(), 1s, cond)));
  EXPECT_EQ(checks.at, at_ms({0, 1000, 2000, 3000}));
  EXPECT_EQ(loop.now(), Time{} + 3500ms);
}

TEST(PollTest, ADoneContextChecksNothing) {
  Loop loop;
  Checks checks;
  checks.succeed_on = 1;
  auto c = with_cancel(Context());
  c.cancel();
  AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
  EXPECT_FALSE(loop.run_until_complete(poll_immediate_until(c.ctx, &loop.clock(), 1s, cond)));
  EXPECT_FALSE(loop.run_until_complete(poll_until(c.ctx, &loop.clock(), 1s, cond)));
  EXPECT_TRUE(checks.at.empty());
}

TEST(PollTest, PollUntilWaitsOneIntervalFirst) {
  Loop loop;
  Checks checks;
  checks.succeed_on = 3;
  AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
  EXPECT_TRUE(loop.run_until_complete(poll_until(Context(), &loop.clock(), 1s, cond)));
  EXPECT_EQ(checks.at, at_ms({1000, 2000, 3000}));
}

TEST(PollTest, IntervalIsMeasuredOnTheClockGiven) {
  Loop loop;
  Clock slow(loop);
  slow.set_rate(0.5);  // 1 s on this clock takes 2 s of true time
  Checks checks;
  checks.succeed_on = 3;
  AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
  EXPECT_TRUE(loop.run_until_complete(poll_immediate_until(Context(), &slow, 1s, cond)));
  EXPECT_EQ(checks.at, at_ms({0, 2000, 4000}));
}

// ---- exponential_backoff ----

TEST(ExponentialBackoffTest, ChecksAtMostStepsTimesAtExactInstants) {
  struct Case {
    const char* name;
    Backoff backoff;
    int succeed_on;
    bool result;
    std::vector<Time> checks;
    Duration returned;
  };
  const Case cases[] = {
      // client-go: the condition runs exactly Steps times, with no wait after the last.
      {"never true", Backoff{10ms, 2.0, 0.0, 4, Duration::zero()}, INT_MAX, false,
       at_ms({0, 10, 30, 70}), 70ms},
      {"true on the second check", Backoff{10ms, 2.0, 0.0, 5, Duration::zero()}, 2, true,
       at_ms({0, 10}), 10ms},
      {"one step", Backoff{10ms, 2.0, 0.0, 1, Duration::zero()}, INT_MAX, false, at_ms({0}), 0ms},
      {"no steps", Backoff{10ms, 2.0, 0.0, 0, Duration::zero()}, 1, false, at_ms({}), 0ms},
      {"constant", Backoff{5ms, 1.0, 0.0, 3, Duration::zero()}, INT_MAX, false, at_ms({0, 5, 10}),
       10ms},
      // client-go stops after the sleep whose successor the cap truncated.
      {"capped", Backoff{10ms, 2.0, 0.0, 10, 30ms}, INT_MAX, false, at_ms({0, 10}), 30ms},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Loop loop;
    Checks checks;
    checks.succeed_on = c.succeed_on;
    AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
    EXPECT_EQ(
        loop.run_until_complete(exponential_backoff(Context(), &loop.clock(), c.backoff, cond)),
        c.result);
    EXPECT_EQ(checks.at, c.checks);
    EXPECT_EQ(loop.now(), Time{} + c.returned);
  }
}

TEST(ExponentialBackoffTest, StopsWhenTheContextEndsDuringAWait) {
  Loop loop;
  Checks checks;
  auto t = with_timeout(Context(), loop, 2500ms);
  AsyncCondition cond = [&loop, &checks] { return check(&loop, &checks); };
  const Backoff b{1s, 2.0, 0.0, 10, Duration::zero()};
  EXPECT_FALSE(loop.run_until_complete(exponential_backoff(t.ctx, &loop.clock(), b, cond)));
  EXPECT_EQ(checks.at, at_ms({0, 1000}));
  EXPECT_EQ(loop.now(), Time{} + 2500ms);
}

}  // namespace
}  // namespace kubesim::sim
