#include "kubesim/informer/deltas.h"

#include <cassert>

namespace kubesim::informer {
namespace {

const api::ObjectPtr kNoObject;

}  // namespace

std::string_view to_string(DeltaType type) {
  switch (type) {
    case DeltaType::kAdded:
      return "Added";
    case DeltaType::kUpdated:
      return "Updated";
    case DeltaType::kDeleted:
      return "Deleted";
    case DeltaType::kReplaced:
      return "Replaced";
    case DeltaType::kReplacedAll:
      return "ReplacedAll";
    case DeltaType::kSync:
      return "Sync";
    case DeltaType::kSyncAll:
      return "SyncAll";
    case DeltaType::kBookmark:
      return "Bookmark";
  }
  return "";
}

std::ostream& operator<<(std::ostream& os, DeltaType type) { return os << to_string(type); }

api::ObjectKeyView key_of(const DeletedObject& deleted) {
  if (const auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&deleted)) return tombstone->key;
  return std::get<api::ObjectPtr>(deleted)->key();
}

const api::ObjectPtr& last_known_state(const DeletedObject& deleted) {
  if (const auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&deleted)) return tombstone->object;
  return std::get<api::ObjectPtr>(deleted);
}

Delta::Delta(DeltaType type, DeletedObject deleted) : type_(type) {
  if (auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&deleted)) {
    payload_ = std::move(*tombstone);
  } else {
    payload_ = std::move(std::get<api::ObjectPtr>(deleted));
  }
}

const api::ObjectPtr& Delta::object() const {
  if (const auto* obj = std::get_if<api::ObjectPtr>(&payload_)) return *obj;
  if (const auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&payload_)) return tombstone->object;
  return kNoObject;
}

std::optional<api::ObjectKeyView> Delta::key() const {
  if (const auto* obj = std::get_if<api::ObjectPtr>(&payload_)) return (*obj)->key();
  if (const auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&payload_)) return tombstone->key;
  return std::nullopt;
}

DeletedObject Delta::deleted_object() const {
  if (const auto* tombstone = std::get_if<DeletedFinalStateUnknown>(&payload_)) return *tombstone;
  assert(std::holds_alternative<api::ObjectPtr>(payload_) && "not an object delta");
  return std::get<api::ObjectPtr>(payload_);
}

const ReplacedAllInfo* Delta::replaced_all() const {
  const auto* info = std::get_if<std::shared_ptr<const ReplacedAllInfo>>(&payload_);
  return info != nullptr ? info->get() : nullptr;
}

}  // namespace kubesim::informer
