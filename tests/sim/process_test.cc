#include "kubesim/sim/process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "kubesim/sim/channel.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

// What each incarnation of a process's main observed.
struct Journal {
  std::vector<std::string> lines;

  void add(const Loop& loop, const std::string& what) {
    lines.push_back(std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                       loop.now().time_since_epoch())
                                       .count()) +
                    "ms " + what);
  }
};

// Notes its own destruction, so a test can see a coroutine frame unwind.
class Guard {
 public:
  Guard(Loop* loop, Journal* j, std::string name) : loop_(loop), j_(j), name_(std::move(name)) {}
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
  ~Guard() { j_->add(*loop_, name_ + " unwound"); }

 private:
  Loop* loop_;
  Journal* j_;
  std::string name_;
};

// A nested coroutine blocked on a channel with the process context.
Task<void> inbox_reader(Loop* loop, Channel<int>* inbox, Context ctx, Journal* j) {
  Guard guard(loop, j, "reader");
  for (;;) {
    std::optional<int> v = co_await inbox->recv(ctx);
    if (!v) break;
    j->add(*loop, "got " + std::to_string(*v));
  }
  j->add(*loop, std::string("reader stops: ") + to_string(ctx.err()));
}

// A process's main: ticks every second on the process clock while a reader drains its inbox.
Task<void> replica_main(Process* p, Channel<int>* inbox, Context ctx, Journal* j) {
  Loop& loop = p->loop();
  Guard guard(&loop, j, "main#" + std::to_string(p->incarnation()));
  j->add(loop, "main#" + std::to_string(p->incarnation()) + " starts");
  Task<void> reader = inbox_reader(&loop, inbox, ctx, j);
  co_await std::move(reader);
  const bool slept = co_await sleep_for(ctx, p->clock(), 1h);
  j->add(loop, std::string("main sleep ") + (slept ? "ended" : "cut"));
}

Process::Main replica(Process* p, Channel<int>* inbox, Journal* j) {
  return [p, inbox, j](Context ctx) { return replica_main(p, inbox, ctx, j); };
}

Task<void> process_send_at(Loop* loop, Channel<int>* ch, Duration when, int v) {
  co_await sleep_until(Context(), *loop, Time{} + when);
  const bool ok = ch->try_send(v);
  EXPECT_TRUE(ok);
}

TEST(ProcessTest, StartRunsMainWithTheRootContext) {
  Journal j;  // outlives the loop: frames it destroys write to it
  Loop loop;
  Process p(loop, "ctrl-1");
  EXPECT_EQ(p.name(), "ctrl-1");
  EXPECT_EQ(&p.loop(), &loop);
  EXPECT_EQ(p.incarnation(), 0);
  Channel<int> inbox(loop);
  p.start(replica(&p, &inbox, &j));
  loop.spawn(process_send_at(&loop, &inbox, 1s, 7));
  loop.run_until(Time{} + 2s);
  EXPECT_TRUE(p.alive());
  EXPECT_FALSE(p.context().done());
  EXPECT_EQ(j.lines, (std::vector<std::string>{"0ms main#0 starts", "1000ms got 7"}));
  EXPECT_EQ(loop.live_tasks(), 1u);
}

TEST(ProcessTest, CrashCancelsTheContextAndUnwindsEveryCoroutine) {
  Journal j;  // outlives the loop: frames it destroys write to it
  Loop loop;
  Process p(loop, "ctrl-1");
  Channel<int> inbox(loop);
  p.start(replica(&p, &inbox, &j));
  loop.run_until(Time{} + 2500ms);
  Context old = p.context();
  p.crash();
  EXPECT_FALSE(p.alive());
  EXPECT_TRUE(old.done());
  EXPECT_EQ(old.err(), ContextError::kCanceled);
  loop.run_until_idle();
  EXPECT_EQ(j.lines, (std::vector<std::string>{
                         "0ms main#0 starts",
                         "2500ms reader stops: context canceled",
                         "2500ms reader unwound",
                         "2500ms main sleep cut",
                         "2500ms main#0 unwound",
                     }));
  EXPECT_EQ(loop.live_tasks(), 0u);
  EXPECT_EQ(loop.pending_timers(), 0u);
  EXPECT_EQ(loop.now(), Time{} + 2500ms);
  p.crash();  // a second crash is a no-op
  EXPECT_EQ(p.incarnation(), 0);
}

TEST(ProcessTest, RestartRunsAFreshIncarnation) {
  Journal j;  // outlives the loop: frames it destroys write to it
  Loop loop;
  Process p(loop, "ctrl-1");
  Channel<int> inbox(loop);
  p.start(replica(&p, &inbox, &j));
  loop.run_until(Time{} + 1s);
  p.crash();
  loop.run_until(Time{} + 3s);
  Context dead = p.context();
  p.restart();
  EXPECT_TRUE(p.alive());
  EXPECT_EQ(p.incarnation(), 1);
  EXPECT_TRUE(dead.done());
  EXPECT_FALSE(p.context().done());
  loop.spawn(process_send_at(&loop, &inbox, 4s, 9));
  loop.run_until(Time{} + 5s);
  EXPECT_EQ(j.lines, (std::vector<std::string>{
                         "0ms main#0 starts",
                         "1000ms reader stops: context canceled",
                         "1000ms reader unwound",
                         "1000ms main sleep cut",
                         "1000ms main#0 unwound",
                         "3000ms main#1 starts",
                         "4000ms got 9",
                     }));
  EXPECT_EQ(loop.live_tasks(), 1u);
}

TEST(ProcessTest, RestartOfALiveProcessCrashesItFirst) {
  Journal j;  // outlives the loop: frames it destroys write to it
  Loop loop;
  std::ostringstream sink;
  loop.trace().enable(&sink);
  Process p(loop, "ctrl-1");
  Channel<int> inbox(loop);
  p.start(replica(&p, &inbox, &j));
  loop.run_until(Time{} + 1s);
  p.restart();
  loop.run_until(Time{} + 2s);
  p.restart();
  loop.run_until(Time{} + 3s);
  EXPECT_EQ(p.incarnation(), 2);
  // The old incarnation unwinds before the new one starts.
  EXPECT_EQ(j.lines, (std::vector<std::string>{
                         "0ms main#0 starts",
                         "1000ms reader stops: context canceled",
                         "1000ms reader unwound",
                         "1000ms main sleep cut",
                         "1000ms main#0 unwound",
                         "1000ms main#1 starts",
                         "2000ms reader stops: context canceled",
                         "2000ms reader unwound",
                         "2000ms main sleep cut",
                         "2000ms main#1 unwound",
                         "2000ms main#2 starts",
                     }));
  EXPECT_EQ(
      sink.str(),
      "{\"f\":{\"incarnation\":0},\"k\":\"process.crash\",\"p\":\"ctrl-1\",\"t\":1000000000}\n"
      "{\"f\":{\"incarnation\":1},\"k\":\"process.restart\",\"p\":\"ctrl-1\",\"t\":1000000000}\n"
      "{\"f\":{\"incarnation\":1},\"k\":\"process.crash\",\"p\":\"ctrl-1\",\"t\":2000000000}\n"
      "{\"f\":{\"incarnation\":2},\"k\":\"process.restart\",\"p\":\"ctrl-1\",\"t\":2000000000}\n");
  EXPECT_EQ(loop.trace().count(), 4u);
}

TEST(ProcessTest, TheClockSurvivesARestart) {
  Loop loop;
  Process p(loop, "skewed");
  p.clock().set_offset(90s);
  p.clock().set_rate(2.0);
  p.start(nullptr);
  loop.run_for(1s);
  p.restart();
  loop.run_for(1s);
  EXPECT_EQ(p.clock().wall_now(), Time{} + 90s + 4s);
  EXPECT_EQ(p.clock().now(), Time{} + 4s);
  EXPECT_EQ(p.clock().rate(), 2.0);
  EXPECT_EQ(loop.live_tasks(), 0u);  // no main: nothing runs
}

// A main that never touches its Process, so it may unwind after the Process is gone.
Task<void> detached_main(Loop* loop, Channel<int>* inbox, Context ctx, Journal* j) {
  co_await inbox_reader(loop, inbox, ctx, j);
  j->add(*loop, "main returns");
}

TEST(ProcessTest, DestroyingAProcessCancelsWhatItRuns) {
  Journal j;  // outlives the loop: frames it destroys write to it
  Loop loop;
  Channel<int> inbox(loop);
  Context ctx;
  {
    Process p(loop, "short-lived");
    p.start([&loop, &inbox, &j](Context c) { return detached_main(&loop, &inbox, c, &j); });
    loop.run_until(Time{} + 1s);
    ctx = p.context();
  }
  EXPECT_TRUE(ctx.done());
  EXPECT_EQ(ctx.err(), ContextError::kCanceled);
  // The coroutines unwind at their next resumption, after the Process is gone.
  loop.run_until_idle();
  EXPECT_EQ(j.lines, (std::vector<std::string>{
                         "1000ms reader stops: context canceled",
                         "1000ms reader unwound",
                         "1000ms main returns",
                     }));
  EXPECT_EQ(loop.live_tasks(), 0u);
}

// ---- NetworkLink ----

TEST(NetworkLinkTest, LatencyIsBasePlusAnExtraDrawnBelowItsBound) {
  struct Case {
    Duration base;
    Duration extra;
  };
  const Case cases[] = {{0ms, 0ms}, {5ms, 0ms}, {5ms, 10ms}, {0ms, 1ms}, {100us, 1ns}, {1s, 2s}};
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.base.count() << "+" << c.extra.count());
    Loop loop;
    NetworkLink link(loop, c.base, c.extra);
    EXPECT_EQ(link.base_latency(), c.base);
    EXPECT_EQ(link.extra_latency(), c.extra);
    Rng rng(11);
    Duration lo = Duration::max();
    Duration hi = Duration::min();
    for (int i = 0; i < 5000; ++i) {
      const Duration d = link.sample_latency(rng);
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
    EXPECT_GE(lo, c.base);
    if (c.extra > Duration::zero()) {
      EXPECT_LT(hi, c.base + c.extra);
    } else {
      EXPECT_EQ(hi, c.base);
    }
    if (c.extra >= 1ms) {
      EXPECT_LT(lo, c.base + c.extra / 10);
      EXPECT_GT(hi, c.base + c.extra - c.extra / 10);
    }
  }
}

TEST(NetworkLinkTest, SetLatencyAndSeededSamplesReplay) {
  Loop loop;
  NetworkLink link(loop);
  Rng rng(1);
  EXPECT_EQ(link.sample_latency(rng), Duration::zero());
  link.set_latency(2ms, 3ms);
  EXPECT_EQ(link.base_latency(), 2ms);
  EXPECT_EQ(link.extra_latency(), 3ms);
  Rng a(77);
  Rng b(77);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(link.sample_latency(a), link.sample_latency(b));
}

struct Healed {
  std::vector<std::pair<bool, Time>> wakes;
};

Task<void> wait_healed(Loop* loop, NetworkLink* link, Context ctx, Healed* h) {
  const bool ok = co_await link->healed().wait(ctx);
  h->wakes.emplace_back(ok, loop->now());
}

Task<void> heal_at(Loop* loop, NetworkLink* link, Duration when) {
  co_await sleep_until(Context(), *loop, Time{} + when);
  link->heal();
}

TEST(NetworkLinkTest, PartitionAndHeal) {
  Loop loop;
  NetworkLink link(loop, 1ms);
  EXPECT_FALSE(link.partitioned());
  EXPECT_TRUE(link.healed().is_set());
  link.heal();  // not partitioned: no-op
  EXPECT_FALSE(link.partitioned());

  link.partition();
  EXPECT_TRUE(link.partitioned());
  Event* first = &link.healed();
  EXPECT_FALSE(first->is_set());
  link.partition();  // already partitioned: the same event
  EXPECT_EQ(&link.healed(), first);

  Healed h;
  auto t = with_timeout(Context(), loop, 2s);
  loop.spawn(wait_healed(&loop, &link, Context(), &h));
  loop.spawn(wait_healed(&loop, &link, t.ctx, &h));
  loop.spawn(heal_at(&loop, &link, 5s));
  loop.run_until_idle();
  ASSERT_EQ(h.wakes.size(), 2u);
  EXPECT_EQ(h.wakes[0], std::make_pair(false, Time{} + 2s));
  EXPECT_EQ(h.wakes[1], std::make_pair(true, Time{} + 5s));
  EXPECT_FALSE(link.partitioned());
  EXPECT_TRUE(link.healed().is_set());

  // Healed: waiting returns at once.
  loop.spawn(wait_healed(&loop, &link, Context(), &h));
  loop.run_until_idle();
  ASSERT_EQ(h.wakes.size(), 3u);
  EXPECT_EQ(h.wakes[2], std::make_pair(true, Time{} + 5s));

  // A new partition has a fresh, unset event.
  link.partition();
  EXPECT_FALSE(link.healed().is_set());
  loop.spawn(wait_healed(&loop, &link, Context(), &h));
  loop.spawn(heal_at(&loop, &link, 8s));
  loop.run_until_idle();
  ASSERT_EQ(h.wakes.size(), 4u);
  EXPECT_EQ(h.wakes[3], std::make_pair(true, Time{} + 8s));
}

TEST(NetworkLinkTest, RepartitioningBeforeWokenWaitersRunIsSafe) {
  Loop loop;
  NetworkLink link(loop);
  link.partition();
  Healed h;
  loop.spawn(wait_healed(&loop, &link, Context(), &h));
  loop.run_until_idle();
  // Heal and partition again in the same instant: the woken waiter still reports the heal.
  link.heal();
  link.partition();
  loop.run_until_idle();
  ASSERT_EQ(h.wakes.size(), 1u);
  EXPECT_TRUE(h.wakes[0].first);
  EXPECT_TRUE(link.partitioned());
}

}  // namespace
}  // namespace kubesim::sim
