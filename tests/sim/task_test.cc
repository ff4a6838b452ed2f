#include "kubesim/sim/task.h"

#include <memory>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;

Task<int> answer() { co_return 42; }

Task<int> add_one(Task<int> inner) {
  int v = co_await std::move(inner);
  co_return v + 1;
}

Task<std::unique_ptr<std::string>> move_only() { co_return std::make_unique<std::string>("moved"); }

Task<int> throws() {
  throw std::runtime_error("boom");
  co_return 0;
}

Task<std::string> catches() {
  try {
    co_await throws();
  } catch (const std::runtime_error& e) {
    co_return std::string("caught ") + e.what();
  }
  co_return "no exception";
}

TEST(TaskTest, IsLazy) {
  bool ran = false;
  auto body = [](bool* flag) -> Task<void> {
    *flag = true;
    co_return;
  };
  {
    Task<void> t = body(&ran);
    EXPECT_FALSE(ran);
  }
  EXPECT_FALSE(ran);  // destroyed without running
}

TEST(TaskTest, ReturnsValuesThroughAwaitChains) {
  Loop loop;
  EXPECT_EQ(loop.run_until_complete(add_one(add_one(answer()))), 44);
}

TEST(TaskTest, MoveOnlyResults) {
  Loop loop;
  auto p = loop.run_until_complete(move_only());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, "moved");
}

TEST(TaskTest, ExceptionsPropagateToTheAwaiter) {
  Loop loop;
  EXPECT_EQ(loop.run_until_complete(catches()), "caught boom");
  EXPECT_THROW(loop.run_until_complete(throws()), std::runtime_error);
}

Task<void> ready() { co_return; }

Task<int> many_ready_awaits(int n) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    co_await ready();
    ++count;
  }
  co_return count;
}

// Immediately-ready awaits must not grow the stack: this overflows without the inline-completion
// path on compilers that do not turn symmetric transfer into tail calls (GCC at -O0, ASan).
TEST(TaskTest, HundredThousandReadyAwaitsDoNotOverflowTheStack) {
  Loop loop;
  EXPECT_EQ(loop.run_until_complete(many_ready_awaits(100'000)), 100'000);
}

Task<int> sleeps_then_returns(Loop* loop, int v) {
  (void)co_await sleep_for(Context(), *loop, 1ms);
  co_return v;
}

Task<int> many_suspending_awaits(Loop* loop, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    int v = co_await sleeps_then_returns(loop, 1);
    sum += v;
  }
  co_return sum;
}

TEST(TaskTest, SuspendingChildrenResumeTheirAwaiter) {
  Loop loop;
  EXPECT_EQ(loop.run_until_complete(many_suspending_awaits(&loop, 10'000)), 10'000);
  EXPECT_EQ(loop.now(), Time{} + 10'000ms);
}

Task<void> fail_later(Loop* loop) {
  (void)co_await sleep_for(Context(), *loop, 5s);
  throw std::runtime_error("spawned failure");
}

TEST(TaskTest, SpawnedFailuresAreRethrownByTheLoop) {
  Loop loop;
  loop.spawn(fail_later(&loop), "failing");
  EXPECT_THROW(loop.run_until_idle(), std::runtime_error);
  EXPECT_EQ(loop.now(), Time{} + 5s);
}

TEST(TaskTest, SpawnedFailuresReachACustomHandler) {
  Loop loop;
  std::string seen;
  loop.set_failure_handler([&](std::exception_ptr e, const std::string& name) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      seen = name + ": " + ex.what();
    }
  });
  loop.spawn(fail_later(&loop), "failing");
  EXPECT_NO_THROW(loop.run_until_idle());
  EXPECT_EQ(seen, "failing: spawned failure");
}

Task<void> wait_forever(Loop* loop) {
  (void)co_await sleep_for(Context(), *loop, std::chrono::hours(1'000'000));
}

TEST(TaskTest, RunUntilCompleteReportsADeadlock) {
  Loop loop;
  Event never(loop);
  auto wait = [](Event* e) -> Task<void> { (void)co_await e->wait(Context()); };
  EXPECT_THROW(loop.run_until_complete(wait(&never)), std::logic_error);
}

TEST(TaskTest, SpawnedFramesStillSuspendedAreDestroyedWithTheLoop) {
  auto loop = std::make_unique<Loop>();
  loop->spawn(wait_forever(loop.get()));
  loop->run_for(1s);
  EXPECT_EQ(loop->live_tasks(), 1u);
  loop.reset();  // ASan reports a leak if the frame is not destroyed
}

}  // namespace
}  // namespace kubesim::sim
