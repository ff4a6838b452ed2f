// The subresources beyond /status: /scale of the workload kinds and of custom resources with a
// scale subresource, namespaces/finalize, pods/binding (and the core bindings resource),
// the subresources that write one part of their object (pods/ephemeralcontainers, pods/resize,
// certificatesigningrequests/approval), and those that need a kubelet on a real node, which are
// refused with a 501. pods/eviction is in server_eviction.cc.
#include <algorithm>

#include "fakeapi/internal/server_util.h"
#include "fakeapi/internal/validation/field_errors.h"
#include "kubesim/api/labels.h"
#include "kubesim/fakeapi/patch.h"
#include "kubesim/fakeapi/server.h"

namespace kubesim::fakeapi {
namespace {

using internal::object_answer;

using internal::validation::member;
using nlohmann::json;

// A CRD's ".spec.replicas" as its members.
std::vector<std::string> path_members(std::string_view path) {
  std::vector<std::string> out;
  if (!path.empty() && path.front() == '.') path.remove_prefix(1);
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    out.emplace_back(path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return out;
}

const json& at_path(const json& j, std::string_view path) {
  const json* at = &j;
  for (const std::string& m : path_members(path)) at = &member(*at, m);
  return *at;
}

void set_path(json& j, std::string_view path, json value) {
  json* at = &j;
  for (const std::string& m : path_members(path)) {
    if (!at->is_object()) *at = json::object();
    at = &(*at)[m];
  }
  *at = std::move(value);
}

std::int64_t int_or(const json& j, std::int64_t fallback) {
  return j.is_number_integer() ? j.get<std::int64_t>() : fallback;
}

// The Scale's status.selector: the workload's selector as selector text. A ReplicationController's
// is a map (labels.SelectorFromSet); the apps kinds' a LabelSelector (LabelSelectorAsSelector).
std::string selector_text(const ResourceInfo& info, const json& obj) {
  const json& selector = member(member(obj, "spec"), "selector");
  if (info.custom) {
    const json& text = at_path(obj, info.scale.label_selector);
    return text.is_string() ? text.get<std::string>() : std::string();
  }
  if (info.gvr.group.empty()) {
    std::map<std::string, std::string> set;
    if (selector.is_object()) {
      for (const auto& [k, v] : selector.items()) {
        if (v.is_string()) set[k] = v.get<std::string>();
      }
    }
    return api::selector_from_set(set).to_string();
  }
  auto parsed = api::label_selector_from_json(selector);
  return parsed ? parsed.value().to_string() : std::string();
}

// autoscaling/v1 Scale of a workload object (scaleFromDeployment and its kin; for custom
// resources the CRD's scale paths, a missing replicas field reading as 0).
json scale_of(const ResourceInfo& info, const json& obj) {
  const json& meta = member(obj, "metadata");
  json scale_meta = json::object();
  for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    if (meta.contains(key)) scale_meta[key] = meta[key];
  }
  std::int64_t spec_replicas = 0;
  std::int64_t status_replicas = 0;
  if (info.custom) {
    spec_replicas = int_or(at_path(obj, info.scale.spec_replicas), 0);
    status_replicas = int_or(at_path(obj, info.scale.status_replicas), 0);
  } else {
    // The kinds default spec.replicas to 1.
    spec_replicas = int_or(member(member(obj, "spec"), "replicas"), 1);
    status_replicas = int_or(member(member(obj, "status"), "replicas"), 0);
  }
  json status = {{"replicas", status_replicas}};
  const std::string selector = selector_text(info, obj);
  if (!selector.empty()) status["selector"] = selector;
  json spec = json::object();
  if (spec_replicas != 0) spec["replicas"] = spec_replicas;
  return json{{"kind", "Scale"},
              {"apiVersion", "autoscaling/v1"},
              {"metadata", std::move(scale_meta)},
              {"spec", std::move(spec)},
              {"status", std::move(status)}};
}

// ValidateScale: metadata and a replica count that is not negative.
std::optional<api::Status> invalid_scale(const json& scale, std::string_view name) {
  const json& replicas = member(member(scale, "spec"), "replicas");
  if (!replicas.is_null() && !replicas.is_number_integer()) {
    return api::new_bad_request("the body of the request could not be decoded: spec.replicas: "
                                "expected an integer");
  }
  if (int_or(replicas, 0) < 0) {
    return api::new_invalid({"autoscaling", "Scale"}, name,
                            {{"FieldValueInvalid",
                              "Invalid value: " + replicas.dump() +
                                  ": must be greater than or equal to 0",
                              "spec.replicas"}});
  }
  return std::nullopt;
}

// The object a subresource's update or patch asks for: the update's body, or `old` patched.
api::Result<json> requested(const Request& request, const json& old, const PatchSchema& schema) {
  if (request.verb != Verb::kUpdate) return apply_patch(old, request.patch_type, request.patch_body, schema);
  if (!request.object) return api::new_bad_request("the request has no object to update");
  return request.object->to_json();
}

bool dry_run_of(const Request& request) {
  return request.verb == Verb::kUpdate ? request.update_options().dry_run
                                       : request.patch_options().dry_run;
}

// The answer of a subresource that changes its pod and answers a Status (binding, eviction):
// the create handler sets the Success status's code to 201.
json success_status() {
  return json{{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", json::object()},
              {"status", "Success"}, {"code", 201}};
}

}  // namespace

api::Status internal::node_only(const ResourceInfo& info, std::string_view subresource,
                                std::string_view name) {
  api::Status s;
  s.code = 501;
  s.message = info.gvr.resource + "/" + std::string(subresource) + " of \"" + std::string(name) +
              "\" is not served by kubesim: it needs a kubelet on a real node (kubesim simulates "
              "the API server, not containers)";
  return s;
}

Response ApiServer::serve_subresource(const Request& request, const ResourceInfo& info) {
  const std::string_view sub = api::to_string(request.subresource);
  switch (request.subresource) {
    case Subresource::kScale:
      return serve_scale(request, info);
    case Subresource::kBinding:
      return serve_binding(request, request.name);
    case Subresource::kEviction:
      return serve_eviction(request);
    case Subresource::kFinalize:
    case Subresource::kEphemeralContainers:
    case Subresource::kResize:
    case Subresource::kApproval:
      return serve_part_update(request, info);
    case Subresource::kToken: {
      api::Status s;
      s.code = 501;
      s.message = "serviceaccounts/token is not served by kubesim yet: it does not sign tokens";
      return Response::failure(std::move(s));
    }
    default:
      return Response::failure(internal::node_only(info, sub, request.name));
  }
}

Response ApiServer::serve_scale(const Request& request, const ResourceInfo& info) {
  auto parent = stored_parent(request, info);
  if (!parent) return Response::failure(parent.status());
  const api::ObjectPtr& current = parent.value().second;
  const json obj = current->to_json();
  if (request.verb == Verb::kGet) return object_answer(stamp(scale_of(info, obj)), 200);
  if (request.verb == Verb::kUpdate && request.object &&
      std::string_view(request.object->name()) != request.name) {
    return Response::failure(api::new_bad_request(
        "the name of the object (" + std::string(request.object->name()) +
        ") does not match the name on the URL (" + request.name + ")"));
  }
  auto asked = requested(request, scale_of(info, obj), builtin_patch_schema("autoscaling", "Scale"));
  if (!asked) return Response::failure(std::move(asked).status());
  const json& scale = asked.value();
  const bool dry_run = dry_run_of(request);
  if (auto bad = invalid_scale(scale, request.name)) return Response::failure(*bad);
  // The workload takes the Scale's replicas and resourceVersion (a stale one conflicts), and is
  // written by its own update: validated, its generation bumped.
  json next = obj;
  const std::int64_t replicas = int_or(member(member(scale, "spec"), "replicas"), 0);
  set_path(next, info.custom ? info.scale.spec_replicas : ".spec.replicas", replicas);
  const json& rv = member(member(scale, "metadata"), "resourceVersion");
  next["metadata"]["resourceVersion"] =
      rv.is_string() && !rv.get<std::string>().empty() ? rv : json(current->resource_version());
  auto update = std::make_unique<Request>();
  update->verb = Verb::kUpdate;
  update->resource = request.resource;
  update->ns = request.ns;
  update->name = request.name;
  update->process = request.process;
  update->options = api::UpdateOptions{.dry_run = dry_run};
  auto object = stored_object(std::move(next));
  if (!object) return Response::failure(object.status());
  update->object = object.value();
  std::vector<std::string> warnings;
  auto written = update_object(*update, &warnings);
  if (!written) return Response::failure(std::move(written).status());
  Response response = object_answer(stamp(scale_of(info, written.value()->to_json())), 200);
  response.warnings = std::move(warnings);
  return response;
}

api::Result<std::pair<ApiServer::Resolved, api::ObjectPtr>> ApiServer::stored_parent(
    const Request& request, const ResourceInfo& info) {
  auto r = resolve(request.resource, request.ns, false);
  if (!r) return r.status();
  api::ObjectPtr current = store_.get(r->table, internal::object_key(info, request.ns, request.name));
  if (!current) return api::new_not_found(info.group_resource(), request.name);
  return std::make_pair(std::move(r).value(), std::move(current));
}

Response ApiServer::serve_binding(const Request& request, std::string_view pod_name) {
  if (!request.object) return Response::failure(api::new_bad_request("the request has no Binding"));
  const json binding = request.object->to_json();
  if (std::string_view(request.object->name()) != pod_name) {
    return Response::failure(api::new_bad_request("name in URL does not match name in Binding object"));
  }
  // ValidatePodBinding's errors reach the client as an internal error (they are no API status).
  const json& target = member(binding, "target");
  const json& kind = member(target, "kind");
  const json& node = member(target, "name");
  std::vector<std::string> errors;
  if (kind.is_string() && !kind.get<std::string>().empty() && kind != "Node") {
    errors.push_back("target.kind: Unsupported value: " + kind.dump() +
                     ": supported values: \"Node\", \"<empty>\"");
  }
  if (!node.is_string() || node.get<std::string>().empty()) {
    errors.push_back("target.name: Required value");
  }
  if (!errors.empty()) {
    std::string text = errors.size() == 1 ? errors[0] : "[" + errors[0] + ", " + errors[1] + "]";
    return Response::failure(api::new_internal_error(text));
  }
  auto r = resolve(api::GroupVersionResource{"", "v1", "pods"}, request.ns, false);
  if (!r) return Response::failure(r.status());
  const std::string key = internal::object_key(*r->info, request.ns, pod_name);
  api::ObjectPtr pod = store_.get(r->table, key);
  const api::GroupResource pods{"", "pods"};
  if (!pod) return Response::failure(api::new_not_found(pods, pod_name));
  const json& meta = member(binding, "metadata");
  const json& uid = member(meta, "uid");
  const json& rv = member(meta, "resourceVersion");
  if (uid.is_string() && !uid.get<std::string>().empty() && uid != pod->uid()) {
    return Response::failure(api::new_conflict(
        pods, pod_name,
        "Precondition failed: UID in precondition: " + uid.get<std::string>() +
            ", UID in object meta: " + std::string(pod->uid())));
  }
  if (rv.is_string() && !rv.get<std::string>().empty() && rv != pod->resource_version()) {
    return Response::failure(api::new_conflict(pods, pod_name, api::kOptimisticLockErrorMsg));
  }
  const api::GroupResource binding_resource{"", "pods/binding"};
  json next = pod->to_json();
  const json& spec = member(next, "spec");
  const std::string name(pod_name);
  if (pod->deletion_timestamp()) {
    return Response::failure(api::new_conflict(
        binding_resource, pod_name, "pod " + name + " is being deleted, cannot be assigned to a host"));
  }
  const json& assigned = member(spec, "nodeName");
  if (assigned.is_string() && !assigned.get<std::string>().empty()) {
    return Response::failure(api::new_conflict(
        binding_resource, pod_name,
        "pod " + name + " is already assigned to node " + assigned.dump()));
  }
  const json& gates = member(spec, "schedulingGates");
  if (gates.is_array() && !gates.empty()) {
    return Response::failure(api::new_conflict(
        binding_resource, pod_name, "pod " + name + " has non-empty .spec.schedulingGates"));
  }
  // setPodNodeAndMetadata: the node, the binding's annotations, PodScheduled=True.
  next["spec"]["nodeName"] = node;
  const json& annotations = member(meta, "annotations");
  if (annotations.is_object()) {
    for (const auto& [k, v] : annotations.items()) next["metadata"]["annotations"][k] = v;
  }
  json& conditions = next["status"]["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  json condition = {{"type", "PodScheduled"}, {"status", "True"}, {"lastProbeTime", nullptr},
                    {"lastTransitionTime", now_rfc3339()}};
  auto same = std::find_if(conditions.begin(), conditions.end(),
                           [](const json& c) { return member(c, "type") == "PodScheduled"; });
  if (same == conditions.end()) {
    conditions.push_back(std::move(condition));
  } else {
    if (member(*same, "status") == "True") condition["lastTransitionTime"] = member(*same, "lastTransitionTime");
    *same = std::move(condition);
  }
  if (!request.create_options().dry_run) {
    render_stored(*r->info, next);
    put_direct(*r, pod, std::move(next), request.process, "api.bind");
  }
  return object_answer(stamp(success_status()), 201);
}

Response ApiServer::serve_part_update(const Request& request, const ResourceInfo& info) {
  auto parent = stored_parent(request, info);
  if (!parent) return Response::failure(parent.status());
  const Resolved& r = parent.value().first;
  const api::ObjectPtr& current = parent.value().second;
  if (request.verb == Verb::kGet) return object_answer(current, 200);
  const json old = current->to_json();
  auto asked = requested(request, old, builtin_patch_schema(info.gvr.group, info.kind));
  if (!asked) return Response::failure(std::move(asked).status());
  const json& body = asked.value();
  const bool dry_run = dry_run_of(request);
  const json& rv = member(member(body, "metadata"), "resourceVersion");
  if (rv.is_string() && !rv.get<std::string>().empty() && rv != current->resource_version()) {
    return Response::failure(api::new_conflict(info.group_resource(), request.name,
                                               api::kOptimisticLockErrorMsg));
  }
  // Each subresource's strategy keeps the stored object and takes one part of the new one.
  json next = old;
  auto take = [&](const char* outer, const char* inner) {
    const json& value = member(member(body, outer), inner);
    if (value.is_null()) {
      if (next.contains(outer) && next[outer].is_object()) next[outer].erase(inner);
    } else {
      next[outer][inner] = value;
    }
  };
  switch (request.subresource) {
    case Subresource::kFinalize:  // finalizeNamespaceStrategy: spec.finalizers
      take("spec", "finalizers");
      break;
    case Subresource::kEphemeralContainers:  // podEphemeralContainersStrategy
      take("spec", "ephemeralContainers");
      break;
    case Subresource::kApproval:  // csrApprovalStrategy: status.conditions
      take("status", "conditions");
      break;
    case Subresource::kResize: {  // podResizeStrategy: each container's resources and resizePolicy
      const json& containers = member(member(body, "spec"), "containers");
      json& stored = next["spec"]["containers"];
      if (containers.is_array() && stored.is_array() && containers.size() == stored.size()) {
        for (std::size_t i = 0; i < stored.size(); ++i) {
          for (const char* part : {"resources", "resizePolicy"}) {
            const json& value = member(containers[i], part);
            if (value.is_null()) {
              stored[i].erase(part);
            } else {
              stored[i][part] = value;
            }
          }
        }
      }
      break;
    }
    default:
      break;
  }
  render_stored(info, next);
  if (dry_run) return object_answer(stamp(std::move(next)), 200);
  const bool finalized = request.subresource == Subresource::kFinalize &&
                         current->deletion_timestamp() &&
                         member(member(next, "spec"), "finalizers").empty();
  api::ObjectPtr written = put_direct(r, current, std::move(next), request.process, "api.update");
  // The namespace registry deletes a terminating namespace whose last finalizer went.
  if (finalized) maybe_finalize_namespace(request.name, request.process);
  return object_answer(written, 200);
}

api::ObjectPtr ApiServer::put_direct(const Resolved& r, const api::ObjectPtr& current, json next,
                                     std::string_view process, std::string_view trace_kind) {
  internal::drop_empty_metadata(next["metadata"]);
  next["metadata"]["resourceVersion"] = current->resource_version();
  if (current->same_as(next)) return current;
  next["metadata"]["resourceVersion"] = std::to_string(store_.next_revision());
  auto parsed = stored_object(std::move(next));
  if (!parsed) return current;
  trace_write(process, trace_kind, r, current->name(), store_.next_revision());
  const Change& change = store_.put(r.table, internal::object_key(*r.info, r.ns, current->name()), parsed.value());
  return change.object;
}

}  // namespace kubesim::fakeapi
