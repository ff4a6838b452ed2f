#include "kubesim/informer/factory.h"

#include <gtest/gtest.h>

#include "cluster.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using testing::Cluster;
using testing::kConfigMaps;
using testing::kSecrets;

sim::Task<void> wait_all(SharedInformerFactory* factory, sim::Context ctx,
                         std::map<api::GroupVersionResource, bool>* out) {
  *out = co_await factory->wait_for_cache_sync(ctx);
}

sim::Task<void> shut_down_and_mark(SharedInformerFactory* factory, bool* done) {
  co_await factory->shutdown();
  *done = true;
}

TEST(SharedInformerFactoryTest, SharesOneInformerPerResourceAndStartsThemAll) {
  Cluster c;
  c.create("default", "a");
  c.create("kube-public", "b");
  SharedInformerFactory factory(c.client, c.process.clock());
  SharedIndexInformer& configmaps = factory.informer_for(kConfigMaps);
  EXPECT_EQ(&factory.informer_for(kConfigMaps), &configmaps) << "one informer per resource";
  SharedIndexInformer& secrets = factory.informer_for(kSecrets);
  EXPECT_NE(&secrets, &configmaps);
  EXPECT_TRUE(configmaps.get_indexer().get_indexers().contains(kNamespaceIndex));

  auto cancel = sim::with_cancel(c.process.context());
  factory.start(cancel.ctx);
  std::map<api::GroupVersionResource, bool> synced;
  c.loop.spawn(wait_all(&factory, c.process.context(), &synced));
  c.loop.run_for(1s);
  EXPECT_EQ(synced, (std::map<api::GroupVersionResource, bool>{{kConfigMaps, true}, {kSecrets, true}}));
  Lister lister = factory.lister_for(kConfigMaps);
  EXPECT_EQ(lister.list().size(), 2u);
  EXPECT_EQ(lister.by_namespace("default").list().size(), 1u);
  ASSERT_TRUE(lister.by_namespace("kube-public").get("b").ok());

  factory.start(cancel.ctx);  // starting again does not start anything twice
  cancel.cancel();
  bool done = false;
  c.loop.spawn(shut_down_and_mark(&factory, &done));
  c.loop.run_for(1s);
  EXPECT_TRUE(done);
  EXPECT_TRUE(configmaps.is_stopped());
  factory.start(c.process.context());  // after shutdown: nothing starts
  c.loop.run_for(1s);
}

TEST(SharedInformerFactoryTest, NamespaceAndTweakApplyToEveryInformer) {
  Cluster c;
  c.create("default", "a", {{"keep", "yes"}});
  c.create("default", "b");
  c.create("kube-public", "c", {{"keep", "yes"}});
  SharedInformerFactoryOptions options;
  options.ns = "default";
  options.tweak = [](api::ListOptions& o) { o.label_selector = "keep=yes"; };
  SharedInformerFactory factory(c.client, c.process.clock(), options);
  auto cancel = sim::with_cancel(c.process.context());
  (void)factory.informer_for(kConfigMaps);
  factory.start(cancel.ctx);
  c.loop.run_for(1s);
  auto listed = factory.lister_for(kConfigMaps).list();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]->key().str(), "default/a");
  cancel.cancel();
  bool done = false;
  c.loop.spawn(shut_down_and_mark(&factory, &done));
  c.loop.run_for(1s);
  EXPECT_TRUE(done);
}

}  // namespace
}  // namespace kubesim::informer
