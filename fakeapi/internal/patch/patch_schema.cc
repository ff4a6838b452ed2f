// PatchSchema and the schemas of the built-in kinds, transcribed from the patchStrategy and
// patchMergeKey struct tags of k8s.io/api (core/v1, apps/v1, batch/v1, …) and of
// apimachinery's ObjectMeta. Untagged lists (tolerations, envFrom, resizePolicy, Endpoints
// subsets, container statuses, …) need no entry: they are replaced, as in Kubernetes.
#include <map>
#include <string>

#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi {
namespace {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '.') {
      parts.push_back(path.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

const PatchSchema& empty_schema() {
  static const PatchSchema kEmpty;
  return kEmpty;
}

const FieldPatchMeta& default_meta() {
  static const FieldPatchMeta kDefault;
  return kDefault;
}

}  // namespace

PatchSchema PatchSchema::unsupported() {
  PatchSchema s;
  s.supported_ = false;
  return s;
}

PatchSchema::Field* PatchSchema::find(std::string_view name) {
  for (Field& f : fields_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const PatchSchema::Field* PatchSchema::find(std::string_view name) const {
  for (const Field& f : fields_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

PatchSchema::Field& PatchSchema::find_or_add(std::string_view name) {
  if (Field* f = find(name)) return *f;
  fields_.push_back(Field{std::string(name), FieldPatchMeta{}, PatchSchema{}});
  return fields_.back();
}

PatchSchema& PatchSchema::set(std::string_view path, FieldPatchMeta meta) {
  PatchSchema* node = this;
  Field* field = nullptr;
  for (std::string_view part : split_path(path)) {
    field = &node->find_or_add(part);
    node = &field->schema;
  }
  field->meta = std::move(meta);
  return *this;
}

PatchSchema& PatchSchema::merge_list(std::string_view path, std::string_view merge_key) {
  return set(path, FieldPatchMeta{PatchStrategy::kMerge, std::string(merge_key), false});
}

PatchSchema& PatchSchema::replace(std::string_view path) {
  return set(path, FieldPatchMeta{PatchStrategy::kReplace, "", false});
}

PatchSchema& PatchSchema::retain_keys(std::string_view path, PatchStrategy strategy) {
  return set(path, FieldPatchMeta{strategy, "", true});
}

PatchSchema& PatchSchema::graft(std::string_view path, const PatchSchema& sub) {
  PatchSchema* node = this;
  for (std::string_view part : split_path(path)) node = &node->find_or_add(part).schema;
  node->graft_fields(sub);
  return *this;
}

void PatchSchema::graft_fields(const PatchSchema& sub) {
  for (const Field& f : sub.fields_) {
    Field& target = find_or_add(f.name);
    if (f.meta != FieldPatchMeta{}) target.meta = f.meta;
    target.schema.graft_fields(f.schema);
  }
}

const FieldPatchMeta& PatchSchema::meta(std::string_view name) const {
  const Field* f = find(name);
  return f ? f->meta : default_meta();
}

const PatchSchema& PatchSchema::field(std::string_view name) const {
  const Field* f = find(name);
  return f ? f->schema : empty_schema();
}

bool PatchSchema::operator==(const PatchSchema& other) const {
  if (supported_ != other.supported_ || fields_.size() != other.fields_.size()) return false;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Field& a = fields_[i];
    const Field& b = other.fields_[i];
    if (a.name != b.name || a.meta != b.meta || !(a.schema == b.schema)) return false;
  }
  return true;
}

namespace {

PatchSchema object_meta() {
  return PatchSchema().merge_list("ownerReferences", "uid").merge_list("finalizers");
}

PatchSchema with_metadata() { return PatchSchema().graft("metadata", object_meta()); }

PatchSchema container() {
  return PatchSchema()
      .merge_list("ports", "containerPort")
      .merge_list("env", "name")
      .merge_list("volumeMounts", "mountPath")
      .merge_list("volumeDevices", "devicePath");
}

PatchSchema pod_spec() {
  PatchSchema s;
  s.set("volumes", {PatchStrategy::kMerge, "name", true});
  for (const char* list : {"containers", "initContainers", "ephemeralContainers"}) {
    s.merge_list(list, "name").graft(list, container());
  }
  return s.merge_list("imagePullSecrets", "name")
      .merge_list("hostAliases", "ip")
      .merge_list("topologySpreadConstraints", "topologyKey")
      .merge_list("schedulingGates", "name")
      .set("resourceClaims", {PatchStrategy::kMerge, "name", true});
}

PatchSchema pod_status() {
  return PatchSchema()
      .merge_list("conditions", "type")
      .merge_list("hostIPs", "ip")
      .merge_list("podIPs", "ip")
      .set("resourceClaimStatuses", {PatchStrategy::kMerge, "name", true})
      .merge_list("nodeAllocatableResourceClaimStatuses", "resourceClaimName")
      .merge_list("nodeAllocatableResourceClaimStatuses.mapping", "name")
      .merge_list("nodeAllocatableResourceClaimStatuses.overhead", "name");
}

// A PodTemplateSpec at `path`.
PatchSchema& with_template(PatchSchema& s, std::string_view path) {
  const std::string p(path);
  return s.graft(p + ".metadata", object_meta()).graft(p + ".spec", pod_spec());
}

PatchSchema workload(std::string_view template_path) {
  PatchSchema s = with_metadata();
  with_template(s, template_path);
  return s.merge_list("status.conditions", "type");
}

PatchSchema conditions_only() { return with_metadata().merge_list("status.conditions", "type"); }

using Table = std::map<std::string, PatchSchema, std::less<>>;

Table build_table() {
  Table t;
  PatchSchema pod = with_metadata().graft("spec", pod_spec()).graft("status", pod_status());
  t["/Pod"] = pod;
  PatchSchema pod_template = with_metadata();
  t["/PodTemplate"] = with_template(pod_template, "template");
  t["/ReplicationController"] = workload("spec.template");
  t["/Service"] =
      with_metadata().merge_list("spec.ports", "port").merge_list("status.conditions", "type");
  t["/Node"] = with_metadata()
                   .merge_list("spec.podCIDRs")
                   .merge_list("status.conditions", "type")
                   .merge_list("status.addresses", "type");
  t["/Namespace"] = conditions_only();
  t["/PersistentVolumeClaim"] = conditions_only();
  t["/ServiceAccount"] = with_metadata().merge_list("secrets", "name");
  t["/ComponentStatus"] = with_metadata().merge_list("conditions", "type");
  PatchSchema deployment = workload("spec.template");
  t["apps/Deployment"] = deployment.retain_keys("spec.strategy");
  for (const char* kind : {"ReplicaSet", "StatefulSet", "DaemonSet"}) {
    t[std::string("apps/") + kind] = workload("spec.template");
  }
  t["batch/Job"] = workload("spec.template");
  PatchSchema cron_job = with_metadata();
  t["batch/CronJob"] = with_template(cron_job, "spec.jobTemplate.spec.template");
  t["autoscaling/HorizontalPodAutoscaler"] = conditions_only();
  t["policy/PodDisruptionBudget"] = conditions_only().replace("spec.selector");
  for (const char* kind : {"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"}) {
    t[std::string("admissionregistration.k8s.io/") + kind] =
        with_metadata()
            .merge_list("webhooks", "name")
            .merge_list("webhooks.matchConditions", "name");
  }
  t["admissionregistration.k8s.io/ValidatingAdmissionPolicy"] =
      with_metadata()
          .merge_list("spec.matchConditions", "name")
          .merge_list("spec.variables", "name");
  t["admissionregistration.k8s.io/MutatingAdmissionPolicy"] =
      with_metadata().merge_list("spec.matchConditions", "name");
  t["certificates.k8s.io/PodCertificateRequest"] = conditions_only();
  t["flowcontrol.apiserver.k8s.io/FlowSchema"] = conditions_only();
  t["flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration"] = conditions_only();
  t["networking.k8s.io/ServiceCIDR"] = conditions_only();
  t["resource.k8s.io/ResourceClaim"] = with_metadata().merge_list("status.reservedFor", "uid");
  t["resource.k8s.io/DeviceTaintRule"] = conditions_only();
  t["storage.k8s.io/CSINode"] = with_metadata().merge_list("spec.drivers", "name");
  t["storagemigration.k8s.io/StorageVersionMigration"] = conditions_only();
  return t;
}

bool is_builtin_group(std::string_view group) {
  static constexpr std::string_view kGroups[] = {
      "",
      "apps",
      "batch",
      "autoscaling",
      "policy",
      "networking.k8s.io",
      "rbac.authorization.k8s.io",
      "storage.k8s.io",
      "coordination.k8s.io",
      "events.k8s.io",
      "discovery.k8s.io",
      "admissionregistration.k8s.io",
      "apiextensions.k8s.io",
      "apiregistration.k8s.io",
      "scheduling.k8s.io",
      "node.k8s.io",
      "certificates.k8s.io",
      "flowcontrol.apiserver.k8s.io",
      "resource.k8s.io",
      "storagemigration.k8s.io",
      "authentication.k8s.io",
      "authorization.k8s.io",
      "internal.apiserver.k8s.io",
  };
  for (std::string_view g : kGroups) {
    if (g == group) return true;
  }
  return false;
}

}  // namespace

const PatchSchema& builtin_patch_schema(std::string_view group, std::string_view kind) {
  // Immutable tables built on first use: constants, not state.
  static const Table kTable = build_table();
  static const PatchSchema kMetadataOnly = with_metadata();
  if (!is_builtin_group(group)) return custom_resource_patch_schema();
  std::string key(group);
  key += "/";
  key += kind;
  auto it = kTable.find(key);
  return it == kTable.end() ? kMetadataOnly : it->second;
}

const PatchSchema& custom_resource_patch_schema() {
  static const PatchSchema kUnsupported = PatchSchema::unsupported();
  return kUnsupported;
}

}  // namespace kubesim::fakeapi
