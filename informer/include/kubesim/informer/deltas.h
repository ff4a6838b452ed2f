// Deltas: the changes a Reflector reports to a FIFO and the FIFO hands to the informer.
//
// A Delta is one change of one object: Added, Updated or Deleted from a watch event, Replaced
// from a re-list, Sync from a periodic resync, and — only in the atomic form of RealFIFO — the
// whole-store ReplacedAll and SyncAll, and Bookmark. What a Delta carries depends on its type:
//
//   Added, Updated, Replaced, Sync   the object (an immutable ObjectPtr)
//   Deleted                          the object's final state, or a DeletedFinalStateUnknown
//                                    tombstone when the deletion was only inferred from a re-list
//   ReplacedAll                      ReplacedAllInfo: the listed objects and the list's RV
//   SyncAll                          nothing
//   Bookmark                         BookmarkInfo: the resourceVersion the watch reached
//
// Objects are shared, never copied: a FIFO, the cache and every handler see the same ObjectPtr.
#ifndef KUBESIM_INFORMER_DELTAS_H_
#define KUBESIM_INFORMER_DELTAS_H_

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"

namespace kubesim::informer {

enum class DeltaType { kAdded, kUpdated, kDeleted, kReplaced, kReplacedAll, kSync, kSyncAll, kBookmark };

// client-go's spelling: "Added", "Updated", "Deleted", "Replaced", "ReplacedAll", "Sync",
// "SyncAll", "Bookmark".
std::string_view to_string(DeltaType type);
std::ostream& operator<<(std::ostream& os, DeltaType type);

// A deletion the informer did not see happen: the object was absent from a re-list. `object` is
// the last state the informer knew, which may be stale and may be null (the key was known but
// its object was not).
struct DeletedFinalStateUnknown {
  DeletedFinalStateUnknown() = default;
  DeletedFinalStateUnknown(api::ObjectKey key_, api::ObjectPtr object_)
      : key(std::move(key_)), object(std::move(object_)) {}

  api::ObjectKey key;
  api::ObjectPtr object;
};

// The object of a delete: its final state, or a tombstone.
using DeletedObject = std::variant<api::ObjectPtr, DeletedFinalStateUnknown>;

// The key of a deleted object (the tombstone's key, or the object's own).
api::ObjectKeyView key_of(const DeletedObject& deleted);
// The last state known of a deleted object; null for a tombstone without one.
const api::ObjectPtr& last_known_state(const DeletedObject& deleted);
// True for a tombstone.
inline bool is_final_state_unknown(const DeletedObject& deleted) { return deleted.index() == 1; }

struct ReplacedAllInfo {
  ReplacedAllInfo() = default;
  ReplacedAllInfo(std::string resource_version_, std::vector<api::ObjectPtr> objects_)
      : resource_version(std::move(resource_version_)), objects(std::move(objects_)) {}

  std::string resource_version;
  // Already transformed, in the order the list returned them.
  std::vector<api::ObjectPtr> objects;
};

struct BookmarkInfo {
  BookmarkInfo() = default;
  explicit BookmarkInfo(std::string resource_version_) : resource_version(std::move(resource_version_)) {}

  std::string resource_version;
};

struct SyncAllInfo {};

class Delta {
 public:
  using Payload = std::variant<api::ObjectPtr, DeletedFinalStateUnknown,
                               std::shared_ptr<const ReplacedAllInfo>, BookmarkInfo, SyncAllInfo>;

  Delta(DeltaType type, api::ObjectPtr object) : type_(type), payload_(std::move(object)) {}
  Delta(DeltaType type, DeletedObject deleted);
  Delta(DeltaType type, Payload payload) : type_(type), payload_(std::move(payload)) {}

  DeltaType type() const { return type_; }
  const Payload& payload() const { return payload_; }

  // The object for Added/Updated/Deleted/Replaced/Sync: the object itself, or for a tombstone
  // the last known state (possibly null). Null for the whole-store types.
  const api::ObjectPtr& object() const;
  // The tombstone of a Deleted delta that carries one, else null.
  const DeletedFinalStateUnknown* tombstone() const {
    return std::get_if<DeletedFinalStateUnknown>(&payload_);
  }
  // The key of the object or tombstone (a view into this delta); none for the whole-store types.
  std::optional<api::ObjectKeyView> key() const;
  // For Deleted: the deleted object as handlers receive it.
  DeletedObject deleted_object() const;
  const ReplacedAllInfo* replaced_all() const;
  const BookmarkInfo* bookmark() const { return std::get_if<BookmarkInfo>(&payload_); }

 private:
  DeltaType type_;
  Payload payload_;
};

// The deltas of one key, oldest first (DeltaFIFO), or the single delta RealFIFO pops.
using Deltas = std::vector<Delta>;

// Called by a FIFO's pop with what it popped. `is_in_initial_list` is true while the FIFO has
// not yet handed out everything of its first re-list.
using PopProcessFunc = std::function<void(std::span<const Delta> deltas, bool is_in_initial_list)>;

// Applied to every object before a FIFO stores it (not to tombstones, nor to resync copies of
// objects already in the cache). Must return an object with the same key; it is a chance to
// drop fields the program never reads. Make it idempotent, as client-go advises: an object from a
// streaming list goes through it twice (see reflector.h), as in client-go 1.36.
using TransformFunc = std::function<api::ObjectPtr(api::ObjectPtr)>;

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_DELTAS_H_
