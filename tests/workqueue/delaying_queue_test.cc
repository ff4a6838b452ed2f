#include "kubesim/workqueue/delaying_queue.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
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
using sim::Task;
using sim::Time;

template <class T>
using Events = std::vector<std::pair<T, Time>>;

// Takes every item the moment it is ready, noting when, until shutdown.
template <class T>
Task<void> record(DelayingQueue<T>* q, Events<T>* events) {
  for (;;) {
    auto item = co_await q->get(sim::Context());
    if (!item) co_return;
    events->emplace_back(*item, q->loop().now());
    q->done(*item);
  }
}

TEST(DelayingQueueTest, AddsAnItemExactlyWhenItsDelayHasPassed) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  q.add_after("a", 50ms);
  q.add_after("b", 20ms);
  EXPECT_EQ(q.waiting(), 2u);
  EXPECT_EQ(q.len(), 0u);
  loop.run_until(Time{} + 19ms);
  EXPECT_TRUE(events.empty());
  loop.run_until_idle();
  EXPECT_EQ(events, (Events<std::string>{{"b", Time{} + 20ms}, {"a", Time{} + 50ms}}));
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(DelayingQueueTest, AnItemAlreadyWaitingKeepsTheEarlierReadyTime) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  q.add_after("earlier-second", 10s);
  q.add_after("earlier-second", 5s);
  q.add_after("earlier-first", 5s);
  q.add_after("earlier-first", 10s);
  EXPECT_EQ(q.waiting(), 2u);
  loop.run_until_idle();
  EXPECT_EQ(events, (Events<std::string>{{"earlier-second", Time{} + 5s}, {"earlier-first", Time{} + 5s}}));
}

TEST(DelayingQueueTest, AnOverriddenWaitLeavesNoTimerBehind) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  q.add_after("a", 1h);
  q.add_after("a", 1s);
  loop.run_until_idle();
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(loop.now(), Time{} + 1s) << "the loop must go idle once the only wait has ended";
}

TEST(DelayingQueueTest, AReusedRecordWithTheSameReadyTimeIsAddedOnce) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  q.add_after("a", 10s);
  q.add_after("a", 5s);  // the 10 s wait is dropped
  loop.run_until(Time{} + 5s);
  q.add_after("b", 5s);  // ready at 10 s, like a's dropped wait; b takes a's old record
  loop.run_until_idle();
  EXPECT_EQ(events, (Events<std::string>{{"a", Time{} + 5s}, {"b", Time{} + 10s}}));
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(DelayingQueueTest, ManyEarlierWaitsKeepTheHeapBounded) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  // 5,000 waits moved earlier over 10 items: far more stale entries than waits.
  for (int i = 0; i < 5000; ++i) {
    q.add_after("k" + std::to_string(i % 10), 1h - std::chrono::milliseconds(i));
  }
  EXPECT_EQ(q.waiting(), 10u);
  loop.run_until_idle();
  ASSERT_EQ(events.size(), 10u);
  for (int k = 0; k < 10; ++k) {
    // The last wait of item k began at i = 4990 + k.
    EXPECT_EQ(events[static_cast<std::size_t>(9 - k)],
              std::make_pair("k" + std::to_string(k), Time{} + 1h - std::chrono::milliseconds(4990 + k)));
  }
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(DelayingQueueTest, NonPositiveDelaysAddAtOnce) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  q.add_after("zero", 0s);
  q.add_after("negative", -1s);
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(DelayingQueueTest, AnItemCanWaitWhileAlsoQueued) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  q.add("a");
  q.add_after("a", 1s);
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(q.waiting(), 1u);
  loop.run_until_idle();
  EXPECT_EQ(q.len(), 1u) << "the queue deduplicates the second add";
}

TEST(DelayingQueueTest, ShutDownDropsWaitingItemsAndDisarmsTheTimer) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  q.add_after("a", 1s);
  q.add_after("b", 1h);
  loop.run_until(Time{} + 2s);
  q.shut_down();
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
  q.add_after("c", 1s);
  EXPECT_EQ(q.waiting(), 0u);
  loop.run_until_idle();
  EXPECT_EQ(events, (Events<std::string>{{"a", Time{} + 1s}}));
  EXPECT_EQ(loop.now(), Time{} + 2s) << "nothing may keep the loop busy after shutdown";
}

TEST(DelayingQueueTest, ShutDownWithDrainAlsoStopsTheWaiting) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  q.add_after("a", 1s);
  auto drain = q.shut_down_with_drain();
  (void)drain;
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(DelayingQueueTest, FollowsItsClockRate) {
  Loop loop;
  sim::Clock fast(loop);
  fast.set_rate(2.0);  // local time runs twice as fast as true time
  DelayingQueue<std::string> q(fast);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  q.add_after("a", 10s);
  loop.run_until_idle();
  EXPECT_EQ(events, (Events<std::string>{{"a", Time{} + 5s}}));
}

TEST(DelayingQueueTest, AWallStepBackDoesNotDelayTheAdd) {
  Loop loop;
  sim::Clock clock(loop);
  DelayingQueue<std::string> q(clock);
  Events<std::string> events;
  loop.spawn(record(&q, &events));
  q.add_after("a", 10s);  // ready when the clock reads 10 s
  loop.add_timer(Time{} + 3s, [&] { clock.step(-5s); });  // the wall reading only, as in Go
  loop.run_until_idle();
  EXPECT_EQ(events, (Events<std::string>{{"a", Time{} + 10s}}));
}

TEST(DelayingQueueTest, HugeDelaysDoNotOverflow) {
  Loop loop;
  DelayingQueue<std::string> q(loop);
  q.add_after("forever", Duration::max());
  q.add_after("soon", 1s);
  loop.run_until(Time{} + 10s);
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(q.waiting(), 1u);
  q.shut_down();
  EXPECT_EQ(loop.pending_timers(), 0u);
}

// ---- property: every item is added exactly at the earliest of its ready times ----

struct Op {
  bool advance;  // else add_after
  int key;
  Duration d;
};

rc::Gen<Op> gen_op() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange<std::int64_t>(0, 30'000'000),
                   [](std::int64_t ns) { return Op{true, 0, Duration(ns)}; }),
      rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 5), rc::gen::inRange<std::int64_t>(-5'000'000, 50'000'000)),
                   [](std::pair<int, std::int64_t> p) { return Op{false, p.first, Duration(p.second)}; }));
}

// The reference: a map from item to its earliest pending ready time.
struct DelayModel {
  Time now{};
  std::map<int, Time> pending;
  Events<int> events;

  void advance_to(Time target) {
    for (;;) {
      auto next = std::min_element(pending.begin(), pending.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; });
      if (next == pending.end() || next->second > target) break;
      events.emplace_back(next->first, next->second);
      pending.erase(next);
    }
    now = target;
  }
  void add_after(int key, Duration d) {
    if (d <= Duration::zero()) {
      events.emplace_back(key, now);
      return;
    }
    auto [it, inserted] = pending.emplace(key, now + d);
    if (!inserted) it->second = std::min(it->second, now + d);
  }
};

void sort_events(Events<int>& e) {
  std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) {
    return a.second < b.second || (a.second == b.second && a.first < b.first);
  });
}

RC_GTEST_PROP(DelayingQueueProperty, EveryItemIsReadyExactlyAtItsEarliestReadyTime, ()) {
  const auto ops = *rc::gen::container<std::vector<Op>>(gen_op());
  Loop loop;
  DelayingQueue<int> q(loop);
  Events<int> events;
  loop.spawn(record(&q, &events));
  DelayModel model;
  for (const Op& op : ops) {
    if (op.advance) {
      loop.run_until(loop.now() + op.d);
      model.advance_to(model.now + op.d);
    } else {
      q.add_after(op.key, op.d);
      model.add_after(op.key, op.d);
      loop.run_until(loop.now());  // the worker takes what is ready now
    }
  }
  loop.run_until_idle();
  model.advance_to(Time::max());
  sort_events(events);
  sort_events(model.events);
  RC_ASSERT(events == model.events);
  q.shut_down();
  loop.run_until_idle();
  RC_ASSERT(loop.live_tasks() == 0u);
}

RC_GTEST_PROP(DelayingQueueProperty, NothingIsAddedAfterShutDown, ()) {
  const auto ops = *rc::gen::container<std::vector<Op>>(gen_op());
  const auto stop_at = *rc::gen::inRange<std::size_t>(0, ops.size() + 1);
  Loop loop;
  DelayingQueue<int> q(loop);
  Events<int> events;
  loop.spawn(record(&q, &events));
  std::size_t events_at_shutdown = 0;
  for (std::size_t i = 0; i <= ops.size(); ++i) {
    if (i == stop_at) {
      q.shut_down();
      events_at_shutdown = events.size();  // the worker had taken everything ready
      RC_ASSERT(loop.pending_timers() == 0u);
      RC_ASSERT(q.waiting() == 0u);
    }
    if (i == ops.size()) break;
    if (ops[i].advance) {
      loop.run_until(loop.now() + ops[i].d);
    } else {
      q.add_after(ops[i].key, ops[i].d);
      loop.run_until(loop.now());
    }
  }
  const Time end = loop.now();
  loop.run_until_idle();
  RC_ASSERT(events.size() == events_at_shutdown);
  RC_ASSERT(loop.now() == end);
  RC_ASSERT(loop.live_tasks() == 0u);
}

}  // namespace
}  // namespace kubesim::workqueue
