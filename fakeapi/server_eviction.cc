// pods/eviction: a pod deleted only if the PodDisruptionBudget that covers it allows one more
// disruption (kube-apiserver's EvictionREST.Create, pkg/registry/core/pod/storage/eviction.go).
// The budget's status is the disruption controller's to keep up to date; the eviction reads
// disruptionsAllowed, decrements it and records the pod in status.disruptedPods.
#include <algorithm>

#include "fakeapi/internal/server_util.h"
#include "fakeapi/internal/validation/field_errors.h"
#include "kubesim/api/labels.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi {
namespace {

using internal::validation::member;
using nlohmann::json;

std::int64_t int_at(const json& j, std::string_view key) {
  const json& v = member(j, key);
  return v.is_number_integer() ? v.get<std::int64_t>() : 0;
}

// podutil.IsPodReady: the Ready condition is True.
bool pod_ready(const json& pod) {
  const json& conditions = member(member(pod, "status"), "conditions");
  if (!conditions.is_array()) return false;
  return std::any_of(conditions.begin(), conditions.end(), [](const json& c) {
    return member(c, "type") == "Ready" && member(c, "status") == "True";
  });
}

// canIgnorePDB: a terminal, pending or terminating pod is deleted without asking its budget.
bool can_ignore_budget(const api::Object& pod, const json& j) {
  const json& phase = member(member(j, "status"), "phase");
  return phase == "Succeeded" || phase == "Failed" || phase == "Pending" ||
         pod.deletion_timestamp().has_value();
}

// shouldEnforceResourceVersion: the delete races no readiness change for a terminal or
// terminating pod.
bool enforce_revision(const api::Object& pod, const json& j) {
  const json& phase = member(member(j, "status"), "phase");
  return !(phase == "Succeeded" || phase == "Failed" || pod.deletion_timestamp().has_value());
}

api::Status budget_not_ready(std::string_view pdb) {
  api::Status s = api::new_too_many_requests(
      "Cannot evict pod as it would violate the pod's disruption budget.", 10);
  s.details->causes.push_back({"DisruptionBudget",
                               "The disruption budget " + std::string(pdb) +
                                   " is still being processed by the server.",
                               ""});
  return s;
}

json success_status() {
  return json{{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", json::object()},
              {"status", "Success"}, {"code", 201}};
}

// pdbhelper.UpdateDisruptionAllowedCondition, as apimeta.SetStatusCondition sets it: the
// transition time moves only when the status does.
void set_disruption_condition(json& status, std::int64_t observed, const std::string& now) {
  const bool allowed = int_at(status, "disruptionsAllowed") > 0;
  json condition = {{"type", "DisruptionAllowed"},
                    {"status", allowed ? "True" : "False"},
                    {"observedGeneration", observed},
                    {"lastTransitionTime", now},
                    {"reason", allowed ? "SufficientPods" : "InsufficientPods"},
                    {"message", ""}};
  json& conditions = status["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  for (json& c : conditions) {
    if (member(c, "type") != "DisruptionAllowed") continue;
    if (member(c, "status") == condition["status"]) condition["lastTransitionTime"] = member(c, "lastTransitionTime");
    c = std::move(condition);
    return;
  }
  conditions.push_back(std::move(condition));
}

}  // namespace

Response ApiServer::serve_eviction(const Request& request) {
  using internal::object_answer;
  if (!request.object) return Response::failure(api::new_bad_request("the request has no Eviction"));
  if (std::string_view(request.object->name()) != request.name) {
    return Response::failure(api::new_bad_request("name in URL does not match name in Eviction object"));
  }
  const json eviction = request.object->to_json();
  api::DeleteOptions options;
  if (const json& d = member(eviction, "deleteOptions"); d.is_object()) {
    if (auto bad = internal::delete_options_from_json(d, options)) return Response::failure(*bad);
  }
  options.dry_run = options.dry_run || request.create_options().dry_run;
  const bool revision_unset = !options.preconditions.resource_version.has_value();
  const api::GroupVersionResource pods{"", "v1", "pods"};
  auto r = resolve(pods, request.ns, false);
  if (!r) return Response::failure(r.status());
  api::ObjectPtr pod = store_.get(r->table, internal::object_key(*r->info, request.ns, request.name));
  if (!pod) return Response::failure(api::new_not_found({"", "pods"}, request.name));
  const json pod_json = pod->to_json();
  auto remove = [&](api::DeleteOptions o) {
    return delete_object(pods, request.ns, request.name, o, request.process);
  };
  if (can_ignore_budget(*pod, pod_json)) {
    api::DeleteOptions o = options;
    if (enforce_revision(*pod, pod_json) && revision_unset) {
      o.preconditions.resource_version = std::string(pod->resource_version());
    }
    auto deleted = remove(o);
    if (!deleted) return Response::failure(deleted.status());
    return object_answer(stamp(success_status()), 201);
  }
  // getPodDisruptionBudgets: the budgets of the pod's namespace whose selector (never an empty
  // or invalid one) matches its labels.
  std::vector<api::ObjectPtr> budgets;
  auto pdbs = resolve({"policy", "v1", "poddisruptionbudgets"}, request.ns, false);
  if (!pdbs) return Response::failure(pdbs.status());
  const json& labels = member(member(pod_json, "metadata"), "labels");
  store_.scan(pdbs->table, store_.revision(), request.ns + "/", "",
              [&](std::string_view, const api::ObjectPtr& pdb) {
                auto selector = api::label_selector_from_json(
                    member(member(pdb->to_json(), "spec"), "selector"));
                if (selector && !selector.value().empty() && !selector.value().matches_nothing() &&
                    selector.value().matches(labels)) {
                  budgets.push_back(pdb);
                }
                return true;
              });
  if (budgets.size() > 1) {
    api::Status s;
    s.code = 500;
    s.message = "This pod has more than one PodDisruptionBudget, which the eviction subresource "
                "does not support.";
    return Response::failure(std::move(s));
  }
  bool guard_revision = false;
  if (budgets.size() == 1) {
    const api::ObjectPtr& pdb = budgets.front();
    const std::string pdb_name(pdb->name());
    json next = pdb->to_json();
    json& status = next["status"];
    const json& policy = member(member(next, "spec"), "unhealthyPodEvictionPolicy");
    // An unready pod does not count as healthy: it goes without a decrement when the policy
    // is AlwaysAllow, or (IfHealthyBudget, the default) while the budget is met.
    if (!pod_ready(pod_json) &&
        (policy == "AlwaysAllow" ||
         (int_at(status, "currentHealthy") >= int_at(status, "desiredHealthy") &&
          int_at(status, "desiredHealthy") > 0))) {
      guard_revision = true;
    } else {
      // checkAndDecrement.
      if (int_at(status, "observedGeneration") < pdb->generation()) {
        return Response::failure(budget_not_ready(pdb_name));
      }
      const std::int64_t allowed = int_at(status, "disruptionsAllowed");
      if (allowed < 0) {
        return Response::failure(api::new_forbidden({"policy", "poddisruptionbudget"}, pdb_name,
                                                    "pdb disruptions allowed is negative"));
      }
      const json& disrupted = member(status, "disruptedPods");
      if (disrupted.is_object() && disrupted.size() > 2000) {
        return Response::failure(api::new_forbidden(
            {"policy", "poddisruptionbudget"}, pdb_name,
            "DisruptedPods map too big - too many evictions not confirmed by PDB controller"));
      }
      if (allowed == 0) {
        api::Status s = api::new_too_many_requests(
            "Cannot evict pod as it would violate the pod's disruption budget.", 0);
        s.details->causes.push_back(
            {"DisruptionBudget",
             "The disruption budget " + pdb_name + " needs " +
                 std::to_string(int_at(status, "desiredHealthy")) + " healthy pods and has " +
                 std::to_string(int_at(status, "currentHealthy")) + " currently",
             ""});
        return Response::failure(std::move(s));
      }
      status["disruptionsAllowed"] = allowed - 1;
      if (allowed - 1 == 0) set_disruption_condition(status, int_at(status, "observedGeneration"), now_rfc3339());
      if (!options.dry_run) {
        status["disruptedPods"][request.name] = now_rfc3339();
        put_direct(*pdbs, pdb, std::move(next), request.process, "api.update_status");
      }
    }
  }
  api::DeleteOptions o = options;
  if (guard_revision) o.preconditions.resource_version = std::string(pod->resource_version());
  auto deleted = remove(o);
  if (!deleted) {
    if (api::is_conflict(deleted.status()) && guard_revision && revision_unset) {
      return Response::failure(budget_not_ready(budgets.front()->name()));
    }
    return Response::failure(deleted.status());
  }
  return object_answer(stamp(success_status()), 201);
}

}  // namespace kubesim::fakeapi
