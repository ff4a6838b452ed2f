#include "kubesim/fakeapi/store.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace kubesim::fakeapi {
namespace {

// A table's key order is swept of erased entries once they are this share of it or more: often
// enough that they keep few deleted objects alive, rarely enough that a sweep costs O(1) per
// erased entry.
constexpr std::size_t kSweepShare = 8;

}  // namespace

std::optional<TableId> Store::find_table(const api::GroupResource& gr) const {
  auto it = table_ids_.find(gr);
  if (it == table_ids_.end()) return std::nullopt;
  return it->second;
}

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

const Change& Store::change_at(Revision revision) const {
  assert(revision > compacted_ && revision <= revision_ && log_.front().revision == compacted_ + 1);
  return log_[static_cast<std::size_t>(revision - compacted_ - 1)];
}

const api::ObjectPtr* Store::state_at(const Entry& entry, Revision at) const {
  assert(!entry.erased() && at >= compacted_);
  if (entry.last_write() <= at) return entry.deleted() ? nullptr : &entry.object;
  // Walk the key's writes back to the oldest one after `at`: what it replaced is the state at
  // `at`. Every write after `at` is in the log, as at >= compacted_.
  const Change* change = &change_at(entry.last_write());
  while (change->prev_revision > at) change = &change_at(change->prev_revision);
  return change->previous ? &change->previous : nullptr;
}

Store::EntryId Store::find(const Table& t, std::string_view key, std::uint64_t hash) const {
  return t.index.find(key, hash, [this](EntryId id) { return entries_[id].key(); });
}

api::ObjectPtr Store::get(TableId id, std::string_view key) const {
  const EntryId e = find(*tables_[id], key, api::hash_key(key));
  if (e == api::KeyTable::kAbsent || entries_[e].deleted()) return nullptr;
  return entries_[e].object;
}

api::ObjectPtr Store::get_at(TableId id, std::string_view key, Revision at) const {
  if (at < compacted_) return nullptr;
  const EntryId e = find(*tables_[id], key, api::hash_key(key));
  if (e == api::KeyTable::kAbsent) return nullptr;
  const api::ObjectPtr* state = state_at(entries_[e], at);
  return state != nullptr ? *state : nullptr;
}

const Change& Store::commit(Change change) {
  revision_ = change.revision;
  log_.push_back(std::move(change));
  const Change& committed = log_.back();
  if (listener_) listener_(committed);
  return committed;
}

const Change& Store::put(TableId id, std::string_view key, api::ObjectPtr object) {
  assert(object->resource_version() == std::to_string(next_revision()));
  assert(object->key().view() == key && "an object is stored under its own key");
  Table& t = *tables_[id];
  const std::uint64_t hash = api::hash_key(key);
  EntryId e = find(t, key, hash);
  Change change;
  change.revision = next_revision();
  change.table = id;
  if (e == api::KeyTable::kAbsent) {
    e = entries_.allocate();
    t.index.insert(hash, e);
    t.pending.push_back(e);
  } else {
    Entry& entry = entries_[e];
    change.prev_revision = entry.last_write();
    if (!entry.deleted()) change.previous = std::move(entry.object);
  }
  Entry& entry = entries_[e];
  entry.object = object;
  entry.stamp = change.revision;
  if (!change.previous) ++t.live;
  change.type = change.previous ? ChangeType::kModified : ChangeType::kAdded;
  change.object = std::move(object);
  return commit(std::move(change));
}

const Change& Store::remove(TableId id, std::string_view key, api::ObjectPtr last) {
  assert(last->resource_version() == std::to_string(next_revision()));
  assert(last->key().view() == key && "an object is stored under its own key");
  Table& t = *tables_[id];
  const EntryId e = find(t, key, api::hash_key(key));
  assert(e != api::KeyTable::kAbsent && !entries_[e].deleted() && "removing a missing key");
  Entry& entry = entries_[e];
  Change change;
  change.revision = next_revision();
  change.table = id;
  change.type = ChangeType::kDeleted;
  change.prev_revision = entry.last_write();
  change.previous = std::move(entry.object);
  entry.object = last;
  entry.stamp = -change.revision;
  --t.live;
  change.object = std::move(last);
  return commit(std::move(change));
}

void Store::sort_pending(const Table& t) const {
  // Keys read once each, then compared in place.
  std::vector<std::pair<std::string_view, EntryId>> keyed;
  keyed.reserve(t.pending.size());
  for (const EntryId e : t.pending) keyed.emplace_back(entries_[e].key(), e);
  std::sort(keyed.begin(), keyed.end());
  // A bulk load's buffer is not kept for the trickle of creates that usually follows.
  if (t.pending.capacity() > 64) {
    t.pending = {};
  } else {
    t.pending.clear();
  }
  // Merge from the back, finding each new entry's place by galloping back from the previous
  // one's: k new keys among n cost O(k log(n / k)) key reads, not O(n), and a bulk load into an
  // empty table reads none.
  using Iterator = std::vector<EntryId>::iterator;
  std::vector<EntryId>& sorted = t.sorted;
  const auto old_size = static_cast<std::ptrdiff_t>(sorted.size());
  sorted.resize(sorted.size() + keyed.size());
  Iterator hi = sorted.begin() + old_size;  // [begin, hi): old entries not yet moved
  Iterator out = sorted.end();              // [out, end): merged
  for (auto it = keyed.rbegin(); it != keyed.rend(); ++it) {
    const std::string_view key = it->first;
    const auto after_key = [&](EntryId e) { return entries_[e].key() > key; };
    // The first old entry after `key` is in [left, right].
    Iterator left = sorted.begin();
    Iterator right = hi;
    for (std::ptrdiff_t step = 1; right - sorted.begin() >= step; step *= 2) {
      if (!after_key(*(right - step))) {
        left = right - step + 1;
        break;
      }
      right -= step;
    }
    const Iterator place =
        std::partition_point(left, right, [&](EntryId e) { return !after_key(e); });
    out = std::move_backward(place, hi, out);
    *--out = it->second;
    hi = place;
  }
}

void Store::scan(TableId id, Revision at, std::string_view prefix, std::string_view start,
                 const Visitor& visit) const {
  assert(at >= compacted_ && "scanning a compacted revision");
  at = std::max(at, compacted_);  // never walk back past the log's start
  const Table& t = *tables_[id];
  if (!t.pending.empty()) sort_pending(t);
  const std::string_view from = std::max(prefix, start);
  auto it = std::partition_point(t.sorted.begin(), t.sorted.end(),
                                 [&](EntryId e) { return entries_[e].key() < from; });
  for (; it != t.sorted.end(); ++it) {
    const Entry& entry = entries_[*it];
    if (!entry.key().starts_with(prefix)) break;
    if (entry.erased()) continue;
    const api::ObjectPtr* state = state_at(entry, at);
    if (state != nullptr && !visit((*state)->key().view(), *state)) break;
  }
}

std::deque<Change>::const_iterator Store::changes_after(Revision after) const {
  if (after <= compacted_) return log_.begin();
  if (after >= revision_) return log_.end();
  return log_.begin() + static_cast<std::ptrdiff_t>(after - compacted_);
}

void Store::erase_entry(const Change& deletion) {
  Table& t = *tables_[deletion.table];
  const std::string_view key = deletion.object->key().view();
  const std::uint64_t hash = api::hash_key(key);
  const EntryId e = find(t, key, hash);
  assert(e != api::KeyTable::kAbsent && "an entry is erased only at its last write");
  if (entries_[e].stamp != -deletion.revision) return;  // written again since
  t.index.erase(hash, e);
  entries_[e].stamp = 0;
  ++t.erased;
}

void Store::sweep(Table& t) {
  const auto release_erased = [this](EntryId e) {
    if (!entries_[e].erased()) return false;
    entries_.release(e);
    return true;
  };
  std::erase_if(t.sorted, release_erased);
  std::erase_if(t.pending, release_erased);
  t.erased = 0;
}

void Store::compact(Revision upto) {
  upto = std::min(upto, revision_);
  if (upto <= compacted_) return;
  // A key whose last write is a deletion being compacted has nothing left to read.
  while (!log_.empty() && log_.front().revision <= upto) {
    if (log_.front().type == ChangeType::kDeleted) erase_entry(log_.front());
    log_.pop_front();
  }
  compacted_ = upto;
  for (auto& t : tables_) {
    if (t->erased > 0 && t->erased * kSweepShare >= t->sorted.size() + t->pending.size()) sweep(*t);
  }
}

}  // namespace kubesim::fakeapi
