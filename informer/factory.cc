#include "kubesim/informer/factory.h"

#include <cassert>

#include "kubesim/sim/loop.h"

namespace kubesim::informer {

SharedInformerFactory::SharedInformerFactory(api::Client& client, const sim::Clock& clock,
                                             SharedInformerFactoryOptions options)
    : client_(&client), clock_(&clock), options_(std::move(options)), group_(clock.loop()) {}

SharedInformerFactory::~SharedInformerFactory() {
  assert(group_.size() == 0 && "shut a SharedInformerFactory down (and wait) before destroying it");
}

SharedIndexInformer& SharedInformerFactory::informer_for(const api::GroupVersionResource& resource) {
  auto it = informers_.find(resource);
  if (it != informers_.end()) return *it->second;
  ListWatchOptions list_watch;
  list_watch.ns = options_.ns;
  list_watch.tweak = options_.tweak;
  SharedIndexInformerOptions informer = options_.informer;
  informer.name = resource.to_string();
  auto custom = options_.custom_resync.find(resource);
  informer.resync_period = custom != options_.custom_resync.end() ? custom->second : options_.default_resync;
  informer.indexers.emplace(kNamespaceIndex, meta_namespace_index_func);
  if (options_.on_tombstone) {
    informer.on_tombstone = [told = options_.on_tombstone, also = std::move(informer.on_tombstone),
                             resource](const DeletedFinalStateUnknown& tombstone) {
      if (also) also(tombstone);
      told(resource, tombstone);
    };
  }
  auto made = std::make_unique<SharedIndexInformer>(
      *clock_, std::make_unique<ListWatch>(*client_, resource, std::move(list_watch)), std::move(informer));
  return *informers_.emplace(resource, std::move(made)).first->second;
}

Lister SharedInformerFactory::lister_for(const api::GroupVersionResource& resource) {
  return Lister(informer_for(resource).get_indexer(), resource.group_resource());
}

void SharedInformerFactory::start(sim::Context ctx) {
  if (shutting_down_) return;
  for (auto& [resource, informer] : informers_) {
    if (started_[resource]) continue;
    started_[resource] = true;
    group_.spawn(informer->run(ctx), "informer " + resource.to_string());
  }
}

sim::Task<std::map<api::GroupVersionResource, bool>> SharedInformerFactory::wait_for_cache_sync(sim::Context ctx) {
  std::map<api::GroupVersionResource, bool> out;
  for (auto& [resource, shared] : informers_) {
    if (!started_[resource]) continue;
    SharedIndexInformer* started = shared.get();
    std::vector<std::function<bool()>> checks{[started] { return started->has_synced(); }};
    const bool synced = co_await kubesim::informer::wait_for_cache_sync(ctx, clock_, std::move(checks));
    out[resource] = synced;
  }
  co_return out;
}

sim::Task<void> SharedInformerFactory::shutdown() {
  shutting_down_ = true;
  const bool joined = co_await group_.wait(sim::Context());
  (void)joined;
}

}  // namespace kubesim::informer
