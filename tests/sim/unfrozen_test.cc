// unfrozen(ctx): waits that go on while the process that started them is paused.
#include "kubesim/sim/unfrozen.h"

#include <gtest/gtest.h>

#include <optional>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

Task<void> sleep_and_note(Loop* loop, Context ctx, Duration d, std::optional<Time>* woke,
                          bool* slept) {
  *slept = co_await sleep_for(ctx, *loop, d);
  *woke = loop->now();
}

TEST(UnfrozenTest, AWaitOnAnUnfrozenContextEndsOnTimeDuringAPause) {
  Loop loop;
  Process p(loop, "p");
  auto on_wire = unfrozen(p.context());
  std::optional<Time> frozen_woke, unfrozen_woke;
  bool frozen_slept = false, unfrozen_slept = false;
  loop.spawn(sleep_and_note(&loop, p.context(), 1s, &frozen_woke, &frozen_slept));
  loop.spawn(sleep_and_note(&loop, on_wire.ctx, 1s, &unfrozen_woke, &unfrozen_slept));
  loop.add_timer(Time{} + 500ms, [&] { p.pause(10s); });
  loop.run_until_idle();
  ASSERT_TRUE(unfrozen_woke && frozen_woke);
  EXPECT_EQ(*unfrozen_woke, Time{} + 1s);
  EXPECT_EQ(*frozen_woke, Time{} + 10500ms);
  EXPECT_TRUE(unfrozen_slept);
}

TEST(UnfrozenTest, ItIsCancelledWithItsParentAndKeepsItsDeadline) {
  Loop loop;
  auto parent = with_timeout(Context(), loop, 2s);
  auto child = unfrozen(parent.ctx);
  EXPECT_EQ(child.ctx.deadline(), Time{} + 2s);
  EXPECT_EQ(child.ctx.freeze_gate(), nullptr);
  parent.cancel();
  EXPECT_TRUE(child.ctx.done());
  EXPECT_EQ(child.ctx.err(), ContextError::kCanceled);
}

}  // namespace
}  // namespace kubesim::sim
