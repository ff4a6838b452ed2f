#include "kubesim/sim/context.h"

#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/channel.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

TEST(ContextTest, BackgroundIsNeverDone) {
  Context bg;
  EXPECT_FALSE(bg.done());
  EXPECT_EQ(bg.err(), ContextError::kNone);
  EXPECT_FALSE(bg.deadline().has_value());
}

TEST(ContextTest, CancelReachesEveryDescendantButNoAncestor) {
  auto root = with_cancel(Context());
  auto a = with_cancel(root.ctx);
  auto b = with_cancel(root.ctx);
  auto a1 = with_cancel(a.ctx);
  auto a2 = with_cancel(a.ctx);
  a.cancel();
  EXPECT_FALSE(root.ctx.done());
  EXPECT_FALSE(b.ctx.done());
  EXPECT_TRUE(a.ctx.done());
  EXPECT_TRUE(a1.ctx.done());
  EXPECT_TRUE(a2.ctx.done());
  root.cancel();
  EXPECT_TRUE(b.ctx.done());
  EXPECT_EQ(b.ctx.err(), ContextError::kCanceled);
  EXPECT_STREQ(to_string(b.ctx.err()), "context canceled");
}

TEST(ContextTest, ChildOfADoneParentStartsDone) {
  auto parent = with_cancel(Context());
  parent.cancel();
  auto child = with_cancel(parent.ctx);
  EXPECT_TRUE(child.ctx.done());
}

TEST(ContextTest, CancelIsIdempotentAndKeepsTheFirstReason) {
  Loop loop;
  auto t = with_timeout(Context(), loop, 1s);
  t.cancel();
  t.cancel();
  loop.run_until_idle();
  EXPECT_EQ(t.ctx.err(), ContextError::kCanceled);
}

TEST(ContextTest, DeadlineFiresAtTheExactInstant) {
  Loop loop;
  auto t = with_timeout(Context(), loop, 1500ms);
  loop.run_until(Time{} + 1499ms);
  EXPECT_FALSE(t.ctx.done());
  loop.run_until(Time{} + 1500ms);
  EXPECT_TRUE(t.ctx.done());
  EXPECT_EQ(t.ctx.err(), ContextError::kDeadlineExceeded);
}

TEST(ContextTest, ChildrenInheritTheEarlierDeadline) {
  Loop loop;
  auto parent = with_timeout(Context(), loop, 1s);
  auto later = with_timeout(parent.ctx, loop, 5s);
  auto sooner = with_timeout(parent.ctx, loop, 500ms);
  EXPECT_EQ(*later.ctx.deadline(), Time{} + 1s);
  EXPECT_EQ(*sooner.ctx.deadline(), Time{} + 500ms);
  loop.run_until(Time{} + 500ms);
  EXPECT_TRUE(sooner.ctx.done());
  EXPECT_FALSE(later.ctx.done());
  loop.run_until(Time{} + 1s);
  EXPECT_TRUE(later.ctx.done());
  EXPECT_EQ(later.ctx.err(), ContextError::kDeadlineExceeded);
}

TEST(ContextTest, PastDeadlineIsDoneAtOnce) {
  Loop loop;
  loop.run_for(10s);
  auto t = with_deadline(Context(), loop, Time{} + 5s);
  EXPECT_TRUE(t.ctx.done());
  EXPECT_EQ(t.ctx.err(), ContextError::kDeadlineExceeded);
}

struct Woken {
  std::vector<std::pair<int, Time>> at;
};

Task<void> sleeper(Loop* loop, Context ctx, int id, Woken* w) {
  const bool full = co_await sleep_for(ctx, *loop, 1h);
  if (!full) w->at.push_back({id, loop->now()});
}

Task<void> receiver(Loop* loop, Context ctx, Channel<int>* ch, int id, Woken* w) {
  auto v = co_await ch->recv(ctx);
  if (!v) w->at.push_back({id, loop->now()});
}

Task<void> event_waiter(Loop* loop, Context ctx, Event* e, int id, Woken* w) {
  const bool set = co_await e->wait(ctx);
  if (!set) w->at.push_back({id, loop->now()});
}

// Cancelling the root of a tree wakes every coroutine waiting anywhere below it, at that instant.
TEST(ContextTest, CancelWakesEveryAwaitingCoroutineOfTheTree) {
  Loop loop;
  Channel<int> ch(loop);
  Event ev(loop);
  Woken w;
  auto root = with_cancel(Context());
  auto mid = with_cancel(root.ctx);
  auto leaf = with_timeout(mid.ctx, loop, 1h);
  loop.spawn(sleeper(&loop, root.ctx, 1, &w));
  loop.spawn(receiver(&loop, mid.ctx, &ch, 2, &w));
  loop.spawn(event_waiter(&loop, leaf.ctx, &ev, 3, &w));
  loop.spawn(sleeper(&loop, leaf.ctx, 4, &w));
  loop.run_until(Time{} + 7s);
  EXPECT_TRUE(w.at.empty());
  root.cancel();
  loop.run_until_idle();
  ASSERT_EQ(w.at.size(), 4u);
  for (const auto& [id, t] : w.at) EXPECT_EQ(t, Time{} + 7s) << id;
  EXPECT_EQ(loop.live_tasks(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
}

TEST(ContextTest, DeadlineWakesAReceiverAtItsDeadline) {
  Loop loop;
  Channel<int> ch(loop);
  Woken w;
  auto t = with_timeout(Context(), loop, 250ms);
  loop.spawn(receiver(&loop, t.ctx, &ch, 1, &w));
  loop.run_until_idle();
  ASSERT_EQ(w.at.size(), 1u);
  EXPECT_EQ(w.at[0].second, Time{} + 250ms);
  EXPECT_EQ(t.ctx.err(), ContextError::kDeadlineExceeded);
}

TEST(ContextTest, AwaitingADoneContextDoesNotSuspend) {
  Loop loop;
  auto c = with_cancel(Context());
  c.cancel();
  Woken w;
  loop.spawn(sleeper(&loop, c.ctx, 1, &w));
  loop.run_until_idle();
  ASSERT_EQ(w.at.size(), 1u);
  EXPECT_EQ(w.at[0].second, Time{});
}

Task<void> done_waiter(Loop* loop, Context ctx, Time* woke) {
  co_await until_done(ctx, *loop);
  *woke = loop->now();
}

// until_done: returns at the instant the context is cancelled or its deadline passes, at once
// when it already is done, and never for background().
TEST(ContextTest, UntilDoneWakesWhenTheContextIsDone) {
  Loop loop;
  auto cancelled = with_cancel(Context());
  auto timed = with_timeout(Context(), loop, 3s);
  auto already = with_cancel(Context());
  already.cancel();
  Time a{Duration(-1)}, b{Duration(-1)}, c{Duration(-1)}, never{Duration(-1)};
  loop.spawn(done_waiter(&loop, cancelled.ctx, &a));
  loop.spawn(done_waiter(&loop, timed.ctx, &b));
  loop.spawn(done_waiter(&loop, already.ctx, &c));
  loop.spawn(done_waiter(&loop, Context(), &never));
  loop.add_timer(Time{} + 7s, [&] { cancelled.cancel(); });
  loop.run_until_idle();
  EXPECT_EQ(a, Time{} + 7s);
  EXPECT_EQ(b, Time{} + 3s);
  EXPECT_EQ(c, Time{});
  EXPECT_EQ(never, Time{Duration(-1)});
  EXPECT_EQ(loop.live_tasks(), 1u);  // the background waiter, destroyed with the Loop
}

}  // namespace
}  // namespace kubesim::sim
