#include "kubesim/api/gvk.h"

#include <algorithm>

namespace kubesim::api {

std::string GroupVersion::to_string() const {
  if (group.empty()) return version;
  return group + "/" + version;
}

GroupVersionKind GroupVersion::with_kind(std::string kind) const {
  return {group, version, std::move(kind)};
}

GroupVersionResource GroupVersion::with_resource(std::string resource) const {
  return {group, version, std::move(resource)};
}

std::optional<GroupVersion> parse_api_version(std::string_view api_version) {
  if (api_version.empty()) return GroupVersion{};
  const auto slashes = std::count(api_version.begin(), api_version.end(), '/');
  if (slashes == 0) return GroupVersion{"", std::string(api_version)};
  if (slashes > 1) return std::nullopt;
  const auto slash = api_version.find('/');
  return GroupVersion{std::string(api_version.substr(0, slash)),
                      std::string(api_version.substr(slash + 1))};
}

std::string GroupKind::to_string() const {
  if (group.empty()) return kind;
  return kind + "." + group;
}

std::string GroupResource::to_string() const {
  if (group.empty()) return resource;
  return resource + "." + group;
}

std::string GroupVersionKind::to_string() const { return group + "/" + version + ", Kind=" + kind; }

GroupVersionKind gvk_from_api_version_and_kind(std::string_view api_version,
                                               std::string_view kind) {
  if (auto gv = parse_api_version(api_version)) {
    return {std::move(gv->group), std::move(gv->version), std::string(kind)};
  }
  return {"", "", std::string(kind)};
}

std::string GroupVersionResource::to_string() const {
  return group + "/" + version + ", Resource=" + resource;
}

ObjectKey meta_namespace_key(std::string_view ns, std::string_view name) {
  std::string key;
  if (!ns.empty()) {
    key.reserve(ns.size() + 1 + name.size());
    key.append(ns);
    key.push_back('/');
  }
  key.append(name);
  return ObjectKey(std::move(key));
}

std::optional<NamespacedName> split_meta_namespace_key(std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return NamespacedName{"", std::string(key)};
  if (key.find('/', slash + 1) != std::string_view::npos) return std::nullopt;
  return NamespacedName{std::string(key.substr(0, slash)), std::string(key.substr(slash + 1))};
}

std::ostream& operator<<(std::ostream& os, const GroupVersion& v) { return os << v.to_string(); }
std::ostream& operator<<(std::ostream& os, const GroupKind& v) { return os << v.to_string(); }
std::ostream& operator<<(std::ostream& os, const GroupResource& v) { return os << v.to_string(); }
std::ostream& operator<<(std::ostream& os, const GroupVersionKind& v) {
  return os << v.to_string();
}
std::ostream& operator<<(std::ostream& os, const GroupVersionResource& v) {
  return os << v.to_string();
}
std::ostream& operator<<(std::ostream& os, const ObjectKey& v) { return os << v.view(); }
std::ostream& operator<<(std::ostream& os, const NamespacedName& v) {
  return os << meta_namespace_key(v.ns, v.name);
}

}  // namespace kubesim::api
