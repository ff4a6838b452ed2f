// Indexer: the informer's cache — objects by key, plus secondary indices kept exact.
//
// An Indexer maps each object's key ("namespace/name") to its current ObjectPtr and maintains,
// for every registered index function, the inverted map from each indexed value to the objects
// that produce it. Every write (add, update, delete, replace) keeps every index equal to what a
// brute-force recomputation over the stored objects would give, including when an update
// changes an object's indexed values. This is client-go's threadSafeMap with its storeIndex.
//
// Guarantees:
// - Stored objects are immutable ObjectPtrs shared with whoever else holds them; reads hand out
//   the same pointers, so no copy is ever made and no reader can change the cache.
// - Every list comes out in a defined order: objects and keys in key order, index values in
//   value order. Nothing depends on hash-map iteration order.
// - get_by_key is one hash lookup; by_index walks only the matching objects.
//
// Not thread-safe: an Indexer belongs to one Loop.
#ifndef KUBESIM_INFORMER_INDEXER_H_
#define KUBESIM_INFORMER_INDEXER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kubesim/api/key_table.h"
#include "kubesim/api/object.h"
#include "kubesim/api/result.h"
#include "kubesim/informer/detail/ordered_ids.h"
#include "kubesim/informer/store.h"

namespace kubesim::informer {

// The name of an index, a strong type so it is never confused with an indexed value.
class IndexName {
 public:
  explicit IndexName(std::string name) : name_(std::move(name)) {}
  const std::string& str() const { return name_; }
  auto operator<=>(const IndexName&) const = default;

 private:
  std::string name_;
};

// The values an object has in one index; several, one, or none (the object is not indexed).
using IndexFunc = std::function<std::vector<std::string>(const api::Object&)>;
using Indexers = std::map<IndexName, IndexFunc>;

// client-go's NamespaceIndex and MetaNamespaceIndexFunc: objects by metadata.namespace.
extern const IndexName kNamespaceIndex;
std::vector<std::string> meta_namespace_index_func(const api::Object& object);

namespace internal {
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
}  // namespace internal

class Indexer final : public ReflectorStore, public KeyListerGetter {
 public:
  explicit Indexer(Indexers indexers = {});
  Indexer(const Indexer&) = delete;
  Indexer& operator=(const Indexer&) = delete;

  // --- Store --------------------------------------------------------------------------------
  // add and update both store `object` under its key, replacing what was there.
  void add(api::ObjectPtr object) override { (void)upsert(std::move(object)); }
  void update(api::ObjectPtr object) override { (void)upsert(std::move(object)); }
  // As add/update; returns what the key held before (null for a new key), in one lookup.
  api::ObjectPtr upsert(api::ObjectPtr object);
  // Removes the object's key; a key that is absent is not an error.
  void delete_(api::ObjectPtr object) override;
  void delete_key(std::string_view key);
  // Drops everything and stores `objects` (the last one wins for a repeated key).
  void replace(std::vector<api::ObjectPtr> objects, std::string resource_version) override;
  void resync() override {}
  // Records the resourceVersion the watch reached.
  void bookmark(std::string resource_version) override;

  api::ObjectPtr get(const api::Object& object) const { return get_by_key(object.key().view()); }
  api::ObjectPtr get_by_key(std::string_view key) const override;
  bool contains(std::string_view key) const { return find(key) != api::KeyTable::kAbsent; }
  std::vector<api::ObjectPtr> list() const;
  std::vector<api::ObjectKey> list_keys() const override;
  std::size_t size() const { return table_.size(); }
  bool empty() const { return table_.size() == 0; }
  // The resourceVersion of the last write, replace or bookmark ("" before any).
  const std::string& last_store_sync_resource_version() const { return resource_version_; }

  // --- Indices ------------------------------------------------------------------------------
  // The objects that share at least one value of `index_name` with `object`. Fails with a
  // BadRequest Status when no such index exists.
  api::Result<std::vector<api::ObjectPtr>> index(const IndexName& index_name,
                                                 const api::Object& object) const;
  // The keys / objects whose values in `index_name` include `value`, in key order.
  api::Result<std::vector<api::ObjectKey>> index_keys(const IndexName& index_name,
                                                      std::string_view value) const;
  api::Result<std::vector<api::ObjectPtr>> by_index(const IndexName& index_name,
                                                    std::string_view value) const;
  // Calls `visit` for each object of by_index without building a vector. `visit` must not write
  // to this Indexer.
  api::Result<void> for_each_in_index(const IndexName& index_name, std::string_view value,
                                      const std::function<void(const api::ObjectPtr&)>& visit) const;
  // Every value `index_name` currently holds, in value order (empty for an unknown index).
  std::vector<std::string> list_index_func_values(const IndexName& index_name) const;
  const Indexers& get_indexers() const { return indexers_; }
  // Adds indices and indexes what is already stored. Fails, adding none, when a name is taken.
  api::Result<void> add_indexers(Indexers indexers);

 private:
  // One stored object, or a free slot (null object) waiting for reuse. Its key is the object's.
  struct Entry {
    api::ObjectPtr object;
    std::string_view key;  // object's key (a view into it), read by every comparison
  };
  using EntryId = std::uint32_t;
  // Orders entry ids by key.
  struct KeyLess {
    const std::vector<Entry>* entries;
    bool operator()(EntryId a, EntryId b) const {
      return (*entries)[a].key < (*entries)[b].key;
    }
  };
  // The entries holding one value, in key order.
  using EntrySet = internal::OrderedIds;
  using Index = std::unordered_map<std::string, EntrySet, internal::StringHash, std::equal_to<>>;
  struct IndexState {
    IndexFunc func;
    // func is meta_namespace_index_func: the value is the key's namespace, so it never changes
    // while the key is stored and is read from the key without calling func.
    bool by_key_namespace = false;
    Index index;
  };

  static IndexState make_index_state(const IndexFunc& func);
  void update_index(IndexState& state, const api::ObjectPtr& old_object, const api::ObjectPtr& new_object,
                    EntryId id);
  void index_added(IndexState& state, EntryId id);
  void index_removed(IndexState& state, EntryId id);
  const IndexState* find_index(const IndexName& name) const;
  EntryId find(std::string_view key) const;
  EntryId store_new(std::string_view key, std::uint64_t hash, api::ObjectPtr object);
  std::vector<EntryId> sorted_ids() const;
  KeyLess key_less() const { return KeyLess{&entries_}; }
  auto key_of() const {
    return [this](EntryId id) { return entries_[id].key; };
  }

  Indexers indexers_;
  // One entry per indexer. Invariant: for every stored entry e and every value v that
  // func(*e.object) returns, e is in index[v]; no other entry is in any set, and no set is empty.
  std::map<IndexName, IndexState> indices_;
  // Invariant: table_ maps the key of every entry with an object to its id; free_ids_ lists the
  // others. Ids are stable, so index sets hold them.
  std::vector<Entry> entries_;
  std::vector<EntryId> free_ids_;
  api::KeyTable table_;
  std::string resource_version_;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_INDEXER_H_
