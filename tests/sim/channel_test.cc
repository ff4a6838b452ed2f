#include "kubesim/sim/channel.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

// What one coroutine observed when its receive or send finished.
struct Outcome {
  int id = 0;
  std::optional<int> value;  // receives: the value; sends: unset
  bool sent = false;         // sends: the result
  Time at{};
  ContextError err = ContextError::kNone;

  Outcome(int id_, std::optional<int> value_, bool sent_, Time at_, ContextError err_)
      : id(id_), value(value_), sent(sent_), at(at_), err(err_) {}
};

struct Log {
  std::vector<Outcome> outcomes;
};

Task<void> receive_once(Loop* loop, Channel<int>* ch, Context ctx, int id, Log* log) {
  std::optional<int> v = co_await ch->recv(ctx);
  log->outcomes.emplace_back(id, v, false, loop->now(), ctx.err());
}

Task<void> send_once(Loop* loop, Channel<int>* ch, Context ctx, int id, int value, Log* log) {
  const bool ok = co_await ch->send(ctx, value);
  log->outcomes.emplace_back(id, std::nullopt, ok, loop->now(), ctx.err());
}

Task<void> send_at(Loop* loop, Channel<int>* ch, Duration delay, int value) {
  co_await sleep_for(Context(), *loop, delay);
  const bool ok = ch->try_send(value);
  EXPECT_TRUE(ok) << value;
}

Task<void> close_at(Loop* loop, Channel<int>* ch, Duration delay) {
  co_await sleep_for(Context(), *loop, delay);
  ch->close();
}

Task<void> cancel_at(Loop* loop, CancelFunc cancel, Duration delay) {
  co_await sleep_for(Context(), *loop, delay);
  cancel();
}

TEST(ChannelTest, UnboundedTrySendNeverFailsAndKeepsOrder) {
  Loop loop;
  Channel<int> ch(loop);
  EXPECT_EQ(ch.capacity(), Channel<int>::kUnbounded);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(ch.try_send(i));
  EXPECT_EQ(ch.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    std::optional<int> v = ch.try_recv();
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(*v, i);
  }
  EXPECT_EQ(ch.try_recv(), std::nullopt);
}

TEST(ChannelTest, TrySendOnAFullOrClosedChannelFails) {
  Loop loop;
  Channel<int> ch(loop, 2);
  EXPECT_TRUE(ch.try_send(1));
  EXPECT_TRUE(ch.try_send(2));
  EXPECT_FALSE(ch.try_send(3));
  EXPECT_EQ(ch.size(), 2u);
  ch.close();
  EXPECT_TRUE(ch.closed());
  EXPECT_FALSE(ch.try_send(4));
  // What was buffered before close is still delivered.
  EXPECT_EQ(ch.try_recv(), 1);
  EXPECT_EQ(ch.try_recv(), 2);
  EXPECT_EQ(ch.try_recv(), std::nullopt);
}

TEST(ChannelTest, TrySendFromMovesOnlyOnSuccess) {
  Loop loop;
  Channel<std::unique_ptr<std::string>> ch(loop, 1);
  auto first = std::make_unique<std::string>("first");
  auto second = std::make_unique<std::string>("second");
  EXPECT_TRUE(ch.try_send_from(first));
  EXPECT_EQ(first, nullptr);
  EXPECT_FALSE(ch.try_send_from(second));
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(*second, "second");
  auto got = ch.try_recv();
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(**got, "first");
}

// A producer sends 1..N with `co_await send`; a consumer receives one value every millisecond.
// The producer may run at most `capacity` values ahead, so its last send completes at an exact
// instant, and the values arrive in order whatever the capacity.
struct Pipeline {
  std::vector<int> received;
  std::vector<Time> sent_at;
  std::size_t max_buffered = 0;
};

Task<void> produce(Loop* loop, Channel<int>* ch, int n, Pipeline* p) {
  for (int i = 1; i <= n; ++i) {
    const bool ok = co_await ch->send(Context(), i);
    EXPECT_TRUE(ok);
    p->sent_at.push_back(loop->now());
    if (ch->size() > p->max_buffered) p->max_buffered = ch->size();
  }
}

Task<void> consume(Loop* loop, Channel<int>* ch, int n, Pipeline* p) {
  for (int i = 0; i < n; ++i) {
    co_await sleep_for(Context(), *loop, 1ms);
    std::optional<int> v = co_await ch->recv(Context());
    EXPECT_TRUE(v.has_value());
    if (v) p->received.push_back(*v);
  }
}

TEST(ChannelTest, BackPressureHoldsTheProducerToTheCapacity) {
  constexpr int kValues = 10;
  struct Case {
    std::size_t capacity;
    Duration last_send_done;
  };
  const Case cases[] = {
      {0, 10ms},  // rendezvous: each send completes when the consumer takes it
      {1, 9ms},  {2, 8ms}, {5, 5ms}, {10, 0ms}, {Channel<int>::kUnbounded, 0ms},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.capacity);
    Loop loop;
    Channel<int> ch(loop, c.capacity);
    Pipeline p;
    loop.spawn(produce(&loop, &ch, kValues, &p));
    loop.spawn(consume(&loop, &ch, kValues, &p));
    loop.run_until_idle();
    std::vector<int> expected;
    for (int i = 1; i <= kValues; ++i) expected.push_back(i);
    EXPECT_EQ(p.received, expected);
    ASSERT_EQ(p.sent_at.size(), std::size_t{kValues});
    EXPECT_EQ(p.sent_at.back(), Time{} + c.last_send_done);
    EXPECT_LE(p.max_buffered, c.capacity);
    EXPECT_EQ(loop.now(), Time{} + 10ms);
  }
}

TEST(ChannelTest, BoundedSendWaitsForRoomAtExactInstants) {
  Loop loop;
  Channel<int> ch(loop, 2);
  Pipeline p;
  loop.spawn(produce(&loop, &ch, 5, &p));
  loop.spawn(consume(&loop, &ch, 5, &p));
  loop.run_until_idle();
  // 1 and 2 fit at once; 3, 4 and 5 each wait for the consumer to make room.
  EXPECT_EQ(p.sent_at,
            (std::vector<Time>{Time{}, Time{}, Time{} + 1ms, Time{} + 2ms, Time{} + 3ms}));
  EXPECT_EQ(p.received, (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(ChannelTest, WaitingSendersAreServedInTheOrderTheyStartedWaiting) {
  Loop loop;
  Channel<int> ch(loop, 1);
  ASSERT_TRUE(ch.try_send(0));
  Log log;
  for (int id = 1; id <= 3; ++id) loop.spawn(send_once(&loop, &ch, Context(), id, id * 10, &log));
  loop.run_until_idle();
  EXPECT_TRUE(log.outcomes.empty());
  // A newcomer does not overtake the waiting senders.
  EXPECT_FALSE(ch.try_send(99));

  std::vector<int> got;
  for (int i = 0; i < 4; ++i) {
    std::optional<int> v = ch.try_recv();
    ASSERT_TRUE(v.has_value());
    got.push_back(*v);
    // Taking a value moves the first waiting sender's value into the buffer at once.
    EXPECT_EQ(ch.size(), i < 3 ? 1u : 0u);
  }
  EXPECT_EQ(got, (std::vector<int>{0, 10, 20, 30}));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(log.outcomes[i].id, i + 1);
    EXPECT_TRUE(log.outcomes[i].sent);
  }
}

TEST(ChannelTest, RendezvousSenderWaitsForAReceiver) {
  Loop loop;
  Channel<int> ch(loop, 0);
  EXPECT_FALSE(ch.try_send(1));  // nobody is receiving
  Log log;
  loop.spawn(send_once(&loop, &ch, Context(), 1, 42, &log));
  loop.run_until(Time{} + 5s);
  EXPECT_TRUE(log.outcomes.empty());
  EXPECT_EQ(ch.size(), 0u);
  loop.spawn(receive_once(&loop, &ch, Context(), 2, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 2u);
  // The receiver takes the value without suspending; the sender resumes right after.
  EXPECT_EQ(log.outcomes[0].id, 2);
  EXPECT_EQ(log.outcomes[0].value, 42);
  EXPECT_EQ(log.outcomes[0].at, Time{} + 5s);
  EXPECT_EQ(log.outcomes[1].id, 1);
  EXPECT_TRUE(log.outcomes[1].sent);
  EXPECT_EQ(log.outcomes[1].at, Time{} + 5s);
}

TEST(ChannelTest, RendezvousReceiverWaitsForASender) {
  Loop loop;
  Channel<int> ch(loop, 0);
  Log log;
  loop.spawn(receive_once(&loop, &ch, Context(), 1, &log));
  loop.spawn(send_at(&loop, &ch, 3s, 7));  // try_send succeeds: a receiver waits
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 1u);
  EXPECT_EQ(log.outcomes[0].value, 7);
  EXPECT_EQ(log.outcomes[0].at, Time{} + 3s);
  EXPECT_EQ(ch.size(), 0u);
}

TEST(ChannelTest, ManyReceiversAreServedInFifoOrder) {
  Loop loop;
  Channel<int> ch(loop);
  Log log;
  for (int id = 0; id < 5; ++id) loop.spawn(receive_once(&loop, &ch, Context(), id, &log));
  loop.run_until_idle();
  for (int v = 100; v < 105; ++v) loop.spawn(send_at(&loop, &ch, 1s, v));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 5u);
  for (int id = 0; id < 5; ++id) {
    EXPECT_EQ(log.outcomes[id].id, id);
    EXPECT_EQ(log.outcomes[id].value, 100 + id);
    EXPECT_EQ(log.outcomes[id].at, Time{} + 1s);
  }
}

TEST(ChannelTest, CloseWakesWaitingReceiversWithNullopt) {
  Loop loop;
  Channel<int> ch(loop, 3);
  Log log;
  for (int id = 0; id < 3; ++id) loop.spawn(receive_once(&loop, &ch, Context(), id, &log));
  loop.spawn(close_at(&loop, &ch, 2s));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 3u);
  for (int id = 0; id < 3; ++id) {
    EXPECT_EQ(log.outcomes[id].id, id);
    EXPECT_EQ(log.outcomes[id].value, std::nullopt);
    EXPECT_EQ(log.outcomes[id].at, Time{} + 2s);
    EXPECT_EQ(log.outcomes[id].err, ContextError::kNone);
  }
}

TEST(ChannelTest, CloseFailsWaitingSendersAndDropsTheirValues) {
  Loop loop;
  Channel<int> ch(loop, 1);
  ASSERT_TRUE(ch.try_send(1));
  Log log;
  loop.spawn(send_once(&loop, &ch, Context(), 1, 2, &log));
  loop.spawn(send_once(&loop, &ch, Context(), 2, 3, &log));
  loop.spawn(close_at(&loop, &ch, 2s));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 2u);
  for (const Outcome& o : log.outcomes) {
    EXPECT_FALSE(o.sent) << o.id;
    EXPECT_EQ(o.at, Time{} + 2s) << o.id;
  }
  // The buffered value drains; the waiting senders' values were never accepted.
  loop.spawn(receive_once(&loop, &ch, Context(), 3, &log));
  loop.spawn(receive_once(&loop, &ch, Context(), 4, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 4u);
  EXPECT_EQ(log.outcomes[2].value, 1);
  EXPECT_EQ(log.outcomes[3].value, std::nullopt);
}

TEST(ChannelTest, ReceiversDrainBufferedValuesAfterClose) {
  Loop loop;
  Channel<int> ch(loop, 5);
  for (int v = 1; v <= 3; ++v) ASSERT_TRUE(ch.try_send(v));
  ch.close();
  Log log;
  for (int id = 0; id < 5; ++id) loop.spawn(receive_once(&loop, &ch, Context(), id, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 5u);
  EXPECT_EQ(log.outcomes[0].value, 1);
  EXPECT_EQ(log.outcomes[1].value, 2);
  EXPECT_EQ(log.outcomes[2].value, 3);
  EXPECT_EQ(log.outcomes[3].value, std::nullopt);
  EXPECT_EQ(log.outcomes[4].value, std::nullopt);
}

TEST(ChannelTest, SendAfterCloseFailsWithoutWaiting) {
  Loop loop;
  Channel<int> ch(loop, 0);
  ch.close();
  ch.close();  // idempotent
  Log log;
  loop.spawn(send_once(&loop, &ch, Context(), 1, 5, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 1u);
  EXPECT_FALSE(log.outcomes[0].sent);
  EXPECT_EQ(log.outcomes[0].at, Time{});
}

TEST(ChannelTest, DeadlineWakesAWaitingReceiverAtItsDeadline) {
  Loop loop;
  Channel<int> ch(loop, 0);
  Log log;
  auto t = with_timeout(Context(), loop, 250ms);
  loop.spawn(receive_once(&loop, &ch, t.ctx, 1, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 1u);
  EXPECT_EQ(log.outcomes[0].value, std::nullopt);
  EXPECT_EQ(log.outcomes[0].at, Time{} + 250ms);
  EXPECT_EQ(log.outcomes[0].err, ContextError::kDeadlineExceeded);
  // The cancelled receiver is no longer waiting: a rendezvous send finds nobody.
  EXPECT_FALSE(ch.try_send(1));
}

TEST(ChannelTest, ACancelledReceiverIsSkippedAndTheNextOneGetsTheValue) {
  Loop loop;
  Channel<int> ch(loop);
  Log log;
  auto first = with_cancel(Context());
  loop.spawn(receive_once(&loop, &ch, first.ctx, 1, &log));
  loop.spawn(receive_once(&loop, &ch, Context(), 2, &log));
  loop.spawn(cancel_at(&loop, first.cancel, 1s));
  loop.spawn(send_at(&loop, &ch, 2s, 9));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 2u);
  EXPECT_EQ(log.outcomes[0].id, 1);
  EXPECT_EQ(log.outcomes[0].value, std::nullopt);
  EXPECT_EQ(log.outcomes[0].at, Time{} + 1s);
  EXPECT_EQ(log.outcomes[0].err, ContextError::kCanceled);
  EXPECT_EQ(log.outcomes[1].id, 2);
  EXPECT_EQ(log.outcomes[1].value, 9);
  EXPECT_EQ(log.outcomes[1].at, Time{} + 2s);
  EXPECT_EQ(ch.size(), 0u);
}

TEST(ChannelTest, ACancelledSenderIsNotDelivered) {
  for (std::size_t capacity : {std::size_t{0}, std::size_t{1}}) {
    SCOPED_TRACE(capacity);
    Loop loop;
    Channel<int> ch(loop, capacity);
    if (capacity == 1) {
      ASSERT_TRUE(ch.try_send(0));
    }
    Log log;
    auto doomed = with_cancel(Context());
    loop.spawn(send_once(&loop, &ch, doomed.ctx, 1, 111, &log));
    loop.spawn(send_once(&loop, &ch, Context(), 2, 222, &log));
    loop.spawn(cancel_at(&loop, doomed.cancel, 1s));
    loop.run_until_idle();
    ASSERT_EQ(log.outcomes.size(), 1u);
    EXPECT_EQ(log.outcomes[0].id, 1);
    EXPECT_FALSE(log.outcomes[0].sent);
    EXPECT_EQ(log.outcomes[0].at, Time{} + 1s);
    EXPECT_EQ(log.outcomes[0].err, ContextError::kCanceled);

    std::vector<int> got;
    while (std::optional<int> v = ch.try_recv()) got.push_back(*v);
    if (capacity == 1) {
      EXPECT_EQ(got, (std::vector<int>{0, 222}));
    } else {
      EXPECT_EQ(got, (std::vector<int>{222}));
    }
    loop.run_until_idle();
    ASSERT_EQ(log.outcomes.size(), 2u);
    EXPECT_EQ(log.outcomes[1].id, 2);
    EXPECT_TRUE(log.outcomes[1].sent);
  }
}

TEST(ChannelTest, ADoneContextNeitherReceivesNorSends) {
  Loop loop;
  Channel<int> ch(loop, 1);
  ASSERT_TRUE(ch.try_send(5));
  auto done = with_cancel(Context());
  done.cancel();
  Log log;
  loop.spawn(receive_once(&loop, &ch, done.ctx, 1, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 1u);
  EXPECT_EQ(log.outcomes[0].value, std::nullopt);
  EXPECT_EQ(ch.size(), 1u);  // the value stays for someone else
  ASSERT_TRUE(ch.try_recv().has_value());

  loop.spawn(send_once(&loop, &ch, done.ctx, 2, 6, &log));
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 2u);
  EXPECT_FALSE(log.outcomes[1].sent);
  EXPECT_EQ(ch.size(), 0u);
}

// Closing wakes the receivers; the channel may be destroyed before they run, as an Event may be
// once set: a woken receiver does not go back to the channel.
TEST(ChannelTest, AChannelMayBeDestroyedRightAfterClose) {
  Loop loop;
  Log log;
  auto ch = std::make_unique<Channel<int>>(loop, 0);
  auto sender_side = std::make_unique<Channel<int>>(loop, 0);
  loop.spawn(receive_once(&loop, ch.get(), Context(), 1, &log));
  loop.spawn(receive_once(&loop, ch.get(), Context(), 2, &log));
  loop.spawn(send_once(&loop, sender_side.get(), Context(), 3, 30, &log));
  loop.run_until(Time{} + 1s);
  ch->close();
  ch.reset();
  sender_side->close();
  sender_side.reset();
  loop.run_until_idle();
  ASSERT_EQ(log.outcomes.size(), 3u);
  EXPECT_EQ(log.outcomes[0].value, std::nullopt);
  EXPECT_EQ(log.outcomes[1].value, std::nullopt);
  EXPECT_FALSE(log.outcomes[2].sent);
  for (const Outcome& o : log.outcomes) EXPECT_EQ(o.at, Time{} + 1s);
}

Task<void> deliver_then_cancel(Channel<int>* ch, CancelFunc cancel, int value) {
  const bool ok = ch->try_send(value);
  EXPECT_TRUE(ok);
  cancel();
  co_return;
}

Task<void> cancel_then_deliver(Channel<int>* ch, CancelFunc cancel, int value) {
  cancel();
  const bool ok = ch->try_send(value);
  EXPECT_TRUE(ok);  // unbounded: buffered, since the receiver no longer waits
  co_return;
}

// A value handed to a receiver is never lost to a cancellation in the same instant, and a
// cancelled receiver is never handed one.
TEST(ChannelTest, DeliveryAndCancellationInTheSameInstant) {
  {
    Loop loop;
    Channel<int> ch(loop);
    Log log;
    auto c = with_cancel(Context());
    loop.spawn(receive_once(&loop, &ch, c.ctx, 1, &log));
    loop.run_until_idle();
    loop.spawn(deliver_then_cancel(&ch, c.cancel, 5));
    loop.run_until_idle();
    ASSERT_EQ(log.outcomes.size(), 1u);
    EXPECT_EQ(log.outcomes[0].value, 5);
    EXPECT_EQ(ch.size(), 0u);
  }
  {
    Loop loop;
    Channel<int> ch(loop);
    Log log;
    auto c = with_cancel(Context());
    loop.spawn(receive_once(&loop, &ch, c.ctx, 1, &log));
    loop.run_until_idle();
    loop.spawn(cancel_then_deliver(&ch, c.cancel, 6));
    loop.run_until_idle();
    ASSERT_EQ(log.outcomes.size(), 1u);
    EXPECT_EQ(log.outcomes[0].value, std::nullopt);
    EXPECT_EQ(ch.try_recv(), 6);
  }
}

Task<void> take_then_cancel(Channel<int>* ch, CancelFunc cancel, std::optional<int>* got) {
  *got = ch->try_recv();
  cancel();
  co_return;
}

TEST(ChannelTest, ASenderWhoseValueWasTakenReportsSuccessDespiteALaterCancel) {
  Loop loop;
  Channel<int> ch(loop, 0);
  Log log;
  auto c = with_cancel(Context());
  loop.spawn(send_once(&loop, &ch, c.ctx, 1, 8, &log));
  loop.run_until_idle();
  std::optional<int> got;
  loop.spawn(take_then_cancel(&ch, c.cancel, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, 8);
  ASSERT_EQ(log.outcomes.size(), 1u);
  EXPECT_TRUE(log.outcomes[0].sent);
  EXPECT_EQ(log.outcomes[0].err, ContextError::kCanceled);
}

Task<void> pass_pointer(Channel<std::unique_ptr<int>>* ch, int v) {
  const bool ok = co_await ch->send(Context(), std::make_unique<int>(v));
  EXPECT_TRUE(ok);
}

Task<int> take_pointer(Channel<std::unique_ptr<int>>* ch) {
  std::optional<std::unique_ptr<int>> p = co_await ch->recv(Context());
  if (!p || !*p) co_return -1;
  co_return **p;
}

TEST(ChannelTest, CarriesMoveOnlyValues) {
  Loop loop;
  Channel<std::unique_ptr<int>> ch(loop, 0);
  loop.spawn(pass_pointer(&ch, 31));
  EXPECT_EQ(loop.run_until_complete(take_pointer(&ch)), 31);
}

}  // namespace
}  // namespace kubesim::sim
