#include "fakeapi/store.h"

#include <algorithm>
#include <cassert>

namespace kubesim::fakeapi {

TableId Store::table(const api::GroupResource& gr) {
  auto it = table_ids_.find(gr);
  if (it != table_ids_.end()) return it->second;
  const auto id = static_cast<TableId>(tables_.size());
  auto t = std::make_unique<Table>();
  t->gr = gr;
  tables_.push_back(std::move(t));
  table_ids_.emplace(gr, id);
  return id;
}

const Store::Version* Store::version_at(const KeyHistory& history, Revision at) {
  for (auto it = history.versions.rbegin(); it != history.versions.rend(); ++it) {
    if (it->revision <= at) return &*it;
  }
  return nullptr;
}

api::ObjectPtr Store::get(TableId id, std::string_view key) const {
  const Table& t = *tables_[id];
  auto it = t.index.find(key);
  if (it == t.index.end()) return nullptr;
  return it->second->versions.back().object;
}

api::ObjectPtr Store::get_at(TableId id, std::string_view key, Revision at) const {
  if (at < compacted_) return nullptr;
  const Table& t = *tables_[id];
  auto it = t.index.find(key);
  if (it == t.index.end()) return nullptr;
  const Version* v = version_at(*it->second, at);
  return v != nullptr ? v->object : nullptr;
}

const Change& Store::commit(Change change) {
  revision_ = change.revision;
  log_.push_back(std::move(change));
  const Change& committed = log_.back();
  if (listener_) listener_(committed);
  return committed;
}

Store::KeyHistory& Store::history_of(Table& t, const std::string& key) {
  // The hash index first: writes to existing keys are the common case, and the ordered map's
  // string comparisons cost more than a hash.
  if (auto it = t.index.find(key); it != t.index.end()) return *it->second;
  auto [node, inserted] = t.keys.try_emplace(key);
  KeyHistory& history = node->second;
  history.key = node->first;
  t.index.emplace(history.key, &history);
  return history;
}

const Change& Store::put(TableId id, const std::string& key, api::ObjectPtr object) {
  assert(object->resource_version() == std::to_string(next_revision()));
  Table& t = *tables_[id];
  const Revision rev = next_revision();
  KeyHistory& history = history_of(t, key);
  api::ObjectPtr previous;
  if (!history.versions.empty()) {
    previous = history.versions.back().object;
    superseded_.push_back({rev, id, &history});
  }
  if (!previous) ++t.live;
  history.versions.push_back({rev, object});
  Change change;
  change.revision = rev;
  change.table = id;
  change.type = previous ? ChangeType::kModified : ChangeType::kAdded;
  change.object = std::move(object);
  change.previous = std::move(previous);
  return commit(std::move(change));
}

const Change& Store::remove(TableId id, const std::string& key, api::ObjectPtr last) {
  assert(last->resource_version() == std::to_string(next_revision()));
  Table& t = *tables_[id];
  auto it = t.index.find(key);
  assert(it != t.index.end() && it->second->versions.back().object && "removing a missing key");
  KeyHistory& history = *it->second;
  const Revision rev = next_revision();
  Change change;
  change.revision = rev;
  change.table = id;
  change.type = ChangeType::kDeleted;
  change.previous = history.versions.back().object;
  change.object = std::move(last);
  history.versions.push_back({rev, nullptr});
  --t.live;
  superseded_.push_back({rev, id, &history});
  return commit(std::move(change));
}

void Store::scan(TableId id, Revision at, std::string_view prefix, std::string_view start,
                 const std::function<bool(const std::string&, const api::ObjectPtr&)>& visit) const {
  const Table& t = *tables_[id];
  auto it = t.keys.lower_bound(std::max(prefix, start));
  for (; it != t.keys.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    const Version* v = version_at(it->second, at);
    if (v == nullptr || !v->object) continue;
    if (!visit(it->first, v->object)) break;
  }
}

std::deque<Change>::const_iterator Store::changes_after(Revision after) const {
  return std::upper_bound(log_.begin(), log_.end(), after,
                          [](Revision r, const Change& c) { return r < c.revision; });
}

void Store::trim(Table& table, KeyHistory& history, Revision superseded_at, Revision upto) {
  auto& versions = history.versions;
  // Keep the newest version <= upto (the state at upto) and everything after it.
  std::size_t keep_from = 0;
  for (std::size_t i = 0; i < versions.size(); ++i) {
    if (versions[i].revision <= upto) keep_from = i;
  }
  versions.erase(versions.begin(), versions.begin() + static_cast<std::ptrdiff_t>(keep_from));
  // A key whose only version is a compacted deletion goes, at the deletion's own entry, so no
  // other pending entry still points at it.
  if (versions.size() == 1 && !versions.front().object && versions.front().revision <= upto &&
      versions.front().revision == superseded_at) {
    const std::string_view key = history.key;
    table.index.erase(key);
    table.keys.erase(table.keys.find(key));
  }
}

void Store::compact(Revision upto) {
  upto = std::min(upto, revision_);
  if (upto <= compacted_) return;
  compacted_ = upto;
  while (!log_.empty() && log_.front().revision <= upto) log_.pop_front();
  while (!superseded_.empty() && superseded_.front().revision <= upto) {
    const Superseded s = superseded_.front();
    superseded_.pop_front();
    trim(*tables_[s.table], *s.history, s.revision, upto);
  }
}

}  // namespace kubesim::fakeapi
