#include "kubesim/sim/loop.h"

#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/context.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

TEST(LoopTest, StartsAtTimeZeroAndIsIdle) {
  Loop loop;
  EXPECT_EQ(loop.now(), Time{});
  EXPECT_FALSE(loop.step());
  EXPECT_EQ(loop.run_until_idle(), 0u);
}

TEST(LoopTest, TimersFireInDeadlineThenSchedulingOrder) {
  Loop loop;
  std::vector<int> order;
  std::vector<Time> when;
  auto at = [&](Duration d, int id) {
    loop.add_timer(Time{} + d, [&, id] {
      order.push_back(id);
      when.push_back(loop.now());
    });
  };
  at(3s, 1);
  at(1s, 2);
  at(3s, 3);
  at(2s, 4);
  at(1s, 5);
  loop.run_until_idle();
  EXPECT_EQ(order, (std::vector<int>{2, 5, 4, 1, 3}));
  EXPECT_EQ(when, (std::vector<Time>{Time{} + 1s, Time{} + 1s, Time{} + 2s, Time{} + 3s, Time{} + 3s}));
}

TEST(LoopTest, ReadyWorkRunsBeforeTimeMoves) {
  Loop loop;
  std::vector<std::string> log;
  loop.add_timer(Time{} + 1s, [&] { log.push_back("timer"); });
  loop.post([&] {
    log.push_back("a");
    loop.post([&] { log.push_back("c"); });
  });
  loop.post([&] { log.push_back("b"); });
  loop.run_until_idle();
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "c", "timer"}));
}

TEST(LoopTest, CancelledTimersNeverFire) {
  Loop loop;
  int fired = 0;
  TimerId a = loop.add_timer(Time{} + 1s, [&] { ++fired; });
  loop.add_timer(Time{} + 2s, [&] { ++fired; });
  EXPECT_TRUE(loop.cancel_timer(a));
  EXPECT_FALSE(loop.cancel_timer(a));
  EXPECT_EQ(loop.pending_timers(), 1u);
  loop.run_until_idle();
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(loop.now(), Time{} + 2s);
}

TEST(LoopTest, CancelBetweenDueAndFireWins) {
  Loop loop;
  int fired = 0;
  TimerId second{};
  loop.add_timer(Time{} + 1s, [&] { loop.cancel_timer(second); });
  second = loop.add_timer(Time{} + 1s, [&] { ++fired; });
  loop.run_until_idle();
  EXPECT_EQ(fired, 0);
}

TEST(LoopTest, ManyCancelledTimersAreCompacted) {
  Loop loop;
  int fired = 0;
  for (int round = 0; round < 100; ++round) {
    std::vector<TimerId> ids;
    for (int i = 0; i < 1000; ++i) ids.push_back(loop.add_timer(Time{} + 1h, [&] { ++fired; }));
    for (auto id : ids) loop.cancel_timer(id);
  }
  loop.add_timer(Time{} + 2h, [&] { ++fired; });
  loop.run_until_idle();
  EXPECT_EQ(fired, 1);
}

TEST(LoopTest, RunUntilStopsAtTheDeadlineAndSetsTheClock) {
  Loop loop;
  int fired = 0;
  loop.add_timer(Time{} + 5s, [&] { ++fired; });
  loop.add_timer(Time{} + 10s, [&] { ++fired; });
  loop.run_until(Time{} + 5s);
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(loop.now(), Time{} + 5s);
  loop.run_for(1s);
  EXPECT_EQ(loop.now(), Time{} + 6s);
  EXPECT_EQ(fired, 1);
  loop.run_for(1h);
  EXPECT_EQ(fired, 2);
  EXPECT_EQ(loop.now(), Time{} + 6s + 1h);
}

TEST(LoopTest, TimersInThePastFireAfterQueuedWork) {
  Loop loop;
  loop.run_for(10s);
  std::vector<int> order;
  loop.add_timer(Time{} + 1s, [&] { order.push_back(2); });
  loop.post([&] { order.push_back(1); });
  loop.run_until_idle();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(loop.now(), Time{} + 10s);
}

Task<void> ticker(Loop* loop, Context ctx, std::int64_t* ticks) {
  for (;;) {
    const bool slept = co_await sleep_for(ctx, *loop, 1s);
    if (!slept) co_return;
    ++*ticks;
  }
}

// Ten simulated hours of a 1 s ticker: the count is exact; the speed is in bench/sim_bench.cc.
TEST(LoopTest, TenVirtualHoursOfASecondTicker) {
  Loop loop;
  std::int64_t ticks = 0;
  auto [ctx, cancel] = with_cancel(Context());
  loop.spawn(ticker(&loop, ctx, &ticks));
  loop.run_until(Time{} + 10h);
  EXPECT_EQ(ticks, 36'000);
  cancel();
  loop.run_until_idle();
  EXPECT_EQ(loop.live_tasks(), 0u);
}

std::vector<int> shuffled_order(std::uint64_t seed) {
  Loop loop(LoopOptions{.seed = seed, .shuffle = true});
  std::vector<int> order;
  for (int i = 0; i < 20; ++i) loop.post([&order, i] { order.push_back(i); });
  loop.run_until_idle();
  return order;
}

TEST(LoopTest, ShuffleModeOrderIsDrawnFromTheSeed) {
  EXPECT_EQ(shuffled_order(7), shuffled_order(7));
  EXPECT_NE(shuffled_order(7), shuffled_order(8));
  std::vector<int> sorted = shuffled_order(7);
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sorted[i], i);
}

TEST(LoopTest, StepRunsOneUnitAtATime) {
  Loop loop;
  int count = 0;
  loop.post([&] { ++count; });
  loop.post([&] { ++count; });
  loop.add_timer(Time{} + 1s, [&] { ++count; });
  EXPECT_TRUE(loop.step());
  EXPECT_EQ(count, 1);
  EXPECT_TRUE(loop.step());
  EXPECT_EQ(count, 2);
  EXPECT_EQ(loop.now(), Time{});
  EXPECT_TRUE(loop.step());
  EXPECT_EQ(count, 3);
  EXPECT_EQ(loop.now(), Time{} + 1s);
  EXPECT_FALSE(loop.step());
}

TEST(LoopTest, RealModeRunsWorkPostedFromOtherThreads) {
  Loop loop(LoopOptions{.mode = ClockMode::kReal});
  std::atomic<int> done{0};
  std::thread producer([&] {
    for (int i = 0; i < 100; ++i) loop.post_external([&] { done.fetch_add(1); });
    loop.post_external([&] { loop.stop(); });
  });
  loop.run();
  producer.join();
  EXPECT_EQ(done.load(), 100);
}

TEST(LoopTest, AStopBeforeRunStartsEndsThatRun) {
  // The shape of a loop thread stopped as soon as it is started: the stop may come first.
  Loop loop(LoopOptions{.mode = ClockMode::kReal});
  loop.stop();
  std::promise<void> returned;
  std::thread runner([&] {
    loop.run();
    returned.set_value();
  });
  const bool ended = returned.get_future().wait_for(5s) == std::future_status::ready;
  if (!ended) loop.stop();  // release the runner so that the test can report
  runner.join();
  EXPECT_TRUE(ended) << "run() missed the stop() made before it started";
  // The request was used up: a later run runs until its own stop.
  std::atomic<int> done{0};
  std::thread producer([&] {
    loop.post_external([&] { done.fetch_add(1); });
    loop.post_external([&] { loop.stop(); });
  });
  loop.run();
  producer.join();
  EXPECT_EQ(done.load(), 1);
}

TEST(LoopTest, RealModeTimersWaitForTheRealClock) {
  Loop loop(LoopOptions{.mode = ClockMode::kReal});
  bool fired = false;
  loop.add_timer(loop.now() + 20ms, [&] { fired = true; });
  loop.run_until_idle();
  EXPECT_TRUE(fired);
  EXPECT_GE(loop.now() - Time{}, 20ms);
}

}  // namespace
}  // namespace kubesim::sim
