// DeltaFIFO: client-go's per-key queue of changes between a Reflector and an informer.
//
// Every key with pending changes has one entry holding its Deltas, oldest first, and one place
// in the queue; the queue keeps the order in which keys first got a change since they were last
// popped. pop() hands a key's whole Deltas to the consumer at once, so a consumer that falls
// behind sees every change of an object in order, merged per key. Consecutive deletes of one key
// collapse into one (a real delete wins over a tombstone).
//
// replace() (a re-list) queues a Sync — or Replaced, with emit_delta_type_replaced — for every
// listed object, and a Deleted carrying a DeletedFinalStateUnknown tombstone for every key that
// is queued or known to the consumer's cache (`known_objects`) but absent from the list: the
// consumer learns of deletions it missed, with the last state it knew. resync() queues a Sync for
// every known object that has nothing queued.
//
// has_synced() turns true once everything queued by the first replace() has been popped (or
// when an add/update/delete came first). Not thread-safe; one Loop.
#ifndef KUBESIM_INFORMER_DELTA_FIFO_H_
#define KUBESIM_INFORMER_DELTA_FIFO_H_

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "informer/deltas.h"
#include "informer/indexer.h"
#include "informer/store.h"

namespace kubesim::informer {

struct DeltaFIFOOptions {
  DeltaFIFOOptions() {}

  // The consumer's cache, read by replace() and resync(); may be null (then resync does nothing
  // and only queued keys can turn into tombstones). Must outlive the FIFO.
  const KeyListerGetter* known_objects = nullptr;
  // Queue Replaced rather than Sync for re-listed objects (informers set it).
  bool emit_delta_type_replaced = false;
  // Applied to objects as they are queued; not to tombstones or resyncs.
  TransformFunc transform;
};

class DeltaFIFO final : public Queue {
 public:
  explicit DeltaFIFO(sim::Loop& loop, DeltaFIFOOptions options = {});

  void add(api::ObjectPtr object) override;
  void update(api::ObjectPtr object) override;
  // Queues a Deleted unless the key is neither queued nor known (nothing to tell the consumer).
  void delete_(api::ObjectPtr object) override;
  void replace(std::vector<api::ObjectPtr> objects, std::string resource_version) override;
  void resync() override;

  bool try_pop(const PopProcessFunc& process) override;
  bool has_synced() const override { return synced_; }
  // Keys waiting.
  std::size_t size() const override { return queue_.size(); }

  // The queued keys, in queue order.
  std::vector<api::ObjectKey> list_keys() const;
  // The Deltas queued for `key`, or null.
  const Deltas* deltas_of(std::string_view key) const;

 private:
  // One queued key with its Deltas (never empty). `key` views the key of the first delta, and is
  // re-pointed whenever the Deltas change; its text, hence the entry's hash, never changes.
  struct Entry {
    explicit Entry(Delta first) { deltas.reserve(2); deltas.push_back(std::move(first)); rekey(); }
    void rekey() const { key = deltas.front().key()->view(); }
    mutable Deltas deltas;
    mutable std::string_view key;
  };
  struct EntryHash {
    using is_transparent = void;
    std::size_t operator()(const Entry& e) const noexcept { return std::hash<std::string_view>{}(e.key); }
    std::size_t operator()(std::string_view k) const noexcept { return std::hash<std::string_view>{}(k); }
  };
  struct EntryEq {
    using is_transparent = void;
    bool operator()(const Entry& a, const Entry& b) const { return a.key == b.key; }
    bool operator()(std::string_view a, const Entry& b) const { return a == b.key; }
    bool operator()(const Entry& a, std::string_view b) const { return a.key == b; }
  };
  using Items = std::unordered_set<Entry, EntryHash, EntryEq>;

  void queue_action(DeltaType action, Delta::Payload payload, std::string_view key);
  void queue_object(DeltaType action, DeltaType internal_action, api::ObjectPtr object);
  void queue_tombstone(const api::ObjectKey& key, api::ObjectPtr last_known);
  bool has_queued(std::string_view key) const;
  void mark_populated();
  void check_synced();

  DeltaFIFOOptions options_;
  // Invariant: a key is in queue_ iff it is in items_, exactly once. Elements of an
  // unordered_set never move, so the queue points at them.
  Items items_;
  std::deque<const Entry*> queue_;
  bool populated_ = false;
  // Pops left before the first replace() has been handed out in full.
  std::size_t initial_population_count_ = 0;
  bool synced_ = false;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_DELTA_FIFO_H_
