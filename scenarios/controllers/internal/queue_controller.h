// QueueController: the shape every built-in controller shares, client-go's sample-controller in
// kubesim terms: event handlers on the process's shared informers turn changes into keys, a
// RateLimitingQueue<std::string> (default_controller_rate_limiter, on the process's clock)
// collects them, and `workers` worker coroutines reconcile one key at a time.
//
// A subclass registers its informers' handlers in its constructor (watch()), before the factory
// starts, and implements reconcile(key) and all_keys(). run(ctx):
//   - makes a fresh queue (run() may be called again, on a fresh context, each time the replica
//     starts leading; a queue once shut down takes nothing more),
//   - waits until every handler has been handed its informer's initial list,
//   - queues all_keys() (what changed while no run was going is caught up this way),
//   - runs the workers in a TaskGroup until ctx is done, joins them, shuts the queue down.
// A worker's processNextWorkItem: get a key, reconcile it, forget() it on success or
// add_rate_limited() on failure, done() always.
//
// Handlers may outlive the controller (the informers own them): they reach the queue through a
// shared Sink that the controller empties when a run ends and when it is destroyed, so they
// never touch a dead controller. Events that arrive while no run is going are dropped.
#ifndef KUBESIM_SCENARIOS_CONTROLLERS_INTERNAL_QUEUE_CONTROLLER_H_
#define KUBESIM_SCENARIOS_CONTROLLERS_INTERNAL_QUEUE_CONTROLLER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/api/client.h"
#include "kubesim/api/object.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task.h"
#include "kubesim/workqueue/rate_limiting_queue.h"

namespace kubesim::scenarios::controllers {

using WorkQueue = workqueue::RateLimitingQueue<std::string>;

// The work queue key an object maps to, or nullopt when the controller does not care about it.
using KeyFunc = std::function<std::optional<std::string>(const api::Object& object)>;

class QueueController : public Controller {
 public:
  QueueController(const QueueController&) = delete;
  QueueController& operator=(const QueueController&) = delete;
  ~QueueController() override;

  sim::Task<void> run(sim::Context ctx) final;
  std::size_t queue_depth() const final;

 protected:
  // `name` names the workers in the loop's task list.
  QueueController(ControllerEnv env, std::string name);

  // Adds a handler to `informer` that queues keys_of(object) for every add, update and delete
  // (a tombstone's last known state; a tombstone without one is ignored). Constructor only.
  void watch(informer::SharedIndexInformer& informer, KeyFunc keys_of);

  // Every key that may need work now, from the caches; queued when a run starts.
  virtual std::vector<std::string> all_keys() const = 0;
  // Brings `key` to its desired state; false when it must be retried (rate-limited).
  virtual sim::Task<bool> reconcile(sim::Context ctx, std::string key) = 0;

  api::Client& client() const { return *client_; }
  sim::Process& process() const { return *process_; }

 private:
  // Where the handlers put keys: the queue of the run under way, or none.
  struct Sink {
    WorkQueue* queue = nullptr;
  };

  sim::Task<void> worker(sim::Context ctx, std::shared_ptr<WorkQueue> queue);
  sim::Task<bool> process_next_work_item(sim::Context ctx, WorkQueue* queue);

  sim::Process* process_;
  api::Client* client_;
  int workers_;
  std::string name_;
  std::shared_ptr<Sink> sink_ = std::make_shared<Sink>();
  std::vector<informer::RegistrationPtr> registrations_;
  // The queue of the latest run while it lasts (null between runs); sink_->queue points at it.
  std::shared_ptr<WorkQueue> queue_;
};

}  // namespace kubesim::scenarios::controllers

#endif  // KUBESIM_SCENARIOS_CONTROLLERS_INTERNAL_QUEUE_CONTROLLER_H_
