// ProcessorListener: one event handler of a SharedIndexInformer, with its own unbounded buffer
// of notifications and its own coroutine delivering them in order. SharedProcessor: the set of
// listeners, fanning each notification out to all of them (client-go's sharedProcessor).
//
// add() never waits: the notification joins the listener's buffer and the listener's coroutine
// delivers it when the handler is ready. So the informer never waits for a handler, and a slow
// handler only lets its own buffer grow (unbounded, as in client-go; pending() shows how far
// behind it is).
#ifndef KUBESIM_INFORMER_PROCESSOR_LISTENER_H_
#define KUBESIM_INFORMER_PROCESSOR_LISTENER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kubesim/informer/event_handler.h"
#include "kubesim/sim/channel.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/task_group.h"

namespace kubesim::informer {

// What add_event_handler returns: a handle for remove_event_handler, and the handler's own view
// of having synced.
class ResourceEventHandlerRegistration {
 public:
  virtual ~ResourceEventHandlerRegistration() = default;
  // True once the informer has synced and this handler has been handed every object of the
  // initial list (or of the cache, for a handler added later).
  virtual bool has_synced() const = 0;
};

class ProcessorListener final : public ResourceEventHandlerRegistration {
 public:
  // Exactly one of `handler` and `async_handler` is set. `upstream_has_synced` is the informer's.
  ProcessorListener(sim::Loop& loop, std::shared_ptr<ResourceEventHandler> handler,
                    std::shared_ptr<AsyncResourceEventHandler> async_handler,
                    sim::Duration requested_resync_period, sim::Duration resync_period, sim::Time now,
                    std::function<bool()> upstream_has_synced);

  // Queues a notification for delivery.
  void add(Notification notification);
  // Delivers notifications until stop() or `ctx` is done.
  static sim::Task<void> run(std::shared_ptr<ProcessorListener> self, sim::Context ctx);
  // Ends delivery; what is still buffered is dropped (client-go drops it too).
  void stop();

  bool has_synced() const override { return upstream_has_synced_() && pending_initial_ == 0; }
  // Notifications buffered and not yet delivered.
  std::size_t pending() const { return buffer_.size(); }

  // Resync bookkeeping, on the informer's clock.
  bool should_resync(sim::Time now) const;
  void determine_next_resync(sim::Time now) { next_resync_ = now + resync_period_; }
  void set_resync_period(sim::Duration period) { resync_period_ = period; }
  sim::Duration requested_resync_period() const { return requested_resync_period_; }
  sim::Duration resync_period() const { return resync_period_; }
  // Whether the resync under way includes this listener.
  bool syncing = false;

 private:
  void deliver(const Notification& notification);

  std::shared_ptr<ResourceEventHandler> handler_;
  std::shared_ptr<AsyncResourceEventHandler> async_handler_;
  sim::Channel<Notification> buffer_;
  // Initial-list adds queued and not yet handled.
  std::size_t pending_initial_ = 0;
  bool stopped_ = false;
  sim::Duration requested_resync_period_;
  sim::Duration resync_period_;
  sim::Time next_resync_{};
  std::function<bool()> upstream_has_synced_;
};

class SharedProcessor {
 public:
  explicit SharedProcessor(sim::Loop& loop) : group_(loop) {}
  SharedProcessor(const SharedProcessor&) = delete;
  SharedProcessor& operator=(const SharedProcessor&) = delete;

  // Adds a listener; started at once when the processor runs.
  void add_listener(std::shared_ptr<ProcessorListener> listener);
  // False when `registration` is not one of ours.
  bool remove_listener(const ResourceEventHandlerRegistration* registration);
  // Sends `notification` to every listener, or only to those in the resync under way (`sync`).
  void distribute(const Notification& notification, bool sync);
  // Decides which listeners this resync is for; true when any.
  bool should_resync(sim::Time now);
  // A new resync check period: each listener's period is re-derived from what it asked for.
  void resync_check_period_changed(sim::Duration check_period);

  // Starts every listener's delivery; later listeners start as they are added.
  void run(sim::Context ctx);
  // Stops every listener and waits for their coroutines to end.
  sim::Task<void> stop();
  bool started() const { return started_; }
  std::size_t size() const { return listeners_.size(); }
  // Notifications buffered across all listeners.
  std::size_t pending() const;

 private:
  std::vector<std::shared_ptr<ProcessorListener>> listeners_;  // registration order
  sim::TaskGroup group_;
  sim::Context ctx_;
  bool started_ = false;
};

// client-go's determineResyncPeriod: 0 stays 0; no resync when the informer cannot resync
// (check 0); never below the check period.
sim::Duration determine_resync_period(sim::Duration desired, sim::Duration check);

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_PROCESSOR_LISTENER_H_
