#include "kubesim/informer/delta_fifo.h"

#include <cassert>
#include <type_traits>
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

DeltaFIFO::EntryId DeltaFIFO::find(std::string_view key, std::uint64_t hash) const {
  return table_.find(key, hash, [this](EntryId i) { return entries_[i].key.view(); });
}

bool DeltaFIFO::has_queued(std::string_view key) const {
  return find(key, api::hash_key(key)) != api::KeyTable::kAbsent;
}

DeltaFIFO::EntryId DeltaFIFO::new_entry(std::string_view key, std::uint64_t hash) {
  EntryId id;
  if (free_ids_.empty()) {
    assert(entries_.size() < api::KeyTable::kAbsent && "too many keys");
    id = static_cast<EntryId>(entries_.size());
    entries_.emplace_back().deltas.reserve(2);  // the common case: Added or Replaced, then one change
  } else {
    id = free_ids_.back();
    free_ids_.pop_back();
  }
  entries_[id].key.assign(key);
  table_.insert(hash, id);
  queue_.push_back(id);
  return id;
}

// Frees a popped entry, keeping a small Deltas buffer for the next key. Once every entry is free,
// a large slab is released so that a drained FIFO does not hold its peak size.
void DeltaFIFO::free_entry(EntryId id) {
  static constexpr std::size_t kKeptCapacity = 4;
  static constexpr std::size_t kKeptEntries = 1024;
  Entry& entry = entries_[id];
  entry.deltas.clear();
  if (entry.deltas.capacity() > kKeptCapacity) Deltas().swap(entry.deltas);
  entry.key.clear();
  free_ids_.push_back(id);
  if (free_ids_.size() == entries_.size() && entries_.size() > kKeptEntries) {
    entries_ = std::vector<Entry>();
    free_ids_ = std::vector<EntryId>();
    table_.clear();
  }
}

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
  const std::uint64_t hash = api::hash_key(key);
  EntryId id = find(key, hash);
  if (id == api::KeyTable::kAbsent) {
    id = new_entry(key, hash);
    entries_[id].deltas.emplace_back(action, std::move(payload));
  } else {
    Deltas& deltas = entries_[id].deltas;
    deltas.emplace_back(action, std::move(payload));
    dedup_deltas(deltas);
  }
  assert(queue_.size() == table_.size());
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
    const Entry& entry = entries_[queue_[i]];
    if (listed.contains(entry.key.view())) continue;
    api::ObjectPtr newest = entry.deltas.back().object();
    ++queued_deletions;
    queue_tombstone(api::ObjectKey(std::string(entry.key.view())), std::move(newest));
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
  const EntryId id = queue_.front();
  queue_.pop_front();
  if (initial_population_count_ > 0) {
    --initial_population_count_;
    check_synced();
  }
  table_.erase(api::hash_key(entries_[id].key.view()), id);
  // `process` may write to this FIFO, which may move entries_ but not the Deltas' elements, and
  // cannot reuse `id` before free_entry.
  static_assert(std::is_nothrow_move_constructible_v<Entry>, "moving entries_ must keep the Deltas' buffers");
  process(std::span<const Delta>(entries_[id].deltas), is_in_initial_list);
  free_entry(id);
  return true;
}

std::vector<api::ObjectKey> DeltaFIFO::list_keys() const {
  std::vector<api::ObjectKey> out;
  out.reserve(queue_.size());
  for (EntryId id : queue_) out.emplace_back(std::string(entries_[id].key.view()));
  return out;
}

const Deltas* DeltaFIFO::deltas_of(std::string_view key) const {
  const EntryId id = find(key, api::hash_key(key));
  return id == api::KeyTable::kAbsent ? nullptr : &entries_[id].deltas;
}

}  // namespace kubesim::informer
