// Queue<T>: client-go's work queue (util/workqueue Typed[T], as of client-go 1.36) as a coroutine
// primitive on a sim::Loop. One improvement on client-go, off by default: fail_on_unbalanced_done
// (QueueConfig) throws where client-go queues an item twice after a second done(); a test run
// with it never shows what that duplicate does to the controller in production.
//
// A work queue hands items to worker coroutines under three rules:
//   - Fair: items are handed out in the order they were first added (FIFO).
//   - Stingy: an item added many times before it is handed out is handed out once.
//   - Never concurrent: an item is never held by two workers at once. An item added while a
//     worker holds it is "dirty"; it is queued again when that worker calls done(), not before.
// Workers loop:
//
//   for (;;) {
//     auto key = co_await queue->get(ctx);
//     if (!key) co_return;            // shut down and drained, or ctx done
//     reconcile(*key);
//     queue->done(*key);              // always, or the item can never be handed out again
//   }
//
// get() is an awaitable: an item is handed straight to the longest-waiting worker; waiting
// workers are served in the order they started waiting. After shut_down() every add is ignored,
// get() keeps handing out what is already queued and then returns nullopt.
//
// The rules hold only while every done() follows a get() of its item. As in client-go (Typed.Done,
// as of client-go 1.36), done() does not check: for an item that is not being processed it still
// queues the item again when it is dirty, so a second done() — or a done() for an item that is
// only waiting — queues it twice, and two workers can then hold it at once. When a worker is
// already waiting, the first done() hands the item to it at once (one of the interleavings Go
// allows), and a second done() then only marks it as no longer processing. QueueConfig's
// fail_on_unbalanced_done turns such a call into an exception instead (not client-go's
// behaviour: it shows the bug that client-go hides).
//
// T is any copyable type with std::hash<T> and operator==, like Go's `comparable` (std::string
// keys get a faster built-in hash, see internal/item_table.h). Each call hashes its item once;
// get() returns a copy of the item.
//
// With a name and a MetricsProvider in QueueConfig the queue reports client-go's metrics (see
// metrics.h) in the virtual time of its Clock. It then refreshes the unfinished-work gauges
// every `unfinished_work_update_period` of loop time while some item is being processed (and
// once more after, to zero them), on the same instants as client-go's ticker started with the
// queue. So Loop::run_until_idle does not return while a worker holds an item: use run_until /
// run_for there, or set the period to zero.
//
// Single-threaded: every member is called on the loop thread. A queue must be destroyed before
// its Loop. It may be destroyed right after shut_down(): the workers it wakes do not touch it
// again (but their loops must not either). Coroutines still waiting in get() when a queue is
// destroyed without a shutdown stay suspended until the Loop destroys them.
#ifndef KUBESIM_WORKQUEUE_QUEUE_H_
#define KUBESIM_WORKQUEUE_QUEUE_H_

#include <cassert>
#include <chrono>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/time.h"
#include "kubesim/sim/wait_list.h"
#include "kubesim/sim/waiter.h"
#include "kubesim/workqueue/detail/item_table.h"
#include "kubesim/workqueue/detail/ring.h"
#include "kubesim/workqueue/metrics.h"

namespace kubesim::workqueue {

struct QueueConfig {
  // Metrics are reported only when the queue has a name and a provider (client-go: unnamed
  // queues register no metrics).
  std::string name{};
  // Used during construction only; the metric objects it returns are kept.
  MetricsProvider* metrics_provider = nullptr;
  // How often the unfinished-work gauges are refreshed while items are processed (client-go:
  // 500 ms). Zero turns the refresh off.
  sim::Duration unfinished_work_update_period = std::chrono::milliseconds(500);
  // Off (client-go): done() for an item not being processed is accepted as client-go accepts it
  // (see above). On: it throws std::logic_error and changes nothing, which hides what client-go
  // would do with a controller that calls done() twice (two workers on one item).
  bool fail_on_unbalanced_done = false;
};

template <class T>
class RateLimitingQueue;

template <class T>
class Queue {
 public:
  // A queue on `clock` (which must outlive it); its Loop is clock.loop().
  explicit Queue(const sim::Clock& clock, QueueConfig config = {});
  // A queue on the loop's own (true-time) clock.
  explicit Queue(sim::Loop& loop, QueueConfig config = {}) : Queue(loop.clock(), std::move(config)) {}
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
  virtual ~Queue();

  // Marks `item` as needing processing. Ignored after shutdown; a no-op when the item is already
  // waiting to be handed out; when a worker holds the item, it is handed out again after done().
  void add(const T& item) { add_impl(item); }
  void add(T&& item) { add_impl(std::move(item)); }

  // Items waiting to be handed out. Informational only: between a check of len() and a get()
  // other coroutines may run; never gate add() or get() on it.
  std::size_t len() const { return queue_.size(); }

  // Items handed out and not yet done.
  std::size_t processing() const { return processing_count_; }

  class GetAwaiter;
  // Waits for the next item. Yields the item, or nullopt once the queue is shut down and
  // drained or `ctx` is done. The caller must call done(item) after processing it.
  GetAwaiter get(sim::Context ctx = {}) { return GetAwaiter(*this, std::move(ctx)); }

  // Marks `item` as processed. If it was added again meanwhile, it is queued again. For an item
  // that is not being processed it does what client-go does (see above), or throws
  // std::logic_error with fail_on_unbalanced_done.
  void done(const T& item);

  // Ignores every later add; workers drain what is queued and then get nullopt. Ends a pending
  // shut_down_with_drain wait (which then reports false). Idempotent.
  void shut_down();

  class DrainAwaiter;
  // Shuts down as shut_down() does, at once, and returns an awaitable that waits until no item is
  // being processed. It yields true once every handed-out item is done, false when shut_down()
  // cut the wait short or `ctx` was done first. Workers must call done(), or it never ends.
  [[nodiscard]] DrainAwaiter shut_down_with_drain(sim::Context ctx = {});

  bool shutting_down() const { return shutting_down_; }

  const sim::Clock& clock() const { return *clock_; }
  sim::Loop& loop() const { return *loop_; }

  class GetAwaiter : public sim::ListWaiter {
   public:
    GetAwaiter(Queue& queue, sim::Context ctx) : ListWaiter(*queue.loop_, std::move(ctx)), queue_(&queue) {}
    bool await_ready() {
      if (ctx_.done()) {
        cancelled_ = true;
        return true;
      }
      if (!queue_->queue_.empty()) {
        value_.emplace(queue_->table_.key(queue_->pop_for_get()));
        return true;
      }
      return queue_->shutting_down_;
    }
    bool await_suspend(std::coroutine_handle<> h) {
      if (!arm(h)) return false;
      park(queue_->getters_);
      return true;
    }
    // A getter woken by shutdown has nothing (getters wait only while nothing is queued) and
    // does not go back to the queue, which may therefore be destroyed right after shut_down().
    std::optional<T> await_resume() { return std::move(value_); }

   private:
    friend class Queue;
    void deliver(const T& item) {
      value_.emplace(item);
      wake();
    }
    Queue* queue_;
    std::optional<T> value_;
  };

  class [[nodiscard]] DrainAwaiter : public sim::ListWaiter {
   public:
    DrainAwaiter(Queue& queue, sim::Context ctx) : ListWaiter(*queue.loop_, std::move(ctx)), queue_(&queue) {}
    bool await_ready() {
      if (queue_->processing_count_ == 0 || !queue_->drain_) {
        drained_ = queue_->processing_count_ == 0;
        return true;
      }
      cancelled_ = ctx_.done();
      return cancelled_;
    }
    bool await_suspend(std::coroutine_handle<> h) {
      if (!arm(h)) return false;
      park(queue_->drainers_);
      return true;
    }
    bool await_resume() const { return drained_ && !cancelled_; }

   private:
    friend class Queue;
    void finish(bool drained) {
      drained_ = drained;
      wake();
    }
    Queue* queue_;
    bool drained_ = false;
  };

 protected:
  // One record per item, shared with DelayingQueue so that an item is hashed once per call and
  // a delayed item reaches the queue without a second lookup. Invariants:
  //   an item is in table_ iff it is dirty, processing, waiting or queued;
  //   `queued` counts the item's entries in queue_; an item dirty and not processing is queued
  //   (exactly once while every done() follows a get());
  //   `ready` is meaningful while waiting (DelayingQueue only).
  // And: getters_ is non-empty only while queue_ is empty.
  struct ItemState {
    bool dirty = false;
    bool processing = false;
    bool waiting = false;
    std::uint32_t queued = 0;
    sim::Time ready{};
  };

  // Called once per shut_down / shut_down_with_drain, after the queue is marked shut down.
  virtual void on_shut_down() {}
  // add() for an item already in the table (for example one that was waiting).
  void add_slot(std::uint32_t slot);
  // Removes the record of an item that is neither dirty, processing, waiting nor queued.
  void release_if_unused(std::uint32_t slot) {
    const ItemState& state = table_.value(slot);
    if (!state.dirty && !state.processing && !state.waiting && state.queued == 0) table_.erase(slot);
  }

  internal::ItemTable<T, ItemState> table_;

 private:
  // Cache warming of long queues, the library's own: RateLimitingQueue warms its limiter.
  friend class RateLimitingQueue<T>;
  // Called on every get with the item that will be handed out next but one, while its record
  // is in cache: a subclass may warm what it will touch for that item. Only when enabled.
  virtual void prefetch_next(const T& item) { (void)item; }
  bool prefetch_next_enabled_ = false;  // set by the subclass that overrides prefetch_next

  template <class U>
  void add_impl(U&& item);
  // Per slot, with metrics only: add_time is meaningful while has_add_time (client-go's addTimes:
  // from an add to the next get), start_time while processing.
  struct ItemTimes {
    sim::Time add_time{};
    sim::Time start_time{};
    bool has_add_time = false;
  };

  ItemTimes& times(std::uint32_t slot) {
    if (slot >= times_.size()) times_.resize(table_.slot_count());
    return times_[slot];
  }
  void note_add(std::uint32_t slot) {
    metrics_->adds->inc();
    metrics_->depth->inc();
    ItemTimes& t = times(slot);
    if (!t.has_add_time) t.add_time = clock_->now();
    t.has_add_time = true;
  }
  // Cache warming for long queues; shorter ones stay in cache anyway.
  static constexpr std::size_t kPrefetchFrom = 1024;  // queued items
  static constexpr std::size_t kPrefetchSlot = 6;     // gets ahead
  static constexpr std::size_t kPrefetchKey = 3;
  void prefetch_ahead();
  // Queues a dirty item that is not processing, or hands it to the longest-waiting getter.
  void enqueue(std::uint32_t slot);
  // Takes the front entry for a getter: its item becomes processing. Returns its slot.
  std::uint32_t pop_for_get();
  void start_processing(std::uint32_t slot);
  void finish_drain(bool drained);
  // Shutdown: every waiting getter returns nullopt.
  void wake_getters_empty();
  void arm_ticker();
  void cancel_ticker();
  static void on_tick(void* self);
  void update_unfinished_work();

  const sim::Clock* clock_;
  sim::Loop* loop_;
  internal::Ring<std::uint32_t> queue_;  // slots, in hand-out order
  std::size_t processing_count_ = 0;
  bool shutting_down_ = false;
  bool drain_ = false;
  bool fail_on_unbalanced_done_ = false;
  sim::WaitList getters_;
  sim::WaitList drainers_;

  std::unique_ptr<QueueMetricSet> metrics_;  // null: no metrics
  std::vector<ItemTimes> times_;             // by slot of table_; metrics only
  sim::Duration tick_period_{};
  sim::Time tick_origin_{};  // loop time the ticks count from (client-go: the ticker's start)
  sim::TimerId tick_timer_;
  bool tick_armed_ = false;
  bool gauges_nonzero_ = false;  // the unfinished-work gauges were last set to something else than 0
};

// ---- implementation ----

template <class T>
Queue<T>::Queue(const sim::Clock& clock, QueueConfig config)
    : clock_(&clock), loop_(&clock.loop()), fail_on_unbalanced_done_(config.fail_on_unbalanced_done) {
  if (!config.name.empty() && config.metrics_provider != nullptr) {
    metrics_ = std::make_unique<QueueMetricSet>(QueueMetricSet::make(*config.metrics_provider, config.name));
    if (config.unfinished_work_update_period < sim::Duration::zero()) {
      throw std::invalid_argument("workqueue: unfinished_work_update_period must not be negative");
    }
    tick_period_ = config.unfinished_work_update_period;
    tick_origin_ = loop_->now();
  }
}

template <class T>
Queue<T>::~Queue() {
  cancel_ticker();
}

template <class T>
template <class U>
void Queue<T>::add_impl(U&& item) {
  if (shutting_down_) return;
  add_slot(table_.find_or_insert(std::forward<U>(item)).first);
}

template <class T>
void Queue<T>::add_slot(std::uint32_t slot) {
  if (shutting_down_) return;
  ItemState& state = table_.value(slot);
  if (state.dirty) return;  // queued already, or queued again on done()
  state.dirty = true;
  if (metrics_) note_add(slot);
  if (!state.processing) enqueue(slot);  // else handed out again after done()
}

template <class T>
void Queue<T>::enqueue(std::uint32_t slot) {
  if (getters_.empty()) {
    queue_.push_back(slot);
    ++table_.value(slot).queued;
    return;
  }
  auto* node = static_cast<sim::ListWaiter::Node*>(getters_.pop_front());
  auto* getter = static_cast<GetAwaiter*>(node->owner);
  start_processing(slot);
  getter->deliver(table_.key(slot));
}

template <class T>
std::uint32_t Queue<T>::pop_for_get() {
  const std::uint32_t slot = queue_.pop_front();
  --table_.value(slot).queued;
  if (queue_.size() >= kPrefetchFrom) prefetch_ahead();
  start_processing(slot);
  return slot;
}

template <class T>
void Queue<T>::prefetch_ahead() {
  // Workers drain in FIFO order: warm up the records of the items a few gets ahead, then, once
  // those records are in cache, their keys' bytes and the buckets done() will probe for them.
  const std::uint32_t ahead = queue_[kPrefetchKey];
  table_.prefetch_key_bytes(ahead);
  table_.prefetch_bucket(table_.tag(ahead));
  table_.prefetch_slot(queue_[kPrefetchSlot]);
  if (prefetch_next_enabled_) prefetch_next(table_.key(queue_[1]));
}

template <class T>
void Queue<T>::start_processing(std::uint32_t slot) {
  ItemState& state = table_.value(slot);
  // Not dirty, or processing already, only for an entry an unbalanced done() queued again.
  state.dirty = false;
  if (!state.processing) ++processing_count_;
  state.processing = true;
  if (metrics_) {
    const sim::Time now = clock_->now();
    ItemTimes& t = times(slot);
    metrics_->depth->dec();
    t.start_time = now;
    if (t.has_add_time) metrics_->latency->observe(sim::to_seconds(now - t.add_time));
    t.has_add_time = false;
    arm_ticker();
  }
}

template <class T>
void Queue<T>::done(const T& item) {
  const std::uint32_t slot = table_.find(item);
  const bool processing = slot != table_.kNone && table_.value(slot).processing;
  if (!processing && fail_on_unbalanced_done_) {
    throw std::logic_error("workqueue: done() for an item that is not being processed");
  }
  if (slot == table_.kNone) return;
  ItemState& state = table_.value(slot);
  if (processing) {
    if (metrics_) metrics_->work_duration->observe(sim::to_seconds(clock_->now() - times(slot).start_time));
    state.processing = false;
    --processing_count_;
  }
  // client-go queues a dirty item here whether or not it was processing: a second entry when it
  // is queued already.
  if (state.dirty) {
    enqueue(slot);
  } else {
    release_if_unused(slot);
  }
  if (processing && processing_count_ == 0) {
    // The gauges already read zero: the next refresh would change nothing.
    if (!gauges_nonzero_) cancel_ticker();
    if (drain_) finish_drain(true);
  }
}

template <class T>
void Queue<T>::finish_drain(bool drained) {
  while (auto* node = static_cast<sim::ListWaiter::Node*>(drainers_.pop_front())) {
    static_cast<DrainAwaiter*>(node->owner)->finish(drained);
  }
}

template <class T>
void Queue<T>::wake_getters_empty() {
  while (auto* node = static_cast<sim::ListWaiter::Node*>(getters_.pop_front())) node->owner->wake();
}

template <class T>
void Queue<T>::shut_down() {
  drain_ = false;
  shutting_down_ = true;
  wake_getters_empty();
  finish_drain(processing_count_ == 0);
  cancel_ticker();
  on_shut_down();
}

template <class T>
typename Queue<T>::DrainAwaiter Queue<T>::shut_down_with_drain(sim::Context ctx) {
  drain_ = true;
  shutting_down_ = true;
  wake_getters_empty();
  cancel_ticker();
  on_shut_down();
  return DrainAwaiter(*this, std::move(ctx));
}

template <class T>
void Queue<T>::arm_ticker() {
  if (tick_armed_ || tick_period_ == sim::Duration::zero() || shutting_down_) return;
  // Ticks fall on tick_origin_ + k·period, as client-go's ticker started with the queue.
  const auto elapsed = loop_->now() - tick_origin_;
  const auto k = elapsed / tick_period_ + 1;
  tick_timer_ = loop_->add_timer(tick_origin_ + k * tick_period_, &Queue::on_tick, this);
  tick_armed_ = true;
}

template <class T>
void Queue<T>::cancel_ticker() {
  if (tick_armed_) loop_->cancel_timer(tick_timer_);
  tick_armed_ = false;
}

template <class T>
void Queue<T>::on_tick(void* self) {
  auto* q = static_cast<Queue*>(self);
  q->tick_armed_ = false;
  q->update_unfinished_work();
  // Once nothing is processing the gauges read zero and stay so until the next get.
  if (q->processing_count_ > 0) q->arm_ticker();
}

template <class T>
void Queue<T>::update_unfinished_work() {
  const sim::Time now = clock_->now();
  double total = 0;
  double oldest = 0;
  table_.for_each([&](std::uint32_t slot) {
    if (!table_.value(slot).processing) return;
    const double age = sim::to_seconds(now - times(slot).start_time);
    total += age;
    if (age > oldest) oldest = age;
  });
  metrics_->unfinished_work_seconds->set(total);
  metrics_->longest_running_processor_seconds->set(oldest);
  gauges_nonzero_ = total > 0 || oldest > 0;
}

}  // namespace kubesim::workqueue

#endif  // KUBESIM_WORKQUEUE_QUEUE_H_
