// RateLimitingQueue<T>: a DelayingQueue that asks a RateLimiter how long each retry waits
// (client-go's TypedRateLimitingInterface). The usual controller loop:
//
//   auto key = co_await queue->get(ctx);
//   if (!key) co_return;
//   if (reconcile(*key)) {
//     queue->forget(*key);            // success: stop backing off this key
//   } else {
//     queue->add_rate_limited(*key);  // failure: retry after the limiter's delay
//   }
//   queue->done(*key);
//
// Remember forget(): a limiter tracks every item it was asked about until then.
#ifndef KUBESIM_WORKQUEUE_RATE_LIMITING_QUEUE_H_
#define KUBESIM_WORKQUEUE_RATE_LIMITING_QUEUE_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>

#include "kubesim/workqueue/delaying_queue.h"
#include "kubesim/workqueue/rate_limiter.h"

namespace kubesim::workqueue {

template <class T>
class RateLimitingQueue : public DelayingQueue<T> {
 public:
  // Throws std::invalid_argument when `limiter` is null.
  RateLimitingQueue(const sim::Clock& clock, std::unique_ptr<RateLimiter<T>> limiter, QueueConfig config = {})
      : DelayingQueue<T>(clock, std::move(config)), limiter_(std::move(limiter)) {
    if (!limiter_) throw std::invalid_argument("RateLimitingQueue: the rate limiter is null");
    this->prefetch_next_enabled_ = true;
  }
  RateLimitingQueue(sim::Loop& loop, std::unique_ptr<RateLimiter<T>> limiter, QueueConfig config = {})
      : RateLimitingQueue(loop.clock(), std::move(limiter), std::move(config)) {}

  // Adds `item` after the delay the limiter gives it now (which counts a requeue).
  void add_rate_limited(const T& item) {
    // The item's bucket in the queue's table is fetched while the limiter works.
    const std::uint32_t tag = this->table_.tag_of(item);
    this->table_.prefetch_bucket(tag);
    const sim::Duration delay = limiter_->when(item);
    this->add_after_impl(item, delay, tag);
  }
  // The limiter stops tracking `item`. The worker still calls done().
  void forget(const T& item) { limiter_->forget(item); }
  // How many times `item` was requeued since it was last forgotten.
  int num_requeues(const T& item) const { return limiter_->num_requeues(item); }

  RateLimiter<T>& rate_limiter() { return *limiter_; }

 private:
  // Workers usually forget() (or add_rate_limited()) each item they get: warm the limiter.
  void prefetch_next(const T& item) override { limiter_->prefetch(item); }

  std::unique_ptr<RateLimiter<T>> limiter_;
};

}  // namespace kubesim::workqueue

#endif  // KUBESIM_WORKQUEUE_RATE_LIMITING_QUEUE_H_
