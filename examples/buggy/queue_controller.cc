#include "queue_controller.h"

#include <utility>

#include "kubesim/informer/factory.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/workqueue/rate_limiter.h"

namespace buggy {

QueueController::QueueController(const kubesim::scenarios::ControllerEnv& env, Options options)
    : process_(&env.process), client_(&env.client), informers_(&env.informers), options_(options) {}

void QueueController::watch(const kubesim::api::GroupVersionResource& resource,
                            std::shared_ptr<kubesim::informer::ResourceEventHandler> handler, bool wait_for_sync) {
  kubesim::informer::SharedIndexInformer& informer = informers_->informer_for(resource);
  auto registration = informer.add_event_handler(std::move(handler));
  if (!registration.ok()) throw std::runtime_error("add_event_handler: " + registration.status().message);
  auto handle = std::move(registration).value();
  if (wait_for_sync) synced_.push_back([handle] { return handle->has_synced(); });
}

void QueueController::enqueue(const std::string& key) {
  if (queue_ != nullptr) queue_->add(key);
}

void QueueController::enqueue_after(const std::string& key, kubesim::sim::Duration delay) {
  if (queue_ != nullptr) queue_->add_after(key, delay);
}

kubesim::informer::NamespaceLister QueueController::lister(const kubesim::api::GroupVersionResource& resource,
                                                           std::string ns) const {
  return informers_->lister_for(resource).by_namespace(std::move(ns));
}

std::size_t QueueController::queue_depth() const { return queue_ ? queue_->len() : 0; }

kubesim::sim::Task<void> QueueController::run(kubesim::sim::Context ctx) {
  const kubesim::sim::Clock& clock = process_->clock();
  auto queue = std::make_shared<Queue>(clock, kubesim::workqueue::default_controller_rate_limiter<std::string>(clock));
  queue_ = queue;
  const bool synced = co_await kubesim::informer::wait_for_cache_sync(ctx, &clock, synced_);
  if (synced) {
    for (const auto& key : keys_at_start()) queue->add(key);
    kubesim::sim::TaskGroup workers(process_->loop());
    workers.spawn(worker(ctx, queue), "worker");
    co_await workers.wait(kubesim::sim::Context());
  }
  queue->shut_down();
  if (queue_ == queue) queue_.reset();
}

kubesim::sim::Task<void> QueueController::worker(kubesim::sim::Context ctx, std::shared_ptr<Queue> queue) {
  for (;;) {
    auto key = co_await queue->get(ctx);
    if (!key) co_return;
    const bool ok = co_await sync(ctx, *key);
    if (!ok) {
      if (options_.requeue_rate_limited) {
        queue->add_rate_limited(*key);
      } else {
        queue->add(*key);
      }
    } else if (options_.forget_on_success) {
      queue->forget(*key);
    }
    queue->done(*key);
  }
}

}  // namespace buggy
