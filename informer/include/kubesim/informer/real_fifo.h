// RealFIFO: client-go's in-order informer queue (InOrderInformers, the default since 1.33).
//
// Unlike DeltaFIFO it keeps every change as its own entry in one ordered log and never merges
// by key: pop() hands out exactly one Delta, in the order the changes arrived, so a consumer sees
// the server's order across keys, not only within one.
//
// Two forms, as in client-go:
// - Per object (atomic_events = false; needs `known_objects`, the consumer's cache): replace()
//   appends a Deleted tombstone (DeletedFinalStateUnknown) for every key queued or known but
//   absent from the list, then a Replaced for each listed object; resync() appends a Sync for
//   each known object with nothing queued.
// - Atomic (atomic_events = true, what client-go 1.36's informers use; `known_objects` must be
//   null): replace() appends one ReplacedAll carrying the whole list and resync() one SyncAll, so
//   the consumer applies a re-list in one step against its own cache. Optionally bookmarks are
//   queued too (emit_delta_type_bookmark), so the consumer's cache learns the RV in order.
//
// has_synced() turns true once every entry queued up to the first replace() has been popped and
// processed (or when an add/update/delete came first). Not thread-safe; one Loop.
#ifndef KUBESIM_INFORMER_REAL_FIFO_H_
#define KUBESIM_INFORMER_REAL_FIFO_H_

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "kubesim/informer/deltas.h"
#include "kubesim/informer/store.h"

namespace kubesim::informer {

struct RealFIFOOptions {
  // The consumer's cache; required without atomic_events, forbidden with it. Must outlive the
  // FIFO.
  const KeyListerGetter* known_objects = nullptr;
  // Applied to objects as they are queued; not to tombstones or resyncs.
  TransformFunc transform{};
  bool atomic_events = false;
  // Queue a Bookmark delta for every bookmark; only with atomic_events.
  bool emit_delta_type_bookmark = false;
};

class RealFIFO final : public Queue {
 public:
  // Throws std::invalid_argument, saying which, when the options contradict each other.
  explicit RealFIFO(sim::Loop& loop, RealFIFOOptions options = {});

  void add(api::ObjectPtr object) override;
  void update(api::ObjectPtr object) override;
  // Always queued, known or not: the consumer decides.
  void delete_(api::ObjectPtr object) override;
  void replace(std::vector<api::ObjectPtr> objects, std::string resource_version) override;
  void resync() override;
  TransformFunc transformer() const override { return options_.transform; }
  void bookmark(std::string resource_version) override;

  bool try_pop(const PopProcessFunc& process) override;
  bool has_synced() const override { return synced_; }
  std::size_t size() const override { return items_.size(); }

  // The queued deltas, oldest first.
  const std::deque<Delta>& items() const { return items_; }

 private:
  void push(DeltaType type, api::ObjectPtr object, bool skip_transform);
  void mark_populated();
  void check_synced();

  RealFIFOOptions options_;
  std::deque<Delta> items_;
  bool populated_ = false;
  // Entries left to pop before the first replace() has been handed out in full.
  std::size_t initial_population_count_ = 0;
  bool synced_ = false;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_REAL_FIFO_H_
