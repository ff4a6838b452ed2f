#include "informer/internal/reconcile.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace kubesim::informer::internal {

void reconcile_replacement(const std::deque<Delta>& queued, const KeyListerGetter* known,
                           const std::vector<api::ObjectPtr>& listed,
                           const std::function<void(DeletedFinalStateUnknown)>& on_delete,
                           const std::function<void(const api::ObjectPtr&)>& on_replace) {
  std::unordered_set<std::string_view> listed_keys;
  listed_keys.reserve(listed.size());
  for (const api::ObjectPtr& object : listed) listed_keys.insert(object->key().view());

  // The views point into `queued`, which the callbacks may append to: a deque keeps references.
  std::vector<std::string_view> queued_keys;
  std::unordered_map<std::string_view, const Delta*> last_queued;
  for (const Delta& delta : queued) {
    const std::optional<api::ObjectKeyView> key = delta.key();
    if (!key) continue;
    auto [it, inserted] = last_queued.insert_or_assign(key->view(), &delta);
    if (inserted) queued_keys.push_back(key->view());
  }
  std::vector<DeletedFinalStateUnknown> tombstones;
  for (std::string_view key : queued_keys) {
    if (listed_keys.contains(key)) continue;
    const Delta* last = last_queued.at(key);
    if (last->type() == DeltaType::kDeleted) continue;
    tombstones.emplace_back(api::ObjectKey(std::string(key)), last->object());
  }
  if (known != nullptr) {
    for (api::ObjectKey& key : known->list_keys()) {
      if (listed_keys.contains(key.view()) || last_queued.contains(key.view())) continue;
      api::ObjectPtr object = known->get_by_key(key.view());
      tombstones.emplace_back(std::move(key), std::move(object));
    }
  }
  for (DeletedFinalStateUnknown& tombstone : tombstones) on_delete(std::move(tombstone));
  for (const api::ObjectPtr& object : listed) on_replace(object);
}

}  // namespace kubesim::informer::internal
