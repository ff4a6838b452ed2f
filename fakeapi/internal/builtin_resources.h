// The resources kube-apiserver 1.33 serves with its default feature gates, as data: one row per
// group/version/resource with its kind, names, scope, verbs and subresources, and what its
// registry strategy does (metadata.generation, the name rule, field selectors). The Registry
// builds its ResourceInfo of every built-in resource from these rows; discovery and the server's
// verb checks read them from there. Beta and alpha versions that 1.33 leaves off by default are
// not listed; nor are the resources a kube-aggregator or apiextensions-apiserver adds besides
// CustomResourceDefinition and APIService.
#ifndef KUBESIM_FAKEAPI_INTERNAL_BUILTIN_RESOURCES_H_
#define KUBESIM_FAKEAPI_INTERNAL_BUILTIN_RESOURCES_H_

#include <span>
#include <string_view>

#include "kubesim/api/validation.h"

namespace kubesim::fakeapi::internal {

// The verbs of a resource as discovery lists them.
enum class VerbSet : unsigned char {
  kAll,                 // create delete deletecollection get list patch update watch
  kAllButCollection,    // the same without deletecollection (namespaces)
  kCreate,              // create only: bindings and the review kinds, which are not stored
  kGetList,             // get and list (componentstatuses)
};

struct BuiltinResource {
  std::string_view group;  // "" for the core group
  std::string_view version;
  std::string_view resource;
  std::string_view kind;
  std::string_view singular;
  std::string_view short_names;   // comma-separated
  std::string_view categories;    // comma-separated
  bool namespaced;
  VerbSet verbs;
  std::string_view subresources;  // comma-separated names (see builtin_subresource)
  // PrepareForCreate sets metadata.generation to 1 and PrepareForUpdate bumps it when the spec
  // (everything but metadata and status) changes.
  bool tracks_generation;
  api::NameRule name_rule;
  std::string_view field_selectors;  // comma-separated, beyond metadata.name and .namespace
  // Preferred when a group/resource is served at several versions (autoscaling: v2).
  bool storage = true;
};

// What one subresource takes and answers, as discovery lists it.
struct BuiltinSubresource {
  std::string_view name;
  // The kind it takes and answers; empty for the parent's own kind (status, ...).
  std::string_view group;
  std::string_view version;
  std::string_view kind;
  std::string_view verbs;  // space-separated, sorted
};

// Every built-in resource, sorted by group, version and resource.
std::span<const BuiltinResource> builtin_resources();

// The subresource `name` of a resource of kind `parent_kind` (proxy's option kind depends on the
// parent); nullptr for a name no built-in resource has.
const BuiltinSubresource* builtin_subresource(std::string_view name, std::string_view parent_kind);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_BUILTIN_RESOURCES_H_
