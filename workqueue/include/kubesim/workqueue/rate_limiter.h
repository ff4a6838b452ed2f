// Rate limiters: how long a work queue item waits before it is retried (client-go's
// util/workqueue default_rate_limiters.go), and the token bucket behind them
// (golang.org/x/time/rate), on virtual time.
//
// RateLimiter<T> is the interface a RateLimitingQueue asks: when(item) says how long `item` must
// wait now (and records the attempt), forget(item) stops tracking it, num_requeues(item) says how
// often it has failed. Implement it to plug in your own. The limiters here:
//
//   ItemExponentialFailureRateLimiter  base·2^failures per item, capped at max
//   ItemFastSlowRateLimiter            fast delay for the first N failures of an item, then slow
//   BucketRateLimiter                  one token bucket over all items (ignores the item)
//   MaxOfRateLimiter                   the longest delay of several limiters (asks all of them)
//   WithMaxWaitRateLimiter             another limiter's delay, capped
//   default_controller_rate_limiter()  max-of(exponential 5 ms → 1000 s, bucket 10 qps burst 100)
//
// The arithmetic is client-go's exactly, so a sequence of calls gives client-go's delays to the
// nanosecond. Single-threaded: call from the loop thread only.
#ifndef KUBESIM_WORKQUEUE_RATE_LIMITER_H_
#define KUBESIM_WORKQUEUE_RATE_LIMITER_H_

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/time.h"
#include "kubesim/workqueue/detail/item_table.h"

namespace kubesim::workqueue {

template <class T>
class RateLimitingQueue;
template <class T>
class MaxOfRateLimiter;
template <class T>
class WithMaxWaitRateLimiter;

template <class T>
class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // How long `item` should wait before its next attempt; counts the attempt.
  virtual sim::Duration when(const T& item) = 0;
  // Stops tracking `item`, after success or permanent failure. Does not touch the queue: the
  // worker still calls done().
  virtual void forget(const T& item) = 0;
  // How many times `item` has been counted since it was last forgotten.
  virtual int num_requeues(const T& item) const = 0;

 private:
  // Cache warming, the library's own: the queue's hint that when() or forget() is coming soon
  // for `item`, so that a limiter of this file may start loading what it will touch. Changes
  // nothing; the default ignores it.
  friend class RateLimitingQueue<T>;
  friend class MaxOfRateLimiter<T>;
  friend class WithMaxWaitRateLimiter<T>;
  virtual void prefetch(const T& item) const { (void)item; }
};

// ---- the token bucket (golang.org/x/time/rate) ----

// Events per second. kInfiniteRate admits everything at once, ignoring the burst.
inline constexpr double kInfiniteRate = std::numeric_limits<double>::max();
// The delay of a reservation that can never be honoured.
inline constexpr sim::Duration kInfiniteDuration = sim::Duration::max();

// rate.Every: the rate of one event per `interval` (kInfiniteRate for a non-positive interval).
double every(sim::Duration interval);

// A token bucket of `burst` tokens refilled at `rate` tokens per second, reading time from a
// Clock. Reservations may take tokens the bucket does not have yet: the count goes negative and
// the reservation says how long to wait until they exist. It starts full.
class TokenBucket {
 public:
  class Reservation {
   public:
    // False when the request can never be met (more tokens than the burst).
    bool ok() const { return ok_; }
    int tokens() const { return tokens_; }
    // When the reserved tokens exist, on the bucket's Clock.
    sim::Time time_to_act() const { return time_to_act_; }
    // How long after `t` the holder must wait: zero when already due, kInfiniteDuration when !ok.
    sim::Duration delay_from(sim::Time t) const;

   private:
    friend class TokenBucket;
    bool ok_ = false;
    int tokens_ = 0;
    sim::Time time_to_act_{};
  };

  // Throws std::invalid_argument for a negative or NaN rate or a negative burst.
  TokenBucket(const sim::Clock& clock, double rate, int burst);

  // Takes one token at the Clock's now.
  Reservation reserve() { return reserve_n(clock_->now(), 1); }
  // Takes `n` tokens at `t`; ok() is false (and nothing is taken) when n exceeds the burst.
  Reservation reserve_n(sim::Time t, int n) { return reserve(t, n, kInfiniteDuration); }
  // Takes `n` tokens at `t` only when they are there now.
  bool allow() { return allow_n(clock_->now(), 1); }
  bool allow_n(sim::Time t, int n) { return reserve(t, n, sim::Duration::zero()).ok(); }

  // Tokens available at `t` (negative while reservations wait); changes nothing.
  double tokens_at(sim::Time t) const { return advance(t); }
  double tokens() const { return tokens_at(clock_->now()); }

  double rate() const { return rate_; }
  int burst() const { return burst_; }
  // Change the rate or burst from `t` on; tokens accumulated until `t` are kept.
  void set_rate_at(sim::Time t, double rate);
  void set_burst_at(sim::Time t, int burst);

  const sim::Clock& clock() const { return *clock_; }

 private:
  Reservation reserve(sim::Time t, int n, sim::Duration max_future_reserve);
  double advance(sim::Time t) const;

  const sim::Clock* clock_;
  double rate_;
  int burst_;
  double tokens_;
  sim::Time last_{};  // when tokens_ was last brought up to date
};

// The delay of client-go's exponential limiter after `failures` earlier failures:
// base·2^failures, or `max_delay` when that is larger or does not fit in a Duration.
sim::Duration exponential_failure_delay(sim::Duration base, sim::Duration max_delay, int failures);

// Throws std::invalid_argument naming `what` when `d` is negative.
void check_non_negative(sim::Duration d, const char* what);

// ---- the limiters ----

// base·2^(failures so far) for each item, capped at max_delay. when() counts a failure.
template <class T>
class ItemExponentialFailureRateLimiter final : public RateLimiter<T> {
 public:
  ItemExponentialFailureRateLimiter(sim::Duration base_delay, sim::Duration max_delay)
      : base_(base_delay), max_(max_delay) {
    check_non_negative(base_delay, "ItemExponentialFailureRateLimiter: base_delay");
    check_non_negative(max_delay, "ItemExponentialFailureRateLimiter: max_delay");
  }
  sim::Duration when(const T& item) override {
    int& failures = failures_.value(failures_.find_or_insert(item).first);
    const int exp = failures;
    if (failures < INT_MAX) ++failures;
    return exponential_failure_delay(base_, max_, exp);
  }
  void forget(const T& item) override {
    const std::uint32_t slot = failures_.find(item);
    if (slot != failures_.kNone) failures_.erase(slot);
  }
  int num_requeues(const T& item) const override {
    const std::uint32_t slot = failures_.find(item);
    return slot == failures_.kNone ? 0 : failures_.value(slot);
  }

 private:
  void prefetch(const T& item) const override { failures_.prefetch_bucket(failures_.tag_of(item)); }

  sim::Duration base_;
  sim::Duration max_;
  internal::ItemTable<T, int> failures_;
};

// fast_delay for the first max_fast_attempts failures of an item, slow_delay after.
template <class T>
class ItemFastSlowRateLimiter final : public RateLimiter<T> {
 public:
  ItemFastSlowRateLimiter(sim::Duration fast_delay, sim::Duration slow_delay, int max_fast_attempts)
      : fast_(fast_delay), slow_(slow_delay), max_fast_attempts_(max_fast_attempts) {
    check_non_negative(fast_delay, "ItemFastSlowRateLimiter: fast_delay");
    check_non_negative(slow_delay, "ItemFastSlowRateLimiter: slow_delay");
    if (max_fast_attempts < 0) {
      throw std::invalid_argument("ItemFastSlowRateLimiter: max_fast_attempts must not be negative");
    }
  }
  sim::Duration when(const T& item) override {
    int& failures = failures_.value(failures_.find_or_insert(item).first);
    if (failures < INT_MAX) ++failures;
    return failures <= max_fast_attempts_ ? fast_ : slow_;
  }
  void forget(const T& item) override {
    const std::uint32_t slot = failures_.find(item);
    if (slot != failures_.kNone) failures_.erase(slot);
  }
  int num_requeues(const T& item) const override {
    const std::uint32_t slot = failures_.find(item);
    return slot == failures_.kNone ? 0 : failures_.value(slot);
  }

 private:
  void prefetch(const T& item) const override { failures_.prefetch_bucket(failures_.tag_of(item)); }

  sim::Duration fast_;
  sim::Duration slow_;
  int max_fast_attempts_;
  internal::ItemTable<T, int> failures_;
};

// One token bucket shared by all items: the overall retry rate. Tracks no item.
template <class T>
class BucketRateLimiter final : public RateLimiter<T> {
 public:
  explicit BucketRateLimiter(TokenBucket bucket) : bucket_(std::move(bucket)) {}
  BucketRateLimiter(const sim::Clock& clock, double rate, int burst) : bucket_(clock, rate, burst) {}
  sim::Duration when(const T&) override { return bucket_.reserve().delay_from(bucket_.clock().now()); }
  void forget(const T&) override {}
  int num_requeues(const T&) const override { return 0; }
  TokenBucket& bucket() { return bucket_; }

 private:
  TokenBucket bucket_;
};

// The longest delay of its limiters. when() and forget() reach every limiter; num_requeues is
// the largest count. With a bucket inside, the burst can appear exceeded when some items are
// held back longer by another limiter.
template <class T>
class MaxOfRateLimiter final : public RateLimiter<T> {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter<T>>> limiters)
      : limiters_(std::move(limiters)) {
    for (const auto& l : limiters_) {
      if (!l) throw std::invalid_argument("MaxOfRateLimiter: a limiter is null");
    }
  }
  sim::Duration when(const T& item) override {
    sim::Duration longest = sim::Duration::zero();
    for (auto& l : limiters_) longest = std::max(longest, l->when(item));
    return longest;
  }
  void forget(const T& item) override {
    for (auto& l : limiters_) l->forget(item);
  }
  int num_requeues(const T& item) const override {
    int most = 0;
    for (const auto& l : limiters_) most = std::max(most, l->num_requeues(item));
    return most;
  }

 private:
  void prefetch(const T& item) const override {
    for (const auto& l : limiters_) l->prefetch(item);
  }

  std::vector<std::unique_ptr<RateLimiter<T>>> limiters_;
};

// max-of over the given limiters.
template <class T, class... Limiters>
std::unique_ptr<RateLimiter<T>> max_of(std::unique_ptr<Limiters>... limiters) {
  std::vector<std::unique_ptr<RateLimiter<T>>> all;
  (all.push_back(std::move(limiters)), ...);
  return std::make_unique<MaxOfRateLimiter<T>>(std::move(all));
}

// Another limiter's delay, never more than max_delay.
template <class T>
class WithMaxWaitRateLimiter final : public RateLimiter<T> {
 public:
  WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter<T>> limiter, sim::Duration max_delay)
      : limiter_(std::move(limiter)), max_(max_delay) {
    if (!limiter_) throw std::invalid_argument("WithMaxWaitRateLimiter: the limiter is null");
    check_non_negative(max_delay, "WithMaxWaitRateLimiter: max_delay");
  }
  sim::Duration when(const T& item) override { return std::min(limiter_->when(item), max_); }
  void forget(const T& item) override { limiter_->forget(item); }
  int num_requeues(const T& item) const override { return limiter_->num_requeues(item); }

 private:
  void prefetch(const T& item) const override { limiter_->prefetch(item); }

  std::unique_ptr<RateLimiter<T>> limiter_;
  sim::Duration max_;
};

// client-go's DefaultTypedControllerRateLimiter: per item 5 ms · 2^failures up to 1000 s, and
// overall 10 retries per second with a burst of 100, whichever is longer. The bucket reads `clock`.
template <class T>
std::unique_ptr<RateLimiter<T>> default_controller_rate_limiter(const sim::Clock& clock) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  return max_of<T>(std::make_unique<ItemExponentialFailureRateLimiter<T>>(milliseconds(5), seconds(1000)),
                   std::make_unique<BucketRateLimiter<T>>(clock, 10.0, 100));
}

// client-go's DefaultTypedItemBasedRateLimiter: 1 ms · 2^failures up to 1000 s.
template <class T>
std::unique_ptr<RateLimiter<T>> default_item_based_rate_limiter() {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  return std::make_unique<ItemExponentialFailureRateLimiter<T>>(milliseconds(1), seconds(1000));
}

}  // namespace kubesim::workqueue

#endif  // KUBESIM_WORKQUEUE_RATE_LIMITER_H_
