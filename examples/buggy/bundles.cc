// unsynced-start: a CA-bundle publisher written by hand on two informers and a work queue
// (QueueController), as cert-manager's trust distributors and many "publish the CA of this
// Secret for clients" controllers are: for every Secret of namespace `certs` it keeps a
// ConfigMap of the same name holding the Secret's `ca` (data.ca, copied as the Secret stores it),
// and deletes a ConfigMap whose Secret is gone — once it has been an orphan for 2 s, so that a
// Secret made just after its bundle is not raced. The key is the name; a Secret or ConfigMap
// event queues it.
//
// unsynced-start — the bug: the worker starts once the ConfigMap informer has synced (the one
//   whose objects it deletes), without waiting for the Secret informer it reads too (client-go:
//   `cache.WaitForCacheSync(ctx.Done(), c.configMapsSynced)` with secretsSynced left out). Until
//   the Secrets are listed every bundle looks like an orphan; the grace hides it as long as that
//   list comes within 2 s, as it does on a healthy API server, so every ordinary test passes.
//   Realistic: a lister added to a controller after its WaitForCacheSync line was written; the
//   garbage collector of kube-controller-manager waits for every monitor to sync for exactly this
//   reason. Revealed by: the Secret list failing or slow when the controller starts or restarts
//   (an API server under load in an incident): the bundles of live Secrets are deleted, and the
//   clients reading them fail until they are published again. Fix: wait for every informer the
//   worker reads.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "buggy.h"
#include "kubesim/api/status.h"
#include "kubesim/informer/deltas.h"
#include "kubesim/sim/process.h"
#include "queue_controller.h"

namespace buggy {
namespace {

using namespace std::chrono_literals;

constexpr const char* kNamespace = "certs";
constexpr kubesim::sim::Duration kGrace = 2s;

class Bundler final : public QueueController {
 public:
  Bundler(const kubesim::scenarios::ControllerEnv& env, Variant variant) : QueueController(env, {}) {
    watch(kConfigMaps, handler());
    // The bug: the Secret informer is read, but run() does not wait for it.
    watch(kubesim::api::kSecrets, handler(), /*wait_for_sync=*/variant == Variant::kFixed);
  }

 protected:
  std::vector<std::string> keys_at_start() const override {
    std::vector<std::string> keys;
    for (const auto& resource : {kConfigMaps, kubesim::api::kSecrets}) {
      for (const auto& object : lister(resource, kNamespace).list()) keys.emplace_back(object->name());
    }
    return keys;
  }

  Task<bool> sync(kubesim::sim::Context ctx, std::string name) override {
    auto secret = lister(kubesim::api::kSecrets, kNamespace).get(name);
    auto bundle = lister(kConfigMaps, kNamespace).get(name);
    if (!secret.ok()) {
      if (!bundle.ok()) {
        orphan_since_.erase(name);
        co_return true;
      }
      const kubesim::sim::Time now = process().clock().now();
      const kubesim::sim::Time since = orphan_since_.emplace(name, now).first->second;
      if (now - since < kGrace) {
        enqueue_after(name, kGrace - (now - since));
        co_return true;
      }
      const bool removed = co_await remove(ctx, &client(), kConfigMaps, std::move(bundle).value());
      if (removed) orphan_since_.erase(name);
      co_return removed;
    }
    orphan_since_.erase(name);
    const std::string ca = data_of(*secret.value(), "ca");
    if (!bundle.ok()) {
      nlohmann::json data;
      data["ca"] = ca;
      ObjectPtr made = config_map(kNamespace, name, std::move(data));
      auto created = co_await create(ctx, &client(), kConfigMaps, std::move(made));
      co_return created.ok() || kubesim::api::is_already_exists(created.status());
    }
    if (data_of(*bundle.value(), "ca") == ca) co_return true;
    ObjectPtr next = bundle.value()->edited([&](nlohmann::json& j) { j["data"]["ca"] = ca; });
    auto updated = co_await update(ctx, &client(), kConfigMaps, std::move(next));
    co_return updated.ok();
  }

 private:
  std::shared_ptr<kubesim::informer::ResourceEventHandlerFuncs> handler() {
    auto h = std::make_shared<kubesim::informer::ResourceEventHandlerFuncs>();
    h->add_func = [this](const ObjectPtr& object, bool) { on_object(*object); };
    h->update_func = [this](const ObjectPtr&, const ObjectPtr& object) { on_object(*object); };
    h->delete_func = [this](const kubesim::informer::DeletedObject& deleted) {
      const std::string key = kubesim::informer::key_of(deleted).str();
      if (key.rfind(std::string(kNamespace) + "/", 0) == 0) enqueue(key.substr(key.find('/') + 1));
    };
    return h;
  }

  void on_object(const kubesim::api::Object& object) {
    if (object.namespace_() == kNamespace) enqueue(std::string(object.name()));
  }

  // When sync first saw each bundle without its Secret (the process's memory: a restart forgets).
  std::map<std::string, kubesim::sim::Time> orphan_since_;
};

}  // namespace

void register_bundles(kubesim::scenarios::Registry& registry) {
  register_pair(registry, "unsynced-start",
                {"publishes each Secret's CA of certs as a ConfigMap, deletes orphaned bundles",
                 "starts its worker before the Secret informer has synced"},
                [](kubesim::scenarios::ControllerEnv env, Variant variant) {
                  return std::make_unique<Bundler>(env, variant);
                });
}

}  // namespace buggy
