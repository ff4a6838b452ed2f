#include "informer/internal/process_deltas.h"

#include <deque>
#include <vector>

#include "informer/internal/reconcile.h"

namespace kubesim::informer::internal {
namespace {

void process_replaced_all(ResourceEventHandler& handler, Indexer& cache, const ReplacedAllInfo& info,
                          bool is_in_initial_list) {
  if (cache.empty()) {
    // Nothing to delete and nothing to update: every listed object is an add.
    cache.replace(info.objects, info.resource_version);
    for (const api::ObjectPtr& object : info.objects) handler.on_add(object, is_in_initial_list);
    return;
  }
  std::vector<DeletedFinalStateUnknown> deletions;
  std::vector<std::pair<api::ObjectPtr, api::ObjectPtr>> replacements;  // (old or null, new)
  replacements.reserve(info.objects.size());
  static const std::deque<Delta> kNothingQueued;
  reconcile_replacement(
      kNothingQueued, &cache, info.objects,
      [&](DeletedFinalStateUnknown tombstone) { deletions.push_back(std::move(tombstone)); },
      [&](const api::ObjectPtr& object) { replacements.emplace_back(cache.get(*object), object); });
  cache.replace(info.objects, info.resource_version);
  for (DeletedFinalStateUnknown& tombstone : deletions) handler.on_delete(DeletedObject(std::move(tombstone)));
  for (const auto& [old_object, new_object] : replacements) {
    if (old_object) {
      handler.on_update(old_object, new_object);
    } else {
      handler.on_add(new_object, is_in_initial_list);
    }
  }
}

void process_one(ResourceEventHandler& handler, Indexer& cache, const Delta& delta, bool is_in_initial_list) {
  switch (delta.type()) {
    case DeltaType::kReplacedAll:
      process_replaced_all(handler, cache, *delta.replaced_all(), is_in_initial_list);
      return;
    case DeltaType::kSyncAll:
      for (const api::ObjectPtr& object : cache.list()) handler.on_update(object, object);
      return;
    case DeltaType::kSync:
    case DeltaType::kReplaced:
    case DeltaType::kAdded:
    case DeltaType::kUpdated: {
      const api::ObjectPtr& object = delta.object();
      const api::ObjectPtr old_object = cache.upsert(object);
      if (old_object) {
        handler.on_update(old_object, object);
      } else {
        handler.on_add(object, is_in_initial_list);
      }
      return;
    }
    case DeltaType::kDeleted:
      if (delta.tombstone() != nullptr) {
        cache.delete_key(delta.key()->view());
      } else {
        cache.delete_(delta.object());
      }
      handler.on_delete(delta.deleted_object());
      return;
    case DeltaType::kBookmark:
      cache.bookmark(delta.bookmark()->resource_version);
      return;
  }
}

}  // namespace

void process_deltas(ResourceEventHandler& handler, Indexer& cache, std::span<const Delta> deltas,
                    bool is_in_initial_list) {
  for (const Delta& delta : deltas) process_one(handler, cache, delta, is_in_initial_list);
}

}  // namespace kubesim::informer::internal
