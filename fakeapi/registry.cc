#include "kubesim/fakeapi/registry.h"

#include <algorithm>

#include "kubesim/api/validation.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi {
namespace {

struct Builtin {
  const char* group;
  const char* version;
  const char* resource;
  const char* kind;
  const char* singular;
  std::vector<std::string> short_names;
  bool namespaced;
  bool has_status;
  bool tracks_generation;
  api::NameRule name_rule;
  std::vector<std::string> fields;
  bool in_all;
};

// The built-in types, with scope, subresources and field selectors as kube-apiserver has them.
std::vector<Builtin> builtins() {
  const auto sub = api::NameRule::kDns1123Subdomain;
  return {
      {"", "v1", "namespaces", "Namespace", "namespace", {"ns"}, false, true, false,
       api::NameRule::kDns1123Label, {"status.phase"}, false},
      {"", "v1", "configmaps", "ConfigMap", "configmap", {"cm"}, true, false, false, sub, {}, false},
      {"", "v1", "secrets", "Secret", "secret", {}, true, false, false, sub, {"type"}, false},
      {"", "v1", "pods", "Pod", "pod", {"po"}, true, true, false, sub,
       {"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
        "spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs",
        "status.nominatedNodeName"},
       true},
      {"", "v1", "services", "Service", "service", {"svc"}, true, true, false,
       api::NameRule::kDns1035Label, {}, true},
      {"", "v1", "endpoints", "Endpoints", "endpoints", {"ep"}, true, false, false, sub, {}, false},
      {"", "v1", "events", "Event", "event", {"ev"}, true, false, false, sub,
       {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
        "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
        "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
       false},
      {"", "v1", "serviceaccounts", "ServiceAccount", "serviceaccount", {"sa"}, true, false, false,
       sub, {}, false},
      {"", "v1", "nodes", "Node", "node", {"no"}, false, true, false, sub, {"spec.unschedulable"},
       false},
      {"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", "persistentvolumeclaim",
       {"pvc"}, true, true, false, sub, {}, false},
      {"", "v1", "replicationcontrollers", "ReplicationController", "replicationcontroller",
       {"rc"}, true, true, true, sub, {"status.replicas"}, true},
      {"apps", "v1", "deployments", "Deployment", "deployment", {"deploy"}, true, true, true, sub, {},
       true},
      {"apps", "v1", "replicasets", "ReplicaSet", "replicaset", {"rs"}, true, true, true, sub,
       {"status.replicas"}, true},
      // ValidateStatefulSetName is NameIsDNSLabel: the set's pods are named after it.
      {"apps", "v1", "statefulsets", "StatefulSet", "statefulset", {"sts"}, true, true, true,
       api::NameRule::kDns1123Label, {}, true},
      {"apps", "v1", "daemonsets", "DaemonSet", "daemonset", {"ds"}, true, true, true, sub, {}, true},
      {"batch", "v1", "jobs", "Job", "job", {}, true, true, true, sub, {"status.successful"}, true},
      {"batch", "v1", "cronjobs", "CronJob", "cronjob", {"cj"}, true, true, true, sub, {}, true},
      {"coordination.k8s.io", "v1", "leases", "Lease", "lease", {}, true, false, false, sub, {},
       false},
      {"apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition",
       "customresourcedefinition", {"crd", "crds"}, false, true, true, sub, {}, false},
  };
}

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
  for (auto& b : builtins()) {
    ResourceInfo info;
    info.gvr = {b.group, b.version, b.resource};
    info.kind = b.kind;
    info.list_kind = std::string(b.kind) + "List";
    info.singular = b.singular;
    info.short_names = std::move(b.short_names);
    if (b.in_all) info.categories = {"all"};
    info.namespaced = b.namespaced;
    info.has_status = b.has_status;
    info.tracks_generation = b.tracks_generation;
    info.name_rule = b.name_rule;
    info.field_selectors = std::move(b.fields);
    info.go_type = types::go_type_of(b.group, b.kind);
    add(std::move(info));
  }
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
      info.has_status = v.contains("subresources") && v["subresources"].is_object() &&
                        v["subresources"].contains("status");
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
