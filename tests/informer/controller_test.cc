// The controller pattern end to end: an informer's handler enqueues keys into a rate-limited
// work queue; workers take keys, read the cache through a lister and reconcile through the
// client. Here the controller keeps a Secret "mirror-<name>" for every ConfigMap, holding its data;
// it must get there and stay there through random writes and network faults.
#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "cluster.h"
#include "kubesim/informer/factory.h"
#include "kubesim/informer/lister.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;
using testing::Cluster;
using testing::kConfigMaps;
using testing::kSecrets;
using WorkQueue = workqueue::RateLimitingQueue<std::string>;

struct Controller {
  Controller(Cluster& c, SharedInformerFactory& factory)
      : client(&c.client),
        lister(factory.lister_for(kConfigMaps)),
        queue(c.process.clock(), workqueue::default_controller_rate_limiter<std::string>(c.process.clock())) {}

  api::Client* client;
  Lister lister;
  WorkQueue queue;
  int reconciles = 0;
  int writes = 0;
  int failures = 0;
};

api::ObjectPtr mirror_of(const api::Object& config_map) {
  const std::string v = config_map.json().value("data", nlohmann::json::object()).value("v", "");
  return api::make_object({{"apiVersion", "v1"},
                           {"kind", "Secret"},
                           {"type", "Opaque"},
                           {"metadata", {{"name", "mirror-" + std::string(config_map.name())},
                                         {"namespace", std::string(config_map.namespace_())},
                                         {"annotations", {{"mirror/v", v}}}}}});
}

// One reconcile of `key`; false when it must be retried.
sim::Task<bool> reconcile(Controller* ctl, sim::Context ctx, std::string key) {
  ++ctl->reconciles;
  auto parts = api::split_meta_namespace_key(key);
  const std::string mirror_name = "mirror-" + parts->name;
  auto source = ctl->lister.by_namespace(parts->ns).get(parts->name);
  auto existing = co_await ctl->client->get(ctx, kSecrets, parts->ns, mirror_name, api::GetOptions());
  if (!existing.ok() && !api::is_not_found(existing.status())) co_return false;
  if (!source.ok()) {
    if (!existing.ok()) co_return true;
    auto deleted = co_await ctl->client->delete_(ctx, kSecrets, parts->ns, mirror_name, api::DeleteOptions());
    ++ctl->writes;
    co_return deleted.ok() || api::is_not_found(deleted.status());
  }
  api::ObjectPtr want = mirror_of(*source.value());
  if (!existing.ok()) {
    auto created = co_await ctl->client->create(ctx, kSecrets, parts->ns, want, api::CreateOptions());
    ++ctl->writes;
    co_return created.ok();
  }
  if (existing.value()->annotation("mirror/v") == want->annotation("mirror/v")) co_return true;
  api::ObjectPtr update = want->with_resource_version(std::string(existing.value()->resource_version()));
  auto updated = co_await ctl->client->update(ctx, kSecrets, parts->ns, update, api::UpdateOptions());
  ++ctl->writes;
  co_return updated.ok();
}

sim::Task<void> worker(Controller* ctl, sim::Context ctx) {
  for (;;) {
    auto key = co_await ctl->queue.get(ctx);
    if (!key) co_return;
    const bool ok = co_await reconcile(ctl, ctx, *key);
    if (ok) {
      ctl->queue.forget(*key);
    } else {
      ++ctl->failures;
      ctl->queue.add_rate_limited(*key);
    }
    ctl->queue.done(*key);
  }
}

void random_write(Cluster* c) {
  sim::Rng& rng = c->loop.rng();
  const std::string name = "cm-" + std::to_string(rng.uniform(15));
  auto current = c->server.get(kConfigMaps, "default", name, api::GetOptions());
  if (!current.ok()) {
    (void)c->create("default", name);
  } else if (rng.bernoulli(0.7)) {
    (void)c->touch(current.value(), std::to_string(rng.uniform(100)));
  } else {
    c->remove("default", name);
  }
}

sim::Task<void> workload(Cluster* c, sim::Context ctx, int ops) {
  for (int i = 0; i < ops; ++i) {
    const bool slept = co_await sim::sleep_for(ctx, c->loop, c->loop.rng().uniform_duration(0ms, 1s));
    if (!slept) co_return;
    random_write(c);
    if (c->loop.rng().bernoulli(0.03)) c->server.restart();
    if (c->loop.rng().bernoulli(0.02) && !c->link->partitioned()) c->link->partition();
    if (c->loop.rng().bernoulli(0.1) && c->link->partitioned()) c->link->heal();
  }
  c->link->heal();
}

// ConfigMap name -> its data.v, and mirror name -> its annotation, from the server.
std::map<std::string, std::string> expected_mirrors(Cluster& c) {
  std::map<std::string, std::string> out;
  auto listed = c.server.list(kConfigMaps, "default", api::ListOptions());
  for (const auto& cm : listed.value().items) {
    out["mirror-" + std::string(cm->name())] = cm->json().value("data", nlohmann::json::object()).value("v", "");
  }
  return out;
}

std::map<std::string, std::string> actual_mirrors(Cluster& c) {
  std::map<std::string, std::string> out;
  auto listed = c.server.list(kSecrets, "default", api::ListOptions());
  for (const auto& s : listed.value().items) {
    out[std::string(s->name())] = std::string(s->annotation("mirror/v").value_or("?"));
  }
  return out;
}

sim::Task<void> shut_down(SharedInformerFactory* factory) { co_await factory->shutdown(); }

void enqueue(Controller* ctl, const api::ObjectKey& key) { ctl->queue.add(key.str()); }

void run_controller_scenario(std::uint64_t seed, FifoKind fifo) {
  Cluster c(seed);
  for (int i = 0; i < 5; ++i) random_write(&c);
  SharedInformerFactoryOptions options;
  options.informer.fifo = fifo;
  options.default_resync = 5min;
  SharedInformerFactory factory(c.client, c.process.clock(), options);
  Controller ctl(c, factory);
  auto handler = std::make_shared<ResourceEventHandlerFuncs>();
  handler->add_func = [&](const api::ObjectPtr& o, bool) { enqueue(&ctl, o->key()); };
  handler->update_func = [&](const api::ObjectPtr&, const api::ObjectPtr& o) { enqueue(&ctl, o->key()); };
  handler->delete_func = [&](const DeletedObject& o) { enqueue(&ctl, key_of(o)); };
  ASSERT_TRUE(factory.informer_for(kConfigMaps).add_event_handler(handler).ok());

  auto cancel = sim::with_cancel(c.process.context());
  factory.start(cancel.ctx);
  for (int i = 0; i < 2; ++i) c.loop.spawn(worker(&ctl, cancel.ctx), "worker");
  c.loop.spawn(workload(&c, cancel.ctx, 80));
  c.loop.run_for(2min + 2min);
  EXPECT_EQ(actual_mirrors(c), expected_mirrors(c)) << "seed " << seed;
  EXPECT_EQ(ctl.queue.len(), 0u);
  EXPECT_GT(ctl.writes, 0);
  ctl.queue.shut_down();
  cancel.cancel();
  c.loop.spawn(shut_down(&factory));
  c.loop.run_for(1min);
}

TEST(ControllerTest, MirrorsConvergeThroughRandomWritesAndFaultsWithRealFIFO) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) run_controller_scenario(seed, FifoKind::kRealFIFO);
}

TEST(ControllerTest, MirrorsConvergeThroughRandomWritesAndFaultsWithDeltaFIFO) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) run_controller_scenario(seed, FifoKind::kDeltaFIFO);
}

}  // namespace
}  // namespace kubesim::informer
