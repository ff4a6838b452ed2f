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
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "api/object.h"
#include "api/result.h"
#include "informer/store.h"

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
  bool contains(std::string_view key) const { return items_.find(key) != items_.end(); }
  std::vector<api::ObjectPtr> list() const;
  std::vector<api::ObjectKey> list_keys() const override;
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
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
  // Calls `visit` for each object of by_index without building a vector.
  api::Result<void> for_each_in_index(const IndexName& index_name, std::string_view value,
                                      const std::function<void(const api::ObjectPtr&)>& visit) const;
  // Every value `index_name` currently holds, in value order (empty for an unknown index).
  std::vector<std::string> list_index_func_values(const IndexName& index_name) const;
  const Indexers& get_indexers() const { return indexers_; }
  // Adds indices and indexes what is already stored. Fails, adding none, when a name is taken.
  api::Result<void> add_indexers(Indexers indexers);

 private:
  // One stored object. `key` views the object's own key; both change together when the key is
  // written again, which keeps the entry's hash and equality (the key's text) unchanged.
  struct Entry {
    explicit Entry(api::ObjectPtr o) : object(std::move(o)), key(object->key().view()) {}
    mutable api::ObjectPtr object;
    mutable std::string_view key;
  };
  struct EntryHash {
    using is_transparent = void;
    std::size_t operator()(const Entry& e) const noexcept { return std::hash<std::string_view>{}(e.key); }
    std::size_t operator()(std::string_view k) const noexcept { return std::hash<std::string_view>{}(k); }
  };
  struct EntryEq {
    using is_transparent = void;
    bool operator()(const Entry& a, const Entry& b) const { return a.key == b.key; }
    bool operator()(std::string_view a, const Entry& b) const { return a == b.key; }
    bool operator()(const Entry& a, std::string_view b) const { return a.key == b; }
  };
  // Elements of an unordered_set never move, so indices point at them.
  using Items = std::unordered_set<Entry, EntryHash, EntryEq>;
  struct EntryLess {
    bool operator()(const Entry* a, const Entry* b) const { return a->key < b->key; }
  };
  // The entries holding one value, in key order.
  using EntrySet = std::set<const Entry*, EntryLess>;
  using Index = std::unordered_map<std::string, EntrySet, internal::StringHash, std::equal_to<>>;
  struct IndexState {
    IndexFunc func;
    // func is meta_namespace_index_func: the value is the key's namespace, so it never changes
    // while the key is stored and is read from the key without calling func.
    bool by_key_namespace = false;
    Index index;
  };

  static IndexState make_index_state(const IndexFunc& func);
  static void update_index(IndexState& state, const api::ObjectPtr& old_object,
                           const api::ObjectPtr& new_object, const Entry* entry);
  static void index_added(IndexState& state, const Entry* entry);
  static void index_removed(IndexState& state, const Entry* entry);
  const IndexState* find_index(const IndexName& name) const;
  std::vector<const Entry*> sorted_entries() const;

  Indexers indexers_;
  // One entry per indexer. Invariant: for every stored entry e and every value v that
  // func(*e.object) returns, e is in index[v]; no other entry is in any set, and no set is empty.
  std::map<IndexName, IndexState> indices_;
  Items items_;
  std::string resource_version_;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_INDEXER_H_
