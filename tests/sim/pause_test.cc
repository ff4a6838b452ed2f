// Process::pause: a frozen process runs none of its coroutines, and what came due meanwhile
// happens when the pause ends, in the order it came.
#include "kubesim/sim/process.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "kubesim/sim/channel.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

// What happened, with the true time it happened at.
struct PauseLog {
  std::vector<std::string> lines;
  void add(const Loop& loop, const std::string& what) {
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(loop.now().time_since_epoch());
    lines.push_back(std::to_string(ms.count()) + "ms " + what);
  }
};

// Touches the Process only before it suspends: the Process may be gone when it resumes.
Task<void> pause_sleeper(Process* p, Context ctx, Duration d, std::string name, PauseLog* log) {
  Loop* loop = &p->loop();
  const bool slept = co_await sleep_for(ctx, p->clock(), d);
  log->add(*loop, name + (slept ? " woke" : " cut"));
}

Task<void> pause_receiver(Loop* loop, Channel<int>* ch, Context ctx, PauseLog* log) {
  std::optional<int> v = co_await ch->recv(ctx);
  log->add(*loop, v ? "got " + std::to_string(*v) : std::string("recv cut"));
}

Task<void> send_at_time(Loop* loop, Channel<int>* ch, Time when, int v) {
  co_await sleep_until(Context(), *loop, when);
  co_await ch->send(Context(), v);
}

// One process "p" on a Loop whose trace is kept; the log outlives the Loop, whose destruction
// may still write to it.
struct Traced {
  Traced() { loop.trace().enable(&trace); }
  PauseLog log;
  Loop loop;
  std::ostringstream trace;
  Process p{loop, "p"};
};

TEST(PauseTest, ASleepThatComesDueDuringAPauseEndsWithIt) {
  PauseLog log;
  Loop loop;
  Process paused(loop, "paused");
  Process other(loop, "other");
  loop.spawn(pause_sleeper(&paused, paused.context(), 1s, "paused", &log));
  loop.spawn(pause_sleeper(&other, other.context(), 1s, "other", &log));
  loop.add_timer(Time{} + 500ms, [&] { paused.pause(10s); });
  loop.run_until(Time{} + 5s);
  EXPECT_TRUE(paused.paused());
  EXPECT_EQ(paused.paused_until(), Time{} + 10500ms);
  loop.run_until_idle();
  EXPECT_FALSE(paused.paused());
  EXPECT_EQ(log.lines, (std::vector<std::string>{"1000ms other woke", "10500ms paused woke"}));
}

TEST(PauseTest, HeldResumesRunInTheOrderTheyCameAndDerivedContextsAreFrozenToo) {
  PauseLog log;
  Loop loop;
  Process p(loop, "p");
  Channel<int> ch(loop);
  auto deadline = with_timeout(p.context(), loop, 3s);
  loop.spawn(pause_sleeper(&p, p.context(), 2s, "two", &log));
  loop.spawn(pause_sleeper(&p, deadline.ctx, 1h, "deadline", &log));
  loop.spawn(pause_receiver(&loop, &ch, p.context(), &log));
  loop.spawn(pause_sleeper(&p, p.context(), 1s, "one", &log));
  loop.spawn(send_at_time(&loop, &ch, Time{} + 4s, 7));
  loop.add_timer(Time{} + 500ms, [&] { p.pause(5s); });
  loop.run_until_idle();
  EXPECT_EQ(log.lines, (std::vector<std::string>{"5500ms one woke", "5500ms two woke",
                                                 "5500ms deadline cut", "5500ms got 7"}));
}

TEST(PauseTest, OverlappingPausesEndAtTheLatestEnd) {
  Traced t;
  PauseLog& log = t.log;
  Loop& loop = t.loop;
  Process& p = t.p;
  loop.spawn(pause_sleeper(&p, p.context(), 2s, "sleeper", &log));
  loop.add_timer(Time{} + 1s, [&] { p.pause(10s); });  // until 11 s
  loop.add_timer(Time{} + 5s, [&] { p.pause(2s); });   // inside it: no change
  loop.add_timer(Time{} + 8s, [&] { p.pause(10s); });  // extends it to 18 s
  loop.add_timer(Time{} + 9s, [&] { p.pause(0s); });   // nothing
  loop.run_until_idle();
  EXPECT_EQ(log.lines, (std::vector<std::string>{"18000ms sleeper woke"}));
  EXPECT_EQ(t.trace.str(),
            "{\"f\":{\"until\":11000000000},\"k\":\"process.pause\",\"p\":\"p\",\"t\":1000000000}\n"
            "{\"f\":{\"until\":18000000000},\"k\":\"process.pause\",\"p\":\"p\",\"t\":8000000000}\n"
            "{\"f\":{\"why\":\"elapsed\"},\"k\":\"process.pause_end\",\"p\":\"p\","
            "\"t\":18000000000}\n");
}

TEST(PauseTest, ACrashEndsThePauseAndUnwindsAtOnce) {
  Traced t;
  PauseLog& log = t.log;
  Loop& loop = t.loop;
  Process& p = t.p;
  p.start([&log, &p](Context ctx) { return pause_sleeper(&p, ctx, 1h, "main", &log); });
  loop.add_timer(Time{} + 1s, [&] { p.pause(100s); });
  loop.add_timer(Time{} + 5s, [&] { p.crash(); });
  loop.add_timer(Time{} + 6s, [&] { p.restart(); });
  loop.run_until(Time{} + 7s);
  EXPECT_FALSE(p.paused());
  EXPECT_EQ(log.lines, (std::vector<std::string>{"5000ms main cut"}));
  EXPECT_EQ(loop.pending_timers(), 1u);  // the new incarnation's sleep; no pause timer
  EXPECT_EQ(t.trace.str(),
            "{\"f\":{\"until\":101000000000},\"k\":\"process.pause\",\"p\":\"p\","
            "\"t\":1000000000}\n"
            "{\"f\":{\"why\":\"crash\"},\"k\":\"process.pause_end\",\"p\":\"p\",\"t\":5000000000}\n"
            "{\"f\":{\"incarnation\":0},\"k\":\"process.crash\",\"p\":\"p\",\"t\":5000000000}\n"
            "{\"f\":{\"incarnation\":1},\"k\":\"process.restart\",\"p\":\"p\",\"t\":6000000000}\n");
  loop.add_timer(Time{} + 7s, [&] { p.pause(1s); });  // a new incarnation pauses like the first
  loop.spawn(pause_sleeper(&p, p.context(), 500ms, "again", &log));
  loop.run_until(Time{} + 10s);
  EXPECT_EQ(log.lines.back(), "8000ms again woke");
}

TEST(PauseTest, DestroyingAPausedProcessLeavesNothingHeld) {
  PauseLog log;
  Loop loop;
  {
    Process p(loop, "p");
    loop.spawn(pause_sleeper(&p, p.context(), 1s, "main", &log));
    p.pause(10s);
    loop.run_until(Time{} + 2s);
  }
  loop.run_until_idle();
  EXPECT_EQ(log.lines, (std::vector<std::string>{"2000ms main woke"}));
  EXPECT_EQ(loop.pending_timers(), 0u);
}

}  // namespace
}  // namespace kubesim::sim
