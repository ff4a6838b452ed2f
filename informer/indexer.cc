#include "informer/indexer.h"

#include <algorithm>
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

api::ObjectPtr Indexer::upsert(api::ObjectPtr object) {
  resource_version_.assign(object->resource_version());
  auto it = items_.find(object->key().view());
  if (it == items_.end()) {
    const Entry* entry = &*items_.emplace(std::move(object)).first;
    for (auto& [name, state] : indices_) index_added(state, entry);
    return nullptr;
  }
  const Entry* entry = &*it;
  api::ObjectPtr old = std::exchange(entry->object, std::move(object));
  entry->key = entry->object->key().view();
  for (auto& [name, state] : indices_) {
    if (!state.by_key_namespace) update_index(state, old, entry->object, entry);
  }
  return old;
}

void Indexer::index_added(IndexState& state, const Entry* entry) {
  if (!state.by_key_namespace) {
    update_index(state, nullptr, entry->object, entry);
    return;
  }
  const std::string_view ns = key_namespace(entry->key);
  auto it = state.index.find(ns);
  if (it == state.index.end()) it = state.index.emplace(std::string(ns), EntrySet()).first;
  it->second.insert(it->second.end(), entry);
}

void Indexer::index_removed(IndexState& state, const Entry* entry) {
  if (!state.by_key_namespace) {
    update_index(state, entry->object, nullptr, entry);
    return;
  }
  auto it = state.index.find(key_namespace(entry->key));
  if (it == state.index.end()) return;
  it->second.erase(entry);
  if (it->second.empty()) state.index.erase(it);
}

void Indexer::update_index(IndexState& state, const api::ObjectPtr& old_object,
                           const api::ObjectPtr& new_object, const Entry* entry) {
  std::vector<std::string> old_values;
  std::vector<std::string> new_values;
  if (old_object) old_values = state.func(*old_object);
  if (new_object) new_values = state.func(*new_object);
  // The common case: one value, unchanged.
  if (old_values.size() == 1 && new_values.size() == 1 && old_values[0] == new_values[0]) return;
  for (const std::string& value : old_values) {
    auto it = state.index.find(value);
    if (it == state.index.end()) continue;
    it->second.erase(entry);
    if (it->second.empty()) state.index.erase(it);
  }
  for (std::string& value : new_values) {
    auto it = state.index.find(value);
    if (it == state.index.end()) it = state.index.emplace(std::move(value), EntrySet()).first;
    it->second.insert(entry);
  }
}

void Indexer::delete_(api::ObjectPtr object) {
  delete_key(object->key().view());
  resource_version_.assign(object->resource_version());
}

void Indexer::delete_key(std::string_view key) {
  auto it = items_.find(key);
  if (it == items_.end()) return;
  for (auto& [name, state] : indices_) index_removed(state, &*it);
  items_.erase(it);
}

void Indexer::replace(std::vector<api::ObjectPtr> objects, std::string resource_version) {
  for (auto& [name, state] : indices_) state.index.clear();
  items_.clear();
  items_.reserve(objects.size());
  for (api::ObjectPtr& object : objects) (void)upsert(std::move(object));
  resource_version_ = std::move(resource_version);
}

void Indexer::bookmark(std::string resource_version) { resource_version_ = std::move(resource_version); }

api::ObjectPtr Indexer::get_by_key(std::string_view key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->object;
}

std::vector<const Indexer::Entry*> Indexer::sorted_entries() const {
  std::vector<const Entry*> entries;
  entries.reserve(items_.size());
  for (const Entry& entry : items_) entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(), EntryLess());
  return entries;
}

std::vector<api::ObjectPtr> Indexer::list() const {
  std::vector<api::ObjectPtr> out;
  out.reserve(items_.size());
  for (const Entry* entry : sorted_entries()) out.push_back(entry->object);
  return out;
}

std::vector<api::ObjectKey> Indexer::list_keys() const {
  std::vector<api::ObjectKey> out;
  out.reserve(items_.size());
  for (const Entry* entry : sorted_entries()) out.emplace_back(std::string(entry->key));
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
  EntrySet matches;
  for (const std::string& value : state->func(object)) {
    auto it = state->index.find(value);
    if (it != state->index.end()) matches.insert(it->second.begin(), it->second.end());
  }
  std::vector<api::ObjectPtr> out;
  out.reserve(matches.size());
  for (const Entry* entry : matches) out.push_back(entry->object);
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
  for (const Entry* entry : it->second) out.emplace_back(std::string(entry->key));
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
  for (const Entry* entry : it->second) out.push_back(entry->object);
  return out;
}

api::Result<void> Indexer::for_each_in_index(
    const IndexName& index_name, std::string_view value,
    const std::function<void(const api::ObjectPtr&)>& visit) const {
  const IndexState* state = find_index(index_name);
  if (state == nullptr) return no_such_index(index_name);
  auto it = state->index.find(value);
  if (it == state->index.end()) return {};
  for (const Entry* entry : it->second) visit(entry->object);
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
    for (const Entry& entry : items_) index_added(state, &entry);
    indexers_.emplace(name, std::move(func));
  }
  return {};
}

}  // namespace kubesim::informer
