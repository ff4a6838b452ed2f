#include "fakeapi/internal/defaulting/hooks.h"

#include <cctype>

namespace kubesim::fakeapi::defaulting::hooks {
namespace {

const Json kNull;

const Json& member(const Json& j, std::string_view key) {
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string string_of(const Json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

// The object at j[key], made one when absent or null; null when j[key] is something else.
Json* object_member(Json& j, const char* key) {
  Json& m = j[key];
  if (m.is_null()) m = Json::object();
  return m.is_object() ? &m : nullptr;
}

// The member j[key] when j is an object that has it, else null (nothing is added).
Json* find(Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// f(e) for each object e of the list j[key], when there is one.
template <typename F>
void each_object(Json& j, const char* key, F f) {
  Json* list = find(j, key);
  if (list == nullptr || !list->is_array()) return;
  for (Json& e : *list) {
    if (e.is_object()) f(e);
  }
}

// Copies each resource of `from` missing in `to` (both ResourceLists).
void copy_missing(const Json& from, Json& to) {
  if (!from.is_object()) return;
  for (const auto& [key, value] : from.items()) {
    if (!to.contains(key)) to[key] = value;
  }
}

bool valid_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > 128) return false;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (!word(tag[0])) return false;
  for (char c : tag) {
    if (!word(c) && c != '.' && c != '-') return false;
  }
  return true;
}

}  // namespace

bool go_zero(const Json& j) {
  if (j.is_null()) return true;
  if (j.is_string()) return j.get_ref<const std::string&>().empty();
  if (j.is_boolean()) return !j.get<bool>();
  if (j.is_number()) return j.get<double>() == 0;
  return j.empty();
}

std::string image_tag(std::string_view image) {
  // dockerref.ParseNormalizedNamed's rules, as far as they decide the tag: the path after the
  // domain is lower case, a tag follows the last ':' after the last '/', a digest follows '@'.
  if (image.empty()) return "";
  const std::size_t at = image.find('@');
  const bool digest = at != std::string_view::npos;
  const std::string_view name = image.substr(0, at);
  const std::size_t slash = name.rfind('/');
  const std::size_t colon = name.rfind(':');
  std::string_view tag;
  std::string_view repo = name;
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    tag = name.substr(colon + 1);
    repo = name.substr(0, colon);
    if (!valid_tag(tag)) return "";
  }
  if (repo.empty() || (digest && at + 1 >= image.size())) return "";
  const std::size_t first = repo.find('/');
  const std::string_view head = repo.substr(0, first);
  const bool domain = first != std::string_view::npos &&
                      (head.find_first_of(".:") != std::string_view::npos || head == "localhost");
  const std::string_view path = domain ? repo.substr(first + 1) : repo;
  for (char c : path) {
    if (std::isupper(static_cast<unsigned char>(c)) || std::isspace(static_cast<unsigned char>(c))) {
      return "";
    }
  }
  if (tag.empty() && !digest) return "latest";
  return std::string(tag);
}

void container_pull_policy(Json& container) {
  if (!go_zero(member(container, "imagePullPolicy"))) return;
  container["imagePullPolicy"] =
      image_tag(string_of(member(container, "image"))) == "latest" ? "Always" : "IfNotPresent";
}

void replication_controller_labels(Json& rc) {
  const Json& labels =
      member(member(member(member(rc, "spec"), "template"), "metadata"), "labels");
  if (!labels.is_object() || labels.empty()) return;
  const Json copy = labels;
  if (Json* spec = object_member(rc, "spec"); spec && go_zero(member(*spec, "selector"))) {
    (*spec)["selector"] = copy;
  }
  if (Json* meta = object_member(rc, "metadata"); meta && go_zero(member(*meta, "labels"))) {
    (*meta)["labels"] = copy;
  }
}

void volume_empty_dir(Json& volume) {
  for (const auto& [key, value] : volume.items()) {
    if (key != "name" && !value.is_null()) return;
  }
  volume["emptyDir"] = Json::object();
}

void service_session_affinity_config(Json& service) {
  Json* spec = object_member(service, "spec");
  if (spec == nullptr) return;
  const std::string affinity = string_of(member(*spec, "sessionAffinity"));
  if (affinity == "None") {
    spec->erase("sessionAffinityConfig");
  } else if (affinity == "ClientIP") {
    const Json& timeout =
        member(member(member(*spec, "sessionAffinityConfig"), "clientIP"), "timeoutSeconds");
    if (timeout.is_null()) {
      (*spec)["sessionAffinityConfig"] = {{"clientIP", {{"timeoutSeconds", 10800}}}};
    }
  }
}

void service_ports(Json& service) {
  Json* spec = find(service, "spec");
  if (spec == nullptr) return;
  each_object(*spec, "ports", [](Json& port) {
    if (go_zero(member(port, "protocol"))) port["protocol"] = "TCP";
    const Json& target = member(port, "targetPort");
    if (go_zero(target)) {
      const Json& number = member(port, "port");
      port["targetPort"] = number.is_number_integer() ? number : Json(0);
    }
  });
}

void service_external_traffic_policy(Json& service) {
  Json* spec = object_member(service, "spec");
  if (spec == nullptr) return;
  const std::string type = string_of(member(*spec, "type"));
  const bool external = type == "LoadBalancer" || type == "NodePort" ||
                        (type == "ClusterIP" && !go_zero(member(*spec, "externalIPs")));
  if (external && go_zero(member(*spec, "externalTrafficPolicy"))) {
    (*spec)["externalTrafficPolicy"] = "Cluster";
  }
}

void service_ingress_ip_mode(Json& service) {
  if (string_of(member(member(service, "spec"), "type")) != "LoadBalancer") return;
  Json* status = find(service, "status");
  Json* balancer = status != nullptr ? find(*status, "loadBalancer") : nullptr;
  if (balancer == nullptr) return;
  each_object(*balancer, "ingress", [](Json& ingress) {
    if (!go_zero(member(ingress, "ip")) && member(ingress, "ipMode").is_null()) {
      ingress["ipMode"] = "VIP";
    }
  });
}

void pod_requests_from_limits(Json& pod) {
  Json* spec = find(pod, "spec");
  if (spec == nullptr) return;
  for (const char* list : {"containers", "initContainers"}) {
    each_object(*spec, list, [](Json& container) {
      const Json& limits = member(member(container, "resources"), "limits");
      if (!limits.is_object()) return;
      Json* requests = object_member(container["resources"], "requests");
      if (requests != nullptr) copy_missing(limits, *requests);
    });
  }
}

void pod_host_network_ports(Json& pod) {
  if (member(member(pod, "spec"), "hostNetwork") != Json(true)) return;
  for (const char* list : {"containers", "initContainers"}) {
    each_object(pod["spec"], list, [](Json& container) {
      each_object(container, "ports", [](Json& port) {
        if (go_zero(member(port, "hostPort"))) port["hostPort"] = member(port, "containerPort");
      });
    });
  }
}

void pod_spec_service_account(Json& spec) {
  if (go_zero(member(spec, "serviceAccountName")) && !go_zero(member(spec, "serviceAccount"))) {
    spec["serviceAccountName"] = spec["serviceAccount"];
  }
  const Json& name = member(spec, "serviceAccountName");
  if (go_zero(name)) {
    spec.erase("serviceAccount");
  } else {
    spec["serviceAccount"] = Json(name);
  }
}

void namespace_name_label(Json& ns) {
  const std::string name = string_of(member(member(ns, "metadata"), "name"));
  if (name.empty()) return;
  Json* meta = object_member(ns, "metadata");
  Json* labels = meta != nullptr ? object_member(*meta, "labels") : nullptr;
  if (labels != nullptr) (*labels)["kubernetes.io/metadata.name"] = name;
}

void node_allocatable(Json& status) {
  if (member(status, "allocatable").is_null() && member(status, "capacity").is_object()) {
    status["allocatable"] = Json(status["capacity"]);
  }
}

void limit_range_item(Json& item) {
  if (string_of(member(item, "type")) != "Container") return;
  Json* defaults = object_member(item, "default");
  Json* requests = object_member(item, "defaultRequest");
  if (defaults == nullptr || requests == nullptr) return;
  copy_missing(member(item, "max"), *defaults);
  copy_missing(*defaults, *requests);
  copy_missing(member(item, "min"), *requests);
}

void job_completions_parallelism(Json& job) {
  Json* spec = object_member(job, "spec");
  if (spec == nullptr) return;
  if (member(*spec, "completions").is_null() && member(*spec, "parallelism").is_null()) {
    (*spec)["completions"] = 1;
    (*spec)["parallelism"] = 1;
  }
  if (member(*spec, "parallelism").is_null()) (*spec)["parallelism"] = 1;
}

void job_labels_from_template(Json& job) {
  const Json& labels =
      member(member(member(member(job, "spec"), "template"), "metadata"), "labels");
  if (!labels.is_object() || labels.empty()) return;
  Json* meta = object_member(job, "metadata");
  if (meta != nullptr && go_zero(member(*meta, "labels"))) (*meta)["labels"] = Json(labels);
}

namespace {

// copyHPAScalingRules onto a copy of the defaults: each member the rules set wins.
Json scaling_rules(const Json& given, Json defaults) {
  if (!given.is_object()) return defaults;
  for (const char* key : {"selectPolicy", "stabilizationWindowSeconds", "policies", "tolerance"}) {
    const Json& v = member(given, key);
    if (!v.is_null()) defaults[key] = v;
  }
  return defaults;
}

}  // namespace

void hpa_behavior(Json& hpa) {
  const Json& behavior = member(member(hpa, "spec"), "behavior");
  if (!behavior.is_object()) return;
  const Json up = {{"stabilizationWindowSeconds", 0},
                   {"selectPolicy", "Max"},
                   {"policies",
                    {{{"type", "Pods"}, {"value", 4}, {"periodSeconds", 15}},
                     {{"type", "Percent"}, {"value", 100}, {"periodSeconds", 15}}}}};
  const Json down = {{"selectPolicy", "Max"},
                     {"policies", {{{"type", "Percent"}, {"value", 100}, {"periodSeconds", 15}}}}};
  Json next = behavior;
  next["scaleUp"] = scaling_rules(member(behavior, "scaleUp"), up);
  next["scaleDown"] = scaling_rules(member(behavior, "scaleDown"), down);
  hpa["spec"]["behavior"] = std::move(next);
}

}  // namespace kubesim::fakeapi::defaulting::hooks
