#include "internal/queue_controller.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "kubesim/informer/event_handler.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/workqueue/rate_limiter.h"

namespace kubesim::scenarios::controllers {

QueueController::QueueController(ControllerEnv env, std::string name)
    : process_(&env.process),
      client_(&env.client),
      workers_(std::max(1, env.workers)),
      name_(std::move(name)) {}

QueueController::~QueueController() { sink_->queue = nullptr; }

void QueueController::watch(informer::SharedIndexInformer& informer, KeyFunc keys_of) {
  auto handler = std::make_shared<informer::ResourceEventHandlerFuncs>();
  // The handlers hold the sink, never the controller.
  auto enqueue = [sink = sink_, keys_of = std::move(keys_of)](const api::ObjectPtr& object) {
    if (sink->queue == nullptr || object == nullptr) return;
    if (auto key = keys_of(*object)) sink->queue->add(std::move(*key));
  };
  handler->add_func = [enqueue](const api::ObjectPtr& object, bool) { enqueue(object); };
  handler->update_func = [enqueue](const api::ObjectPtr&, const api::ObjectPtr& object) {
    enqueue(object);
  };
  handler->delete_func = [enqueue](const informer::DeletedObject& deleted) {
    enqueue(informer::last_known_state(deleted));
  };
  auto registration = informer.add_event_handler(handler);
  // The factory hands out informers that have not stopped: the controller is made before the
  // factory starts, and with it.
  assert(registration.ok() && "a controller's informer had already stopped");
  if (registration.ok()) registrations_.push_back(std::move(registration.value()));
}

std::size_t QueueController::queue_depth() const { return queue_ ? queue_->len() : 0; }

sim::Task<void> QueueController::run(sim::Context ctx) {
  const sim::Clock& clock = process_->clock();
  auto queue = std::make_shared<WorkQueue>(clock, workqueue::default_controller_rate_limiter<std::string>(clock));
  // A run that starts while an earlier one still unwinds takes the handlers over from it.
  queue_ = queue;
  sink_->queue = queue.get();
  std::vector<std::function<bool()>> synced;
  for (const auto& registration : registrations_) {
    synced.push_back([registration] { return registration->has_synced(); });
  }
  const bool ready = co_await informer::wait_for_cache_sync(ctx, &clock, std::move(synced));
  if (ready) {
    for (auto& key : all_keys()) queue->add(std::move(key));
    sim::TaskGroup workers(process_->loop());
    for (int i = 0; i < workers_; ++i) workers.spawn(worker(ctx, queue), name_ + "-worker");
    // The workers return once ctx is done: get() answers nothing then, and the client's calls
    // end with the context's error.
    co_await workers.wait(sim::Context());
  }
  queue->shut_down();
  if (queue_ == queue) {
    sink_->queue = nullptr;
    queue_.reset();
  }
}

sim::Task<void> QueueController::worker(sim::Context ctx, std::shared_ptr<WorkQueue> queue) {
  for (;;) {
    const bool more = co_await process_next_work_item(ctx, queue.get());
    if (!more) co_return;
  }
}

sim::Task<bool> QueueController::process_next_work_item(sim::Context ctx, WorkQueue* queue) {
  auto key = co_await queue->get(ctx);
  if (!key) co_return false;
  const bool ok = co_await reconcile(ctx, *key);
  if (ok) {
    queue->forget(*key);
  } else {
    queue->add_rate_limited(*key);
  }
  queue->done(*key);
  co_return true;
}

}  // namespace kubesim::scenarios::controllers
