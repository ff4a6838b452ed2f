// Service (kubernetes pkg/apis/core/validation: ValidateService, validateServicePort,
// validateServiceExternalTrafficPolicy, validateServiceInternalTrafficFieldsValue,
// ValidateServiceUpdate, validateUpgradeDowngradeClusterIPs). Fields the API server defaults
// (type, protocol, targetPort, sessionAffinity, externalTrafficPolicy, internalTrafficPolicy) are
// validated as their defaults when absent.
#include <set>
#include <utility>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::string_view kExternalName = "ExternalName";

std::vector<std::string> cluster_ips(const Json& spec) {
  std::vector<std::string> ips;
  const Json& list = member(spec, "clusterIPs");
  if (list.is_array()) {
    for (const Json& ip : list) {
      ips.push_back(ip.is_string() ? ip.get<std::string>() : std::string());
    }
  }
  if (ips.empty()) {
    const std::string ip = string_member(spec, "clusterIP");
    if (!ip.empty()) ips.push_back(ip);
  }
  return ips;
}

struct ServiceView {
  std::string type;
  std::vector<std::string> ips;
  bool headless = false;
};

ServiceView view(const Json& spec, std::vector<std::string> ips) {
  ServiceView v;
  v.type = string_member(spec, "type");
  if (v.type.empty()) v.type = "ClusterIP";
  v.ips = std::move(ips);
  v.headless = v.ips.size() == 1 && v.ips[0] == "None";
  return v;
}

std::string port_protocol(const Json& port) {
  std::string p = string_member(port, "protocol");
  return p.empty() ? "TCP" : p;
}

std::int64_t int_member(const Json& j, std::string_view name) {
  return as_int(member(j, name)).value_or(0);
}

void validate_type_specific(const Json& spec, const ServiceView& v, FieldErrors& errs) {
  if ((v.type == "LoadBalancer" || v.type == "NodePort") && v.headless) {
    errs.invalid("spec.clusterIPs[0]", quote(v.ips[0]),
                 "may not be set to 'None' for " + v.type + " services");
  }
  if (v.type != kExternalName) return;
  if (!v.ips.empty()) errs.forbidden("spec.clusterIPs", "may not be set for ExternalName services");
  if (non_empty(member(spec, "ipFamilies"))) {
    errs.forbidden("spec.ipFamilies", "may not be set for ExternalName services");
  }
  if (present(member(spec, "ipFamilyPolicy"))) {
    errs.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services");
  }
  std::string cname = string_member(spec, "externalName");
  if (!cname.empty() && cname.back() == '.') cname.pop_back();
  if (cname.empty()) {
    errs.required("spec.externalName");
  } else {
    for (const std::string& msg : dns_subdomain_messages(cname)) {
      errs.invalid("spec.externalName", quote(cname), msg);
    }
  }
}

void validate_service_port(const Json& port, bool require_name, std::set<std::string>& names,
                           const std::string& path, FieldErrors& errs) {
  const std::string name = string_member(port, "name");
  if (require_name && name.empty()) {
    errs.required(child(path, "name"));
  } else if (!name.empty()) {
    for (const std::string& msg : dns_label_messages(name)) {
      errs.invalid(child(path, "name"), quote(name), msg);
    }
    if (!names.insert(name).second) errs.duplicate(child(path, "name"), quote(name));
  }
  const std::int64_t number = int_member(port, "port");
  if (number < 1 || number > 65535) {
    errs.invalid(child(path, "port"), render_int(number), port_range_message());
  }
  const std::string protocol = port_protocol(port);
  if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
    errs.not_supported(child(path, "protocol"), quote(protocol), {"SCTP", "TCP", "UDP"});
  }
  // An unset (0 or "") targetPort defaults to the port.
  const Json& target = member(port, "targetPort");
  const bool unset = !present(target) ||
                     (target.is_string() && target.get_ref<const std::string&>().empty()) ||
                     as_int(target) == std::optional<std::int64_t>(0);
  validate_port_num_or_name(unset ? Json(number) : target, child(path, "targetPort"), errs);
  const Json& app = member(port, "appProtocol");
  if (app.is_string()) {
    for (const std::string& msg : api::is_qualified_name(app.get_ref<const std::string&>())) {
      errs.invalid(child(path, "appProtocol"), quote(app.get_ref<const std::string&>()), msg);
    }
  }
}

void validate_ports(const Json& ports, FieldErrors& errs) {
  if (!ports.is_array()) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    validate_service_port(ports[i], ports.size() > 1, names, index("spec.ports", i), errs);
  }
}

void validate_affinity(const Json& spec, FieldErrors& errs) {
  std::string affinity = string_member(spec, "sessionAffinity");
  if (affinity.empty()) affinity = "None";
  if (affinity != "ClientIP" && affinity != "None") {
    errs.not_supported("spec.sessionAffinity", quote(affinity), {"ClientIP", "None"});
  }
  if (affinity == "None" && present(member(spec, "sessionAffinityConfig"))) {
    errs.forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None");
  }
}

// The (protocol, port) and (protocol, nodePort) pairs must be unique.
void validate_port_uniqueness(const Json& ports, const ServiceView& v, FieldErrors& errs) {
  if (!ports.is_array()) return;
  if (v.type == "ClusterIP") {
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (int_member(ports[i], "nodePort") != 0) {
        errs.forbidden(child(index("spec.ports", i), "nodePort"),
                       "may not be used when `type` is 'ClusterIP'");
      }
    }
  }
  std::set<std::pair<std::string, std::int64_t>> node_ports;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const std::int64_t node_port = int_member(ports[i], "nodePort");
    if (node_port == 0) continue;
    if (!node_ports.insert({port_protocol(ports[i]), node_port}).second) {
      errs.duplicate(child(index("spec.ports", i), "nodePort"), render_int(node_port));
    }
  }
  std::set<std::pair<std::string, std::int64_t>> seen;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const std::string protocol = port_protocol(ports[i]);
    const std::int64_t number = int_member(ports[i], "port");
    if (seen.insert({protocol, number}).second) continue;
    // The duplicate is reported as the internal core.ServicePort key {Protocol, Port}.
    nlohmann::ordered_json dup = {
        {"Name", ""},     {"Protocol", protocol}, {"AppProtocol", nullptr},
        {"Port", number}, {"TargetPort", 0},      {"NodePort", 0}};
    errs.duplicate(index("spec.ports", i), go_json(dup));
  }
}

void validate_traffic_policies(const Json& spec, const ServiceView& v, FieldErrors& errs) {
  const bool external = v.type == "LoadBalancer" || v.type == "NodePort" ||
                        (v.type == "ClusterIP" && non_empty(member(spec, "externalIPs")));
  const std::string etp = string_member(spec, "externalTrafficPolicy");
  if (!external) {
    if (!etp.empty()) {
      errs.invalid("spec.externalTrafficPolicy", quote(etp),
                   "may only be set for externally-accessible services");
    }
  } else if (!etp.empty() && etp != "Cluster" && etp != "Local") {
    errs.not_supported("spec.externalTrafficPolicy", quote(etp), {"Cluster", "Local"});
  }
  const Json& itp = member(spec, "internalTrafficPolicy");
  if (itp.is_string() && itp != "Cluster" && itp != "Local") {
    errs.not_supported("spec.internalTrafficPolicy", quote(itp.get_ref<const std::string&>()),
                       {"Cluster", "Local"});
  }
}

void validate_service_spec(const Json& spec, const ServiceView& v, FieldErrors& errs) {
  const Json& ports = member(spec, "ports");
  if (!non_empty(ports) && !v.headless && v.type != kExternalName) errs.required("spec.ports");
  validate_type_specific(spec, v, errs);
  validate_ports(ports, errs);
  if (present(member(spec, "selector"))) {
    validate_label_map(member(spec, "selector"), "spec.selector", errs);
  }
  validate_affinity(spec, errs);
  if (v.type != "ClusterIP" && v.type != "NodePort" && v.type != "LoadBalancer" &&
      v.type != kExternalName) {
    errs.not_supported("spec.type", quote(v.type),
                       {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"});
  }
  validate_port_uniqueness(ports, v, errs);
  validate_traffic_policies(spec, v, errs);
}

void validate_service(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_service_spec(s.spec(), view(s.spec(), cluster_ips(s.spec())), errs);
}

void update_service(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  const ServiceView old_view = view(s.old_spec(), cluster_ips(s.old_spec()));
  std::vector<std::string> ips = cluster_ips(s.spec());
  // The registry keeps the allocated cluster IPs when an update leaves them out.
  if (ips.empty() && old_view.type != kExternalName) ips = old_view.ips;
  const ServiceView new_view = view(s.spec(), ips);
  const bool skip = new_view.type == kExternalName || old_view.type == kExternalName ||
                    (old_view.headless && new_view.headless);
  if (!skip && old_view.ips.size() == new_view.ips.size()) {
    for (std::size_t i = 0; i < old_view.ips.size(); ++i) {
      if (old_view.ips[i] == new_view.ips[i]) continue;
      errs.invalid(index("spec.clusterIPs", i), go_json(Json(new_view.ips)),
                   "may not change once set");
    }
  }
  validate_meta_create(s, errs);
  validate_service_spec(s.spec(), new_view, errs);
}

}  // namespace

KindRules service_rules() { return {validate_service, update_service, validate_meta_identity}; }

}  // namespace kubesim::fakeapi::internal::validation
