#include "kubesim/fakeapi/registry.h"

#include <algorithm>
#include <cassert>

#include "kubesim/api/validation.h"
#include "fakeapi/internal/builtin_resources.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi {
namespace {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const std::size_t at = text.find(sep);
    out.emplace_back(text.substr(0, at));
    text = at == std::string_view::npos ? std::string_view() : text.substr(at + 1);
  }
  return out;
}

std::vector<std::string> verbs_of(internal::VerbSet set) {
  switch (set) {
    case internal::VerbSet::kAll:
      return {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
    case internal::VerbSet::kAllButCollection:
      return {"create", "delete", "get", "list", "patch", "update", "watch"};
    case internal::VerbSet::kCreate:
      return {"create"};
    case internal::VerbSet::kGetList:
      return {"get", "list"};
  }
  return {};
}

ResourceInfo builtin_info(const internal::BuiltinResource& b) {
  ResourceInfo info;
  info.gvr = {std::string(b.group), std::string(b.version), std::string(b.resource)};
  info.kind = b.kind;
  info.list_kind = std::string(b.kind) + "List";
  info.singular = b.singular;
  info.short_names = split(b.short_names, ',');
  info.categories = split(b.categories, ',');
  info.namespaced = b.namespaced;
  info.set_verbs(verbs_of(b.verbs));
  for (const std::string& name : split(b.subresources, ',')) {
    const internal::BuiltinSubresource* sub = internal::builtin_subresource(name, b.kind);
    assert(sub != nullptr);
    SubresourceInfo s;
    s.name = name;
    s.kind = sub->kind.empty() ? info.gvk()
                               : api::GroupVersionKind{std::string(sub->group),
                                                       std::string(sub->version),
                                                       std::string(sub->kind)};
    s.verbs = split(sub->verbs, ' ');
    info.subresources.push_back(std::move(s));
  }
  info.has_status = info.subresource("status") != nullptr;
  info.tracks_generation = b.tracks_generation;
  info.name_rule = b.name_rule;
  info.field_selectors = split(b.field_selectors, ',');
  info.storage = b.storage;
  info.go_type = types::go_type_of(info.gvr.group, info.gvr.version, info.kind);
  return info;
}

}  // namespace

bool SubresourceInfo::supports(api::Verb verb) const {
  return std::find(verbs.begin(), verbs.end(), api::to_string(verb)) != verbs.end();
}

const SubresourceInfo* ResourceInfo::subresource(std::string_view name) const {
  for (const SubresourceInfo& s : subresources) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

void ResourceInfo::set_verbs(std::vector<std::string> sorted) {
  verbs = std::move(sorted);
  verb_mask = 0;
  for (const std::string& v : verbs) {
    if (auto verb = api::parse_verb(v)) verb_mask |= static_cast<std::uint16_t>(1u << static_cast<unsigned>(*verb));
  }
}

namespace {

api::StatusCause invalid(std::string field, std::string message) {
  return api::StatusCause{"FieldValueInvalid", std::move(message), std::move(field)};
}

api::StatusCause required(std::string field) {
  return api::StatusCause{"FieldValueRequired", "Required value", std::move(field)};
}

std::string string_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings_at(const nlohmann::json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

bool ResourceInfo::supports_field(std::string_view path) const {
  if (path == "metadata.name") return true;
  if (path == "metadata.namespace") return namespaced;
  return std::find(field_selectors.begin(), field_selectors.end(), path) != field_selectors.end();
}

Registry::Registry() {
  for (const internal::BuiltinResource& b : internal::builtin_resources()) add(builtin_info(b));
}

void Registry::add(ResourceInfo info) {
  auto owned = std::make_unique<ResourceInfo>(std::move(info));
  by_gvk_[owned->gvk()] = owned.get();
  by_gvr_[owned->gvr] = std::move(owned);
}

const ResourceInfo* Registry::find(const api::GroupVersionResource& gvr) const {
  auto it = by_gvr_.find(gvr);
  return it == by_gvr_.end() ? nullptr : it->second.get();
}

const ResourceInfo* Registry::find_kind(const api::GroupVersionKind& gvk) const {
  auto it = by_gvk_.find(gvk);
  return it == by_gvk_.end() ? nullptr : it->second;
}

std::vector<const ResourceInfo*> Registry::versions(const api::GroupResource& gr) const {
  std::vector<const ResourceInfo*> out;
  for (const auto& [gvr, info] : by_gvr_) {
    if (gvr.group == gr.group && gvr.resource == gr.resource) out.push_back(info.get());
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const ResourceInfo* a, const ResourceInfo* b) { return a->storage && !b->storage; });
  return out;
}

std::vector<const ResourceInfo*> Registry::all() const {
  std::vector<const ResourceInfo*> out;
  for (const auto& [gvr, info] : by_gvr_) out.push_back(info.get());
  return out;
}

api::Result<std::vector<ResourceInfo>> Registry::parse_crd(const nlohmann::json& crd) const {
  const api::GroupKind crd_kind{"apiextensions.k8s.io", "CustomResourceDefinition"};
  const nlohmann::json empty = nlohmann::json::object();
  const auto& meta = crd.contains("metadata") && crd["metadata"].is_object() ? crd["metadata"] : empty;
  const auto& spec = crd.contains("spec") && crd["spec"].is_object() ? crd["spec"] : empty;
  const auto& names = spec.contains("names") && spec["names"].is_object() ? spec["names"] : empty;
  const std::string name = string_at(meta, "name");
  const std::string group = string_at(spec, "group");
  const std::string plural = string_at(names, "plural");
  std::string kind = string_at(names, "kind");
  std::string singular = string_at(names, "singular");
  std::string list_kind = string_at(names, "listKind");
  const std::string scope = string_at(spec, "scope");

  std::vector<api::StatusCause> causes;
  if (group.empty()) {
    causes.push_back(required("spec.group"));
  } else if (!api::is_dns1123_subdomain(group).empty() || group.find('.') == std::string::npos) {
    causes.push_back(invalid("spec.group", "should be a domain with at least one dot"));
  }
  if (plural.empty()) {
    causes.push_back(required("spec.names.plural"));
  } else if (!api::is_dns1123_label(plural).empty()) {
    causes.push_back(invalid("spec.names.plural", "a lowercase RFC 1123 label is required"));
  }
  if (kind.empty()) causes.push_back(required("spec.names.kind"));
  if (!plural.empty() && !group.empty() && name != plural + "." + group) {
    causes.push_back(invalid("metadata.name", "must be spec.names.plural+\".\"+spec.group"));
  }
  if (scope != "Namespaced" && scope != "Cluster") {
    causes.push_back(api::StatusCause{"FieldValueNotSupported",
                                      "Unsupported value: \"" + scope +
                                          "\": supported values: \"Cluster\", \"Namespaced\"",
                                      "spec.scope"});
  }
  std::vector<ResourceInfo> infos;
  int storage_versions = 0;
  auto versions = spec.find("versions");
  if (versions == spec.end() || !versions->is_array() || versions->empty()) {
    causes.push_back(required("spec.versions"));
  } else {
    for (const auto& v : *versions) {
      if (!v.is_object()) continue;
      const std::string version = string_at(v, "name");
      const bool served = v.value("served", false);
      const bool storage = v.value("storage", false);
      if (storage) ++storage_versions;
      if (version.empty()) causes.push_back(required("spec.versions[].name"));
      if (!served || version.empty()) continue;
      ResourceInfo info;
      info.gvr = {group, version, plural};
      info.kind = kind;
      info.list_kind = list_kind.empty() ? kind + "List" : list_kind;
      info.singular = singular.empty() ? std::string() : singular;
      for (auto& c : info.singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (info.singular.empty()) {
        info.singular = kind;
        for (auto& c : info.singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      info.short_names = strings_at(names, "shortNames");
      info.categories = strings_at(names, "categories");
      info.namespaced = scope == "Namespaced";
      info.set_verbs(verbs_of(internal::VerbSet::kAll));
      const nlohmann::json& subresources =
          v.contains("subresources") && v["subresources"].is_object() ? v["subresources"] : empty;
      if (subresources.contains("scale") && subresources["scale"].is_object()) {
        const nlohmann::json& scale = subresources["scale"];
        info.scale.spec_replicas = string_at(scale, "specReplicasPath");
        info.scale.status_replicas = string_at(scale, "statusReplicasPath");
        info.scale.label_selector = string_at(scale, "labelSelectorPath");
        info.subresources.push_back(
            {"scale", {"autoscaling", "v1", "Scale"}, {"get", "patch", "update"}});
      }
      if (subresources.contains("status")) {
        info.subresources.push_back({"status", info.gvk(), {"get", "patch", "update"}});
        info.has_status = true;
      }
      info.tracks_generation = true;
      info.custom = true;
      info.crd_name = name;
      info.storage = storage;
      if (v.contains("schema") && v["schema"].is_object()) {
        info.schema = v["schema"].value("openAPIV3Schema", nlohmann::json());
      }
      infos.push_back(std::move(info));
    }
    if (storage_versions != 1) {
      causes.push_back(invalid("spec.versions", "must have exactly one version marked as storage version"));
    }
  }
  if (!causes.empty()) return api::new_invalid(crd_kind, name, std::move(causes));
  return infos;
}

void Registry::add_custom(const std::string& crd_name, std::vector<ResourceInfo> infos) {
  remove_custom(crd_name);
  for (auto& info : infos) add(std::move(info));
}

std::optional<api::GroupResource> Registry::remove_custom(const std::string& crd_name) {
  std::optional<api::GroupResource> removed;
  for (auto it = by_gvr_.begin(); it != by_gvr_.end();) {
    if (it->second->custom && it->second->crd_name == crd_name) {
      removed = it->second->group_resource();
      by_gvk_.erase(it->second->gvk());
      it = by_gvr_.erase(it);
    } else {
      ++it;
    }
  }
  return removed;
}

}  // namespace kubesim::fakeapi
