// Registry: the resource types the fake API server serves.
//
// Each ResourceInfo says how kube-apiserver treats one resource: its kind and list kind, scope,
// whether it has a /status subresource, whether metadata.generation is maintained, the name rule,
// and the field selectors it supports. The built-in types are there from the start; creating a
// CustomResourceDefinition adds one ResourceInfo per served version, and deleting it removes them.
// Lookups return pointers that stay valid until the resource is removed.
#ifndef KUBESIM_FAKEAPI_REGISTRY_H_
#define KUBESIM_FAKEAPI_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "kubesim/api/validation.h"

namespace kubesim::fakeapi {

namespace types {
struct MessageSpec;
}  // namespace types

struct ResourceInfo {
  api::GroupVersionResource gvr;
  std::string kind;
  std::string list_kind;
  std::string singular;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool namespaced = true;
  bool has_status = false;
  bool tracks_generation = false;
  api::NameRule name_rule = api::NameRule::kDns1123Subdomain;
  // Field selector paths beyond metadata.name and metadata.namespace.
  std::vector<std::string> field_selectors;
  // Defined by a CustomResourceDefinition (named crd_name).
  bool custom = false;
  std::string crd_name;
  // The version objects are stored at (one per group/resource).
  bool storage = true;
  // For custom resources: this version's openAPIV3Schema (null when it has none), which prunes,
  // defaults and validates its objects.
  nlohmann::json schema;
  // For built-in kinds with a Go type table (fakeapi/internal/encoding/types/schema.h): the kind's type, which
  // decides how stored objects are rendered (fakeapi/internal/encoding/types/go_encoding.h); null otherwise.
  const types::MessageSpec* go_type = nullptr;

  api::GroupVersionKind gvk() const { return {gvr.group, gvr.version, kind}; }
  api::GroupResource group_resource() const { return gvr.group_resource(); }
  std::string api_version() const { return gvr.group_version().to_string(); }
  bool supports_field(std::string_view path) const;
};

class Registry {
 public:
  // A registry holding the built-in types.
  Registry();

  const ResourceInfo* find(const api::GroupVersionResource& gvr) const;
  const ResourceInfo* find_kind(const api::GroupVersionKind& gvk) const;
  // Every served version of a group/resource, preferred (storage) version first.
  std::vector<const ResourceInfo*> versions(const api::GroupResource& gr) const;
  // All resources, ordered by group, version and resource.
  std::vector<const ResourceInfo*> all() const;

  // Validates a CustomResourceDefinition (apiextensions.k8s.io/v1) enough to serve it and returns
  // the ResourceInfo of each served version; changes nothing.
  api::Result<std::vector<ResourceInfo>> parse_crd(const nlohmann::json& crd) const;
  // Registers the resources of a CRD parsed by parse_crd, replacing those of the same CRD.
  void add_custom(const std::string& crd_name, std::vector<ResourceInfo> infos);
  // Removes every resource defined by the named CRD. Returns the group/resource removed.
  std::optional<api::GroupResource> remove_custom(const std::string& crd_name);

 private:
  void add(ResourceInfo info);

  std::map<api::GroupVersionResource, std::unique_ptr<ResourceInfo>> by_gvr_;
  std::map<api::GroupVersionKind, const ResourceInfo*> by_gvk_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_REGISTRY_H_
