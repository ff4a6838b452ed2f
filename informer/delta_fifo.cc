#include "informer/delta_fifo.h"

#include <cassert>
#include <unordered_set>

namespace kubesim::informer {
namespace {

// Collapses the last two deltas when both are deletes: a real final state beats a tombstone,
// otherwise the older one stays.
void dedup_deltas(Deltas& deltas) {
  const std::size_t n = deltas.size();
  if (n < 2) return;
  Delta& newest = deltas[n - 1];
  Delta& previous = deltas[n - 2];
  if (newest.type() != DeltaType::kDeleted || previous.type() != DeltaType::kDeleted) return;
  if (previous.tombstone() != nullptr) previous = std::move(newest);
  deltas.pop_back();
}

}  // namespace

DeltaFIFO::DeltaFIFO(sim::Loop& loop, DeltaFIFOOptions options)
    : Queue(loop), options_(std::move(options)) {}

void DeltaFIFO::mark_populated() {
  populated_ = true;
  check_synced();
}

void DeltaFIFO::check_synced() {
  if (populated_ && initial_population_count_ == 0) synced_ = true;
}

void DeltaFIFO::add(api::ObjectPtr object) {
  mark_populated();
  queue_object(DeltaType::kAdded, DeltaType::kAdded, std::move(object));
}

void DeltaFIFO::update(api::ObjectPtr object) {
  mark_populated();
  queue_object(DeltaType::kUpdated, DeltaType::kUpdated, std::move(object));
}

void DeltaFIFO::delete_(api::ObjectPtr object) {
  mark_populated();
  const std::string_view key = object->key().view();
  const bool known = options_.known_objects != nullptr && options_.known_objects->get_by_key(key) != nullptr;
  if (!known && !has_queued(key)) return;
  queue_object(DeltaType::kDeleted, DeltaType::kDeleted, std::move(object));
}

bool DeltaFIFO::has_queued(std::string_view key) const { return items_.find(key) != items_.end(); }

void DeltaFIFO::queue_object(DeltaType action, DeltaType internal_action, api::ObjectPtr object) {
  if (options_.transform && internal_action != DeltaType::kSync) {
    object = options_.transform(std::move(object));
    assert(object && "a transform must return an object");
  }
  const std::string_view key = object->key().view();  // the object outlives the call
  queue_action(action, Delta::Payload(std::move(object)), key);
}

void DeltaFIFO::queue_tombstone(const api::ObjectKey& key, api::ObjectPtr last_known) {
  queue_action(DeltaType::kDeleted, Delta::Payload(DeletedFinalStateUnknown(key, std::move(last_known))),
               key.view());
}

// `key` may point into `payload`: it is only read before the payload moves.
void DeltaFIFO::queue_action(DeltaType action, Delta::Payload payload, std::string_view key) {
  auto it = items_.find(key);
  if (it == items_.end()) {
    it = items_.emplace(Delta(action, std::move(payload))).first;
    queue_.push_back(&*it);
  } else {
    it->deltas.emplace_back(action, std::move(payload));
    dedup_deltas(it->deltas);
    it->rekey();
  }
  assert(queue_.size() == items_.size());
  notify();
}

void DeltaFIFO::replace(std::vector<api::ObjectPtr> objects, std::string) {
  const DeltaType action = options_.emit_delta_type_replaced ? DeltaType::kReplaced : DeltaType::kSync;
  // Keys of the list, as views into the listed objects (kept alive by `objects`).
  std::unordered_set<std::string_view> listed;
  listed.reserve(objects.size());
  for (const api::ObjectPtr& object : objects) {
    listed.insert(object->key().view());
    queue_object(action, DeltaType::kReplaced, object);
  }
  std::size_t queued_deletions = 0;
  // Queued keys missing from the list; queue order, so the outcome never depends on hashing.
  // Tombstoning a queued key does not grow the queue.
  for (std::size_t i = 0, n = queue_.size(); i < n; ++i) {
    const Entry* entry = queue_[i];
    if (listed.contains(entry->key)) continue;
    const api::ObjectPtr newest = entry->deltas.back().object();
    ++queued_deletions;
    queue_tombstone(api::ObjectKey(std::string(entry->key)), newest);
  }
  if (options_.known_objects != nullptr) {
    for (const api::ObjectKey& key : options_.known_objects->list_keys()) {
      if (listed.contains(key.view()) || has_queued(key.view())) continue;
      ++queued_deletions;
      queue_tombstone(key, options_.known_objects->get_by_key(key.view()));
    }
  }
  if (!populated_) {
    populated_ = true;
    initial_population_count_ = listed.size() + queued_deletions;
    check_synced();
  }
}

void DeltaFIFO::resync() {
  if (options_.known_objects == nullptr) return;
  for (const api::ObjectKey& key : options_.known_objects->list_keys()) {
    api::ObjectPtr object = options_.known_objects->get_by_key(key.view());
    if (!object || has_queued(object->key().view())) continue;
    queue_object(DeltaType::kSync, DeltaType::kSync, std::move(object));
  }
}

bool DeltaFIFO::try_pop(const PopProcessFunc& process) {
  if (queue_.empty()) return false;
  const bool is_in_initial_list = !synced_;
  const Entry* entry = queue_.front();
  queue_.pop_front();
  if (initial_population_count_ > 0) {
    --initial_population_count_;
    check_synced();
  }
  auto it = items_.find(entry->key);
  assert(it != items_.end() && "a queued key must have deltas");
  const auto node = items_.extract(it);
  process(std::span<const Delta>(node.value().deltas), is_in_initial_list);
  return true;
}

std::vector<api::ObjectKey> DeltaFIFO::list_keys() const {
  std::vector<api::ObjectKey> out;
  out.reserve(queue_.size());
  for (const Entry* entry : queue_) out.emplace_back(std::string(entry->key));
  return out;
}

const Deltas* DeltaFIFO::deltas_of(std::string_view key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : &it->deltas;
}

}  // namespace kubesim::informer
