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
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/key_table.h"
#include "kubesim/informer/deltas.h"
#include "kubesim/informer/indexer.h"
#include "kubesim/informer/detail/key_text.h"
#include "kubesim/informer/store.h"

namespace kubesim::informer {

struct DeltaFIFOOptions {
  // The consumer's cache, read by replace() and resync(); may be null (then resync does nothing
  // and only queued keys can turn into tombstones). Must outlive the FIFO.
  const KeyListerGetter* known_objects = nullptr;
  // Queue Replaced rather than Sync for re-listed objects (informers set it).
  bool emit_delta_type_replaced = false;
  // Applied to objects as they are queued; not to tombstones or resyncs.
  TransformFunc transform{};
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
  TransformFunc transformer() const override { return options_.transform; }

  bool try_pop(const PopProcessFunc& process) override;
  bool has_synced() const override { return synced_; }
  // Keys waiting.
  std::size_t size() const override { return queue_.size(); }

  // The queued keys, in queue order.
  std::vector<api::ObjectKey> list_keys() const;
  // The Deltas queued for `key`, or null. Valid until the next write to or pop from the FIFO.
  const Deltas* deltas_of(std::string_view key) const;

 private:
  using EntryId = std::uint32_t;
  // One queued key with its Deltas, or a free slot (empty Deltas) waiting for reuse. Its own
  // copy of the key keeps lookups from reading the objects.
  struct Entry {
    Deltas deltas;
    internal::KeyText key;
  };

  void queue_action(DeltaType action, Delta::Payload payload, std::string_view key);
  void queue_object(DeltaType action, DeltaType internal_action, api::ObjectPtr object);
  void queue_tombstone(const api::ObjectKey& key, api::ObjectPtr last_known);
  EntryId find(std::string_view key, std::uint64_t hash) const;
  bool has_queued(std::string_view key) const;
  EntryId new_entry(std::string_view key, std::uint64_t hash);
  void free_entry(EntryId id);
  void mark_populated();
  void check_synced();

  DeltaFIFOOptions options_;
  // Invariant: a key is in queue_ iff table_ maps it to an entry, exactly once, and that entry's
  // Deltas are not empty. Other entries are free and listed in free_ids_, except the one a pop
  // is handing out. Ids are stable; the Deltas of an entry never move while it is popped.
  std::vector<Entry> entries_;
  std::vector<EntryId> free_ids_;
  api::KeyTable table_;
  std::deque<EntryId> queue_;
  bool populated_ = false;
  // Pops left before the first replace() has been handed out in full.
  std::size_t initial_population_count_ = 0;
  bool synced_ = false;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_DELTA_FIFO_H_
