#include "fakeapi/http/internal/channel.h"

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <gtest/gtest.h>
#include <memory>

namespace kubesim::fakeapi::http::internal {
namespace {

using namespace std::chrono_literals;

// Counts the drains that reach it; the rest of SessionBase is not used by the Gate.
class CountingSession : public SessionBase {
 public:
  void on_reply(Reply) override {}
  void on_watch_data() override { ++drains; }
  void shutdown() override {}
  int drains = 0;
};

TEST(GateTest, WithoutCoalescingEveryWakeIsDrainedAtOnce) {
  boost::asio::io_context io(1);
  auto gate = std::make_shared<Gate>(io);
  auto a = std::make_shared<CountingSession>();
  gate->wake(a);
  io.poll();
  EXPECT_EQ(a->drains, 1);
  gate->wake(a);
  io.restart();
  io.poll();
  EXPECT_EQ(a->drains, 2);
  gate->close();
  gate->io_stopped();
}

TEST(GateTest, WakesWithinTheIntervalWaitForOneLaterDrain) {
  boost::asio::io_context io(1);
  auto gate = std::make_shared<Gate>(io, std::chrono::duration_cast<std::chrono::microseconds>(1h));
  auto a = std::make_shared<CountingSession>();
  auto b = std::make_shared<CountingSession>();
  // The first wake-up after a quiet spell goes out at once.
  gate->wake(a);
  io.poll();
  EXPECT_EQ(a->drains, 1);
  // Within the interval, wake-ups are held back together (the drain timer is an hour away).
  gate->wake(a);
  gate->wake(b);
  io.restart();
  io.poll();
  EXPECT_EQ(a->drains, 1);
  EXPECT_EQ(b->drains, 0);
  // A closed gate drops them, and the timer is freed while the io_context still exists.
  gate->close();
  gate->io_stopped();
  io.restart();
  io.poll();
  EXPECT_EQ(a->drains, 1);
  EXPECT_EQ(b->drains, 0);
}

TEST(GateTest, AHeldBackDrainRunsWhenItsIntervalHasPassed) {
  boost::asio::io_context io(1);
  auto gate = std::make_shared<Gate>(io, std::chrono::microseconds(1000));
  auto a = std::make_shared<CountingSession>();
  auto b = std::make_shared<CountingSession>();
  gate->wake(a);
  io.poll();
  gate->wake(a);
  gate->wake(b);
  // run() returns once the held-back drain has run and nothing is left to do.
  io.restart();
  io.run();
  EXPECT_EQ(a->drains, 2);
  EXPECT_EQ(b->drains, 1);
  gate->close();
  gate->io_stopped();
}

TEST(GateTest, ASessionGoneBeforeTheDrainIsSkipped) {
  boost::asio::io_context io(1);
  auto gate = std::make_shared<Gate>(io);
  auto a = std::make_shared<CountingSession>();
  gate->wake(a);
  std::weak_ptr<CountingSession> weak = a;
  a.reset();
  io.poll();  // must not touch the destroyed session
  EXPECT_TRUE(weak.expired());
  gate->close();
  gate->io_stopped();
}

}  // namespace
}  // namespace kubesim::fakeapi::http::internal
