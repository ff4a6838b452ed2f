// SharedInformerFactory: one SharedIndexInformer per resource, shared by everything that asks.
//
// informer_for(resource) makes the informer on first use (with the namespace index) and hands
// the same one out afterwards; start() runs every informer made so far that is not yet running;
// wait_for_cache_sync() waits for the started ones. Stop them by cancelling the context given to
// start(), then co_await shutdown(), which returns once they have all finished. The client and
// clock must outlive the factory; a factory must be shut down before it is destroyed.
#ifndef KUBESIM_INFORMER_FACTORY_H_
#define KUBESIM_INFORMER_FACTORY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "kubesim/api/client.h"
#include "kubesim/api/gvk.h"
#include "kubesim/informer/lister.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/task_group.h"

namespace kubesim::informer {

struct SharedInformerFactoryOptions {
  // Every informer's default resync period, unless `custom_resync` names its resource.
  sim::Duration default_resync{};
  std::map<api::GroupVersionResource, sim::Duration> custom_resync{};
  // Watch only this namespace ("" for all).
  std::string ns{};
  // Applied to the list and watch options of every informer.
  TweakListOptionsFunc tweak{};
  // The rest of each informer's options (FIFO, transform, streaming lists, the process it runs
  // in, ...); the name (the resource), resync period and indexers are set by the factory.
  SharedIndexInformerOptions informer{};
  // Told each tombstone any informer of the factory hands its handlers, with the informer's
  // resource (see SharedIndexInformerOptions::on_tombstone); `informer.on_tombstone` is told too.
  std::function<void(const api::GroupVersionResource&, const DeletedFinalStateUnknown&)> on_tombstone{};
};

class SharedInformerFactory {
 public:
  SharedInformerFactory(api::Client& client, const sim::Clock& clock, SharedInformerFactoryOptions options = {});
  SharedInformerFactory(const SharedInformerFactory&) = delete;
  SharedInformerFactory& operator=(const SharedInformerFactory&) = delete;
  ~SharedInformerFactory();

  // The informer of `resource`, made on first use.
  SharedIndexInformer& informer_for(const api::GroupVersionResource& resource);
  // A lister over that informer's cache.
  Lister lister_for(const api::GroupVersionResource& resource);

  // Runs every informer not yet started until `ctx` is done. Does nothing after shutdown().
  void start(sim::Context ctx);
  // Waits for the started informers to sync; says, per resource, whether each did before `ctx`
  // was done.
  sim::Task<std::map<api::GroupVersionResource, bool>> wait_for_cache_sync(sim::Context ctx);
  // No informer starts after this; returns once every started one has finished (their context
  // must be, or become, done).
  sim::Task<void> shutdown();

 private:
  api::Client* client_;
  const sim::Clock* clock_;
  SharedInformerFactoryOptions options_;
  std::map<api::GroupVersionResource, std::unique_ptr<SharedIndexInformer>> informers_;
  std::map<api::GroupVersionResource, bool> started_;
  sim::TaskGroup group_;
  bool shutting_down_ = false;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_FACTORY_H_
