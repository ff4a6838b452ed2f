// Store: the versioned object store under the fake API server, with etcd's model.
//
// One global revision counts every write; an object's resourceVersion is the revision of its last
// write. The store keeps each key's current state and the log of changes since the compaction
// point, one change per revision, in revision order, for watches to replay; each change names the
// previous change to its key, so the log also serves gets and lists at any retained revision.
// compact(r) forgets what only revisions < r could see: afterwards reads at a revision < r and
// watches from before r are refused by the server (410); the state at r itself stays readable, as
// etcd keeps the compacted revision.
//
// Costs: get, put and remove O(1) amortized; get_at O(1 + writes to the key after the revision
// read); scan O(log n + keys passed), after placing the keys created since the previous scan.
// Memory besides the objects: ~40 B per key (an entry, its hash slot, its place in key order; the
// key itself is read from the object) and a 56-byte change per write until compacted.
//
// The store knows nothing of API semantics: the server validates, fills in system fields and
// hands the store finished objects whose resourceVersion is next_revision().
#ifndef KUBESIM_FAKEAPI_STORE_H_
#define KUBESIM_FAKEAPI_STORE_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/key_table.h"
#include "kubesim/api/object.h"

namespace kubesim::fakeapi {

using Revision = std::int64_t;

enum class ChangeType { kAdded, kModified, kDeleted };

using TableId = std::uint32_t;

// One committed write, the unit of the watch log.
struct Change {
  Revision revision = 0;
  TableId table = 0;
  ChangeType type = ChangeType::kAdded;
  // The new state; for kDeleted the last state, carrying the deletion's resourceVersion.
  api::ObjectPtr object;
  // The state before the write; null for kAdded.
  api::ObjectPtr previous;
  // The revision of the previous write to the same key (which may be compacted away); 0 when the
  // store holds none, as for a key created anew after its deletion was compacted.
  Revision prev_revision = 0;
};

class Store {
 public:
  using Listener = std::function<void(const Change&)>;
  using Visitor = std::function<bool(std::string_view key, const api::ObjectPtr&)>;

  Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  Revision revision() const { return revision_; }
  Revision next_revision() const { return revision_ + 1; }
  // Reads at revisions < compacted() are gone; the state at compacted() is kept.
  Revision compacted() const { return compacted_; }

  // The table of a group/resource, created on first use. Ids are never reused.
  TableId table(const api::GroupResource& gr);
  // The table of a group/resource if it exists.
  std::optional<TableId> find_table(const api::GroupResource& gr) const;
  const api::GroupResource& table_resource(TableId id) const { return tables_.at(id)->gr; }
  std::size_t size(TableId id) const { return tables_.at(id)->live; }

  // The object under `key` now, or at revision `at` (null when absent or compacted away).
  api::ObjectPtr get(TableId id, std::string_view key) const;
  api::ObjectPtr get_at(TableId id, std::string_view key, Revision at) const;

  // Writes `object` (whose resourceVersion must be next_revision()) under `key`, which must be
  // the object's own key(): the store keeps no other copy of it.
  const Change& put(TableId id, std::string_view key, api::ObjectPtr object);
  // Deletes `key`, recording `last` (the final state with the deletion's resourceVersion, which
  // must be next_revision(), and `key` as its key) as the deleted object.
  const Change& remove(TableId id, std::string_view key, api::ObjectPtr last);

  // Visits, in key order, the objects present at revision `at` (>= compacted()) whose key starts
  // with `prefix`, beginning at the first key >= `start`. The visitor returns false to stop; it
  // must not write to the store or compact it. The key it gets lives as long as the object.
  void scan(TableId id, Revision at, std::string_view prefix, std::string_view start,
            const Visitor& visit) const;

  // The changes with revision > `after`, oldest first (only those not compacted).
  std::deque<Change>::const_iterator changes_after(Revision after) const;
  std::deque<Change>::const_iterator changes_end() const { return log_.end(); }

  void compact(Revision upto);

  // Called synchronously for every write, after it is committed.
  void set_listener(Listener listener) { listener_ = std::move(listener); }

 private:
  // A key's current state. A key has one entry from its first write until compaction passes
  // the deletion that was its last write; then the entry is erased: out of the table's index at
  // once, out of its key order at the next sweep.
  struct Entry {
    // The current state; for a deleted or erased key the deleted object. Holds the key.
    api::ObjectPtr object;
    // The revision of the key's last write, negated when that write deleted it; 0 once erased.
    Revision stamp = 0;

    Revision last_write() const { return stamp < 0 ? -stamp : stamp; }
    bool deleted() const { return stamp < 0; }
    bool erased() const { return stamp == 0; }
    std::string_view key() const { return object->key().view(); }
  };
  using EntryId = std::uint32_t;
  // The entries, named by dense ids. They live in fixed-size chunks, so neither an id nor an
  // entry's address changes as the pool grows, and there is no allocation per entry. Released
  // ids are handed out again, the most recently released first, so every reference to an id
  // must be dropped before it is released.
  class EntryPool {
   public:
    // The id of an entry equal to Entry{}.
    EntryId allocate() {
      if (!free_.empty()) {
        const EntryId id = free_.back();
        free_.pop_back();
        return id;
      }
      assert(issued_ < std::numeric_limits<EntryId>::max() && "too many entries");
      if (issued_ % kChunk == 0) chunks_.push_back(std::make_unique<Entry[]>(kChunk));
      return static_cast<EntryId>(issued_++);
    }
    // Resets the entry to Entry{}, releasing what it holds, and makes `id` free for reuse.
    void release(EntryId id) {
      (*this)[id] = Entry{};
      free_.push_back(id);
    }
    Entry& operator[](EntryId id) { return chunks_[id / kChunk][id % kChunk]; }
    const Entry& operator[](EntryId id) const { return chunks_[id / kChunk][id % kChunk]; }

   private:
    static constexpr std::size_t kChunk = 512;
    std::vector<std::unique_ptr<Entry[]>> chunks_;
    std::size_t issued_ = 0;  // ids ever handed out: [0, issued_)
    std::vector<EntryId> free_;
  };
  struct Table {
    api::GroupResource gr;
    api::KeyTable index;  // the entries not erased, by key
    // Key order, kept lazily (scans are const): `sorted` holds entries in key order, erased ones
    // included until the next sweep; `pending` the entries created since, in no order.
    mutable std::vector<EntryId> sorted;
    mutable std::vector<EntryId> pending;
    std::size_t live = 0;    // entries neither deleted nor erased
    std::size_t erased = 0;  // erased entries still in `sorted` or `pending`
  };

  const Change& change_at(Revision revision) const;
  // The state of `entry` at `at` (>= compacted()); null when the key was absent.
  const api::ObjectPtr* state_at(const Entry& entry, Revision at) const;
  EntryId find(const Table& table, std::string_view key, std::uint64_t hash) const;
  const Change& commit(Change change);
  void sort_pending(const Table& table) const;
  void erase_entry(const Change& deletion);
  void sweep(Table& table);

  Revision revision_ = 0;
  Revision compacted_ = 0;
  std::vector<std::unique_ptr<Table>> tables_;
  std::map<api::GroupResource, TableId> table_ids_;
  EntryPool entries_;
  // Every change after compacted_, in revision order: the change of revision r is at
  // r - compacted_ - 1.
  std::deque<Change> log_;
  Listener listener_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_STORE_H_
