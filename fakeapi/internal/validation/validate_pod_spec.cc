// PodSpec, pod templates and Pod create (kubernetes pkg/apis/core/validation: ValidatePodSpec,
// validatePodHostNetworkDeps, ValidateTolerations, ValidatePodTemplateSpec,
// validatePodMetadataAndSpec, ValidatePodCreate). Fields the API server defaults (restartPolicy,
// dnsPolicy, hostPort under hostNetwork) are validated as their defaults when absent; affinity,
// security contexts and DNS options other than the nameserver requirement are not validated.
#include <set>
#include <string>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

std::string string_or(const Json& j, std::string_view name, std::string_view fallback) {
  std::string v = string_member(j, name);
  return v.empty() ? std::string(fallback) : v;
}

std::int64_t int_member(const Json& j, std::string_view name) {
  return as_int(member(j, name)).value_or(0);
}

void validate_host_network_ports(const Json& spec, const std::string& path, FieldErrors& errs) {
  const Json& host_network = member(spec, "hostNetwork");
  if (!host_network.is_boolean() || !host_network.get<bool>()) return;
  const Json& containers = member(spec, "containers");
  if (!containers.is_array()) return;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const Json& ports = member(containers[i], "ports");
    if (!ports.is_array()) continue;
    for (std::size_t j = 0; j < ports.size(); ++j) {
      const std::int64_t cp = int_member(ports[j], "containerPort");
      // Defaulting sets an unset hostPort to the containerPort under hostNetwork.
      const std::int64_t hp =
          int_member(ports[j], "hostPort") == 0 ? cp : int_member(ports[j], "hostPort");
      if (hp != cp) {
        errs.invalid(
            child(index(child(index(child(path, "containers"), i), "ports"), j), "hostPort"),
            render_int(hp), "must match `containerPort` when `hostNetwork` is true");
      }
    }
  }
}

void validate_policies(const Json& spec, const std::string& path, FieldErrors& errs) {
  const std::string restart = string_or(spec, "restartPolicy", "Always");
  if (restart != "Always" && restart != "OnFailure" && restart != "Never") {
    errs.not_supported(child(path, "restartPolicy"), quote(restart),
                       {"Always", "OnFailure", "Never"});
  }
  const std::string dns = string_or(spec, "dnsPolicy", "ClusterFirst");
  if (dns != "ClusterFirstWithHostNet" && dns != "ClusterFirst" && dns != "Default" &&
      dns != "None") {
    errs.not_supported(child(path, "dnsPolicy"), quote(dns),
                       {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"});
  }
  validate_label_map(member(spec, "nodeSelector"), child(path, "nodeSelector"), errs);
  if (dns == "None") {
    const Json& config = member(spec, "dnsConfig");
    if (!present(config)) {
      errs.required(child(path, "dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None");
    } else if (!non_empty(member(config, "nameservers"))) {
      errs.required(child(child(path, "dnsConfig"), "nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None");
    }
  }
}

void validate_gates(const Json& spec, const std::string& path, FieldErrors& errs) {
  const Json& readiness = member(spec, "readinessGates");
  if (readiness.is_array()) {
    for (std::size_t i = 0; i < readiness.size(); ++i) {
      validate_label_name(string_member(readiness[i], "conditionType"),
                          child(index(child(path, "readinessGates"), i), "conditionType"), errs);
    }
  }
  const Json& scheduling = member(spec, "schedulingGates");
  if (!scheduling.is_array()) return;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < scheduling.size(); ++i) {
    const std::string name = string_member(scheduling[i], "name");
    const std::string idx = index(child(path, "schedulingGates"), i);
    validate_label_name(name, idx, errs);
    if (!seen.insert(name).second) errs.duplicate(idx, quote(name));
  }
}

void validate_spec_names(const Json& spec, const std::string& path, FieldErrors& errs) {
  auto subdomain = [&](const char* f) {
    const std::string v = string_member(spec, f);
    if (v.empty()) return;
    for (const std::string& msg : dns_subdomain_messages(v)) {
      errs.invalid(child(path, f), quote(v), msg);
    }
  };
  auto label = [&](const char* f) {
    const std::string v = string_member(spec, f);
    if (v.empty()) return;
    for (const std::string& msg : dns_label_messages(v)) {
      errs.invalid(child(path, f), quote(v), msg);
    }
  };
  subdomain("serviceAccountName");
  subdomain("nodeName");
  if (auto v = as_int(member(spec, "activeDeadlineSeconds")); v && (*v < 1 || *v > 2147483647)) {
    errs.invalid(child(path, "activeDeadlineSeconds"), render_int(*v),
                 "must be between 1 and 2147483647, inclusive");
  }
  label("hostname");
  label("subdomain");
  validate_tolerations(member(spec, "tolerations"), child(path, "tolerations"), errs);
  subdomain("priorityClassName");
  if (member(spec, "runtimeClassName").is_string()) subdomain("runtimeClassName");
}

void validate_image_whitespace(const Json& containers, const std::string& path, FieldErrors& errs) {
  if (!containers.is_array()) return;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const std::string image = string_member(containers[i], "image");
    const auto space = [](char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    if (!image.empty() && (space(image.front()) || space(image.back()))) {
      errs.invalid(child(index(path, i), "image"), quote(image),
                   "must not have leading or trailing whitespace");
    }
  }
}

}  // namespace

void validate_pod_metadata_and_spec(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_pod_spec(s.spec(), "spec", errs);
  validate_image_whitespace(member(s.spec(), "containers"), "spec.containers", errs);
  validate_image_whitespace(member(s.spec(), "initContainers"), "spec.initContainers", errs);
}

void validate_pod_create(const Subject& s, FieldErrors& errs) {
  validate_pod_metadata_and_spec(s, errs);
  if (non_empty(member(s.spec(), "ephemeralContainers"))) {
    errs.forbidden("spec.ephemeralContainers", "cannot be set on create");
  }
  if (!string_member(s.spec(), "nodeName").empty() &&
      non_empty(member(s.spec(), "schedulingGates"))) {
    errs.forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared");
  }
}

void validate_pod_spec(const Json& spec, const std::string& path, FieldErrors& errs) {
  validate_pod_containers(spec, path, errs);
  validate_host_network_ports(spec, path, errs);
  validate_policies(spec, path, errs);
  validate_gates(spec, path, errs);
  validate_spec_names(spec, path, errs);
}

void validate_pod_template(const Json& tmpl, const std::string& path, FieldErrors& errs) {
  const Json& meta = member(tmpl, "metadata");
  validate_label_map(member(meta, "labels"), child(path, "labels"), errs);
  validate_annotation_map(member(meta, "annotations"), child(path, "annotations"), errs);
  validate_pod_spec(member(tmpl, "spec"), child(path, "spec"), errs);
  if (non_empty(member(member(tmpl, "spec"), "ephemeralContainers"))) {
    errs.forbidden(child(child(path, "spec"), "ephemeralContainers"),
                   "ephemeral containers not allowed in pod template");
  }
}

void validate_tolerations(const Json& tolerations, const std::string& path, FieldErrors& errs) {
  if (!tolerations.is_array()) return;
  for (std::size_t i = 0; i < tolerations.size(); ++i) {
    const Json& t = tolerations[i];
    const std::string idx = index(path, i);
    const std::string k = string_member(t, "key");
    const std::string op = string_member(t, "operator");
    const std::string value = string_member(t, "value");
    const std::string effect = string_member(t, "effect");
    if (!k.empty()) validate_label_name(k, child(idx, "key"), errs);
    if (k.empty() && op != "Exists") {
      errs.invalid(child(idx, "operator"), quote(op),
                   "operator must be Exists when `key` is empty, which means \"match all values "
                   "and all keys\"");
    }
    if (present(member(t, "tolerationSeconds")) && effect != "NoExecute") {
      errs.invalid(child(idx, "effect"), quote(effect),
                   "effect must be 'NoExecute' when `tolerationSeconds` is set");
    }
    if (op.empty() || op == "Equal") {
      std::string joined;
      for (const std::string& msg : api::is_valid_label_value(value)) {
        joined += (joined.empty() ? "" : ";") + msg;
      }
      if (!joined.empty()) errs.invalid(child(idx, "operator"), quote(value), joined);
    } else if (op == "Exists") {
      if (!value.empty()) {
        errs.invalid(child(idx, "operator"), quote(value),
                     "value must be empty when `operator` is 'Exists'");
      }
    } else {
      errs.not_supported(child(idx, "operator"), quote(op), {"Equal", "Exists"});
    }
    if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" &&
        effect != "NoExecute") {
      errs.not_supported(child(idx, "effect"), quote(effect),
                         {"NoSchedule", "PreferNoSchedule", "NoExecute"});
    }
  }
}

}  // namespace kubesim::fakeapi::internal::validation
