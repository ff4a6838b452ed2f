// The store a streaming list collects its initial events in before they replace the real one
// (client-go's temporary store in watchList): objects by key, listed in the order they arrived.
#ifndef KUBESIM_INFORMER_INTERNAL_LIST_STORE_H_
#define KUBESIM_INFORMER_INTERNAL_LIST_STORE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kubesim/api/object.h"
#include "kubesim/informer/store.h"

namespace kubesim::informer::internal {

class ListStore final : public ReflectorStore {
 public:
  ListStore() = default;
  ListStore(const ListStore&) = delete;
  ListStore& operator=(const ListStore&) = delete;

  // Applied to every object added, updated or replaced, as client-go's cache store WithTransformer
  // does; empty: none.
  void set_transform(TransformFunc transform) { transform_ = std::move(transform); }

  // add and update store the object under its key; a key keeps the place it first had.
  void add(api::ObjectPtr object) override { store(std::move(object)); }
  void update(api::ObjectPtr object) override { store(std::move(object)); }
  void delete_(api::ObjectPtr object) override;
  void replace(std::vector<api::ObjectPtr> objects, std::string resource_version) override;
  void resync() override {}

  // The stored objects, in the order their keys arrived.
  std::vector<api::ObjectPtr> list() const;
  std::size_t size() const { return index_.size(); }
  void clear();

 private:
  void store(api::ObjectPtr object);

  TransformFunc transform_;
  // Arrival order; a deleted key leaves a null slot.
  std::vector<api::ObjectPtr> slots_;
  // Key -> slot. The keys view objects in slots_ or retired_, which keep them alive.
  std::unordered_map<std::string_view, std::size_t> index_;
  // Objects replaced or deleted while their key may still be viewed by index_.
  std::vector<api::ObjectPtr> retired_;
};

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_INTERNAL_LIST_STORE_H_
