// A controller with a planted tombstone bug, and its fixed version, for the relist family's
// end-to-end test.
//
// `copy-keeper` keeps in namespace dst a copy of every ConfigMap of namespace src, and deletes
// the copy of a source that is gone: an informer whose handlers queue the name, one worker that
// compares the two namespaces. Its delete handler takes only objects (Go's `cm, ok :=
// obj.(*v1.ConfigMap); if !ok { return }`), so a deletion the informer learned from a re-list —
// a DeletedFinalStateUnknown tombstone — queues nothing and the copy stays. `copy-keeper-fixed`
// queues the tombstone's name too.
#ifndef KUBESIM_TESTS_SCENARIOS_EXPLORE_COPY_KEEPER_H_
#define KUBESIM_TESTS_SCENARIOS_EXPLORE_COPY_KEEPER_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kubesim/api/options.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/informer/deltas.h"
#include "kubesim/informer/factory.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/workqueue/rate_limiter.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace kubesim::explore::testing {

class CopyKeeper final : public scenarios::Controller {
 public:
  CopyKeeper(const scenarios::ControllerEnv& env, bool fixed) : env_(env), fixed_(fixed) {
    auto handler = std::make_shared<informer::ResourceEventHandlerFuncs>();
    handler->add_func = [this](const api::ObjectPtr& object, bool) { enqueue(std::string(object->name())); };
    handler->update_func = [this](const api::ObjectPtr&, const api::ObjectPtr& object) {
      enqueue(std::string(object->name()));
    };
    handler->delete_func = [this](const informer::DeletedObject& deleted) {
      if (const auto* object = std::get_if<api::ObjectPtr>(&deleted)) {
        enqueue(std::string((*object)->name()));
      } else if (fixed_) {  // the bug: a tombstone is "not a ConfigMap"
        const std::string key = informer::key_of(deleted).str();
        enqueue(key.substr(key.find('/') + 1));
      }
    };
    auto registration = env.informers.informer_for(api::kConfigMaps).add_event_handler(std::move(handler));
    auto handle = std::move(registration).value();
    synced_.push_back([handle] { return handle->has_synced(); });
  }

  sim::Task<void> run(sim::Context ctx) override {
    const sim::Clock& clock = env_.process.clock();
    auto queue = std::make_shared<Queue>(clock, workqueue::default_controller_rate_limiter<std::string>(clock));
    queue_ = queue;
    const bool synced = co_await informer::wait_for_cache_sync(ctx, &clock, synced_);
    if (synced) queue_all(*queue);
    while (synced) {
      auto name = co_await queue->get(ctx);
      if (!name) break;
      const bool ok = co_await sync(ctx, *name);
      if (ok) {
        queue->forget(*name);
      } else {
        queue->add_rate_limited(*name);
      }
      queue->done(*name);
    }
    queue->shut_down();
    queue_.reset();
  }

 private:
  using Queue = workqueue::RateLimitingQueue<std::string>;

  // What a new run starts with: every name in either namespace.
  void queue_all(Queue& queue) const {
    for (const char* ns : {"src", "dst"}) {
      for (const auto& object : lister(ns).list()) queue.add(std::string(object->name()));
    }
  }
  void enqueue(const std::string& name) {
    if (queue_ != nullptr) queue_->add(name);
  }
  informer::NamespaceLister lister(const std::string& ns) const {
    return env_.informers.lister_for(api::kConfigMaps).by_namespace(ns);
  }

  sim::Task<bool> sync(sim::Context ctx, std::string name) {
    auto source = lister("src").get(name);
    auto copy = lister("dst").get(name);
    if (source.ok() && !copy.ok()) {
      nlohmann::json object = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}};
      object["metadata"] = {{"name", name}, {"namespace", "dst"}};
      auto created = co_await env_.client.create(ctx, api::kConfigMaps, "dst", api::make_object(std::move(object)),
                                                 api::CreateOptions());
      co_return created.ok() || api::is_already_exists(created.status());
    }
    if (source.ok() || !copy.ok()) co_return true;
    auto deleted = co_await env_.client.delete_(ctx, api::kConfigMaps, "dst", name, api::DeleteOptions());
    co_return deleted.ok() || api::is_not_found(deleted.status());
  }

  scenarios::ControllerEnv env_;
  bool fixed_;
  std::vector<std::function<bool()>> synced_;
  std::shared_ptr<Queue> queue_;  // the running one, or null
};

// A scenario of `type` on one replica, keep-0: sources made every 2 s and the oldest deleted
// every 3 s for 40 s, on a server that keeps 15 s of history; at the end the copies are exactly
// the sources.
inline std::string copy_keeper_scenario(const std::string& type) {
  return "name: " + type + "\n" +
         "duration: 2m\n"
         "seeds: 2\n"
         "network: {latency: 5ms}\n"
         "cluster:\n"
         "  compaction: 15s\n"
         "  objects:\n"
         "    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}\n"
         "    - {apiVersion: v1, kind: Namespace, metadata: {name: dst}}\n"
         "processes:\n"
         "  - name: keep\n"
         "    run:\n"
         "      - controller: {type: " + type + "}\n"
         "workload:\n"
         "  - every: 2s\n"
         "    until: 40s\n"
         "    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: s-, namespace: src}}}\n"
         "  - every: 3s\n"
         "    from: 1s\n"
         "    until: 40s\n"
         "    action: {delete: {resource: configmaps, namespace: src, pick: oldest}}\n"
         "explore: {settle: 1m}\n"
         "expect:\n"
         "  finally:\n"
         "    - {count: {resource: configmaps, namespace: dst}, equals: {count: {resource: configmaps, namespace: src}}}\n";
}

inline const scenarios::Registry& copy_keeper_registry() {
  static const scenarios::Registry r = [] {
    scenarios::Registry out = scenarios::Registry::with_builtins();
    out.register_controller("copy-keeper", [](scenarios::ControllerEnv env) { return std::make_unique<CopyKeeper>(env, false); });
    out.register_controller("copy-keeper-fixed",
                            [](scenarios::ControllerEnv env) { return std::make_unique<CopyKeeper>(env, true); });
    return out;
  }();
  return r;
}

}  // namespace kubesim::explore::testing

#endif  // KUBESIM_TESTS_SCENARIOS_EXPLORE_COPY_KEEPER_H_
