#include "kubesim/sim/clock.h"

#include <gtest/gtest.h>

#include <vector>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

TEST(ClockTest, IdentityViewFollowsTheLoop) {
  Loop loop;
  Clock c(loop);
  EXPECT_EQ(&c.loop(), &loop);
  EXPECT_EQ(c.now(), Time{});
  EXPECT_EQ(c.rate(), 1.0);
  loop.run_for(5s);
  EXPECT_EQ(c.now(), Time{} + 5s);
  EXPECT_EQ(c.wall_now(), Time{} + 5s);
  EXPECT_EQ(loop.clock().now(), Time{} + 5s);
  EXPECT_EQ(c.to_true(3s), 3s);
  EXPECT_EQ(c.true_deadline(3s), Time{} + 8s);
}

TEST(ClockTest, OffsetMovesTheWallReadingRelativeToTrueTimeNow) {
  const Duration offsets[] = {0s, 250ms, -250ms, 1h, -1h};
  for (Duration offset : offsets) {
    SCOPED_TRACE(offset.count());
    Loop loop;
    Clock c(loop);
    loop.run_for(1s);
    c.step(17s);  // replaced, not added to
    c.set_offset(offset);
    EXPECT_EQ(c.wall_now(), Time{} + 1s + offset);
    EXPECT_EQ(c.now(), Time{} + 1s);  // the monotonic reading is never moved
    loop.run_for(2s);
    EXPECT_EQ(c.wall_now(), Time{} + 3s + offset);
    EXPECT_EQ(c.now(), Time{} + 3s);
    // An offset moves readings, never durations.
    EXPECT_EQ(c.to_true(5s), 5s);
    EXPECT_EQ(c.true_deadline(5s), Time{} + 8s);
  }
}

TEST(ClockTest, StepMovesTheWallReadingAndNeverTheMonotonicOne) {
  // As NTP stepping a node: Go's time.Now() wall part jumps, its monotonic part does not.
  Loop loop;
  Clock c(loop);
  c.set_rate(2.0);
  loop.run_for(5s);
  c.step(1h);
  EXPECT_EQ(c.wall_now(), Time{} + 10s + 1h);
  EXPECT_EQ(c.now(), Time{} + 10s);
  c.step(-1h - 30s);
  EXPECT_EQ(c.wall_now(), Time{} - 20s);
  EXPECT_EQ(c.now(), Time{} + 10s);
  EXPECT_EQ(c.to_true(4s), 2s);  // durations are untouched
  loop.run_for(5s);
  EXPECT_EQ(c.wall_now(), Time{} - 10s);  // both readings advance at the drift rate
  EXPECT_EQ(c.now(), Time{} + 20s);
  EXPECT_EQ(loop.now(), Time{} + 10s);
}

TEST(ClockTest, RateScalesElapsedTimeFromTheMomentItIsSet) {
  struct Case {
    double rate;
    Duration true_elapsed;
    Duration local_elapsed;
  };
  const Case cases[] = {
      {1.0, 6s, 6s},
      {2.0, 6s, 12s},
      {0.5, 6s, 3s},
      {1.0001, 1h, 1h + 360ms},  // 100 ppm fast
      {0.9999, 1h, 1h - 360ms},  // 100 ppm slow
      {3.0, 1ns, 3ns},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.rate);
    Loop loop;
    Clock clock(loop);
    loop.run_for(10s);
    clock.set_rate(c.rate);
    EXPECT_EQ(clock.rate(), c.rate);
    EXPECT_EQ(clock.now(), Time{} + 10s);  // a rate change never jumps the reading
    loop.run_for(c.true_elapsed);
    EXPECT_EQ(clock.now(), Time{} + 10s + c.local_elapsed);
  }
}

TEST(ClockTest, RateChangesCompose) {
  Loop loop;
  Clock c(loop);
  c.set_rate(2.0);
  loop.run_for(5s);
  EXPECT_EQ(c.now(), Time{} + 10s);
  c.set_rate(0.5);
  loop.run_for(4s);
  EXPECT_EQ(c.now(), Time{} + 12s);
  c.step(-2s);
  loop.run_for(2s);
  EXPECT_EQ(c.now(), Time{} + 13s);
  EXPECT_EQ(c.wall_now(), Time{} + 11s);
  c.set_rate(1.0);
  loop.run_for(1s);
  EXPECT_EQ(c.now(), Time{} + 14s);
  EXPECT_EQ(c.wall_now(), Time{} + 12s);
}

TEST(ClockTest, ToTrueRoundsUpSoTheLocalDurationHasPassed) {
  struct Case {
    double rate;
    Duration local;
    Duration true_d;
  };
  const Case cases[] = {
      {2.0, 10s, 5s},  {0.5, 10s, 20s},          {3.0, 10ns, 4ns},
      {3.0, 9ns, 3ns}, {3.0, 10s, 3333333334ns}, {1.25, 1s, 800ms},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.rate << " " << c.local.count());
    Loop loop;
    Clock clock(loop);
    clock.set_rate(c.rate);
    EXPECT_EQ(clock.to_true(c.local), c.true_d);
    const Time start_local = clock.now();
    loop.run_for(c.true_d);
    EXPECT_GE(clock.now() - start_local, c.local);
  }
}

struct Woke {
  bool slept = false;
  Time at{};
  Time local_at{};
  Time wall_at{};
};

Task<void> sleep_on(Clock* clock, Context ctx, Duration d, Woke* w) {
  w->slept = co_await sleep_for(ctx, *clock, d);
  w->at = clock->loop().now();
  w->local_at = clock->now();
  w->wall_at = clock->wall_now();
}

TEST(ClockTest, SleepForOnADriftingClockWaitsTheLocalDuration) {
  struct Case {
    double rate;
    Duration true_wait;
  };
  const Case cases[] = {
      {1.0, 10s},
      {2.0, 5s},
      {0.5, 20s},
      {3.0, 3333333334ns},
      {1.0001, 9999000100ns},
      {0.75, 13333333334ns},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.rate);
    Loop loop;
    Clock clock(loop);
    clock.set_rate(c.rate);
    loop.run_for(1s);
    const Time local_start = clock.now();
    Woke w;
    loop.spawn(sleep_on(&clock, Context(), 10s, &w));
    loop.run_until_idle();
    EXPECT_TRUE(w.slept);
    EXPECT_EQ(w.at, Time{} + 1s + c.true_wait);
    // The local clock has advanced by the full 10 s, and by less than one true nanosecond more.
    EXPECT_GE(w.local_at - local_start, 10s);
    EXPECT_LE(w.local_at - local_start, 10s + 3ns);
  }
}

Task<void> adjust_at(Loop* loop, Clock* clock, Duration when, double rate, Duration step) {
  co_await sleep_for(Context(), *loop, when);
  clock->set_rate(rate);
  clock->step(step);
}

TEST(ClockTest, ASleepAlreadyStartedIsNotMovedByARateChangeOrAStep) {
  struct Case {
    double rate;
    Duration step;
    Duration local_at_wake;
    Duration wall_at_wake;
  };
  const Case cases[] = {
      {2.0, 0s, 2s + 16s, 2s + 16s},  // 2 s at rate 1, then 8 s at rate 2
      {0.5, 0s, 2s + 4s, 2s + 4s},    // 8 s at rate 0.5
      {1.0, 1h, 10s, 10s + 1h},       // stepped forward
      {1.0, -1h, 10s, 10s - 1h},      // stepped back
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.rate << " " << c.step.count());
    Loop loop;
    Clock clock(loop);
    Woke w;
    loop.spawn(sleep_on(&clock, Context(), 10s, &w));
    loop.spawn(adjust_at(&loop, &clock, 2s, c.rate, c.step));
    loop.run_until_idle();
    EXPECT_TRUE(w.slept);
    EXPECT_EQ(w.at, Time{} + 10s);
    EXPECT_EQ(w.local_at, Time{} + c.local_at_wake);
    EXPECT_EQ(w.wall_at, Time{} + c.wall_at_wake);
  }
}

TEST(ClockTest, ADeadlineOnTrueTimeCutsASleepOnADriftingClock) {
  Loop loop;
  Clock slow(loop);
  slow.set_rate(0.5);  // 10 s local = 20 s true
  auto t = with_timeout(Context(), loop, 15s);
  Woke w;
  loop.spawn(sleep_on(&slow, t.ctx, 10s, &w));
  loop.run_until_idle();
  EXPECT_FALSE(w.slept);
  EXPECT_EQ(w.at, Time{} + 15s);
  EXPECT_EQ(w.local_at, Time{} + 7500ms);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(ClockTest, ClocksOnOneLoopAreIndependent) {
  Loop loop;
  Clock a(loop);
  Clock b(loop);
  a.set_rate(2.0);
  b.set_offset(-5s);
  std::vector<Woke> w(2);
  loop.spawn(sleep_on(&a, Context(), 10s, &w[0]));
  loop.spawn(sleep_on(&b, Context(), 10s, &w[1]));
  loop.run_until_idle();
  EXPECT_EQ(w[0].at, Time{} + 5s);
  EXPECT_EQ(w[1].at, Time{} + 10s);
  EXPECT_EQ(a.now(), Time{} + 20s);
  EXPECT_EQ(b.now(), Time{} + 10s);
  EXPECT_EQ(b.wall_now(), Time{} + 5s);
  EXPECT_EQ(loop.clock().now(), Time{} + 10s);
}

TEST(ClockTest, ANonPositiveSleepDoesNotSuspend) {
  Loop loop;
  Clock c(loop);
  c.set_rate(2.0);
  Woke w;
  loop.spawn(sleep_on(&c, Context(), 0s, &w));
  loop.spawn(sleep_on(&c, Context(), -1s, &w));
  loop.run_until_idle();
  EXPECT_TRUE(w.slept);
  EXPECT_EQ(w.at, Time{});
}

}  // namespace
}  // namespace kubesim::sim
