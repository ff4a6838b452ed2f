#include "kubesim/informer/shared_informer.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cluster.h"
#include "handlers.h"
#include "kubesim/sim/context.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using testing::cache_state;
using testing::Cluster;
using testing::FifoVariant;
using testing::kConfigMaps;
using testing::RecordingHandler;

sim::Task<void> run_shared_informer(SharedIndexInformer* informer, sim::Context ctx, bool* done) {
  co_await informer->run(ctx);
  *done = true;
}

sim::Task<void> wait_synced(SharedIndexInformer* informer, sim::Context ctx, bool* synced) {
  std::vector<std::function<bool()>> checks{[informer] { return informer->has_synced(); }};
  *synced = co_await wait_for_cache_sync(ctx, &informer->clock(), std::move(checks));
}

class SharedInformerTest : public ::testing::TestWithParam<FifoVariant> {
 protected:
  SharedIndexInformerOptions options() const {
    SharedIndexInformerOptions o;
    o.fifo = GetParam().fifo;
    o.atomic_fifo = GetParam().atomic;
    o.indexers.emplace(kNamespaceIndex, meta_namespace_index_func);
    return o;
  }
  std::unique_ptr<SharedIndexInformer> make(Cluster& c, SharedIndexInformerOptions o) const {
    return std::make_unique<SharedIndexInformer>(c.process.clock(), std::make_unique<ListWatch>(c.client, kConfigMaps),
                                                 std::move(o));
  }
  void start(Cluster& c, SharedIndexInformer& informer) {
    cancel_ = sim::with_cancel(c.process.context());
    c.loop.spawn(run_shared_informer(&informer, cancel_.ctx, &done_));
  }
  void stop(Cluster& c) {
    cancel_.cancel();
    c.loop.run_for(1s);
    EXPECT_TRUE(done_) << "run() must return once its context is done";
  }

  sim::ContextWithCancel cancel_;
  bool done_ = false;
};

INSTANTIATE_TEST_SUITE_P(Fifos, SharedInformerTest, ::testing::ValuesIn(testing::kFifoVariants),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_P(SharedInformerTest, TheInitialListReachesEveryHandlerAsInitialAdds) {
  Cluster c;
  for (int i = 0; i < 5; ++i) c.create("default", "cm-" + std::to_string(i));
  auto informer = make(c, options());
  auto first = std::make_shared<RecordingHandler>();
  auto second = std::make_shared<RecordingHandler>();
  auto reg1 = informer->add_event_handler(first);
  auto reg2 = informer->add_event_handler(second);
  ASSERT_TRUE(reg1.ok() && reg2.ok());
  EXPECT_FALSE(informer->has_synced());
  start(c, *informer);
  bool synced = false;
  c.loop.spawn(wait_synced(informer.get(), c.process.context(), &synced));
  c.loop.run_for(1s);
  EXPECT_TRUE(synced);
  EXPECT_TRUE(informer->has_synced());
  EXPECT_TRUE((*reg1)->has_synced());
  EXPECT_EQ(first->events, (std::vector<std::string>{"add*:default/cm-0", "add*:default/cm-1", "add*:default/cm-2",
                                                     "add*:default/cm-3", "add*:default/cm-4"}));
  EXPECT_EQ(second->events, first->events);
  EXPECT_EQ(cache_state(*informer), c.server_state());
  EXPECT_EQ(informer->last_sync_resource_version(), c.revision());

  auto obj = c.create("default", "late");
  c.touch(obj, "v");
  c.remove("default", "cm-0");
  c.loop.run_for(1s);
  EXPECT_EQ(std::vector<std::string>(first->events.begin() + 5, first->events.end()),
            (std::vector<std::string>{"add:default/late", "update:default/late", "delete:default/cm-0"}));
  EXPECT_EQ(first->view_state(), cache_state(*informer));
  stop(c);
}

TEST_P(SharedInformerTest, AHandlerAddedLaterIsHandedTheCacheFirst) {
  Cluster c;
  c.create("default", "a");
  c.create("default", "b");
  auto informer = make(c, options());
  start(c, *informer);
  c.loop.run_for(1s);
  ASSERT_TRUE(informer->has_synced());
  auto late = std::make_shared<RecordingHandler>();
  auto reg = informer->add_event_handler(late);
  ASSERT_TRUE(reg.ok());
  EXPECT_FALSE((*reg)->has_synced()) << "not before it has been handed the cache";
  c.loop.run_for(1s);
  EXPECT_TRUE((*reg)->has_synced());
  EXPECT_EQ(late->events, (std::vector<std::string>{"add*:default/a", "add*:default/b"}));
  stop(c);
}

TEST_P(SharedInformerTest, ASlowHandlerNeverHoldsUpTheOthersOrTheCache) {
  Cluster c;
  auto informer = make(c, options());
  auto slow = std::make_shared<testing::SlowHandler>(c.loop, 1s);
  auto fast = std::make_shared<RecordingHandler>();
  ASSERT_TRUE(informer->add_event_handler(slow).ok());
  ASSERT_TRUE(informer->add_event_handler(fast).ok());
  start(c, *informer);
  c.loop.run_for(1s);
  for (int i = 0; i < 50; ++i) c.create("default", "cm-" + std::to_string(i));
  c.loop.run_for(100ms);
  EXPECT_EQ(fast->adds, 50);
  EXPECT_EQ(informer->get_indexer().size(), 50u);
  EXPECT_LT(slow->inner.adds, 5);
  EXPECT_GT(informer->pending_notifications(), 40u);
  c.loop.run_for(60s);
  EXPECT_EQ(slow->inner.adds, 50);
  EXPECT_EQ(slow->inner.view_state(), cache_state(*informer));
  stop(c);
}

TEST_P(SharedInformerTest, ResyncsGoOnlyToHandlersThatAskedForThem) {
  Cluster c;
  c.create("default", "a");
  c.create("default", "b");
  SharedIndexInformerOptions o = options();
  o.resync_period = 30s;
  auto informer = make(c, o);
  auto resyncing = std::make_shared<RecordingHandler>();
  auto slower = std::make_shared<RecordingHandler>();
  auto quiet = std::make_shared<RecordingHandler>();
  HandlerOptions every_minute;
  every_minute.resync_period = 60s;
  HandlerOptions never;
  never.resync_period = 0s;
  ASSERT_TRUE(informer->add_event_handler(resyncing).ok());
  ASSERT_TRUE(informer->add_event_handler(slower, every_minute).ok());
  ASSERT_TRUE(informer->add_event_handler(quiet, never).ok());
  start(c, *informer);
  c.loop.run_for(95s);
  EXPECT_EQ(resyncing->resyncs, 6) << "two objects, three resyncs";
  EXPECT_EQ(slower->resyncs, 2) << "two objects, one resync";
  EXPECT_EQ(quiet->updates, 0);
  stop(c);
}

TEST_P(SharedInformerTest, AnInformerWithoutResyncGivesNoHandlerAResync) {
  Cluster c;
  c.create("default", "a");
  auto informer = make(c, options());
  auto handler = std::make_shared<RecordingHandler>();
  HandlerOptions every_30s;
  every_30s.resync_period = 30s;
  ASSERT_TRUE(informer->add_event_handler(handler, every_30s).ok());
  start(c, *informer);
  c.loop.run_for(95s);
  EXPECT_EQ(handler->updates, 0);
  stop(c);
}

TEST_P(SharedInformerTest, ADeleteMissedDuringAPartitionArrivesAsATombstoneWithTheLastKnownState) {
  Cluster c;
  auto a = c.create("default", "a");
  auto informer = make(c, options());
  auto handler = std::make_shared<RecordingHandler>();
  ASSERT_TRUE(informer->add_event_handler(handler).ok());
  start(c, *informer);
  c.loop.run_for(1s);
  a = c.touch(a, "seen");
  c.loop.run_for(1s);
  ASSERT_EQ(handler->view["default/a"], std::string(a->resource_version()));
  c.link->partition();
  c.remove("default", "a");
  c.create("default", "b");
  c.loop.run_for(2min);
  EXPECT_EQ(handler->deletes, 0) << "nothing crosses a partition";
  c.link->heal();
  c.loop.run_for(2min);
  ASSERT_EQ(handler->tombstones.size(), 1u);
  EXPECT_EQ(handler->tombstones[0].key.str(), "default/a");
  ASSERT_NE(handler->tombstones[0].object, nullptr);
  EXPECT_EQ(handler->tombstones[0].object->resource_version(), a->resource_version())
      << "the tombstone carries the last state the informer knew";
  EXPECT_EQ(cache_state(*informer), c.server_state());
  EXPECT_EQ(handler->view_state(), cache_state(*informer));
  stop(c);
}

api::ObjectPtr drop_labels(api::ObjectPtr obj) { return obj->with_labels({}); }

TEST_P(SharedInformerTest, TheTransformRunsBeforeObjectsAreCached) {
  Cluster c;
  c.create("default", "a", {{"big", "label"}});
  SharedIndexInformerOptions o = options();
  o.transform = drop_labels;
  auto informer = make(c, o);
  start(c, *informer);
  c.loop.run_for(1s);
  c.create("default", "b", {{"big", "label"}});
  c.loop.run_for(1s);
  ASSERT_EQ(informer->get_indexer().size(), 2u);
  for (const auto& obj : informer->get_indexer().list()) EXPECT_TRUE(obj->labels().empty());
  stop(c);
}

TEST_P(SharedInformerTest, ARemovedHandlerHearsNothingMore) {
  Cluster c;
  auto informer = make(c, options());
  auto handler = std::make_shared<RecordingHandler>();
  auto reg = informer->add_event_handler(handler);
  ASSERT_TRUE(reg.ok());
  start(c, *informer);
  c.loop.run_for(1s);
  ASSERT_TRUE(informer->remove_event_handler(*reg).ok());
  EXPECT_FALSE(informer->remove_event_handler(*reg).ok()) << "only once";
  c.create("default", "a");
  c.loop.run_for(1s);
  EXPECT_EQ(handler->adds, 0);
  stop(c);
}

TEST_P(SharedInformerTest, StopsWithItsContextAndTakesNoHandlersAfterwards) {
  Cluster c;
  auto informer = make(c, options());
  start(c, *informer);
  c.loop.run_for(1s);
  stop(c);
  EXPECT_TRUE(informer->is_stopped());
  auto late = informer->add_event_handler(std::make_shared<RecordingHandler>());
  EXPECT_FALSE(late.ok());
  c.loop.run_for(1min);
  EXPECT_EQ(c.server.watches().watcher_count(), 0u) << "the watch was closed";
}

TEST(SharedInformerStandaloneTest, WaitForCacheSyncGivesUpWithItsContext) {
  Cluster c;
  c.link->partition();
  SharedIndexInformer informer(c.process.clock(), std::make_unique<ListWatch>(c.client, kConfigMaps));
  auto cancel = sim::with_cancel(c.process.context());
  bool done = false;
  c.loop.spawn(run_shared_informer(&informer, cancel.ctx, &done));
  auto timeout = sim::with_timeout(c.process.context(), c.loop, 5s);
  bool synced = true;
  c.loop.spawn(wait_synced(&informer, timeout.ctx, &synced));
  c.loop.run_for(6s);
  EXPECT_FALSE(synced);
  cancel.cancel();
  c.loop.run_for(20s);
  EXPECT_TRUE(done);
}

}  // namespace
}  // namespace kubesim::informer
