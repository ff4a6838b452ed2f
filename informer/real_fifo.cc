#include "kubesim/informer/real_fifo.h"

#include <cassert>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "informer/internal/reconcile.h"

namespace kubesim::informer {

RealFIFO::RealFIFO(sim::Loop& loop, RealFIFOOptions options) : Queue(loop), options_(std::move(options)) {
  if (options_.atomic_events && options_.known_objects != nullptr) {
    throw std::invalid_argument("RealFIFO: known_objects must be null when atomic_events is set");
  }
  if (!options_.atomic_events && options_.known_objects == nullptr) {
    throw std::invalid_argument("RealFIFO: known_objects is required when atomic_events is not set");
  }
  if (!options_.atomic_events && options_.emit_delta_type_bookmark) {
    throw std::invalid_argument("RealFIFO: emit_delta_type_bookmark needs atomic_events");
  }
}

void RealFIFO::mark_populated() {
  populated_ = true;
  check_synced();
}

void RealFIFO::check_synced() {
  if (populated_ && initial_population_count_ == 0) synced_ = true;
}

void RealFIFO::push(DeltaType type, api::ObjectPtr object, bool skip_transform) {
  if (options_.transform && !skip_transform) {
    object = options_.transform(std::move(object));
    assert(object && "a transform must return an object");
  }
  items_.emplace_back(type, std::move(object));
  notify();
}

void RealFIFO::add(api::ObjectPtr object) {
  mark_populated();
  push(DeltaType::kAdded, std::move(object), false);
}

void RealFIFO::update(api::ObjectPtr object) {
  mark_populated();
  push(DeltaType::kUpdated, std::move(object), false);
}

void RealFIFO::delete_(api::ObjectPtr object) {
  mark_populated();
  push(DeltaType::kDeleted, std::move(object), false);
}

void RealFIFO::replace(std::vector<api::ObjectPtr> objects, std::string resource_version) {
  if (options_.atomic_events) {
    if (options_.transform) {
      for (api::ObjectPtr& object : objects) object = options_.transform(std::move(object));
    }
    auto info = std::make_shared<const ReplacedAllInfo>(std::move(resource_version), std::move(objects));
    items_.emplace_back(DeltaType::kReplacedAll, Delta::Payload(std::move(info)));
    notify();
  } else {
    internal::reconcile_replacement(
        items_, options_.known_objects, objects,
        [this](DeletedFinalStateUnknown tombstone) {
          items_.emplace_back(DeltaType::kDeleted, Delta::Payload(std::move(tombstone)));
          notify();
        },
        [this](const api::ObjectPtr& object) { push(DeltaType::kReplaced, object, false); });
  }
  if (!populated_) {
    populated_ = true;
    initial_population_count_ = items_.size();
    check_synced();
  }
}

void RealFIFO::resync() {
  if (options_.atomic_events) {
    items_.emplace_back(DeltaType::kSyncAll, Delta::Payload(SyncAllInfo{}));
    notify();
    return;
  }
  std::unordered_set<std::string_view> queued;
  for (const Delta& delta : items_) {
    if (const auto key = delta.key()) queued.insert(key->view());
  }
  for (const api::ObjectKey& key : options_.known_objects->list_keys()) {
    if (queued.contains(key.view())) continue;
    api::ObjectPtr object = options_.known_objects->get_by_key(key.view());
    if (object) push(DeltaType::kSync, std::move(object), true);
  }
}

void RealFIFO::bookmark(std::string resource_version) {
  if (!options_.emit_delta_type_bookmark) return;
  items_.emplace_back(DeltaType::kBookmark, Delta::Payload(BookmarkInfo(std::move(resource_version))));
  notify();
}

bool RealFIFO::try_pop(const PopProcessFunc& process) {
  if (items_.empty()) return false;
  const bool is_in_initial_list = !synced_;
  const Delta item = std::move(items_.front());
  items_.pop_front();
  process(std::span<const Delta>(&item, 1), is_in_initial_list);
  // Counted after processing, so the FIFO is not synced while the last initial item is handled.
  if (initial_population_count_ > 0) {
    --initial_population_count_;
    check_synced();
  }
  return true;
}

}  // namespace kubesim::informer
