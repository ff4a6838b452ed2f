// The delete verbs of ApiServer, with finalizers, namespace termination and the removal of a
// CustomResourceDefinition's resource.
#include "kubesim/api/resources.h"
#include "fakeapi/internal/crd/crd.h"
#include "fakeapi/internal/server_util.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi {

using internal::object_key;
using internal::is_crds;
using internal::precondition_failed;

namespace {

bool is_namespaces(const ResourceInfo& info) {
  return info.gvr.group.empty() && info.gvr.resource == "namespaces";
}

}  // namespace

api::Result<api::ObjectPtr> ApiServer::finish_delete(const Resolved& r, const std::string& key,
                                                     const api::ObjectPtr& current, bool dry_run,
                                                     std::string_view process) {
  api::ObjectPtr last = current->with_resource_version(std::to_string(store_.next_revision()));
  if (dry_run) return last;
  trace_write(process, "api.delete", r, current->name(), store_.next_revision());
  store_.remove(r.table, key, last);
  const std::string crd_name = r.info->custom ? r.info->crd_name : std::string();
  if (is_crds(*r.info)) on_crd_deleted(current, process);
  if (r.info->namespaced && namespace_terminating(r.ns)) maybe_finalize_namespace(r.ns, process);
  // An object of a terminating CRD is gone: the CRD's finalizer looks again (and may end the
  // CRD, and with it r.info).
  if (!crd_name.empty() && crd_terminating(crd_name)) finalize_crd(crd_name, process);
  return last;
}

api::Result<api::ObjectPtr> ApiServer::delete_object(const api::GroupVersionResource& gvr,
                                                     std::string_view ns, std::string_view name,
                                                     const api::DeleteOptions& options,
                                                     std::string_view process) {
  auto r = resolve(gvr, ns, false);
  if (!r) return r.status();
  const ResourceInfo& info = *r->info;
  const std::string key = object_key(info, ns, name);
  api::ObjectPtr current = store_.get(r->table, key);
  if (!current) return api::new_not_found(info.group_resource(), name);
  if (is_crds(info)) return delete_crd(*r, key, current, options, process);
  const auto& pre = options.preconditions;
  if (pre.uid && *pre.uid != current->uid()) {
    return precondition_failed(info, ns, name,
                               "Precondition failed: UID in precondition: " + *pre.uid +
                                   ", UID in object meta: " + std::string(current->uid()));
  }
  if (pre.resource_version && *pre.resource_version != current->resource_version()) {
    return precondition_failed(info, ns, name,
                               "Precondition failed: ResourceVersion in precondition: " +
                                   *pre.resource_version + ", ResourceVersion in object meta: " +
                                   std::string(current->resource_version()));
  }
  if (is_namespaces(info) && (name == "default" || name == "kube-system" || name == "kube-public")) {
    return api::new_forbidden(info.group_resource(), name, "this namespace may not be deleted");
  }
  if (loop_->trace().enabled() && options.propagation_policy != api::PropagationPolicy::kUnset) {
    loop_->trace().record(loop_->now(), process.empty() ? std::string_view("apiserver") : process,
                          "api.delete.propagation",
                          {{"resource", info.gvr.resource}, {"namespace", ns}, {"name", name},
                           {"policy", api::to_string(options.propagation_policy)}});
  }
  const bool graceful = !current->finalizers().empty() || is_namespaces(info);
  if (!graceful) return finish_delete(*r, key, current, options.dry_run, process);
  if (current->deletion_timestamp()) return current;  // already terminating
  nlohmann::json j = current->to_json();
  // The registry's markAsDeleting: the first deletion request is a generation change.
  if (current->generation() > 0) j["metadata"]["generation"] = current->generation() + 1;
  j["metadata"]["deletionTimestamp"] = now_rfc3339();
  j["metadata"]["deletionGracePeriodSeconds"] = 0;
  j["metadata"]["resourceVersion"] = std::to_string(store_.next_revision());
  if (is_namespaces(info)) j["status"]["phase"] = "Terminating";
  if (options.dry_run) return stamp(std::move(j));
  trace_write(process, "api.delete.graceful", *r, name, store_.next_revision());
  const Change& change = store_.put(r->table, key, stamp(std::move(j)));
  api::ObjectPtr marked = change.object;
  if (is_namespaces(info)) {
    on_namespace_deleting(std::string(name), process);
    api::ObjectPtr now = store_.get(r->table, key);
    return now ? now : marked;
  }
  return marked;
}

api::Result<void> ApiServer::delete_objects(const api::GroupVersionResource& gvr,
                                            std::string_view ns, const api::DeleteOptions& options,
                                            const api::ListOptions& list_options,
                                            std::string_view process) {
  Request listing;
  listing.verb = Verb::kList;
  listing.resource = gvr;
  listing.ns = std::string(ns);
  listing.options = list_options;
  auto plan = plan_list(listing, store_.revision());
  if (!plan) return plan.status();
  const api::ObjectList listed = scan_list(plan.value());
  for (const auto& obj : listed.items) {
    api::DeleteOptions each = options;
    each.preconditions = api::Preconditions();
    auto deleted = delete_object(gvr, obj->namespace_(), obj->name(), each, process);
    if (!deleted && !api::is_not_found(deleted.status())) return deleted.status();
  }
  return {};
}

void ApiServer::on_namespace_deleting(const std::string& ns, std::string_view process) {
  // The namespace controller's work, done at once: delete everything in the namespace.
  const std::string prefix = ns + "/";
  std::vector<api::GroupVersionResource> resources;
  for (const ResourceInfo* info : registry_.all()) {
    if (info->namespaced && info->storage) resources.push_back(info->gvr);
  }
  // Deletions may end a terminating CRD, and its ResourceInfo: look each one up again.
  for (const auto& gvr : resources) {
    const ResourceInfo* info = registry_.find(gvr);
    if (info == nullptr) continue;
    const TableId table = store_.table(info->group_resource());
    std::vector<std::string> names;
    store_.scan(table, store_.revision(), prefix, "",
                [&](std::string_view, const api::ObjectPtr& obj) {
                  names.emplace_back(obj->name());
                  return true;
                });
    for (const auto& name : names) (void)delete_object(gvr, ns, name, api::DeleteOptions(), process);
  }
  maybe_finalize_namespace(ns, process);
}

void ApiServer::maybe_finalize_namespace(const std::string& ns, std::string_view process) {
  const std::string prefix = ns + "/";
  for (const ResourceInfo* info : registry_.all()) {
    if (!info->namespaced || !info->storage) continue;
    bool any = false;
    store_.scan(store_.table(info->group_resource()), store_.revision(), prefix, "",
                [&](std::string_view, const api::ObjectPtr&) {
                  any = true;
                  return false;
                });
    if (any) return;
  }
  auto r = resolve(api::kNamespaces, "", false);
  api::ObjectPtr current = store_.get(r->table, ns);
  if (!current || !current->deletion_timestamp()) return;
  // The "kubernetes" finalizer in spec.finalizers is the namespace controller's; it is done.
  (void)finish_delete(*r, ns, current, false, process);
}

}  // namespace kubesim::fakeapi
