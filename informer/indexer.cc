#include "kubesim/informer/indexer.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace kubesim::informer {

const IndexName kNamespaceIndex("namespace");

std::vector<std::string> meta_namespace_index_func(const api::Object& object) {
  return {std::string(object.namespace_())};
}

namespace {

api::Status no_such_index(const IndexName& name) {
  return api::new_bad_request("Index with name " + name.str() + " does not exist");
}

// The namespace part of a key ("" for a cluster-scoped object's bare name).
std::string_view key_namespace(std::string_view key) {
  const std::size_t slash = key.find('/');
  return slash == std::string_view::npos ? std::string_view() : key.substr(0, slash);
}

}  // namespace

Indexer::IndexState Indexer::make_index_state(const IndexFunc& func) {
  using NamespaceFunc = std::vector<std::string> (*)(const api::Object&);
  const NamespaceFunc* target = func.target<NamespaceFunc>();
  IndexState state;
  state.func = func;
  state.by_key_namespace = target != nullptr && *target == &meta_namespace_index_func;
  return state;
}

Indexer::Indexer(Indexers indexers) {
  for (auto& [name, func] : indexers) indices_.emplace(name, make_index_state(func));
  indexers_ = std::move(indexers);
}

Indexer::EntryId Indexer::find(std::string_view key) const {
  return table_.find(key, api::hash_key(key), key_of());
}

Indexer::EntryId Indexer::store_new(std::string_view key, std::uint64_t hash, api::ObjectPtr object) {
  EntryId id;
  if (free_ids_.empty()) {
    assert(entries_.size() < api::KeyTable::kAbsent && "too many objects");
    id = static_cast<EntryId>(entries_.size());
    entries_.emplace_back();
  } else {
    id = free_ids_.back();
    free_ids_.pop_back();
  }
  Entry& entry = entries_[id];
  assert(object->key().view() == key);
  (void)key;
  entry.key = object->key().view();
  entry.object = std::move(object);
  table_.insert(hash, id);
  assert(table_.size() + free_ids_.size() == entries_.size());
  return id;
}

api::ObjectPtr Indexer::upsert(api::ObjectPtr object) {
  resource_version_.assign(object->resource_version());
  const std::string_view key = object->key().view();  // the object outlives the call
  const std::uint64_t hash = api::hash_key(key);
  const EntryId found = table_.find(key, hash, key_of());
  if (found == api::KeyTable::kAbsent) {
    const EntryId id = store_new(key, hash, std::move(object));
    for (auto& [name, state] : indices_) index_added(state, id);
    return nullptr;
  }
  api::ObjectPtr old = std::exchange(entries_[found].object, std::move(object));
  entries_[found].key = key;  // the same key, in the new object
  for (auto& [name, state] : indices_) {
    if (!state.by_key_namespace) update_index(state, old, entries_[found].object, found);
  }
  return old;
}

void Indexer::index_added(IndexState& state, EntryId id) {
  if (!state.by_key_namespace) {
    update_index(state, nullptr, entries_[id].object, id);
    return;
  }
  const std::string_view ns = key_namespace(entries_[id].key);
  auto it = state.index.find(ns);
  if (it == state.index.end()) it = state.index.emplace(std::string(ns), EntrySet()).first;
  it->second.insert(id, key_less());
}

void Indexer::index_removed(IndexState& state, EntryId id) {
  if (!state.by_key_namespace) {
    update_index(state, entries_[id].object, nullptr, id);
    return;
  }
  auto it = state.index.find(key_namespace(entries_[id].key));
  if (it == state.index.end()) return;
  it->second.erase(id, key_less());
  if (it->second.empty()) state.index.erase(it);
}

void Indexer::update_index(IndexState& state, const api::ObjectPtr& old_object,
                           const api::ObjectPtr& new_object, EntryId id) {
  std::vector<std::string> old_values;
  std::vector<std::string> new_values;
  if (old_object) old_values = state.func(*old_object);
  if (new_object) new_values = state.func(*new_object);
  // The common case: one value, unchanged.
  if (old_values.size() == 1 && new_values.size() == 1 && old_values[0] == new_values[0]) return;
  for (const std::string& value : old_values) {
    auto it = state.index.find(value);
    if (it == state.index.end()) continue;
    it->second.erase(id, key_less());
    if (it->second.empty()) state.index.erase(it);
  }
  for (std::string& value : new_values) {
    auto it = state.index.find(value);
    if (it == state.index.end()) it = state.index.emplace(std::move(value), EntrySet()).first;
    // An index function may return a value twice; the set holds the entry once.
    (void)it->second.insert(id, key_less());
  }
}

void Indexer::delete_(api::ObjectPtr object) {
  delete_key(object->key().view());
  resource_version_.assign(object->resource_version());
}

void Indexer::delete_key(std::string_view key) {
  const std::uint64_t hash = api::hash_key(key);
  const EntryId id = table_.find(key, hash, key_of());
  if (id == api::KeyTable::kAbsent) return;
  for (auto& [name, state] : indices_) index_removed(state, id);
  table_.erase(hash, id);
  Entry& entry = entries_[id];
  entry.object.reset();
  entry.key = {};
  free_ids_.push_back(id);
  assert(table_.size() + free_ids_.size() == entries_.size());
}

void Indexer::replace(std::vector<api::ObjectPtr> objects, std::string resource_version) {
  for (auto& [name, state] : indices_) state.index.clear();
  table_.clear();
  entries_.clear();
  free_ids_.clear();
  entries_.reserve(objects.size());
  table_.reserve(objects.size());
  for (api::ObjectPtr& object : objects) (void)upsert(std::move(object));
  resource_version_ = std::move(resource_version);
}

void Indexer::bookmark(std::string resource_version) { resource_version_ = std::move(resource_version); }

api::ObjectPtr Indexer::get_by_key(std::string_view key) const {
  const EntryId id = find(key);
  return id == api::KeyTable::kAbsent ? nullptr : entries_[id].object;
}

std::vector<Indexer::EntryId> Indexer::sorted_ids() const {
  std::vector<EntryId> ids;
  ids.reserve(table_.size());
  for (EntryId id = 0; id < entries_.size(); ++id) {
    if (entries_[id].object) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end(), key_less());
  return ids;
}

std::vector<api::ObjectPtr> Indexer::list() const {
  std::vector<api::ObjectPtr> out;
  out.reserve(table_.size());
  for (EntryId id : sorted_ids()) out.push_back(entries_[id].object);
  return out;
}

std::vector<api::ObjectKey> Indexer::list_keys() const {
  std::vector<api::ObjectKey> out;
  out.reserve(table_.size());
  for (EntryId id : sorted_ids()) out.emplace_back(std::string(entries_[id].object->key().view()));
  return out;
}

const Indexer::IndexState* Indexer::find_index(const IndexName& name) const {
  auto it = indices_.find(name);
  return it == indices_.end() ? nullptr : &it->second;
}

api::Result<std::vector<api::ObjectPtr>> Indexer::index(const IndexName& index_name,
                                                        const api::Object& object) const {
  const IndexState* state = find_index(index_name);
  if (state == nullptr) return no_such_index(index_name);
  std::vector<EntryId> matches;
  for (const std::string& value : state->func(object)) {
    auto it = state->index.find(value);
    if (it != state->index.end()) it->second.for_each([&](EntryId id) { matches.push_back(id); });
  }
  std::sort(matches.begin(), matches.end(), key_less());
  matches.erase(std::unique(matches.begin(), matches.end()), matches.end());
  std::vector<api::ObjectPtr> out;
  out.reserve(matches.size());
  for (EntryId id : matches) out.push_back(entries_[id].object);
  return out;
}

api::Result<std::vector<api::ObjectKey>> Indexer::index_keys(const IndexName& index_name,
                                                             std::string_view value) const {
  const IndexState* state = find_index(index_name);
  if (state == nullptr) return no_such_index(index_name);
  std::vector<api::ObjectKey> out;
  auto it = state->index.find(value);
  if (it == state->index.end()) return out;
  out.reserve(it->second.size());
  it->second.for_each([&](EntryId id) { out.emplace_back(std::string(entries_[id].object->key().view())); });
  return out;
}

api::Result<std::vector<api::ObjectPtr>> Indexer::by_index(const IndexName& index_name,
                                                           std::string_view value) const {
  const IndexState* state = find_index(index_name);
  if (state == nullptr) return no_such_index(index_name);
  std::vector<api::ObjectPtr> out;
  auto it = state->index.find(value);
  if (it == state->index.end()) return out;
  out.reserve(it->second.size());
  it->second.for_each([&](EntryId id) { out.push_back(entries_[id].object); });
  return out;
}

api::Result<void> Indexer::for_each_in_index(
    const IndexName& index_name, std::string_view value,
    const std::function<void(const api::ObjectPtr&)>& visit) const {
  const IndexState* state = find_index(index_name);
  if (state == nullptr) return no_such_index(index_name);
  auto it = state->index.find(value);
  if (it == state->index.end()) return {};
  it->second.for_each([&](EntryId id) { visit(entries_[id].object); });
  return {};
}

std::vector<std::string> Indexer::list_index_func_values(const IndexName& index_name) const {
  std::vector<std::string> out;
  const IndexState* state = find_index(index_name);
  if (state == nullptr) return out;
  out.reserve(state->index.size());
  for (const auto& [value, entries] : state->index) out.push_back(value);
  std::sort(out.begin(), out.end());
  return out;
}

api::Result<void> Indexer::add_indexers(Indexers indexers) {
  std::string conflicts;
  for (const auto& [name, func] : indexers) {
    if (indexers_.contains(name)) conflicts += (conflicts.empty() ? "" : " ") + name.str();
  }
  if (!conflicts.empty()) return api::new_bad_request("indexer conflict: [" + conflicts + "]");
  for (auto& [name, func] : indexers) {
    IndexState& state = indices_.emplace(name, make_index_state(func)).first->second;
    for (EntryId id = 0; id < entries_.size(); ++id) {
      if (entries_[id].object) index_added(state, id);
    }
    indexers_.emplace(name, std::move(func));
  }
  return {};
}

}  // namespace kubesim::informer
