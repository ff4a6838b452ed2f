// ControllerState: one controller a ControllerBuilder built into a Manager — the event handlers
// that turn its informers' changes into keys, its Expectations, and run(), which works its keys
// through a rate-limiting queue with `workers` worker coroutines (controller.h says what a
// controller does; this says how).
//
// The handlers are added to the factory's informers when the state is made, before the factory
// starts. They may outlive the state (the informers own them), so they reach it through a shared
// Sink that the state empties when it is destroyed, and the queue only through the Sink's pointer
// to the queue of the run under way: events that arrive while no run is going queue nothing
// (a run starts by queueing every key the caches imply, which catches them up), but owns()
// events always feed the Expectations, so that a new run never waits on creates it saw.
//
// run(ctx) may be called again on a fresh context after it returned (a new leadership term); a
// run that starts while an earlier one still unwinds takes the handlers over from it. A reconcile
// that throws stops the run: the other workers are cancelled and run() rethrows the first
// exception once every worker has stopped.
#ifndef KUBESIM_CONTROLLER_INTERNAL_CONTROLLER_STATE_H_
#define KUBESIM_CONTROLLER_INTERNAL_CONTROLLER_STATE_H_

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/expectations.h"
#include "kubesim/controller/manager.h"
#include "kubesim/informer/lister.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace kubesim::controller {

using WorkQueue = workqueue::RateLimitingQueue<std::string>;

// What ControllerBuilder collected; validated before a state is made.
struct ControllerSpec {
  std::string name;
  std::optional<api::GroupVersionResource> for_;  // none: keys from watches alone
  std::vector<api::GroupVersionResource> owns;
  std::vector<std::pair<api::GroupVersionResource, MapFn>> watches;
  int workers = 1;
  ReconcileFn reconcile;
};

class ControllerState {
 public:
  // Adds the handlers to `manager`'s informer factory (which must not have started them yet).
  ControllerState(Manager& manager, ControllerSpec spec);
  ControllerState(const ControllerState&) = delete;
  ControllerState& operator=(const ControllerState&) = delete;
  ~ControllerState();

  const std::string& name() const { return spec_.name; }
  Manager& manager() const { return *manager_; }
  Expectations& expectations() { return expectations_; }
  std::size_t queue_depth() const;

  // The lister of a resource the controller declared or the manager took with
  // Manager::informer(); throws std::logic_error naming any other.
  informer::Lister lister(const api::GroupVersionResource& resource) const;
  // The cache lister() reads, found once per resource (informers are never replaced).
  const informer::Indexer& indexer(const api::GroupVersionResource& resource) const;

  sim::Task<void> run(sim::Context ctx);

 private:
  // Where the handlers reach the controller: null pointers once it is gone or between runs.
  struct Sink {
    WorkQueue* queue = nullptr;
    Expectations* expectations = nullptr;
    // The for_ resource's kind, learned from its first event; owns() matches owner references
    // by it (or, before any, by the plural client-go would guess from the reference's kind).
    std::string for_kind;
  };
  // One run: its queue, how to stop its workers, and the first exception a reconcile threw.
  struct Run {
    std::shared_ptr<WorkQueue> queue;
    sim::CancelFunc cancel;
    std::exception_ptr failure;
  };

  void watch_for();
  void watch_owned(const api::GroupVersionResource& resource);
  void watch_mapped(const api::GroupVersionResource& resource, MapFn map);
  void add_handler(const api::GroupVersionResource& resource, std::shared_ptr<informer::ResourceEventHandler> handler);
  // Every key the caches imply now: each for_ object, the owner of each owned one, what each
  // watched one maps to. Sorted, without repeats.
  std::vector<std::string> all_keys() const;
  std::vector<std::function<bool()>> sync_checks() const;

  sim::Task<void> worker(sim::Context ctx, std::shared_ptr<Run> run);
  sim::Task<bool> process_next_work_item(sim::Context ctx, Run* run);
  void handle(WorkQueue& queue, const std::string& key, const ReconcileResult& result) const;

  Manager* manager_;
  ControllerSpec spec_;
  Expectations expectations_;
  std::shared_ptr<Sink> sink_ = std::make_shared<Sink>();
  std::vector<informer::RegistrationPtr> registrations_;
  // The run under way, while it lasts; sink_->queue points at its queue.
  std::shared_ptr<Run> run_;
  // What indexer() found: a controller reads a few resources, on every reconcile.
  mutable std::vector<std::pair<api::GroupVersionResource, const informer::Indexer*>> indexers_;
};

// The key of the object `object`'s controller owner reference names, when that owner is of
// `for_` (same group, and kind `for_kind`, or a kind whose guessed plural is for_'s resource).
std::optional<std::string> owner_key(const api::Object& object, const api::GroupVersionResource& for_,
                                     const std::string& for_kind);

}  // namespace kubesim::controller

#endif  // KUBESIM_CONTROLLER_INTERNAL_CONTROLLER_STATE_H_
