// missing-forget, tombstone and hot-retry: a ConfigMap replicator written by hand on an informer
// and a work queue (QueueController), as kubed, emberstack's reflector and many "sync this Secret
// into every namespace" controllers are: every ConfigMap of namespace `src` gets a copy of the same
// name and data in namespace `dst`, and a copy whose source is gone is deleted. The key is the
// ConfigMap's name; a change in either namespace queues it; sync compares the two.
//
// missing-forget — the bug: the worker never calls queue.Forget(key) after a sync that
//   succeeded, so the rate limiter's per-item failure count only grows: after a burst of
//   transient errors (a 30 s outage of writes costs about 15 failures), the key's next single
//   failure waits 5 ms · 2^15 ≈ 3 minutes instead of 5 ms, and the copy lags its source that long.
//   Realistic: the Forget is easy to lose in a refactor of processNextWorkItem (client-go's own
//   rate_limiting_queue.go warns about it), and nothing shows until errors come in bursts.
//   Revealed by: transient errors (500s) on the copies' writes, then one more later; an
//   `eventually` window on the last change catches the lag. Fix: Forget on success.
//
// tombstone — the bug: the delete handler takes the object and ignores anything else (Go's
//   `cm, ok := obj.(*v1.ConfigMap); if !ok { return }`), so a deletion the informer only learned
//   from a re-list — handed over as a DeletedFinalStateUnknown tombstone — never queues the
//   name, and the copy of a deleted source stays forever (level-based sync would delete it, but
//   nothing asks). Realistic: the pattern is in countless controllers; client-go's examples
//   unwrap the tombstone precisely because of it. Revealed by: the source deleted while the
//   controller's watch is down (a partition, a dropped watch) and the history compacted, so the
//   watch cannot resume and the informer re-lists. Fix: unwrap the tombstone.
//
// hot-retry — the bug: a sync that failed is queued again with queue.Add instead of
//   queue.AddRateLimited, so a key that keeps failing is retried as fast as the server answers:
//   hundreds of writes a second at an API server that is already failing. The copy is right in
//   the end — the retries succeed once the errors stop — so no check on objects sees anything;
//   only a budget on calls does. Realistic: `c.queue.Add(key)` in the error branch of
//   processNextWorkItem reads as harmless, and is how a controller turns a brief API server
//   incident into a self-inflicted overload (the reason API Priority and Fairness exists).
//   Revealed by: errors on the copies' writes lasting more than a moment (an outage of writes on
//   one object); a `calls` check with `perSecond` breaks. Fix: AddRateLimited.
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "buggy.h"
#include "kubesim/api/status.h"
#include "kubesim/informer/deltas.h"
#include "queue_controller.h"

namespace buggy {
namespace {


constexpr const char* kSource = "src";
constexpr const char* kTarget = "dst";

enum class Bug { kMissingForget, kTombstone, kHotRetry };

class Replicator final : public QueueController {
 public:
  Replicator(const kubesim::scenarios::ControllerEnv& env, Bug bug, Variant variant)
      : QueueController(env, {.forget_on_success = bug != Bug::kMissingForget || variant == Variant::kFixed,
                              .requeue_rate_limited = bug != Bug::kHotRetry || variant == Variant::kFixed}),
        drop_tombstones_(bug == Bug::kTombstone && variant == Variant::kBuggy) {
    auto handler = std::make_shared<kubesim::informer::ResourceEventHandlerFuncs>();
    handler->add_func = [this](const ObjectPtr& object, bool) { on_object(*object); };
    handler->update_func = [this](const ObjectPtr&, const ObjectPtr& object) { on_object(*object); };
    handler->delete_func = [this](const kubesim::informer::DeletedObject& deleted) { on_delete(deleted); };
    watch(kConfigMaps, std::move(handler));
  }

 protected:
  std::vector<std::string> keys_at_start() const override {
    std::vector<std::string> keys;
    for (const char* ns : {kSource, kTarget}) {
      for (const auto& object : lister(kConfigMaps, ns).list()) keys.emplace_back(object->name());
    }
    return keys;
  }

  Task<bool> sync(kubesim::sim::Context ctx, std::string name) override {
    auto source = lister(kConfigMaps, kSource).get(name);
    auto target = lister(kConfigMaps, kTarget).get(name);
    if (!source.ok()) {
      if (!target.ok()) co_return true;
      const bool removed = co_await remove(ctx, &client(), kConfigMaps, std::move(target).value());
      co_return removed;
    }
    const nlohmann::json data = source.value()->member_value("data");
    if (!target.ok()) {
      auto created = co_await create(ctx, &client(), kConfigMaps, config_map(kTarget, name, data));
      co_return created.ok() || kubesim::api::is_already_exists(created.status());
    }
    if (target.value()->member_value("data") == data) co_return true;
    ObjectPtr next = target.value()->edited([&](nlohmann::json& j) {
      if (data.is_null()) {
        j.erase("data");
      } else {
        j["data"] = data;
      }
    });
    auto updated = co_await update(ctx, &client(), kConfigMaps, std::move(next));
    co_return updated.ok();
  }

 private:
  void on_object(const kubesim::api::Object& object) {
    if (object.namespace_() == kSource || object.namespace_() == kTarget) enqueue(std::string(object.name()));
  }

  void on_delete(const kubesim::informer::DeletedObject& deleted) {
    if (const auto* object = std::get_if<ObjectPtr>(&deleted)) {
      on_object(**object);
      return;
    }
    if (drop_tombstones_) return;  // the bug: "not a ConfigMap", so nothing to do
    // The tombstone's key is NAMESPACE/NAME; its last known state may be absent.
    const std::string key = kubesim::informer::key_of(deleted).str();
    const auto slash = key.find('/');
    if (slash == std::string::npos) return;
    const std::string ns = key.substr(0, slash);
    if (ns == kSource || ns == kTarget) enqueue(key.substr(slash + 1));
  }

  bool drop_tombstones_;
};

}  // namespace

void register_replicators(kubesim::scenarios::Registry& registry) {
  register_pair(registry, "missing-forget",
                {"copies the ConfigMaps of src into dst", "never forgets a key's failures (no queue.Forget)"},
                [](kubesim::scenarios::ControllerEnv env, Variant variant) {
                  return std::make_unique<Replicator>(env, Bug::kMissingForget, variant);
                });
  register_pair(registry, "tombstone",
                {"copies the ConfigMaps of src into dst", "ignores a delete seen only as a tombstone"},
                [](kubesim::scenarios::ControllerEnv env, Variant variant) {
                  return std::make_unique<Replicator>(env, Bug::kTombstone, variant);
                });
  register_pair(registry, "hot-retry",
                {"copies the ConfigMaps of src into dst", "requeues a failed key at once (queue.Add, no rate limit)"},
                [](kubesim::scenarios::ControllerEnv env, Variant variant) {
                  return std::make_unique<Replicator>(env, Bug::kHotRetry, variant);
                });
}

}  // namespace buggy
