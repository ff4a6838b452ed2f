// Identifiers of Kubernetes types and objects: API groups, versions, kinds, resources and keys.
//
// These are small value types with the semantics of apimachinery's `schema` package
// (GroupVersion, GroupKind, GroupResource, GroupVersionKind, GroupVersionResource) and of
// client-go's "namespace/name" object keys. All are regular: copyable, totally ordered
// (member-wise, in declaration order), hashable, and printable in the form Kubernetes prints them.
// The core API group is the empty string.
#ifndef KUBESIM_API_GVK_H_
#define KUBESIM_API_GVK_H_

#include <compare>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace kubesim::api {

struct GroupVersionKind;
struct GroupVersionResource;

// An API group and version, written "apps/v1", or just "v1" for the core group.
struct GroupVersion {
  GroupVersion() = default;
  GroupVersion(std::string group_, std::string version_) : group(std::move(group_)), version(std::move(version_)) {}

  std::string group;
  std::string version;

  // The apiVersion field's form: "version" for the core group, else "group/version". An empty
  // GroupVersion prints as "".
  std::string to_string() const;
  std::string api_version() const { return to_string(); }
  bool empty() const { return group.empty() && version.empty(); }

  GroupVersionKind with_kind(std::string kind) const;
  GroupVersionResource with_resource(std::string resource) const;

  auto operator<=>(const GroupVersion&) const = default;
};

// Parses an apiVersion: "" gives the empty GroupVersion, "v1" the core group, "apps/v1" a named
// group. More than one '/' is not an apiVersion and gives nullopt (apimachinery's
// ParseGroupVersion error "unexpected GroupVersion string").
std::optional<GroupVersion> parse_api_version(std::string_view api_version);

// A kind in a group, printed "Deployment.apps" ("ConfigMap" for the core group).
struct GroupKind {
  GroupKind() = default;
  GroupKind(std::string group_, std::string kind_) : group(std::move(group_)), kind(std::move(kind_)) {}

  std::string group;
  std::string kind;

  std::string to_string() const;
  bool empty() const { return group.empty() && kind.empty(); }
  auto operator<=>(const GroupKind&) const = default;
};

// A resource (plural, lower case) in a group, printed "deployments.apps" ("configmaps" for core).
struct GroupResource {
  GroupResource() = default;
  GroupResource(std::string group_, std::string resource_) : group(std::move(group_)), resource(std::move(resource_)) {}

  std::string group;
  std::string resource;

  std::string to_string() const;
  bool empty() const { return group.empty() && resource.empty(); }
  auto operator<=>(const GroupResource&) const = default;
};

// The type of an object, printed "apps/v1, Kind=Deployment" ("/v1, Kind=ConfigMap" for core,
// exactly as apimachinery prints it).
struct GroupVersionKind {
  GroupVersionKind() = default;
  GroupVersionKind(std::string group_, std::string version_, std::string kind_) : group(std::move(group_)), version(std::move(version_)), kind(std::move(kind_)) {}

  std::string group;
  std::string version;
  std::string kind;

  std::string to_string() const;
  std::string api_version() const { return group_version().to_string(); }
  GroupVersion group_version() const { return {group, version}; }
  GroupKind group_kind() const { return {group, kind}; }
  bool empty() const { return group.empty() && version.empty() && kind.empty(); }
  auto operator<=>(const GroupVersionKind&) const = default;
};

// Builds a GroupVersionKind from an object's apiVersion and kind fields. An apiVersion that does
// not parse yields a GroupVersionKind with only the kind set, as apimachinery's
// FromAPIVersionAndKind does.
GroupVersionKind gvk_from_api_version_and_kind(std::string_view api_version, std::string_view kind);

// A resource at a version, printed "apps/v1, Resource=deployments".
struct GroupVersionResource {
  GroupVersionResource() = default;
  GroupVersionResource(std::string group_, std::string version_, std::string resource_) : group(std::move(group_)), version(std::move(version_)), resource(std::move(resource_)) {}

  std::string group;
  std::string version;
  std::string resource;

  std::string to_string() const;
  GroupVersion group_version() const { return {group, version}; }
  GroupResource group_resource() const { return {group, resource}; }
  bool empty() const { return group.empty() && version.empty() && resource.empty(); }
  auto operator<=>(const GroupVersionResource&) const = default;
};

// The value types above have constructors on purpose: GCC 12 destroys an aggregate-initialised
// temporary twice inside a co_await expression, and these are passed to coroutines all the time.

// The key of an object in a store or a work queue: "namespace/name", or "name" for a
// cluster-scoped object (client-go's MetaNamespaceKeyFunc). A strong type so that keys are not
// confused with names. The key is held as given; no validation happens on construction.
class ObjectKey {
 public:
  ObjectKey() = default;
  explicit ObjectKey(std::string key) : key_(std::move(key)) {}

  std::string_view view() const { return key_; }
  const std::string& str() const { return key_; }
  bool empty() const { return key_.empty(); }

  auto operator<=>(const ObjectKey&) const = default;

 private:
  std::string key_;
};

// Joins a namespace and a name into a key; an empty namespace gives the bare name.
ObjectKey meta_namespace_key(std::string_view ns, std::string_view name);

// The two halves of a key. `ns` is empty for cluster-scoped objects.
struct NamespacedName {
  NamespacedName() = default;
  NamespacedName(std::string ns_, std::string name_) : ns(std::move(ns_)), name(std::move(name_)) {}

  std::string ns;
  std::string name;

  auto operator<=>(const NamespacedName&) const = default;
};

// Splits a key as client-go's SplitMetaNamespaceKey does: "name" gives {"", "name"},
// "ns/name" gives {"ns", "name"} ("/name" gives {"", "name"}), and a key with more than one '/'
// is malformed and gives nullopt. Does not validate the names themselves.
std::optional<NamespacedName> split_meta_namespace_key(std::string_view key);
inline std::optional<NamespacedName> split_meta_namespace_key(const ObjectKey& key) {
  return split_meta_namespace_key(key.view());
}

std::ostream& operator<<(std::ostream& os, const GroupVersion& v);
std::ostream& operator<<(std::ostream& os, const GroupKind& v);
std::ostream& operator<<(std::ostream& os, const GroupResource& v);
std::ostream& operator<<(std::ostream& os, const GroupVersionKind& v);
std::ostream& operator<<(std::ostream& os, const GroupVersionResource& v);
std::ostream& operator<<(std::ostream& os, const ObjectKey& v);
std::ostream& operator<<(std::ostream& os, const NamespacedName& v);

namespace internal {
// Boost's hash_combine mixing step, for the hashes below.
inline std::size_t hash_combine(std::size_t seed, std::string_view s) {
  return seed ^
         (std::hash<std::string_view>{}(s) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}
}  // namespace internal

}  // namespace kubesim::api

template <>
struct std::hash<kubesim::api::GroupVersion> {
  std::size_t operator()(const kubesim::api::GroupVersion& v) const noexcept {
    using kubesim::api::internal::hash_combine;
    return hash_combine(hash_combine(0, v.group), v.version);
  }
};

template <>
struct std::hash<kubesim::api::GroupKind> {
  std::size_t operator()(const kubesim::api::GroupKind& v) const noexcept {
    using kubesim::api::internal::hash_combine;
    return hash_combine(hash_combine(0, v.group), v.kind);
  }
};

template <>
struct std::hash<kubesim::api::GroupResource> {
  std::size_t operator()(const kubesim::api::GroupResource& v) const noexcept {
    using kubesim::api::internal::hash_combine;
    return hash_combine(hash_combine(0, v.group), v.resource);
  }
};

template <>
struct std::hash<kubesim::api::GroupVersionKind> {
  std::size_t operator()(const kubesim::api::GroupVersionKind& v) const noexcept {
    using kubesim::api::internal::hash_combine;
    return hash_combine(hash_combine(hash_combine(0, v.group), v.version), v.kind);
  }
};

template <>
struct std::hash<kubesim::api::GroupVersionResource> {
  std::size_t operator()(const kubesim::api::GroupVersionResource& v) const noexcept {
    using kubesim::api::internal::hash_combine;
    return hash_combine(hash_combine(hash_combine(0, v.group), v.version), v.resource);
  }
};

template <>
struct std::hash<kubesim::api::ObjectKey> {
  std::size_t operator()(const kubesim::api::ObjectKey& k) const noexcept {
    return std::hash<std::string_view>{}(k.view());
  }
};

template <>
struct std::hash<kubesim::api::NamespacedName> {
  std::size_t operator()(const kubesim::api::NamespacedName& v) const noexcept {
    using kubesim::api::internal::hash_combine;
    return hash_combine(hash_combine(0, v.ns), v.name);
  }
};

#endif  // KUBESIM_API_GVK_H_
