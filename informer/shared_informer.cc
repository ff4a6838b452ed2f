#include "kubesim/informer/shared_informer.h"

#include <cassert>

#include <nlohmann/json.hpp>

#include "kubesim/informer/delta_fifo.h"
#include "informer/internal/process_deltas.h"
#include "kubesim/informer/real_fifo.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/sim/wait.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;

constexpr sim::Duration kMinimumResyncPeriod = 1s;
constexpr sim::Duration kSyncedPollPeriod = 100ms;

}  // namespace

// Turns the changes applied to the cache into notifications for every handler.
class SharedIndexInformer::CacheHandler final : public ResourceEventHandler {
 public:
  explicit CacheHandler(SharedIndexInformer& informer) : informer_(&informer), processor_(&informer.processor_) {}

  void on_add(const api::ObjectPtr& obj, bool is_in_initial_list) override {
    processor_->distribute(AddNotification(obj, is_in_initial_list), false);
  }
  void on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) override {
    // The same resourceVersion means a resync, not a change: only for handlers resyncing now.
    const bool is_sync = old_obj->resource_version() == new_obj->resource_version();
    processor_->distribute(UpdateNotification(old_obj, new_obj), is_sync);
  }
  void on_delete(const DeletedObject& obj) override {
    if (const auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&obj)) informer_->tell_tombstone(*tombstone);
    processor_->distribute(DeleteNotification(obj), false);
  }

 private:
  SharedIndexInformer* informer_;
  SharedProcessor* processor_;
};

SharedIndexInformer::SharedIndexInformer(const sim::Clock& clock, std::unique_ptr<ListerWatcher> lister_watcher,
                                         SharedIndexInformerOptions options)
    : clock_(&clock),
      lister_watcher_(std::move(lister_watcher)),
      options_(std::move(options)),
      indexer_(options_.indexers),
      processor_(clock.loop()),
      cache_handler_(std::make_unique<CacheHandler>(*this)),
      resync_check_period_(options_.resync_period),
      default_handler_resync_period_(options_.resync_period) {}

SharedIndexInformer::~SharedIndexInformer() {
  assert(!running_ && "a SharedIndexInformer must not be destroyed while run() is under way");
}

bool SharedIndexInformer::has_synced() const {
  if (!*synced_ && queue_ && queue_->has_synced()) *synced_ = true;
  return *synced_;
}

std::string SharedIndexInformer::last_sync_resource_version() const {
  return reflector_ ? reflector_->last_sync_resource_version() : std::string();
}

void SharedIndexInformer::tell_tombstone(const DeletedFinalStateUnknown& tombstone) const {
  sim::Loop& loop = clock_->loop();
  if (loop.trace().enabled()) {
    nlohmann::json fields = {{"event", "tombstone"}, {"key", tombstone.key.str()}};
    if (!options_.process.empty()) fields["informer"] = options_.name;
    loop.trace().record(loop.now(), options_.process.empty() ? options_.name : options_.process, "informer",
                        fields);
  }
  if (options_.on_tombstone) options_.on_tombstone(tombstone);
}

std::size_t SharedIndexInformer::pending_notifications() const { return processor_.pending(); }

api::Result<void> SharedIndexInformer::add_indexers(Indexers indexers) {
  if (stopped_) return api::new_bad_request("indexer was not added because it has stopped already");
  return indexer_.add_indexers(std::move(indexers));
}

api::Result<void> SharedIndexInformer::set_watch_error_handler(WatchErrorHandler handler) {
  if (started_) return api::new_bad_request("informer has already started");
  options_.watch_error_handler = std::move(handler);
  return {};
}

api::Result<void> SharedIndexInformer::set_transform(TransformFunc transform) {
  if (started_) return api::new_bad_request("informer has already started");
  options_.transform = std::move(transform);
  return {};
}

api::Result<RegistrationPtr> SharedIndexInformer::add_event_handler(
    std::shared_ptr<ResourceEventHandler> handler, HandlerOptions options) {
  return add_listener(std::move(handler), nullptr, options);
}

api::Result<RegistrationPtr> SharedIndexInformer::add_event_handler(
    std::shared_ptr<AsyncResourceEventHandler> handler, HandlerOptions options) {
  return add_listener(nullptr, std::move(handler), options);
}

api::Result<RegistrationPtr> SharedIndexInformer::add_listener(
    std::shared_ptr<ResourceEventHandler> handler, std::shared_ptr<AsyncResourceEventHandler> async_handler,
    HandlerOptions options) {
  if (stopped_) {
    return api::new_bad_request("handler was not added to shared informer because it has stopped already");
  }
  sim::Duration resync = options.resync_period.value_or(default_handler_resync_period_);
  if (resync > sim::Duration::zero()) {
    resync = std::max(resync, kMinimumResyncPeriod);
    if (resync < resync_check_period_) {
      if (started_) {
        resync = resync_check_period_;
      } else {
        resync_check_period_ = resync;
        processor_.resync_check_period_changed(resync);
      }
    }
  }
  std::shared_ptr<bool> synced = synced_;
  auto listener = std::make_shared<ProcessorListener>(
      clock_->loop(), std::move(handler), std::move(async_handler), resync,
      determine_resync_period(resync, resync_check_period_), clock_->now(), [synced] { return *synced; });
  processor_.add_listener(listener);
  if (started_) {
    for (const api::ObjectPtr& object : indexer_.list()) listener->add(AddNotification(object, true));
  }
  return RegistrationPtr(std::move(listener));
}

api::Result<void> SharedIndexInformer::remove_event_handler(const RegistrationPtr& registration) {
  if (!processor_.remove_listener(registration.get())) {
    return api::new_bad_request("the handler registration is not one of this informer's");
  }
  return {};
}

std::unique_ptr<Queue> SharedIndexInformer::make_queue() {
  sim::Loop& loop = clock_->loop();
  if (options_.fifo == FifoKind::kDeltaFIFO) {
    DeltaFIFOOptions fifo;
    fifo.known_objects = &indexer_;
    fifo.emit_delta_type_replaced = true;
    fifo.transform = options_.transform;
    return std::make_unique<DeltaFIFO>(loop, std::move(fifo));
  }
  RealFIFOOptions fifo;
  fifo.transform = options_.transform;
  if (options_.atomic_fifo) {
    fifo.atomic_events = true;
    fifo.emit_delta_type_bookmark = true;
  } else {
    fifo.known_objects = &indexer_;
  }
  return std::make_unique<RealFIFO>(loop, std::move(fifo));
}

ReflectorOptions SharedIndexInformer::reflector_options() {
  ReflectorOptions reflector;
  reflector.name = options_.name;
  reflector.process = options_.process;
  reflector.resync_period = resync_check_period_;
  reflector.should_resync = [this] { return processor_.should_resync(clock_->now()); };
  reflector.min_watch_timeout = options_.min_watch_timeout;
  reflector.watch_list_page_size = options_.watch_list_page_size;
  reflector.use_watch_list = options_.use_watch_list;
  reflector.watch_error_handler = options_.watch_error_handler;
  return reflector;
}

sim::Task<void> SharedIndexInformer::run(sim::Context ctx) {
  if (started_) co_return;
  started_ = true;
  running_ = true;
  queue_ = make_queue();
  reflector_ = std::make_unique<Reflector>(*clock_, *lister_watcher_, *queue_, reflector_options());
  // Handlers outlive the reflector: they are stopped only once it has finished.
  processor_.run(sim::Context());
  sim::TaskGroup group(clock_->loop());
  group.spawn(reflector_->run(ctx), options_.name + "-reflector");
  PopProcessFunc process = [this](std::span<const Delta> deltas, bool is_in_initial_list) {
    internal::process_deltas(*cache_handler_, indexer_, deltas, is_in_initial_list);
  };
  while (!ctx.done()) {
    // pop's first step, without starting it when an item is there.
    bool popped = queue_->try_pop(process);
    if (!popped) popped = co_await queue_->pop(ctx, process);
    if (!popped) break;
    (void)has_synced();  // publish to the registrations as soon as it turns true
  }
  queue_->close();
  const bool joined = co_await group.wait(sim::Context());
  (void)joined;
  stopped_ = true;
  co_await processor_.stop();
  running_ = false;
}

namespace {

sim::Task<bool> all_synced(const std::vector<std::function<bool()>>* checks) {
  for (const auto& check : *checks) {
    if (!check()) co_return false;
  }
  co_return true;
}

}  // namespace

sim::Task<bool> wait_for_cache_sync(sim::Context ctx, const sim::Clock* clock,
                                    std::vector<std::function<bool()>> synced) {
  const std::vector<std::function<bool()>>* checks = &synced;
  sim::AsyncCondition condition = [checks] { return all_synced(checks); };
  const bool done = co_await sim::poll_immediate_until(std::move(ctx), clock, kSyncedPollPeriod,
                                                       std::move(condition));
  co_return done;
}

}  // namespace kubesim::informer
