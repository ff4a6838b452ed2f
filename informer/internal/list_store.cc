#include "informer/internal/list_store.h"

#include <cassert>
#include <utility>

namespace kubesim::informer::internal {

void ListStore::store(api::ObjectPtr object) {
  if (transform_) {
    object = transform_(std::move(object));
    assert(object && "a transform must return an object");
  }
  auto it = index_.find(object->key().view());
  if (it == index_.end()) {
    index_.emplace(object->key().view(), slots_.size());
    slots_.push_back(std::move(object));
    return;
  }
  api::ObjectPtr& slot = slots_[it->second];
  retired_.push_back(std::exchange(slot, std::move(object)));
}

void ListStore::delete_(api::ObjectPtr object) {
  auto it = index_.find(object->key().view());
  if (it == index_.end()) return;
  retired_.push_back(std::move(slots_[it->second]));
  index_.erase(it);
}

void ListStore::replace(std::vector<api::ObjectPtr> objects, std::string) {
  clear();
  index_.reserve(objects.size());
  slots_.reserve(objects.size());
  for (api::ObjectPtr& object : objects) store(std::move(object));
}

void ListStore::clear() {
  index_.clear();
  slots_.clear();
  retired_.clear();
}

std::vector<api::ObjectPtr> ListStore::list() const {
  std::vector<api::ObjectPtr> out;
  out.reserve(index_.size());
  for (const api::ObjectPtr& object : slots_) {
    if (object) out.push_back(object);
  }
  return out;
}

}  // namespace kubesim::informer::internal
