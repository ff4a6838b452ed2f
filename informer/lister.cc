#include "kubesim/informer/lister.h"

namespace kubesim::informer {
namespace {

bool selected(const api::LabelSelector& selector, const api::Object& object) {
  return selector.empty() || selector.matches([&](std::string_view key) { return object.label(key); });
}

}  // namespace

void list_all(const Indexer& indexer, const api::LabelSelector& selector, const AppendFunc& append) {
  for (const api::ObjectPtr& object : indexer.list()) {
    if (selected(selector, *object)) append(object);
  }
}

void list_all_by_namespace(const Indexer& indexer, std::string_view ns, const api::LabelSelector& selector,
                           const AppendFunc& append) {
  if (ns.empty()) {
    list_all(indexer, selector, append);
    return;
  }
  const auto visit = [&](const api::ObjectPtr& object) {
    if (selected(selector, *object)) append(object);
  };
  if (indexer.get_indexers().contains(kNamespaceIndex)) {
    (void)indexer.for_each_in_index(kNamespaceIndex, ns, visit);
    return;
  }
  for (const api::ObjectPtr& object : indexer.list()) {
    if (object->namespace_() == ns) visit(object);
  }
}

std::vector<api::ObjectPtr> NamespaceLister::list(const api::LabelSelector& selector) const {
  std::vector<api::ObjectPtr> out;
  list_all_by_namespace(*indexer_, ns_, selector, [&](const api::ObjectPtr& o) { out.push_back(o); });
  return out;
}

api::Result<api::ObjectPtr> NamespaceLister::get(std::string_view name) const {
  api::ObjectPtr object = indexer_->get_by_key(api::meta_namespace_key(ns_, name).view());
  if (!object) return api::new_not_found(resource_, name);
  return object;
}

std::vector<api::ObjectPtr> Lister::list(const api::LabelSelector& selector) const {
  std::vector<api::ObjectPtr> out;
  list_all(*indexer_, selector, [&](const api::ObjectPtr& o) { out.push_back(o); });
  return out;
}

api::Result<api::ObjectPtr> Lister::get(std::string_view name) const {
  api::ObjectPtr object = indexer_->get_by_key(name);
  if (!object) return api::new_not_found(resource_, name);
  return object;
}

}  // namespace kubesim::informer
