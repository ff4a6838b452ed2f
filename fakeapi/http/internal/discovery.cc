#include "fakeapi/http/internal/discovery.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::http::internal {
namespace {

using nlohmann::json;

// Versions of `group` with their resources; the preferred (storage) version first.
std::vector<std::string> group_versions(const Registry& registry, const std::string& group) {
  std::vector<std::string> versions;
  std::string preferred;
  for (const ResourceInfo* info : registry.all()) {
    if (info->gvr.group != group) continue;
    if (preferred.empty()) {
      auto all = registry.versions(info->group_resource());
      if (!all.empty()) preferred = all.front()->gvr.version;
    }
    if (std::find(versions.begin(), versions.end(), info->gvr.version) == versions.end()) {
      versions.push_back(info->gvr.version);
    }
  }
  std::sort(versions.begin(), versions.end(), [&](const std::string& a, const std::string& b) {
    if ((a == preferred) != (b == preferred)) return a == preferred;
    return a > b;
  });
  return versions;
}

json group_object(const Registry& registry, const std::string& group) {
  json versions = json::array();
  for (const auto& v : group_versions(registry, group)) {
    versions.push_back({{"groupVersion", group + "/" + v}, {"version", v}});
  }
  json g = {{"name", group}, {"versions", versions}};
  if (!versions.empty()) g["preferredVersion"] = versions[0];
  return g;
}

json resource_object(const ResourceInfo& info) {
  json r = {{"name", info.gvr.resource},
            {"singularName", info.singular},
            {"namespaced", info.namespaced},
            {"kind", info.kind},
            {"verbs", info.verbs}};
  if (!info.short_names.empty()) r["shortNames"] = info.short_names;
  if (!info.categories.empty()) r["categories"] = info.categories;
  return r;
}

// A subresource's entry; its group and version are named when they are not its parent's
// (pods/eviction is policy/v1 Eviction, deployments/scale autoscaling/v1 Scale).
json subresource_object(const ResourceInfo& info, const SubresourceInfo& sub) {
  json r = {{"name", info.gvr.resource + "/" + sub.name},
            {"singularName", ""},
            {"namespaced", info.namespaced},
            {"kind", sub.kind.kind},
            {"verbs", sub.verbs}};
  if (sub.kind.group != info.gvr.group || sub.kind.version != info.gvr.version) {
    r["group"] = sub.kind.group;
    r["version"] = sub.kind.version;
  }
  return r;
}

}  // namespace

std::string api_versions_json(const std::string& server_address) {
  return json{{"kind", "APIVersions"},
              {"versions", {"v1"}},
              {"serverAddressByClientCIDRs",
               {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}}}}
      .dump();
}

std::string group_list_json(const Registry& registry) {
  std::set<std::string> groups;
  for (const ResourceInfo* info : registry.all()) {
    if (!info->gvr.group.empty()) groups.insert(info->gvr.group);
  }
  json list = json::array();
  for (const auto& g : groups) list.push_back(group_object(registry, g));
  return json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", list}}.dump();
}

std::optional<std::string> group_json(const Registry& registry, const std::string& group) {
  if (group.empty() || group_versions(registry, group).empty()) return std::nullopt;
  json g = group_object(registry, group);
  g["kind"] = "APIGroup";
  g["apiVersion"] = "v1";
  return g.dump();
}

std::optional<std::string> resource_list_json(const Registry& registry, const std::string& group,
                                              const std::string& version) {
  json resources = json::array();
  for (const ResourceInfo* info : registry.all()) {
    if (info->gvr.group != group || info->gvr.version != version) continue;
    resources.push_back(resource_object(*info));
    for (const SubresourceInfo& sub : info->subresources) {
      resources.push_back(subresource_object(*info, sub));
    }
  }
  if (resources.empty()) return std::nullopt;
  const std::string gv = group.empty() ? version : group + "/" + version;
  return json{{"kind", "APIResourceList"},
              {"apiVersion", "v1"},
              {"groupVersion", gv},
              {"resources", resources}}
      .dump();
}

std::string openapi_v3_root_json(const Registry& registry) {
  std::set<std::pair<std::string, std::string>> gvs;
  for (const ResourceInfo* info : registry.all()) {
    if (!info->custom) gvs.emplace(info->gvr.group, info->gvr.version);
  }
  json paths = json::object();
  for (const auto& [g, v] : gvs) {
    const std::string key = g.empty() ? "api/" + v : "apis/" + g + "/" + v;
    paths[key] = {{"serverRelativeURL", "/openapi/v3/" + key + "?hash=kubesim1"}};
  }
  return json{{"paths", paths}}.dump();
}

std::optional<std::string> openapi_v3_json(const Registry& registry, const std::string& group,
                                           const std::string& version) {
  json paths = json::object();
  for (const ResourceInfo* info : registry.all()) {
    if (info->custom || info->gvr.group != group || info->gvr.version != version) continue;
    const std::string prefix = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
    const std::string path = prefix + (info->namespaced ? "/namespaces/{namespace}/" : "/") +
                             info->gvr.resource + "/{name}";
    json op = {
        {"operationId", "patch" + info->kind},
        {"x-kubernetes-action", "patch"},
        {"x-kubernetes-group-version-kind",
         {{"group", group}, {"version", version}, {"kind", info->kind}}},
        {"parameters",
         {{{"name", "fieldValidation"}, {"in", "query"}, {"schema", {{"type", "string"}}}},
          {{"name", "fieldManager"}, {"in", "query"}, {"schema", {{"type", "string"}}}},
          {{"name", "dryRun"}, {"in", "query"}, {"schema", {{"type", "string"}}}}}},
        {"requestBody",
         {{"content",
           {{"application/json-patch+json", {{"schema", json::object()}}},
            {"application/merge-patch+json", {{"schema", json::object()}}}}}}},
        {"responses", {{"200", {{"description", "OK"}}}}},
    };
    paths[path] = {{"patch", op}};
  }
  if (paths.empty()) return std::nullopt;
  return json{{"openapi", "3.0.0"},
              {"info", {{"title", "Kubernetes"}, {"version", "kubesim"}}},
              {"paths", paths},
              {"components", {{"schemas", json::object()}}}}
      .dump();
}

}  // namespace kubesim::fakeapi::http::internal
