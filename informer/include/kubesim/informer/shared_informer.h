// SharedIndexInformer: one Reflector, one FIFO and one cache (an Indexer) for a resource,
// shared by any number of event handlers.
//
// run() starts the reflector and pops its FIFO: each popped change is applied to the cache first,
// then a notification goes to every handler's own unbounded buffer, delivered in order by that
// handler's coroutine (see processor_listener.h). The informer never waits for a handler.
// Resyncs re-deliver the cache as updates, only to handlers whose own resync period is due.
//
// The FIFO is chosen by option: RealFIFO in its atomic form (what client-go 1.36 uses), RealFIFO
// per object, or DeltaFIFO. Either way the cache converges to the server's state and every
// handler's notifications, replayed, give the cache's content.
//
// A delete the informer only inferred — an object gone from a relist, handed to the handlers as
// a DeletedFinalStateUnknown tombstone — is also traced (kind "informer", event "tombstone",
// with its key) and told to `on_tombstone`, so a test can see that a missed delete happened.
//
// has_synced() is true once the first list has been applied to the cache; a registration's
// has_synced() once, in addition, its handler has been handed all of it. Stop by cancelling the
// context given to run(); run() returns once everything it started has finished, and the
// informer then takes no more handlers. Cached objects are immutable ObjectPtrs: no handler can
// change the cache.
#ifndef KUBESIM_INFORMER_SHARED_INFORMER_H_
#define KUBESIM_INFORMER_SHARED_INFORMER_H_

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/api/result.h"
#include "kubesim/informer/deltas.h"
#include "kubesim/informer/event_handler.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/informer/processor_listener.h"
#include "kubesim/informer/reflector.h"
#include "kubesim/informer/store.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer {

enum class FifoKind {
  kRealFIFO,   // in order, per change (client-go's default since 1.33)
  kDeltaFIFO,  // merged per key (client-go before 1.33)
};

struct SharedIndexInformerOptions {
  std::string name = "informer";
  // The process it runs in, as for ReflectorOptions::process: the process of its own and its
  // reflector's trace events (which then carry the name as a field). Empty: the name.
  std::string process{};
  // The resync period of handlers added without their own, and how often resyncs are checked;
  // 0: no resync.
  sim::Duration resync_period{};
  Indexers indexers{};
  FifoKind fifo = FifoKind::kRealFIFO;
  // RealFIFO only: re-lists as one ReplacedAll and resyncs as one SyncAll (client-go 1.36's
  // AtomicFIFO); off, tombstones and Replaced/Sync per object.
  bool atomic_fifo = true;
  // Applied to every object before it is cached; twice to an object from a streaming list, as in
  // client-go 1.36 (see reflector.h), so make it idempotent.
  TransformFunc transform{};
  // Reflector settings (see ReflectorOptions).
  bool use_watch_list = true;
  std::int64_t watch_list_page_size = 0;
  sim::Duration min_watch_timeout = std::chrono::minutes(5);
  WatchErrorHandler watch_error_handler{};
  // Called with each tombstone as it is handed to the handlers (see above).
  std::function<void(const DeletedFinalStateUnknown&)> on_tombstone{};
};

struct HandlerOptions {
  // This handler's resync period; unset: the informer's.
  std::optional<sim::Duration> resync_period{};
};

using RegistrationPtr = std::shared_ptr<ResourceEventHandlerRegistration>;

class SharedIndexInformer {
 public:
  // `clock` times the reflector and resyncs (a Process's clock, usually).
  SharedIndexInformer(const sim::Clock& clock, std::unique_ptr<ListerWatcher> lister_watcher,
                      SharedIndexInformerOptions options = {});
  SharedIndexInformer(const SharedIndexInformer&) = delete;
  SharedIndexInformer& operator=(const SharedIndexInformer&) = delete;
  ~SharedIndexInformer();

  // Runs until `ctx` is done, then waits for everything it started. A second call does nothing.
  sim::Task<void> run(sim::Context ctx);

  // Adds a handler; before run() it starts with the informer, afterwards it is first handed the
  // cache's content as initial-list adds. Fails once the informer has stopped.
  api::Result<RegistrationPtr> add_event_handler(std::shared_ptr<ResourceEventHandler> handler,
                                                 HandlerOptions options = {});
  api::Result<RegistrationPtr> add_event_handler(std::shared_ptr<AsyncResourceEventHandler> handler,
                                                 HandlerOptions options = {});
  // Stops delivering to the handler (what it has not yet received is dropped). Fails for a
  // registration this informer did not make or already removed.
  api::Result<void> remove_event_handler(const RegistrationPtr& registration);

  bool has_synced() const;
  bool has_started() const { return started_; }
  bool is_stopped() const { return stopped_; }
  // The reflector's last synced resourceVersion ("" before run()).
  std::string last_sync_resource_version() const;

  Indexer& get_indexer() { return indexer_; }
  const Indexer& get_indexer() const { return indexer_; }
  // Fails once stopped.
  api::Result<void> add_indexers(Indexers indexers);
  // Each fails once the informer has started.
  api::Result<void> set_watch_error_handler(WatchErrorHandler handler);
  api::Result<void> set_transform(TransformFunc transform);

  const std::string& name() const { return options_.name; }
  const sim::Clock& clock() const { return *clock_; }
  // Notifications buffered for all handlers together; informational.
  std::size_t pending_notifications() const;

 private:
  class CacheHandler;

  api::Result<RegistrationPtr> add_listener(std::shared_ptr<ResourceEventHandler> handler,
                                            std::shared_ptr<AsyncResourceEventHandler> async_handler,
                                            HandlerOptions options);
  // Traces a tombstone handed to the handlers and tells options_.on_tombstone.
  void tell_tombstone(const DeletedFinalStateUnknown& tombstone) const;
  std::unique_ptr<Queue> make_queue();
  ReflectorOptions reflector_options();

  const sim::Clock* clock_;
  std::unique_ptr<ListerWatcher> lister_watcher_;
  SharedIndexInformerOptions options_;
  Indexer indexer_;
  SharedProcessor processor_;
  std::unique_ptr<CacheHandler> cache_handler_;
  std::unique_ptr<Queue> queue_;
  std::unique_ptr<Reflector> reflector_;
  sim::Duration resync_check_period_;
  sim::Duration default_handler_resync_period_;
  // Shared with the registrations, which may outlive the informer.
  std::shared_ptr<bool> synced_ = std::make_shared<bool>(false);
  bool started_ = false;
  bool running_ = false;
  bool stopped_ = false;
};

// Waits until every check passes (true) or `ctx` is done (false), checking every 100 ms of
// `clock` as client-go's WaitForCacheSync does.
sim::Task<bool> wait_for_cache_sync(sim::Context ctx, const sim::Clock* clock,
                                    std::vector<std::function<bool()>> synced);

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_SHARED_INFORMER_H_
