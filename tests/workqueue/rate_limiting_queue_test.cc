#include "kubesim/workqueue/rate_limiting_queue.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::workqueue {
namespace {

using namespace std::chrono_literals;
using sim::Duration;
using sim::Loop;
using sim::Task;
using sim::Time;

// A reconcile that fails a set number of times per key, then succeeds; it notes when it ran.
struct Reconciler {
  std::map<std::string, int> failures_left;
  std::map<std::string, std::vector<Time>> calls;
  Duration work_time{};  // how long one reconcile takes
};

Task<bool> reconcile(RateLimitingQueue<std::string>* q, Reconciler* r, std::string key) {
  r->calls[key].push_back(q->loop().now());
  if (r->work_time > Duration::zero()) (void)co_await sim::sleep_for(sim::Context(), q->loop(), r->work_time);
  if (r->failures_left[key] > 0) {
    --r->failures_left[key];
    co_return false;
  }
  co_return true;
}

// The controller loop: get → reconcile → forget or add_rate_limited → done.
Task<void> controller(RateLimitingQueue<std::string>* q, Reconciler* r) {
  for (;;) {
    auto key = co_await q->get(sim::Context());
    if (!key) co_return;
    const bool ok = co_await reconcile(q, r, *key);
    if (ok) {
      q->forget(*key);
    } else {
      q->add_rate_limited(*key);
    }
    q->done(*key);
  }
}

// Instants of the attempts when a key fails k times: each retry comes base·2^i after failure i.
std::vector<Time> expected_attempts(int k, Duration work_time) {
  std::vector<Time> out{Time{}};
  for (int i = 0; i < k; ++i) {
    const Duration backoff = std::min<Duration>(Duration(5ms) * (std::int64_t{1} << std::min(i, 40)), 1000s);
    out.push_back(out.back() + work_time + backoff);
  }
  return out;
}

class ControllerLoopTest : public ::testing::TestWithParam<int> {};

TEST_P(ControllerLoopTest, RetriesAfterTheExpectedBackoffThenForgets) {
  const int k = GetParam();
  Loop loop;
  RateLimitingQueue<std::string> q(loop, default_controller_rate_limiter<std::string>(loop.clock()));
  Reconciler r;
  r.failures_left["default/web"] = k;
  loop.spawn(controller(&q, &r));
  q.add("default/web");
  loop.run_until_idle();
  EXPECT_EQ(r.calls["default/web"], expected_attempts(k, Duration::zero()));
  EXPECT_EQ(q.num_requeues("default/web"), 0) << "success forgets the key";
  EXPECT_EQ(q.len(), 0u);
  q.shut_down();
  loop.run_until_idle();
  EXPECT_EQ(loop.live_tasks(), 0u);
}

// k = 0 … 6 fail a few times; 20 reaches the 1000 s cap (5 ms · 2^18 > 1000 s).
INSTANTIATE_TEST_SUITE_P(Failures, ControllerLoopTest, ::testing::Values(0, 1, 2, 3, 6, 20));

TEST(RateLimitingQueueTest, BackoffCountsFromTheFailureNotFromTheGet) {
  Loop loop;
  RateLimitingQueue<std::string> q(loop, default_controller_rate_limiter<std::string>(loop.clock()));
  Reconciler r;
  r.work_time = 100ms;
  r.failures_left["a"] = 3;
  loop.spawn(controller(&q, &r));
  q.add("a");
  loop.run_until_idle();
  EXPECT_EQ(r.calls["a"], expected_attempts(3, 100ms));
}

TEST(RateLimitingQueueTest, TheBucketSpacesFirstRetriesOfManyKeys) {
  Loop loop;
  RateLimitingQueue<std::string> q(loop, default_controller_rate_limiter<std::string>(loop.clock()));
  Reconciler r;
  std::vector<std::string> keys;
  for (int i = 0; i < 103; ++i) {
    keys.push_back("ns/k" + std::to_string(i));
    r.failures_left[keys.back()] = 1;
    q.add(keys.back());
  }
  loop.spawn(controller(&q, &r));
  loop.run_until_idle();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(r.calls[keys[i]].back(), Time{} + 5ms) << i;
  EXPECT_EQ(r.calls[keys[100]].back(), Time{} + 100ms);
  EXPECT_EQ(r.calls[keys[101]].back(), Time{} + 200ms);
  EXPECT_EQ(r.calls[keys[102]].back(), Time{} + 300ms);
}

Task<void> drain_forgetting(RateLimitingQueue<std::string>* q, std::vector<std::string>* out) {
  while (q->len() > 0) {
    auto key = co_await q->get(sim::Context());
    out->push_back(*key);
    q->forget(*key);
    q->done(*key);
  }
}

TEST(RateLimitingQueueTest, LongQueuesDrainInOrderAndForgetEveryKey) {
  Loop loop;
  RateLimitingQueue<std::string> q(loop, default_controller_rate_limiter<std::string>(loop.clock()));
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back("default/obj-" + std::to_string(1'000'000 + i));
  for (const auto& k : keys) q.add_rate_limited(k);
  EXPECT_EQ(q.waiting(), keys.size());
  loop.run_until(Time{} + 1000s);
  ASSERT_EQ(q.len(), keys.size());
  std::vector<std::string> got;
  loop.spawn(drain_forgetting(&q, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, keys) << "the bucket spaces first retries 100 ms apart, in order";
  for (const auto& k : keys) ASSERT_EQ(q.num_requeues(k), 0) << k;
}

// A user's own limiter plugs in through the interface.
class FixedRateLimiter final : public RateLimiter<std::string> {
 public:
  Duration when(const std::string& item) override {
    ++counts_[item];
    return 250ms;
  }
  void forget(const std::string& item) override { counts_.erase(item); }
  int num_requeues(const std::string& item) const override {
    auto it = counts_.find(item);
    return it == counts_.end() ? 0 : it->second;
  }

 private:
  std::map<std::string, int> counts_;
};

TEST(RateLimitingQueueTest, AcceptsAUserRateLimiter) {
  Loop loop;
  RateLimitingQueue<std::string> q(loop, std::make_unique<FixedRateLimiter>());
  Reconciler r;
  r.failures_left["a"] = 2;
  loop.spawn(controller(&q, &r));
  q.add("a");
  loop.run_until(Time{} + 10ms);
  EXPECT_EQ(q.num_requeues("a"), 1);
  loop.run_until_idle();
  EXPECT_EQ(r.calls["a"], (std::vector<Time>{Time{}, Time{} + 250ms, Time{} + 500ms}));
  EXPECT_EQ(q.num_requeues("a"), 0);
}

TEST(RateLimitingQueueTest, RejectsANullLimiter) {
  Loop loop;
  EXPECT_THROW(RateLimitingQueue<std::string>(loop, nullptr), std::invalid_argument);
}

TEST(RateLimitingQueueTest, AddRateLimitedAfterShutDownIsIgnoredButStillCounted) {
  Loop loop;
  RateLimitingQueue<std::string> q(loop, default_controller_rate_limiter<std::string>(loop.clock()));
  q.shut_down();
  q.add_rate_limited("a");
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.num_requeues("a"), 1) << "client-go asks the limiter before the queue ignores the add";
}

}  // namespace
}  // namespace kubesim::workqueue
