// Listers: read-only views of an informer's cache by namespace and name (client-go's
// GenericLister and GenericNamespaceLister, and the ListAll helpers under them).
//
// A lister reads the Indexer directly: no copies, the cache's own ObjectPtrs, lists in key order.
// It is a cheap value; the Indexer must outlive it.
#ifndef KUBESIM_INFORMER_LISTER_H_
#define KUBESIM_INFORMER_LISTER_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/labels.h"
#include "kubesim/api/object.h"
#include "kubesim/api/result.h"
#include "kubesim/informer/indexer.h"

namespace kubesim::informer {

using AppendFunc = std::function<void(const api::ObjectPtr&)>;

// Calls `append` for every cached object whose labels match `selector`.
void list_all(const Indexer& indexer, const api::LabelSelector& selector, const AppendFunc& append);
// The same within one namespace ("" means all), through the namespace index when there is one.
void list_all_by_namespace(const Indexer& indexer, std::string_view ns, const api::LabelSelector& selector,
                           const AppendFunc& append);

class NamespaceLister {
 public:
  NamespaceLister(const Indexer& indexer, api::GroupResource resource, std::string ns)
      : indexer_(&indexer), resource_(std::move(resource)), ns_(std::move(ns)) {}

  std::vector<api::ObjectPtr> list(const api::LabelSelector& selector = {}) const;
  // The object, or 404 NotFound as the server would say it.
  api::Result<api::ObjectPtr> get(std::string_view name) const;

 private:
  const Indexer* indexer_;
  api::GroupResource resource_;
  std::string ns_;
};

class Lister {
 public:
  Lister(const Indexer& indexer, api::GroupResource resource)
      : indexer_(&indexer), resource_(std::move(resource)) {}

  // Across all namespaces.
  std::vector<api::ObjectPtr> list(const api::LabelSelector& selector = {}) const;
  // By key: the name of a cluster-scoped object, or "namespace/name".
  api::Result<api::ObjectPtr> get(std::string_view name) const;
  NamespaceLister by_namespace(std::string ns) const { return NamespaceLister(*indexer_, resource_, std::move(ns)); }

 private:
  const Indexer* indexer_;
  api::GroupResource resource_;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_LISTER_H_
