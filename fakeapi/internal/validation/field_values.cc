// Field selector values: what each kind's ToSelectableFields (pkg/registry/*/strategy.go in
// kubernetes) puts in the fields.Set an object is matched against.
#include <string>
#include <vector>

#include "fakeapi/internal/validation/validation_rules.h"
#include "kubesim/fakeapi/validation.h"

namespace kubesim::fakeapi {
namespace {

using internal::validation::as_int;
using internal::validation::Json;
using internal::validation::member;
using internal::validation::string_member;

// The value at a dotted path, as the fields.Set holds it: strings as they are, booleans as
// strconv.FormatBool, integers in decimal; a missing field is "".
std::string scalar_at(const Json& obj, std::string_view path) {
  const Json* cur = &obj;
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    cur = &member(*cur, path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  if (cur->is_string()) return cur->get<std::string>();
  if (cur->is_boolean()) return cur->get<bool>() ? "true" : "false";
  if (auto n = as_int(*cur)) return std::to_string(*n);
  return "";
}

// A boolean field whose zero value still appears in the set ("false").
std::string bool_at(const Json& obj, std::string_view path) {
  const std::string v = scalar_at(obj, path);
  return v == "true" ? "true" : "false";
}

// An integer field whose zero value still appears in the set ("0").
std::string int_at(const Json& obj, std::string_view path) {
  const std::string v = scalar_at(obj, path);
  return v.empty() || v == "true" || v == "false" ? "0" : v;
}

// status.podIPs, with status.podIP standing in when only it is set (the v1 conversion does that).
std::vector<std::string> pod_ips(const Json& pod) {
  std::vector<std::string> ips;
  const Json& list = member(member(pod, "status"), "podIPs");
  if (list.is_array()) {
    for (const Json& ip : list) ips.push_back(string_member(ip, "ip"));
  }
  if (ips.empty()) {
    const std::string ip = string_member(member(pod, "status"), "podIP");
    if (!ip.empty()) ips.push_back(ip);
  }
  return ips;
}

std::string pod_field(const Json& pod, std::string_view path) {
  if (path == "spec.hostNetwork") return bool_at(pod, path);
  if (path == "status.podIP") {
    const std::vector<std::string> ips = pod_ips(pod);
    return ips.empty() ? "" : ips.front();
  }
  if (path == "status.podIPs") {
    std::string joined;
    for (const std::string& ip : pod_ips(pod)) joined += (joined.empty() ? "" : ",") + ip;
    return joined;
  }
  return scalar_at(pod, path);
}

std::string event_field(const Json& event, std::string_view path) {
  if (path == "source") {
    const std::string component = string_member(member(event, "source"), "component");
    return component.empty() ? string_member(event, "reportingComponent") : component;
  }
  return scalar_at(event, path);
}

}  // namespace

std::string field_value(const ResourceInfo& info, const nlohmann::json& obj,
                        std::string_view path) {
  if (path == "metadata.name") return string_member(member(obj, "metadata"), "name");
  if (path == "metadata.namespace") {
    return info.namespaced ? string_member(member(obj, "metadata"), "namespace") : std::string();
  }
  const std::string& group = info.gvr.group;
  const std::string& kind = info.kind;
  if (info.custom) return scalar_at(obj, path);
  if (group.empty() && kind == "Pod") return pod_field(obj, path);
  if (group.empty() && kind == "Event") return event_field(obj, path);
  if (group.empty() && kind == "Node" && path == "spec.unschedulable") return bool_at(obj, path);
  if ((group.empty() && kind == "ReplicationController") ||
      (group == "apps" && kind == "ReplicaSet")) {
    if (path == "status.replicas") return int_at(obj, path);
  }
  if (group == "batch" && kind == "Job" && path == "status.successful") {
    return int_at(obj, "status.succeeded");
  }
  return scalar_at(obj, path);
}

namespace {

// The dotted paths field_value reads for `path`.
std::vector<std::string_view> field_sources(const ResourceInfo& info, std::string_view path) {
  const std::string& group = info.gvr.group;
  const std::string& kind = info.kind;
  if (!info.custom && group.empty() && kind == "Pod" &&
      (path == "status.podIP" || path == "status.podIPs")) {
    return {"status.podIPs", "status.podIP"};
  }
  if (!info.custom && group.empty() && kind == "Event" && path == "source") {
    return {"source.component", "reportingComponent"};
  }
  if (!info.custom && group == "batch" && kind == "Job" && path == "status.successful") {
    return {"status.succeeded"};
  }
  return {path};
}

}  // namespace

std::string field_value(const ResourceInfo& info, const api::Object& obj, std::string_view path) {
  // An object holding only the values at the paths the value is made of.
  Json holder = Json::object();
  for (const std::string_view source : field_sources(info, path)) {
    Json value = obj.value_at(source);
    if (value.is_null()) continue;
    Json* at = &holder;
    for (std::string_view rest = source;;) {
      const std::size_t dot = rest.find('.');
      at = &(*at)[std::string(rest.substr(0, dot))];
      if (dot == std::string_view::npos) break;
      rest.remove_prefix(dot + 1);
    }
    *at = std::move(value);
  }
  return field_value(info, holder, path);
}

}  // namespace kubesim::fakeapi
