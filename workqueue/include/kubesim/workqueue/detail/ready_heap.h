// ReadyHeap: the delaying queue's min-heap of waits, ordered by (ready time, sequence number).
//
// A 4-ary heap whose ready times and payloads live in separate arrays: comparisons read only the
// 8-byte times (eight to a cache line), so a pop's walk to the bottom touches half the memory of
// an array of whole entries; payloads are read only on ties and moved alongside. Pops use
// Floyd's method (walk the hole down along the smaller children, then sift the last entry up),
// which halves the comparisons when, as here, the last entry belongs near the bottom.
//
// Sequence numbers order equal ready times (earlier first) by wrapping difference, so the order
// holds across 2^31 consecutive entries.
#ifndef KUBESIM_WORKQUEUE_DETAIL_READY_HEAP_H_
#define KUBESIM_WORKQUEUE_DETAIL_READY_HEAP_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kubesim/sim/time.h"

namespace kubesim::workqueue::internal {

class ReadyHeap {
 public:
  struct Entry {
    sim::Time ready;
    std::uint32_t slot;
    std::uint32_t seq;
  };

  bool empty() const { return ready_.empty(); }
  std::size_t size() const { return ready_.size(); }
  Entry top() const {
    assert(!empty());
    return Entry{ready_[0], values_[0].slot, values_[0].seq};
  }
  void clear() {
    ready_.clear();
    values_.clear();
  }

  void push(const Entry& e) {
    ready_.push_back(e.ready);
    values_.push_back(Value{e.slot, e.seq});
    sift_up(ready_.size() - 1, e.ready, Value{e.slot, e.seq});
  }

  void pop() {
    assert(!empty());
    const sim::Time last_ready = ready_.back();
    const Value last_value = values_.back();
    ready_.pop_back();
    values_.pop_back();
    const std::size_t n = ready_.size();
    if (n == 0) return;
    std::size_t hole = 0;
    for (;;) {
      const std::size_t first = kArity * hole + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t end = std::min(first + kArity, n);
      for (std::size_t c = first + 1; c < end; ++c) {
        if (less(ready_[c], values_[c], ready_[best], values_[best])) best = c;
      }
      move(hole, best);
      hole = best;
    }
    sift_up(hole, last_ready, last_value);
  }

  // Removes every entry for which stale(entry) is true, then restores the heap order.
  template <class Pred>
  void erase_if(Pred stale) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ready_.size(); ++i) {
      if (stale(Entry{ready_[i], values_[i].slot, values_[i].seq})) continue;
      ready_[kept] = ready_[i];
      values_[kept] = values_[i];
      ++kept;
    }
    ready_.resize(kept);
    values_.resize(kept);
    if (kept < 2) return;
    for (std::size_t i = (kept - 2) / kArity + 1; i-- > 0;) sift_down(i);
  }

 private:
  struct Value {
    std::uint32_t slot;
    std::uint32_t seq;
  };
  static constexpr std::size_t kArity = 4;

  static bool less(sim::Time ra, Value va, sim::Time rb, Value vb) {
    return ra < rb || (ra == rb && static_cast<std::int32_t>(va.seq - vb.seq) < 0);
  }
  void move(std::size_t to, std::size_t from) {
    ready_[to] = ready_[from];
    values_[to] = values_[from];
  }
  // Puts (r, v) at `hole` or above it.
  void sift_up(std::size_t hole, sim::Time r, Value v) {
    while (hole > 0) {
      const std::size_t parent = (hole - 1) / kArity;
      if (!less(r, v, ready_[parent], values_[parent])) break;
      move(hole, parent);
      hole = parent;
    }
    ready_[hole] = r;
    values_[hole] = v;
  }
  void sift_down(std::size_t hole) {
    const sim::Time r = ready_[hole];
    const Value v = values_[hole];
    const std::size_t n = ready_.size();
    for (;;) {
      const std::size_t first = kArity * hole + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t end = std::min(first + kArity, n);
      for (std::size_t c = first + 1; c < end; ++c) {
        if (less(ready_[c], values_[c], ready_[best], values_[best])) best = c;
      }
      if (!less(ready_[best], values_[best], r, v)) break;
      move(hole, best);
      hole = best;
    }
    ready_[hole] = r;
    values_[hole] = v;
  }

  std::vector<sim::Time> ready_;  // the heap order is over (ready_[i], values_[i].seq)
  std::vector<Value> values_;
};

}  // namespace kubesim::workqueue::internal

#endif  // KUBESIM_WORKQUEUE_DETAIL_READY_HEAP_H_
