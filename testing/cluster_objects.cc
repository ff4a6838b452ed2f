// SimCluster's objects: the operator's hand on the store (the server's synchronous methods, so
// no filter, fault or recorder sees them; their writes reach the watches and the checks).
//
// apply_yaml applies the documents in order and stops at the first one the server refuses: the
// documents before it stay applied, the ones after it are not tried, and the message names the
// refused document ("apply_yaml: document 2 of 3 (Widget default/w1): …").
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "internal/cluster_impl.h"
#include "kubesim/api/gvk.h"
#include "kubesim/api/yaml.h"
#include "kubesim/cluster/conditions.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {

using nlohmann::json;

namespace {

std::string member_string(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// "Widget default/w1", for messages; "object" when the document names nothing.
std::string describe_document(const json& j) {
  std::string kind = member_string(j, "kind");
  std::string name;
  if (j.is_object() && j.contains("metadata")) {
    const json& m = j["metadata"];
    name = member_string(m, "namespace");
    if (!name.empty()) name += "/";
    name += member_string(m, "name");
  }
  if (kind.empty()) kind = "object";
  return name.empty() ? kind : kind + " " + name;
}

}  // namespace

api::ObjectPtr SimCluster::Impl::apply_one(json document, const std::string& where) {
  const std::string prefix = where + " (" + describe_document(document) + "): ";
  auto parsed = api::Object::from_json(std::move(document));
  if (!parsed.ok()) throw std::runtime_error(prefix + parsed.status().message);
  api::ObjectPtr object = std::move(parsed).value();
  if (object->kind().empty() || object->api_version().empty()) {
    throw std::runtime_error(prefix + "the document has no " + (object->kind().empty() ? "kind" : "apiVersion"));
  }
  const auto gv = api::parse_api_version(object->api_version());
  const fakeapi::ResourceInfo* info =
      gv ? server.registry().find_kind({gv->group, gv->version, std::string(object->kind())}) : nullptr;
  if (info == nullptr) {
    throw std::runtime_error(prefix + "the server does not serve apiVersion \"" + std::string(object->api_version()) +
                             "\", kind \"" + std::string(object->kind()) + "\"");
  }
  std::string ns;
  if (info->namespaced) {
    ns = object->namespace_().empty() ? "default" : std::string(object->namespace_());
    if (object->namespace_().empty()) object = object->edited([&](json& j) { j["metadata"]["namespace"] = ns; });
  }
  api::Result<api::ObjectPtr> existing = api::Status{};
  if (!object->name().empty()) existing = server.get(info->gvr, ns, object->name(), api::GetOptions());
  auto written = existing.ok()
                     ? server.update(info->gvr, ns,
                                     object->with_resource_version(std::string(existing.value()->resource_version())),
                                     api::UpdateOptions())
                     : server.create(info->gvr, ns, object, api::CreateOptions());
  if (!written.ok()) throw std::runtime_error(prefix + written.status().message);
  return std::move(written).value();
}

std::vector<api::ObjectPtr> SimCluster::Impl::apply_documents(std::string_view yaml, const std::string& what) {
  auto documents = api::yaml_documents_to_json(yaml);
  if (!documents.ok()) throw std::runtime_error(what + ": " + documents.status().message);
  std::vector<json>& docs = documents.value();
  std::vector<api::ObjectPtr> applied;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const std::string where = what + ": document " + std::to_string(i + 1) + " of " + std::to_string(docs.size());
    applied.push_back(apply_one(std::move(docs[i]), where));
  }
  return applied;
}

std::vector<api::ObjectPtr> SimCluster::apply_yaml(std::string_view yaml) {
  return impl_->apply_documents(yaml, "apply_yaml");
}

api::ObjectPtr SimCluster::apply(json object) { return impl_->apply_one(std::move(object), "apply"); }

void SimCluster::crd_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in) throw std::runtime_error("crd_file: cannot read \"" + path + "\"");
  impl_->apply_documents(text.str(), "crd_file \"" + path + "\"");
}

api::Result<api::ObjectPtr> SimCluster::get(const api::GroupVersionResource& resource, std::string_view ns,
                                            std::string_view name) const {
  return impl_->server.get(resource, ns, name, api::GetOptions());
}

std::vector<api::ObjectPtr> SimCluster::list(const api::GroupVersionResource& resource, std::string_view ns) const {
  if (auto why = cluster::unserved(impl_->cluster, resource)) throw std::invalid_argument("SimCluster::list: " + *why);
  auto listed = impl_->server.list(resource, ns, api::ListOptions());
  if (!listed.ok()) throw std::invalid_argument("SimCluster::list: " + listed.status().message);
  return std::move(listed.value().items);
}

api::Result<api::ObjectPtr> SimCluster::patch(const api::GroupVersionResource& resource, std::string_view ns,
                                              std::string_view name, const json& merge_patch,
                                              std::string_view subresource) {
  const auto sub = api::parse_subresource(subresource);
  if (!sub) {  // not served: the answer of kube-apiserver to a path it has no handler for
    api::Status unknown;
    unknown.code = 404;
    unknown.reason = api::StatusReason::kNotFound;
    unknown.message = "the server could not find the requested resource";
    return unknown;
  }
  return impl_->server.patch(resource, ns, name, api::PatchType::kMergePatch, merge_patch.dump(),
                             api::PatchOptions(), *sub);
}

api::Result<api::ObjectPtr> SimCluster::patch_yaml(const api::GroupVersionResource& resource,
                                                   std::string_view ns, std::string_view name,
                                                   std::string_view merge_patch, std::string_view subresource) {
  auto patch = api::yaml_to_json(merge_patch);
  if (!patch.ok()) return patch.status();
  if (!patch.value().is_object()) {
    return api::new_bad_request("patch_yaml: the merge patch must be an object, not \"" +
                                std::string(merge_patch) + "\"");
  }
  return this->patch(resource, ns, name, patch.value(), subresource);
}

api::Result<api::ObjectPtr> SimCluster::remove(const api::GroupVersionResource& resource, std::string_view ns,
                                               std::string_view name) {
  return impl_->server.delete_(resource, ns, name, api::DeleteOptions());
}

}  // namespace kubesim::testing
