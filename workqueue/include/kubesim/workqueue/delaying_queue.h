// DelayingQueue<T>: a Queue that can also add an item after a delay (client-go's
// TypedDelayingInterface), so failed items are retried later instead of in a hot loop.
//
// add_after(item, d) adds `item` once `d` has passed on the queue's Clock. While an item waits,
// a second add_after keeps the earlier of the two ready times; a non-positive delay adds at once.
// An item may wait and be queued (or processed) at the same time; when its wait ends it is added
// like any other add. Items whose ready times are equal are added in the order those ready times
// were set. Waiting costs one Loop timer for the whole queue, armed for the earliest ready time,
// so waits of hours cost nothing until they end. Ready times are on the Clock's monotonic reading
// (Clock::now()), as client-go's timers use Go's monotonic clock: drift changes how long a wait
// takes in true time, and a wall-clock step (skew, NTP) changes nothing. The timer fires on the
// Loop's true timeline and the ready time is checked again against the Clock, so an item is never
// added before it.
//
// Shutting down (either way) stops the waiting: items still waiting are dropped and no timer
// stays armed.
#ifndef KUBESIM_WORKQUEUE_DELAYING_QUEUE_H_
#define KUBESIM_WORKQUEUE_DELAYING_QUEUE_H_

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kubesim/workqueue/detail/ready_heap.h"
#include "kubesim/workqueue/queue.h"

namespace kubesim::workqueue {

template <class T>
class DelayingQueue : public Queue<T> {
 public:
  explicit DelayingQueue(const sim::Clock& clock, QueueConfig config = {});
  explicit DelayingQueue(sim::Loop& loop, QueueConfig config = {})
      : DelayingQueue(loop.clock(), std::move(config)) {}
  ~DelayingQueue() override { cancel_timer(); }

  // Adds `item` after `delay` (at once when delay <= 0). Ignored after shutdown. Counts a retry
  // in the metrics either way, as client-go does.
  void add_after(const T& item, sim::Duration delay) { add_after_impl(item, delay, this->table_.tag_of(item)); }
  void add_after(T&& item, sim::Duration delay) {
    const std::uint32_t tag = this->table_.tag_of(item);
    add_after_impl(std::move(item), delay, tag);
  }

  // Items waiting for their ready time. Informational only.
  std::size_t waiting() const { return waiting_count_; }

 protected:
  void on_shut_down() override;
  // add_after() for an item whose tag in the queue's table is known already.
  template <class U>
  void add_after_impl(U&& item, sim::Duration delay, std::uint32_t tag);

 private:
  using ItemState = typename Queue<T>::ItemState;

  // A wait is the item's record in the queue's table (waiting, ready) plus a heap entry. Moving a
  // wait earlier pushes a new entry; the old one becomes stale.
  //
  // An entry is current when its slot is live and waiting with that very ready time. A stale
  // entry can look current only when its slot was reused by an item with the same ready time; it
  // then pops at that item's ready time, when the item is due anyway, and that item's own entry
  // turns stale.
  using HeapEntry = internal::ReadyHeap::Entry;

  bool current(const HeapEntry& e) const {
    if (!this->table_.live(e.slot)) return false;
    const ItemState& state = this->table_.value(e.slot);
    return state.waiting && state.ready == e.ready;
  }
  // Drops stale entries from the top, then arms the timer for the earliest ready time unless it
  // is armed for that time already.
  void arm();
  void cancel_timer();
  void compact();
  static void on_timer(void* self);

  // Invariant: every waiting item has a current entry in heap_; the other stale_count_ entries
  // are stale and are dropped when they reach the top (or by compact()). Without stale entries
  // the top needs no check, which saves reading its record on every arm().
  internal::ReadyHeap heap_;
  std::size_t waiting_count_ = 0;
  std::size_t stale_count_ = 0;  // heap_.size() == waiting_count_ + stale_count_
  std::uint32_t next_seq_ = 0;
  std::shared_ptr<CounterMetric> retries_;
  sim::TimerId timer_;
  sim::Time timer_ready_{};  // the ready time the armed timer is for
  bool timer_armed_ = false;
};

// ---- implementation ----

template <class T>
DelayingQueue<T>::DelayingQueue(const sim::Clock& clock, QueueConfig config) : Queue<T>(clock, config) {
  if (!config.name.empty() && config.metrics_provider != nullptr) {
    retries_ = config.metrics_provider->new_retries_metric(config.name);
    if (!retries_) {
      throw std::invalid_argument("workqueue: the metrics provider returned a null retries metric for queue \"" +
                                  config.name + "\"");
    }
  }
}

template <class T>
template <class U>
void DelayingQueue<T>::add_after_impl(U&& item, sim::Duration delay, std::uint32_t tag) {
  if (this->shutting_down()) return;
  if (retries_) retries_->inc();
  if (delay <= sim::Duration::zero()) {
    this->add(std::forward<U>(item));
    return;
  }
  const sim::Time now = this->clock().now();
  const bool overflows = now > sim::Time{} && delay > sim::Time::max() - now;
  const sim::Time ready = overflows ? sim::Time::max() : now + delay;
  const std::uint32_t slot = this->table_.find_or_insert(std::forward<U>(item), tag).first;
  ItemState& state = this->table_.value(slot);
  if (state.waiting) {
    if (ready >= state.ready) return;  // keeps the earlier ready time
    ++stale_count_;                    // the entry of the later ready time
  } else {
    state.waiting = true;
    ++waiting_count_;
  }
  state.ready = ready;
  heap_.push(HeapEntry{ready, slot, next_seq_++});
  if (stale_count_ > waiting_count_ + 1024) compact();
  arm();
}

template <class T>
void DelayingQueue<T>::compact() {
  heap_.erase_if([this](const HeapEntry& e) { return !current(e); });
  // A stale entry that looks current (see HeapEntry) survives: count it as stale still.
  stale_count_ = heap_.size() - waiting_count_;
}

template <class T>
void DelayingQueue<T>::arm() {
  // Stale entries are dropped here so that no timer is ever armed for a wait that no longer
  // exists (the Loop would otherwise run on to that instant for nothing).
  while (stale_count_ > 0 && !heap_.empty() && !current(heap_.top())) {
    heap_.pop();
    --stale_count_;
  }
  if (heap_.empty()) return;
  // on_timer will need the top's record; without stale entries nothing has read it yet.
  this->table_.prefetch_slot(heap_.top().slot);
  const sim::Time ready = heap_.top().ready;
  if (timer_armed_ && timer_ready_ <= ready) return;
  cancel_timer();
  const sim::Clock& clock = this->clock();
  // A very long wait is cut to a century: the timer then fires early, finds nothing due and
  // re-arms, which keeps the clock arithmetic far from overflow.
  constexpr sim::Duration kLongestTimer = std::chrono::hours(24 * 365 * 100);
  const sim::Duration wait = ready == sim::Time::max() ? kLongestTimer : std::min(ready - clock.now(), kLongestTimer);
  const sim::Time fire = wait > sim::Duration::zero() ? clock.true_deadline(wait) : this->loop().now();
  timer_ = this->loop().add_timer(fire, &DelayingQueue::on_timer, this);
  timer_ready_ = ready;
  timer_armed_ = true;
}

template <class T>
void DelayingQueue<T>::cancel_timer() {
  if (timer_armed_) this->loop().cancel_timer(timer_);
  timer_armed_ = false;
}

template <class T>
void DelayingQueue<T>::on_timer(void* self) {
  auto* q = static_cast<DelayingQueue*>(self);
  q->timer_armed_ = false;
  const sim::Time now = q->clock().now();
  while (!q->heap_.empty() && q->heap_.top().ready <= now) {
    const HeapEntry top = q->heap_.top();
    q->heap_.pop();
    if (q->stale_count_ > 0 && !q->current(top)) {
      --q->stale_count_;
      continue;
    }
    assert(q->current(top));
    q->table_.value(top.slot).waiting = false;
    --q->waiting_count_;
    q->add_slot(top.slot);
  }
  q->arm();
}

template <class T>
void DelayingQueue<T>::on_shut_down() {
  cancel_timer();
  heap_.clear();
  stale_count_ = 0;
  if (waiting_count_ == 0) return;
  waiting_count_ = 0;
  std::vector<std::uint32_t> unused;
  this->table_.for_each([&](std::uint32_t slot) {
    ItemState& state = this->table_.value(slot);
    if (!state.waiting) return;
    state.waiting = false;
    unused.push_back(slot);
  });
  for (std::uint32_t slot : unused) this->release_if_unused(slot);
}

}  // namespace kubesim::workqueue

#endif  // KUBESIM_WORKQUEUE_DELAYING_QUEUE_H_
