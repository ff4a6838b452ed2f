// done() for an item that is not being processed: what client-go's Typed.Done does (as of
// client-go 1.36), and the opt-in check that refuses it.
#include "kubesim/workqueue/queue.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/workqueue/metrics.h"

namespace kubesim::workqueue {
namespace {

using sim::Loop;
using sim::Task;

// One get: records the item (or "<none>").
Task<void> take(Queue<std::string>* q, std::vector<std::string>* out) {
  auto item = co_await q->get(sim::Context());
  out->push_back(item ? *item : "<none>");
}

// A queue and the items its workers got; a worker holds "a".
struct Holding {
  explicit Holding(QueueConfig config = {}) : q(loop, std::move(config)) {
    q.add("a");
    get();
  }
  void get(int workers = 1) {
    for (int i = 0; i < workers; ++i) loop.spawn(take(&q, &got));
    loop.run_until_idle();
  }

  Loop loop;
  Queue<std::string> q;
  std::vector<std::string> got;
};

// client-go's Typed.Done deletes the item from `processing` and, when the item is in `dirty`,
// pushes it on the queue, without asking whether it was processing: a second Done of an item
// added again meanwhile queues it twice, and two workers then hold it at once.
TEST(UnbalancedDoneTest, DoneTwiceQueuesADirtyItemTwice) {
  Holding h;
  h.q.add("a");
  h.q.done("a");
  h.q.done("a");
  EXPECT_EQ(h.q.len(), 2u);
  h.get(2);
  EXPECT_EQ(h.got, (std::vector<std::string>{"a", "a", "a"}));
  EXPECT_EQ(h.q.len(), 0u);
  EXPECT_EQ(h.q.processing(), 1u) << "processing is a set: two holders, one entry";
  h.q.done("a");
  EXPECT_EQ(h.q.processing(), 0u);
  h.q.done("a");  // the second holder's done: nothing is left to change
  EXPECT_EQ(h.q.len(), 0u);
}

// With a worker already waiting, the first done() hands the item over at once (the waiter wins
// the race for Typed's lock); the second done() then finds nothing dirty and only deletes the item
// from processing, though the worker holds it: Go allows that interleaving too.
TEST(UnbalancedDoneTest, ASecondDoneAfterAHandOverOnlyEndsProcessing) {
  Holding h;
  h.get();
  h.q.add("a");
  h.q.done("a");
  h.q.done("a");
  h.loop.run_until_idle();
  EXPECT_EQ(h.got, (std::vector<std::string>{"a", "a"}));
  EXPECT_EQ(h.q.len(), 0u);
  EXPECT_EQ(h.q.processing(), 0u) << "the second holder's item no longer counts as processing";
  h.q.add("a");
  EXPECT_EQ(h.q.len(), 1u) << "so a new add queues it while it is held";
}

// The same Typed.Done for an item that was added and never handed out: it is queued again.
TEST(UnbalancedDoneTest, DoneForAWaitingItemQueuesItAgain) {
  Loop loop;
  Queue<std::string> q(loop);
  q.add("a");
  q.add("b");
  q.done("a");
  q.done("c");  // never added: nothing happens
  EXPECT_EQ(q.len(), 3u);
  std::vector<std::string> got;
  for (int i = 0; i < 3; ++i) loop.spawn(take(&q, &got));
  loop.run_until_idle();
  EXPECT_EQ(got, (std::vector<std::string>{"a", "b", "a"}));
}

TEST(UnbalancedDoneTest, DoneTwiceOfACleanItemChangesNothing) {
  Holding h;
  h.q.done("a");
  h.q.done("a");
  EXPECT_EQ(h.q.len(), 0u);
  EXPECT_EQ(h.q.processing(), 0u);
  h.q.add("a");
  EXPECT_EQ(h.q.len(), 1u);
}

// client-go's metrics follow the same calls: every Get lowers the depth gauge, so the duplicate
// takes it below zero; the queue latency is observed only for the get that follows an add.
TEST(UnbalancedDoneTest, MetricsCountTheDuplicateAsClientGoDoes) {
  InMemoryMetricsProvider provider;
  QueueConfig config;
  config.name = "q";
  config.metrics_provider = &provider;
  config.unfinished_work_update_period = sim::Duration::zero();
  Holding h(config);
  h.q.add("a");
  h.q.done("a");
  h.q.done("a");
  h.get(2);
  const auto* v = provider.find("q");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->adds_total, 2);
  EXPECT_EQ(v->depth, -1);
  EXPECT_EQ(v->queue_duration_seconds.count, 2u);
  EXPECT_EQ(v->work_duration_seconds.count, 1u) << "the second done had no processing start to time";
}

TEST(UnbalancedDoneTest, FailOnUnbalancedDoneThrowsAndChangesNothing) {
  QueueConfig config;
  config.fail_on_unbalanced_done = true;
  Holding h(config);
  h.q.add("a");
  h.q.done("a");
  EXPECT_THROW(h.q.done("a"), std::logic_error);
  EXPECT_THROW(h.q.done("never-added"), std::logic_error);
  EXPECT_EQ(h.q.len(), 1u);
  EXPECT_EQ(h.q.processing(), 0u);
}

}  // namespace
}  // namespace kubesim::workqueue
