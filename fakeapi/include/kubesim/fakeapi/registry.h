// Registry: the resource types the fake API server serves.
//
// Each ResourceInfo says how kube-apiserver treats one resource: its kind and list kind, scope,
// verbs and subresources (as discovery lists them), whether metadata.generation is maintained,
// the name rule, and the field selectors it supports. The built-in resources are every resource
// kube-apiserver 1.33 serves with default feature gates (docs/resources.md lists them); creating
// a CustomResourceDefinition adds one ResourceInfo per served version, and deleting it removes
// them. Lookups return pointers that stay valid until the resource is removed.
#ifndef KUBESIM_FAKEAPI_REGISTRY_H_
#define KUBESIM_FAKEAPI_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/request.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "kubesim/api/validation.h"

namespace kubesim::fakeapi {

namespace types {
struct MessageSpec;
}  // namespace types

// A subresource as discovery lists it: "status", "scale", "binding", ...
struct SubresourceInfo {
  std::string name;
  // The kind it takes and answers (the parent's own for status and the like; autoscaling/v1
  // Scale for scale, policy/v1 Eviction for eviction, ...).
  api::GroupVersionKind kind;
  // Sorted, as discovery lists them ("get", "patch", "update").
  std::vector<std::string> verbs;

  bool supports(api::Verb verb) const;
};

// Where a custom resource's /scale subresource reads and writes (its CRD's
// subresources.scale); empty paths for kinds without one.
struct ScalePaths {
  std::string spec_replicas;    // ".spec.replicas"
  std::string status_replicas;  // ".status.replicas"
  std::string label_selector;   // ".status.selector" (optional)
};

struct ResourceInfo {
  api::GroupVersionResource gvr;
  std::string kind;
  std::string list_kind;
  std::string singular;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool namespaced = true;
  // The verbs of the resource itself, sorted as discovery lists them; its subresources, sorted
  // by name. has_status says whether "status" is one of them.
  std::vector<std::string> verbs;
  std::vector<SubresourceInfo> subresources;
  bool has_status = false;
  // For custom resources with a scale subresource.
  ScalePaths scale;
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
  // Whether the resource itself answers `verb` (a create-only review kind answers no get).
  bool supports(api::Verb verb) const { return (verb_mask & (1u << static_cast<unsigned>(verb))) != 0; }
  // The subresource `name`, or nullptr.
  const SubresourceInfo* subresource(std::string_view name) const;
  // Sets `verbs` (and the mask supports() reads).
  void set_verbs(std::vector<std::string> sorted);

 private:
  std::uint16_t verb_mask = 0;
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
