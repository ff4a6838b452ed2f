// Store: the versioned object store under the fake API server, with etcd's model.
//
// One global revision counts every write; an object's resourceVersion is the revision of its last
// write. For each key the store keeps the versions written since the compaction point, so lists
// and gets can be served at any retained revision, and it keeps the log of changes in revision
// order for watches to replay. compact(r) forgets what only revisions < r could see: afterwards
// reads at a revision < r and watches from before r are refused by the server (410); the state
// at r itself stays readable, as etcd keeps the compacted revision.
//
// The store knows nothing of API semantics: the server validates, fills in system fields and
// hands the store finished objects whose resourceVersion is next_revision().
#ifndef KUBESIM_FAKEAPI_STORE_H_
#define KUBESIM_FAKEAPI_STORE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/gvk.h"
#include "api/object.h"

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
};

class Store {
 public:
  using Listener = std::function<void(const Change&)>;

  Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  Revision revision() const { return revision_; }
  Revision next_revision() const { return revision_ + 1; }
  // Reads at revisions < compacted() are gone; the state at compacted() is kept.
  Revision compacted() const { return compacted_; }

  // The table of a group/resource, created on first use. Ids are never reused.
  TableId table(const api::GroupResource& gr);
  const api::GroupResource& table_resource(TableId id) const { return tables_.at(id)->gr; }
  std::size_t size(TableId id) const { return tables_.at(id)->live; }

  // The object under `key` now, or at revision `at` (null when absent or compacted away).
  api::ObjectPtr get(TableId id, std::string_view key) const;
  api::ObjectPtr get_at(TableId id, std::string_view key, Revision at) const;

  // Writes `object` (whose resourceVersion must be next_revision()) under `key`.
  const Change& put(TableId id, const std::string& key, api::ObjectPtr object);
  // Deletes `key`, recording `last` (the final state with the deletion's resourceVersion, which
  // must be next_revision()) as the deleted object.
  const Change& remove(TableId id, const std::string& key, api::ObjectPtr last);

  // Visits, in key order, the objects present at revision `at` whose key starts with `prefix`,
  // beginning at the first key >= `start`. The visitor returns false to stop.
  void scan(TableId id, Revision at, std::string_view prefix, std::string_view start,
            const std::function<bool(const std::string& key, const api::ObjectPtr&)>& visit) const;

  // The changes with revision > `after`, oldest first (only those not compacted).
  std::deque<Change>::const_iterator changes_after(Revision after) const;
  std::deque<Change>::const_iterator changes_end() const { return log_.end(); }

  void compact(Revision upto);

  // Called synchronously for every write, after it is committed.
  void set_listener(Listener listener) { listener_ = std::move(listener); }

 private:
  struct Version {
    Revision revision;
    api::ObjectPtr object;  // null: deleted at `revision`
  };
  struct KeyHistory {
    std::string_view key;  // the key of its node in Table::keys
    std::vector<Version> versions;  // ascending revisions; back() is the current state
  };
  struct Table {
    api::GroupResource gr;
    std::map<std::string, KeyHistory, std::less<>> keys;
    std::unordered_map<std::string_view, KeyHistory*> index;
    std::size_t live = 0;
  };
  // A write that left an older version behind, for compaction to trim. The history stays valid
  // until compaction erases its key, which happens only at the entry of the deletion that
  // emptied it (the last entry of that key up to the compacted revision).
  struct Superseded {
    Revision revision;
    TableId table;
    KeyHistory* history;
  };

  static const Version* version_at(const KeyHistory& history, Revision at);
  const Change& commit(Change change);
  KeyHistory& history_of(Table& table, const std::string& key);
  void trim(Table& table, KeyHistory& history, Revision superseded_at, Revision upto);

  Revision revision_ = 0;
  Revision compacted_ = 0;
  std::vector<std::unique_ptr<Table>> tables_;
  std::map<api::GroupResource, TableId> table_ids_;
  std::deque<Change> log_;
  std::deque<Superseded> superseded_;
  Listener listener_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_STORE_H_
