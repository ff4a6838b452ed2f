// Event, WaitGroup and TaskGroup, and the destruction of a Loop whose coroutines are still
// suspended on them.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kubesim/sim/channel.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/sim/wait_group.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

struct Wake {
  int id = 0;
  bool ok = false;
  Time at{};
  ContextError err = ContextError::kNone;

  Wake(int id_, bool ok_, Time at_, ContextError err_) : id(id_), ok(ok_), at(at_), err(err_) {}
};

struct SyncLog {
  std::vector<Wake> wakes;
};

Task<void> wait_event(Loop* loop, Event* ev, Context ctx, int id, SyncLog* log) {
  const bool set = co_await ev->wait(ctx);
  log->wakes.emplace_back(id, set, loop->now(), ctx.err());
}

Task<void> wait_group(Loop* loop, WaitGroup* wg, Context ctx, int id, SyncLog* log) {
  const bool zero = co_await wg->wait(ctx);
  log->wakes.emplace_back(id, zero, loop->now(), ctx.err());
}

Task<void> wait_tasks(Loop* loop, TaskGroup* tg, Context ctx, int id, SyncLog* log) {
  const bool joined = co_await tg->wait(ctx);
  log->wakes.emplace_back(id, joined, loop->now(), ctx.err());
}

Task<void> set_at(Loop* loop, Event* ev, Duration delay) {
  co_await sleep_for(Context(), *loop, delay);
  ev->set();
}

Task<void> done_at(Loop* loop, WaitGroup* wg, Duration delay) {
  co_await sleep_for(Context(), *loop, delay);
  wg->done();
}

Task<void> cancel_after(Loop* loop, CancelFunc cancel, Duration delay) {
  co_await sleep_for(Context(), *loop, delay);
  cancel();
}

// ---- Event ----

TEST(EventTest, SetBeforeWaitReturnsAtOnce) {
  Loop loop;
  Event ev(loop);
  ev.set();
  EXPECT_TRUE(ev.is_set());
  SyncLog log;
  loop.spawn(wait_event(&loop, &ev, Context(), 1, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_TRUE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{});
}

TEST(EventTest, SetWakesEveryWaiterInTheOrderTheyStartedWaiting) {
  Loop loop;
  Event ev(loop);
  SyncLog log;
  for (int id = 0; id < 4; ++id) loop.spawn(wait_event(&loop, &ev, Context(), id, &log));
  loop.spawn(set_at(&loop, &ev, 5s));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 4u);
  for (int id = 0; id < 4; ++id) {
    EXPECT_EQ(log.wakes[id].id, id);
    EXPECT_TRUE(log.wakes[id].ok);
    EXPECT_EQ(log.wakes[id].at, Time{} + 5s);
  }
  // Later waiters proceed at once; setting again changes nothing.
  ev.set();
  loop.spawn(wait_event(&loop, &ev, Context(), 9, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 5u);
  EXPECT_TRUE(log.wakes[4].ok);
  EXPECT_EQ(log.wakes[4].at, Time{} + 5s);
}

TEST(EventTest, DeadlineEndsTheWaitWithoutDisturbingOthers) {
  Loop loop;
  Event ev(loop);
  SyncLog log;
  auto t = with_timeout(Context(), loop, 1s);
  loop.spawn(wait_event(&loop, &ev, t.ctx, 1, &log));
  loop.spawn(wait_event(&loop, &ev, Context(), 2, &log));
  loop.spawn(set_at(&loop, &ev, 3s));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 2u);
  EXPECT_EQ(log.wakes[0].id, 1);
  EXPECT_FALSE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{} + 1s);
  EXPECT_EQ(log.wakes[0].err, ContextError::kDeadlineExceeded);
  EXPECT_EQ(log.wakes[1].id, 2);
  EXPECT_TRUE(log.wakes[1].ok);
  EXPECT_EQ(log.wakes[1].at, Time{} + 3s);
}

TEST(EventTest, ADoneContextLosesToASetEventButNotToAnUnsetOne) {
  Loop loop;
  Event unset(loop);
  Event set(loop);
  set.set();
  auto done = with_cancel(Context());
  done.cancel();
  SyncLog log;
  loop.spawn(wait_event(&loop, &unset, done.ctx, 1, &log));
  loop.spawn(wait_event(&loop, &set, done.ctx, 2, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 2u);
  EXPECT_FALSE(log.wakes[0].ok);
  EXPECT_TRUE(log.wakes[1].ok);
  EXPECT_EQ(loop.now(), Time{});
}

// ---- WaitGroup ----

TEST(WaitGroupTest, ZeroCountDoesNotWait) {
  Loop loop;
  WaitGroup wg(loop);
  SyncLog log;
  loop.spawn(wait_group(&loop, &wg, Context(), 1, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_TRUE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{});
}

TEST(WaitGroupTest, WaitersWakeWhenTheLastActivityIsDone) {
  Loop loop;
  WaitGroup wg(loop);
  wg.add(3);
  SyncLog log;
  loop.spawn(wait_group(&loop, &wg, Context(), 1, &log));
  loop.spawn(wait_group(&loop, &wg, Context(), 2, &log));
  loop.spawn(done_at(&loop, &wg, 2s));
  loop.spawn(done_at(&loop, &wg, 3s));
  loop.spawn(done_at(&loop, &wg, 1s));
  loop.run_until(Time{} + 2s);
  EXPECT_EQ(wg.count(), 1);
  EXPECT_TRUE(log.wakes.empty());
  loop.run_until_idle();
  EXPECT_EQ(wg.count(), 0);
  ASSERT_EQ(log.wakes.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(log.wakes[i].id, i + 1);
    EXPECT_TRUE(log.wakes[i].ok);
    EXPECT_EQ(log.wakes[i].at, Time{} + 3s);
  }
}

TEST(WaitGroupTest, AddTakesNegativeCounts) {
  Loop loop;
  WaitGroup wg(loop);
  wg.add(5);
  SyncLog log;
  loop.spawn(wait_group(&loop, &wg, Context(), 1, &log));
  loop.run_until_idle();
  wg.add(-4);
  loop.run_until_idle();
  EXPECT_TRUE(log.wakes.empty());
  wg.add(-1);
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_TRUE(log.wakes[0].ok);
}

TEST(WaitGroupTest, CancellationEndsTheWaitButNotTheCount) {
  Loop loop;
  WaitGroup wg(loop);
  wg.add(1);
  SyncLog log;
  auto t = with_timeout(Context(), loop, 500ms);
  auto c = with_cancel(Context());
  loop.spawn(wait_group(&loop, &wg, t.ctx, 1, &log));
  loop.spawn(wait_group(&loop, &wg, c.ctx, 2, &log));
  loop.spawn(wait_group(&loop, &wg, Context(), 3, &log));
  loop.spawn(cancel_after(&loop, c.cancel, 700ms));
  loop.spawn(done_at(&loop, &wg, 1s));
  loop.run_until(Time{} + 900ms);
  ASSERT_EQ(log.wakes.size(), 2u);
  EXPECT_EQ(log.wakes[0].id, 1);
  EXPECT_FALSE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{} + 500ms);
  EXPECT_EQ(log.wakes[0].err, ContextError::kDeadlineExceeded);
  EXPECT_EQ(log.wakes[1].id, 2);
  EXPECT_FALSE(log.wakes[1].ok);
  EXPECT_EQ(log.wakes[1].at, Time{} + 700ms);
  EXPECT_EQ(log.wakes[1].err, ContextError::kCanceled);
  EXPECT_EQ(wg.count(), 1);
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 3u);
  EXPECT_EQ(log.wakes[2].id, 3);
  EXPECT_TRUE(log.wakes[2].ok);
  EXPECT_EQ(log.wakes[2].at, Time{} + 1s);
}

TEST(WaitGroupTest, CanBeReusedAfterReachingZero) {
  Loop loop;
  WaitGroup wg(loop);
  SyncLog log;
  for (int round = 1; round <= 3; ++round) {
    wg.add(2);
    loop.spawn(wait_group(&loop, &wg, Context(), round, &log));
    loop.spawn(done_at(&loop, &wg, 1s));
    loop.spawn(done_at(&loop, &wg, 2s));
    loop.run_until_idle();
    ASSERT_EQ(log.wakes.size(), static_cast<std::size_t>(round));
    EXPECT_EQ(log.wakes.back().at, Time{} + round * 2s);
  }
}

// ---- TaskGroup ----

Task<void> nap(Loop* loop, Duration d, std::vector<Time>* finished) {
  co_await sleep_for(Context(), *loop, d);
  finished->push_back(loop->now());
}

Task<void> fail_after(Loop* loop, Duration d, std::string message) {
  co_await sleep_for(Context(), *loop, d);
  throw std::runtime_error(message);
}

TEST(TaskGroupTest, WaitJoinsEveryTask) {
  Loop loop;
  TaskGroup tg(loop);
  std::vector<Time> finished;
  tg.spawn(nap(&loop, 3s, &finished), "c");
  tg.spawn(nap(&loop, 1s, &finished), "a");
  tg.spawn(nap(&loop, 2s, &finished), "b");
  EXPECT_EQ(tg.size(), 3);
  SyncLog log;
  loop.spawn(wait_tasks(&loop, &tg, Context(), 1, &log));
  loop.run_until(Time{} + 1s);
  EXPECT_EQ(tg.size(), 2);
  loop.run_until_idle();
  EXPECT_EQ(tg.size(), 0);
  EXPECT_EQ(finished, (std::vector<Time>{Time{} + 1s, Time{} + 2s, Time{} + 3s}));
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_TRUE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{} + 3s);
  EXPECT_EQ(loop.live_tasks(), 0u);
}

TEST(TaskGroupTest, AnEmptyGroupIsJoinedAtOnce) {
  Loop loop;
  TaskGroup tg(loop);
  SyncLog log;
  loop.spawn(wait_tasks(&loop, &tg, Context(), 1, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_TRUE(log.wakes[0].ok);
}

TEST(TaskGroupTest, WaitEndsAtTheContextDeadline) {
  Loop loop;
  TaskGroup tg(loop);
  std::vector<Time> finished;
  tg.spawn(nap(&loop, 10s, &finished));
  SyncLog log;
  auto t = with_timeout(Context(), loop, 4s);
  loop.spawn(wait_tasks(&loop, &tg, t.ctx, 1, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_FALSE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{} + 4s);
  EXPECT_EQ(log.wakes[0].err, ContextError::kDeadlineExceeded);
  EXPECT_EQ(finished, (std::vector<Time>{Time{} + 10s}));
}

TEST(TaskGroupTest, AFailingTaskIsReportedThroughTheLoopAndStillCounted) {
  Loop loop;
  TaskGroup tg(loop);
  std::vector<Time> finished;
  tg.spawn(nap(&loop, 5s, &finished), "sleeper");
  tg.spawn(fail_after(&loop, 2s, "boom"), "failer");
  SyncLog log;
  loop.spawn(wait_tasks(&loop, &tg, Context(), 1, &log));
  try {
    loop.run_until_idle();
    FAIL() << "run_until_idle did not rethrow the task's exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom");
  }
  EXPECT_EQ(loop.now(), Time{} + 2s);
  EXPECT_EQ(tg.size(), 1);
  // The loop carries on after the failure was observed.
  loop.run_until_idle();
  EXPECT_EQ(tg.size(), 0);
  ASSERT_EQ(log.wakes.size(), 1u);
  EXPECT_TRUE(log.wakes[0].ok);
  EXPECT_EQ(log.wakes[0].at, Time{} + 5s);
}

TEST(TaskGroupTest, AFailureHandlerGetsTheTaskName) {
  Loop loop;
  std::vector<std::string> failures;
  loop.set_failure_handler([&failures](std::exception_ptr error, const std::string& name) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      failures.push_back(name + ": " + e.what());
    }
  });
  TaskGroup tg(loop);
  tg.spawn(fail_after(&loop, 1s, "first"), "worker-1");
  tg.spawn(fail_after(&loop, 2s, "second"), "worker-2");
  EXPECT_NO_THROW(loop.run_until_idle());
  EXPECT_EQ(failures, (std::vector<std::string>{"worker-1: first", "worker-2: second"}));
  EXPECT_EQ(tg.size(), 0);
}

// ---- Loop destruction with suspended coroutines ----

Task<void> park_on_channel(Channel<int>* ch, Context ctx) {
  std::optional<int> v = co_await ch->recv(ctx);
  ADD_FAILURE() << "a receiver was resumed at shutdown: " << v.has_value();
}

Task<void> park_sending(Channel<int>* ch, Context ctx, int value) {
  const bool ok = co_await ch->send(ctx, value);
  ADD_FAILURE() << "a sender was resumed at shutdown: " << ok;
}

Task<void> park_on_event(Event* ev, Context ctx) {
  const bool set = co_await ev->wait(ctx);
  ADD_FAILURE() << "an event waiter was resumed at shutdown: " << set;
}

Task<void> park_on_group(WaitGroup* wg, Context ctx) {
  const bool zero = co_await wg->wait(ctx);
  ADD_FAILURE() << "a group waiter was resumed at shutdown: " << zero;
}

Task<void> park_asleep(Loop* loop, Context ctx, Duration d) {
  const bool slept = co_await sleep_for(ctx, *loop, d);
  ADD_FAILURE() << "a sleeper was resumed at shutdown: " << slept;
}

// A coroutine suspended inside a nested Task, holding a context with a pending deadline.
Task<void> park_nested(Loop* loop, Channel<int>* ch) {
  auto t = with_timeout(Context(), *loop, 1h);
  co_await park_on_channel(ch, t.ctx);
}

struct Primitives {
  explicit Primitives(Loop& loop)
      : rendezvous(loop, 0),
        bounded(loop, 1),
        event(loop),
        group(loop),
        tasks(loop),
        cancel(with_cancel(Context())),
        process(loop, "replica") {}

  Channel<int> rendezvous;
  Channel<int> bounded;
  Event event;
  WaitGroup group;
  TaskGroup tasks;
  ContextWithCancel cancel;
  Process process;
  SyncLog log;
};

void park_everything(Loop& loop, Primitives& p) {
  ASSERT_TRUE(p.bounded.try_send(1));
  p.group.add(1);
  auto deadline = with_timeout(p.cancel.ctx, loop, 1h);
  loop.spawn(park_on_channel(&p.rendezvous, p.cancel.ctx));
  loop.spawn(park_on_channel(&p.rendezvous, deadline.ctx));
  loop.spawn(park_sending(&p.bounded, deadline.ctx, 2));
  loop.spawn(park_sending(&p.bounded, Context(), 3));
  loop.spawn(park_on_event(&p.event, deadline.ctx));
  loop.spawn(park_on_group(&p.group, p.cancel.ctx));
  loop.spawn(park_asleep(&loop, deadline.ctx, 2h));
  loop.spawn(park_asleep(&loop, Context(), 3h));
  loop.spawn(park_nested(&loop, &p.rendezvous));
  p.tasks.spawn(park_on_event(&p.event, Context()));
  p.tasks.spawn(park_asleep(&loop, p.cancel.ctx, 1h));
  loop.spawn(wait_tasks(&loop, &p.tasks, Context(), 1, &p.log));
  Event* ev = &p.event;
  p.process.start([ev](Context ctx) { return park_on_event(ev, ctx); });
}

TEST(LoopDestructionTest, PrimitivesDestroyedBeforeTheLoop) {
  Loop loop;
  {
    Primitives p(loop);
    park_everything(loop, p);
    loop.run_until(Time{} + 10min);
    EXPECT_EQ(loop.live_tasks(), 13u);
    // And one that never started at all.
    loop.spawn(park_asleep(&loop, Context(), 1s));
  }
  // The loop goes last, with its frames still suspended on primitives that are gone.
}

TEST(LoopDestructionTest, PrimitivesDestroyedAfterTheLoop) {
  auto loop = std::make_unique<Loop>();
  Primitives p(*loop);
  park_everything(*loop, p);
  loop->run_until(Time{} + 10min);
  EXPECT_EQ(loop->live_tasks(), 13u);
  loop->spawn(park_asleep(loop.get(), Context(), 1s));
  loop.reset();
  // The primitives outlive the loop; their wait lists must already be empty.
  EXPECT_EQ(p.group.count(), 1);
  EXPECT_EQ(p.tasks.size(), 0);  // the group's tasks were destroyed with the loop
  p.event.set();
  p.cancel.cancel();
  EXPECT_TRUE(p.log.wakes.empty());
}

TEST(LoopDestructionTest, SpawnedButNeverStartedTasksAreFreed) {
  Loop loop;
  std::vector<Time> finished;
  for (int i = 0; i < 10; ++i) loop.spawn(nap(&loop, 1s, &finished));
  EXPECT_EQ(loop.live_tasks(), 10u);
}

// A context whose deadline has fired or that was cancelled no longer refers to its Loop.
TEST(LoopDestructionTest, DoneContextsMayOutliveTheLoop) {
  Context fired;
  Context cancelled;
  Context child;
  {
    Loop loop;
    auto a = with_timeout(Context(), loop, 1s);
    auto b = with_timeout(Context(), loop, 1h);
    auto c = with_timeout(b.ctx, loop, 2h);  // inherits b's deadline, has no timer of its own
    fired = a.ctx;
    cancelled = b.ctx;
    child = c.ctx;
    b.cancel();
    EXPECT_EQ(loop.pending_timers(), 1u);
    loop.run_until_idle();
    EXPECT_EQ(loop.now(), Time{} + 1s);
    EXPECT_EQ(loop.pending_timers(), 0u);
  }
  EXPECT_EQ(fired.err(), ContextError::kDeadlineExceeded);
  EXPECT_EQ(cancelled.err(), ContextError::kCanceled);
  EXPECT_EQ(child.err(), ContextError::kCanceled);
}

}  // namespace
}  // namespace kubesim::sim
