// Volumes and containers of a PodSpec (kubernetes pkg/apis/core/validation: ValidateVolumes,
// validateContainers, validateInitContainers, validateContainerCommon, validateContainerPorts,
// ValidateVolumeMounts, checkHostPortConflicts). Port protocols are validated as their default
// (TCP) when absent. Volume source contents, env, resources, probes and security contexts are not
// validated.
#include <array>
#include <set>
#include <utility>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

// Volume source members in validateVolumeSource's order: JSON name, path name in its errors.
constexpr std::array<std::pair<std::string_view, std::string_view>, 30> kVolumeSources = {{
    {"emptyDir", "emptyDir"},
    {"hostPath", "hostPath"},
    {"gitRepo", "gitRepo"},
    {"gcePersistentDisk", "gcePersistentDisk"},
    {"awsElasticBlockStore", "awsElasticBlockStore"},
    {"secret", "secret"},
    {"nfs", "nfs"},
    {"iscsi", "iscsi"},
    {"glusterfs", "glusterfs"},
    {"flocker", "flocker"},
    {"persistentVolumeClaim", "persistentVolumeClaim"},
    {"rbd", "rbd"},
    {"cinder", "cinder"},
    {"cephfs", "cephFS"},
    {"quobyte", "quobyte"},
    {"downwardAPI", "downwarAPI"},
    {"fc", "fc"},
    {"flexVolume", "flexVolume"},
    {"configMap", "configMap"},
    {"azureFile", "azureFile"},
    {"vsphereVolume", "vsphereVolume"},
    {"photonPersistentDisk", "photonPersistentDisk"},
    {"portworxVolume", "portworxVolume"},
    {"azureDisk", "azureDisk"},
    {"storageos", "storageos"},
    {"projected", "projected"},
    {"scaleIO", "scaleIO"},
    {"csi", "csi"},
    {"ephemeral", "ephemeral"},
    {"image", "image"},
}};

std::string string_or(const Json& j, std::string_view name, std::string_view fallback) {
  std::string v = string_member(j, name);
  return v.empty() ? std::string(fallback) : v;
}

std::int64_t int_member(const Json& j, std::string_view name) {
  return as_int(member(j, name)).value_or(0);
}

// ValidateVolumes; returns the names of the volumes without errors, which mounts may use.
std::set<std::string> validate_volumes(const Json& volumes, const std::string& path,
                                       FieldErrors& errs) {
  std::set<std::string> valid;
  if (!volumes.is_array()) return valid;
  for (std::size_t i = 0; i < volumes.size(); ++i) {
    const Json& vol = volumes[i];
    const std::string idx = index(path, i);
    FieldErrors el;
    int sources = 0;
    for (const auto& [json_name, error_name] : kVolumeSources) {
      if (!present(member(vol, json_name))) continue;
      if (sources++ > 0) {
        el.forbidden(child(idx, error_name), "may not specify more than 1 volume type");
      }
    }
    if (sources == 0) el.required(idx, "must specify a volume type");
    const std::string name = string_member(vol, "name");
    if (name.empty()) {
      el.required(child(idx, "name"));
    } else {
      for (const std::string& msg : dns_label_messages(name)) {
        el.invalid(child(idx, "name"), quote(name), msg);
      }
    }
    if (valid.count(name) > 0) el.duplicate(child(idx, "name"), quote(name));
    if (el.empty()) {
      valid.insert(name);
    } else {
      errs.append(std::move(el));
    }
  }
  return valid;
}

void validate_local_descending_path(const std::string& target, const std::string& path,
                                    FieldErrors& errs) {
  if (!target.empty() && target.front() == '/') {
    errs.invalid(path, quote(target), "must be a relative path");
  }
  std::size_t start = 0;
  while (start <= target.size()) {
    std::size_t end = target.find('/', start);
    if (end == std::string::npos) end = target.size();
    if (target.compare(start, end - start, "..") == 0) {
      errs.invalid(path, quote(target), "must not contain '..'");
      break;
    }
    start = end + 1;
  }
}

void validate_volume_mounts(const Json& mounts, const std::set<std::string>& volumes,
                            const std::string& path, FieldErrors& errs) {
  if (!mounts.is_array()) return;
  std::set<std::string> mount_points;
  for (std::size_t i = 0; i < mounts.size(); ++i) {
    const Json& m = mounts[i];
    const std::string idx = index(path, i);
    const std::string name = string_member(m, "name");
    const std::string mount_path = string_member(m, "mountPath");
    if (name.empty()) errs.required(child(idx, "name"));
    if (volumes.count(name) == 0) errs.not_found(child(idx, "name"), quote(name));
    if (mount_path.empty()) errs.required(child(idx, "mountPath"));
    if (!mount_points.insert(mount_path).second) {
      errs.invalid(child(idx, "mountPath"), quote(mount_path), "must be unique");
    }
    // Go reports subPath problems at the list's path, without the index.
    const std::string sub_path = string_member(m, "subPath");
    if (!sub_path.empty()) validate_local_descending_path(sub_path, child(path, "subPath"), errs);
  }
}

void validate_container_ports(const Json& ports, const std::string& path, FieldErrors& errs) {
  if (!ports.is_array()) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const Json& port = ports[i];
    const std::string idx = index(path, i);
    const std::string name = string_member(port, "name");
    if (!name.empty()) {
      std::vector<std::string> msgs = port_name_messages(name);
      for (const std::string& msg : msgs) errs.invalid(child(idx, "name"), quote(name), msg);
      if (msgs.empty() && !names.insert(name).second) {
        errs.duplicate(child(idx, "name"), quote(name));
      }
    }
    const std::int64_t container_port = int_member(port, "containerPort");
    if (container_port == 0) {
      errs.required(child(idx, "containerPort"));
    } else if (container_port < 1 || container_port > 65535) {
      errs.invalid(child(idx, "containerPort"), render_int(container_port), port_range_message());
    }
    const std::int64_t host_port = int_member(port, "hostPort");
    if (host_port != 0 && (host_port < 1 || host_port > 65535)) {
      errs.invalid(child(idx, "hostPort"), render_int(host_port), port_range_message());
    }
    const std::string protocol = string_or(port, "protocol", "TCP");
    if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
      errs.not_supported(child(idx, "protocol"), quote(protocol), {"SCTP", "TCP", "UDP"});
    }
  }
}

void validate_container_common(const Json& c, const std::set<std::string>& volumes,
                               const std::string& path, FieldErrors& errs) {
  const std::string name = string_member(c, "name");
  if (name.empty()) {
    errs.required(child(path, "name"));
  } else {
    for (const std::string& msg : dns_label_messages(name)) {
      errs.invalid(child(path, "name"), quote(name), msg);
    }
  }
  if (string_member(c, "image").empty()) errs.required(child(path, "image"));
  const std::string policy = string_or(c, "terminationMessagePolicy", "File");
  if (policy != "File" && policy != "FallbackToLogsOnError") {
    errs.not_supported(child(path, "terminationMessagePolicy"), quote(policy),
                       {"File", "FallbackToLogsOnError"});
  }
  validate_container_ports(member(c, "ports"), child(path, "ports"), errs);
  validate_volume_mounts(member(c, "volumeMounts"), volumes, child(path, "volumeMounts"), errs);
  const std::string pull = string_member(c, "imagePullPolicy");
  if (!pull.empty() && pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
    errs.not_supported(child(path, "imagePullPolicy"), quote(pull),
                       {"Always", "IfNotPresent", "Never"});
  }
}

// checkHostPortConflicts: a (protocol, hostIP, hostPort) may be used once.
void check_host_port_conflicts(const std::vector<const Json*>& containers, const std::string& path,
                               FieldErrors& errs) {
  std::set<std::string> used;
  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    const Json& ports = member(*containers[ci], "ports");
    if (!ports.is_array()) continue;
    for (std::size_t pi = 0; pi < ports.size(); ++pi) {
      const std::int64_t host_port = int_member(ports[pi], "hostPort");
      if (host_port == 0) continue;
      const std::string key_text = string_or(ports[pi], "protocol", "TCP") + "/" +
                                   string_member(ports[pi], "hostIP") + "/" +
                                   std::to_string(host_port);
      if (!used.insert(key_text).second) {
        errs.duplicate(child(index(child(index(path, ci), "ports"), pi), "hostPort"),
                       quote(key_text));
      }
    }
  }
}

std::set<std::string> validate_containers(const Json& containers,
                                          const std::set<std::string>& volumes,
                                          const std::string& path, FieldErrors& errs) {
  std::set<std::string> names;
  if (!non_empty(containers)) {
    errs.required(path);
    return names;
  }
  std::vector<const Json*> all;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const Json& c = containers[i];
    all.push_back(&c);
    validate_container_common(c, volumes, index(path, i), errs);
    const std::string name = string_member(c, "name");
    if (!names.insert(name).second) errs.duplicate(child(index(path, i), "name"), quote(name));
    if (present(member(c, "restartPolicy"))) {
      errs.forbidden(child(index(path, i), "restartPolicy"),
                     "may not be set for non-init containers");
    }
  }
  check_host_port_conflicts(all, path, errs);
  return names;
}

void validate_init_containers(const Json& containers, std::set<std::string> names,
                              const std::set<std::string>& volumes, const std::string& path,
                              FieldErrors& errs) {
  if (!containers.is_array()) return;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const Json& c = containers[i];
    const std::string idx = index(path, i);
    validate_container_common(c, volumes, idx, errs);
    bool restart_always = false;
    const Json& restart = member(c, "restartPolicy");
    if (present(restart)) {
      const std::string policy = restart.is_string() ? restart.get<std::string>() : std::string();
      if (policy != "Always") {
        errs.not_supported(child(idx, "restartPolicy"), quote(policy), {"Always"});
      }
      restart_always = policy == "Always";
    }
    const std::string name = string_member(c, "name");
    if (names.count(name) > 0) {
      errs.duplicate(child(idx, "name"), quote(name));
    } else if (!name.empty()) {
      names.insert(name);
    }
    // Each init container is checked alone, so its errors name it as element 0.
    check_host_port_conflicts({&c}, path, errs);
    if (restart_always) continue;
    for (const char* f : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
      if (present(member(c, f))) {
        errs.forbidden(child(idx, f),
                       "may not be set for init containers without restartPolicy=Always");
      }
    }
  }
}

}  // namespace

void validate_pod_containers(const Json& spec, const std::string& path, FieldErrors& errs) {
  const std::set<std::string> volumes =
      validate_volumes(member(spec, "volumes"), child(path, "volumes"), errs);
  std::set<std::string> names =
      validate_containers(member(spec, "containers"), volumes, child(path, "containers"), errs);
  validate_init_containers(member(spec, "initContainers"), std::move(names), volumes,
                           child(path, "initContainers"), errs);
}

}  // namespace kubesim::fakeapi::internal::validation
