// CustomResourceDefinitions in ApiServer: what apiextensions-apiserver's registry, naming,
// establishing and finalizer controllers do, run at once where the real controllers would react.
//
// Create stores the CRD with an empty status; the naming controller then accepts its names
// (NamesAccepted, Established False/Installing) and the establishing controller sets Established,
// two status writes. The resource is served while NamesAccepted or Established is True, with the
// accepted names. An update re-serves what changed (the old storage's watches end, as its
// teardown ends them). The first delete adds the cleanup finalizer, a deletionTimestamp and the
// Terminating condition; the finalizer controller then deletes every object (per namespace, as
// DeleteCollection does) and, once none is left, removes its finalizer, which deletes the CRD.
// Objects held by finalizers keep the CRD terminating (after a minute the condition says so);
// each final deletion of one looks again. While terminating, creates are forbidden.
#include <algorithm>

#include "kubesim/api/resources.h"
#include "fakeapi/internal/crd/crd.h"
#include "fakeapi/internal/server_util.h"
#include "fakeapi/internal/validation/field_errors.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi {

using internal::crd_condition_true;
using internal::kCrdCleanupFinalizer;
using internal::set_crd_condition;

namespace {

const api::GroupKind kCrdKind{"apiextensions.k8s.io", "CustomResourceDefinition"};
// How long the finalizer controller polls for the objects to go before it reports it.
constexpr sim::Duration kInstanceDeletionTimeout = std::chrono::minutes(1);

std::string group_of(const nlohmann::json& crd) {
  return internal::validation::string_member(internal::validation::member(crd, "spec"), "group");
}

std::vector<api::StatusCause> causes_of(const api::Status& s) {
  return s.details ? s.details->causes : std::vector<api::StatusCause>{};
}

}  // namespace

std::optional<api::Status> ApiServer::prepare_crd_create(nlohmann::json& j, const std::string& name) const {
  internal::default_crd_spec(j);
  auto parsed = registry_.parse_crd(j);
  if (!parsed) return parsed.status();
  for (const auto& res : parsed.value()) {
    const ResourceInfo* existing = registry_.find(res.gvr);
    if (existing != nullptr && !existing->custom) {
      return api::new_conflict(api::kCustomResourceDefinitions.group_resource(), name,
                               "the resource " + res.gvr.to_string() + " is already served");
    }
  }
  internal::initial_crd_status(j);
  return std::nullopt;
}

std::optional<api::Status> ApiServer::prepare_crd_update(const nlohmann::json& old,
                                                         nlohmann::json& next) const {
  internal::default_crd_spec(next);
  internal::record_storage_version(next);
  std::vector<api::StatusCause> causes;
  if (auto parsed = registry_.parse_crd(next); !parsed) causes = causes_of(parsed.status());
  for (auto& c : internal::crd_update_causes(old, next)) causes.push_back(std::move(c));
  if (causes.empty()) return std::nullopt;
  return api::new_invalid(kCrdKind, next["metadata"].value("name", ""), std::move(causes));
}

std::vector<api::ObjectPtr> ApiServer::crds_of_group(const std::string& group) {
  auto r = resolve(api::kCustomResourceDefinitions, "", false);
  std::vector<api::ObjectPtr> out;
  store_.scan(r->table, store_.revision(), "", "",
              [&](std::string_view, const api::ObjectPtr& crd) {
                if (group_of(crd->json()) == group) out.push_back(crd);
                return true;
              });
  return out;
}

api::ObjectPtr ApiServer::put_crd(const api::ObjectPtr& current, nlohmann::json next,
                                  std::string_view process) {
  auto r = resolve(api::kCustomResourceDefinitions, "", false);
  return put_direct(*r, current, std::move(next), process, "api.update_status");
}

void ApiServer::sync_crd(const std::string& first, std::string_view process) {
  auto r = resolve(api::kCustomResourceDefinitions, "", false);
  std::vector<std::string> work = {first};
  while (!work.empty()) {
    const std::string name = std::move(work.back());
    work.pop_back();
    api::ObjectPtr crd = store_.get(r->table, name);
    if (!crd) continue;
    bool renamed = false;
    if (!internal::crd_names_settled(crd->json())) {
      // The naming controller.
      std::vector<nlohmann::json> group;
      for (const auto& other : crds_of_group(group_of(crd->json()))) group.push_back(other->json());
      nlohmann::json j = crd->json();
      if (internal::accept_crd_names(j, group, now_rfc3339())) {
        crd = put_crd(crd, std::move(j), process);
        renamed = true;
      }
    }
    if (crd_condition_true(crd->json(), "NamesAccepted") && !crd_condition_true(crd->json(), "Established")) {
      // The establishing controller.
      nlohmann::json j = crd->json();
      set_crd_condition(j, "Established", "True", "InitialNamesAccepted",
                        "the initial names have been accepted", now_rfc3339());
      crd = put_crd(crd, std::move(j), process);
    }
    serve_crd(crd);
    if (!renamed) continue;
    // Names this CRD gave up may be free for the others of its group.
    for (const auto& other : crds_of_group(group_of(crd->json()))) {
      if (other->name() != name && !internal::crd_names_settled(other->json())) {
        work.emplace_back(other->name());
      }
    }
  }
}

void ApiServer::serve_crd(const api::ObjectPtr& crd) {
  const std::string name(crd->name());
  const bool servable = crd_condition_true(crd->json(), "NamesAccepted") ||
                        crd_condition_true(crd->json(), "Established");
  auto served = served_crds_.find(name);
  nlohmann::json view = internal::crd_serving_view(crd->json());
  if (servable && served != served_crds_.end() && served->second == view["spec"]) return;
  std::vector<ResourceInfo> infos;
  if (servable) {
    auto parsed = registry_.parse_crd(view);
    if (parsed) infos = std::move(parsed.value());
  }
  if (served != served_crds_.end()) {
    // The old storage is torn down: its watches end.
    if (auto gr = registry_.remove_custom(name)) hub_.close_table(store_.table(*gr));
    served_crds_.erase(served);
  }
  last_resolved_.reset();
  if (infos.empty()) return;
  registry_.add_custom(name, std::move(infos));
  served_crds_[name] = view["spec"];
}

api::Result<api::ObjectPtr> ApiServer::delete_crd(const Resolved& r, const std::string& key,
                                                  const api::ObjectPtr& current,
                                                  const api::DeleteOptions& options,
                                                  std::string_view process) {
  // The CRD registry's own Delete: its preconditions, then the finalizer on the first request.
  const std::string name(current->name());
  const auto& pre = options.preconditions;
  if (pre.uid && *pre.uid != current->uid()) {
    return api::new_conflict(api::kCustomResourceDefinitions.group_resource(), name,
                             "precondition failed: UID in precondition: " + *pre.uid +
                                 ", UID in object meta: " + std::string(current->uid()));
  }
  if (pre.resource_version && *pre.resource_version != current->resource_version()) {
    return api::new_conflict(api::kCustomResourceDefinitions.group_resource(), name,
                             "precondition failed: ResourceVersion in precondition: " +
                                 *pre.resource_version + ", ResourceVersion in object meta: " +
                                 std::string(current->resource_version()));
  }
  if (current->deletion_timestamp()) return current;
  nlohmann::json j = current->json();
  j["metadata"]["deletionTimestamp"] = now_rfc3339();
  if (!current->has_finalizer(kCrdCleanupFinalizer)) {
    j["metadata"]["finalizers"].push_back(kCrdCleanupFinalizer);
  }
  set_crd_condition(j, "Terminating", "True", "InstanceDeletionPending",
                    "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
                    now_rfc3339());
  j["metadata"]["resourceVersion"] = std::to_string(store_.next_revision());
  if (options.dry_run) return stamp(std::move(j));
  trace_write(process, "api.delete.graceful", r, name, store_.next_revision());
  const Change& change = store_.put(r.table, key, stamp(std::move(j)));
  api::ObjectPtr marked = change.object;
  finalize_crd(name, process);
  return marked;
}

bool ApiServer::crd_terminating(const std::string& crd_name) const {
  const ResourceInfo* crds = registry_.find(api::kCustomResourceDefinitions);
  api::ObjectPtr crd = store_.get(const_cast<Store&>(store_).table(crds->group_resource()), crd_name);
  return crd && (crd->deletion_timestamp() || crd_condition_true(crd->json(), "Terminating"));
}

void ApiServer::finalize_crd(std::string name, std::string_view process) {
  if (!finalizing_crds_.insert(name).second) return;  // already at it, further up the stack
  auto r = resolve(api::kCustomResourceDefinitions, "", false);
  api::ObjectPtr crd = store_.get(r->table, name);
  if (!crd || !crd->deletion_timestamp() || !crd->has_finalizer(kCrdCleanupFinalizer)) {
    finalizing_crds_.erase(name);
    return;
  }
  nlohmann::json j = crd->json();
  set_crd_condition(j, "Terminating", "True", "InstanceDeletionInProgress",
                    "CustomResource deletion is in progress", now_rfc3339());
  crd = put_crd(crd, std::move(j), process);
  j = crd->json();
  if (crd_condition_true(j, "Established")) {
    const bool left = delete_crd_instances(name, process);
    if (left) {
      finalizing_crds_.erase(name);
      if (crd_check_timers_.count(name) == 0) {
        crd_check_timers_[name] = loop_->add_timer(loop_->now() + kInstanceDeletionTimeout, [this, name] {
          crd_check_timers_.erase(name);
          auto crds = resolve(api::kCustomResourceDefinitions, "", false);
          api::ObjectPtr still = store_.get(crds->table, name);
          if (!still || !still->has_finalizer(kCrdCleanupFinalizer)) return;
          nlohmann::json status = still->json();
          set_crd_condition(status, "Terminating", "True", "InstanceDeletionCheck",
                            "could not confirm zero CustomResources remaining: context deadline exceeded",
                            now_rfc3339());
          put_crd(still, std::move(status), {});
        });
      }
      return;
    }
    set_crd_condition(j, "Terminating", "False", "InstanceDeletionCompleted", "removed all instances", now_rfc3339());
  } else {
    set_crd_condition(j, "Terminating", "False", "NeverEstablished", "resource was never established", now_rfc3339());
  }
  if (auto timer = crd_check_timers_.find(name); timer != crd_check_timers_.end()) {
    loop_->cancel_timer(timer->second);
    crd_check_timers_.erase(timer);
  }
  auto& finalizers = j["metadata"]["finalizers"];
  finalizers.erase(std::remove(finalizers.begin(), finalizers.end(), kCrdCleanupFinalizer), finalizers.end());
  if (finalizers.empty()) {
    // The status update that empties the finalizers deletes the CRD instead of writing it.
    (void)finish_delete(*r, name, crd, false, process);
  } else {
    put_crd(crd, std::move(j), process);
  }
  finalizing_crds_.erase(name);
}

bool ApiServer::delete_crd_instances(const std::string& crd_name, std::string_view process) {
  const ResourceInfo* storage = nullptr;
  for (const ResourceInfo* info : registry_.all()) {
    if (info->custom && info->crd_name == crd_name && info->storage) storage = info;
  }
  if (storage == nullptr) return false;
  const api::GroupVersionResource gvr = storage->gvr;
  const TableId table = store_.table(storage->group_resource());
  // DeleteCollection once per namespace that has objects, in list order.
  std::vector<std::string> namespaces;
  store_.scan(table, store_.revision(), "", "", [&](std::string_view, const api::ObjectPtr& obj) {
    const std::string ns(obj->namespace_());
    if (std::find(namespaces.begin(), namespaces.end(), ns) == namespaces.end()) namespaces.push_back(ns);
    return true;
  });
  for (const auto& ns : namespaces) {
    (void)delete_objects(gvr, ns, api::DeleteOptions(), api::ListOptions(), process);
  }
  return store_.size(table) > 0;
}

void ApiServer::on_crd_deleted(const api::ObjectPtr& crd, std::string_view process) {
  const std::string name(crd->name());
  if (auto timer = crd_check_timers_.find(name); timer != crd_check_timers_.end()) {
    loop_->cancel_timer(timer->second);
    crd_check_timers_.erase(timer);
  }
  if (served_crds_.erase(name) != 0) {
    if (auto gr = registry_.remove_custom(name)) hub_.close_table(store_.table(*gr));
  }
  last_resolved_.reset();
  // Objects left behind (the finalizer was removed by hand) stay in storage, as in etcd.
  // The names the CRD held are free: the others of its group are named again.
  for (const auto& other : crds_of_group(group_of(crd->json()))) {
    if (!internal::crd_names_settled(other->json())) sync_crd(std::string(other->name()), process);
  }
}

}  // namespace kubesim::fakeapi
