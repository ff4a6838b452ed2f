// The validation rules behind kubesim/fakeapi/validation.h, one family per file of
// fakeapi/internal/validation/:
//   validate_meta.cc      ObjectMeta (apimachinery's pkg/api/validation/objectmeta.go plus the
//                         finalizer rule of pkg/apis/core/validation)
//   decode_check.cc       what Go's JSON decoder rejects before validation runs (400s), against
//                         the Go types of encoding/decode_schema.cc
//   validate_core.cc      ConfigMap, Secret, Namespace, Lease
//   validate_service.cc   Service
//   validate_pod.cc       a PodSpec's volumes and containers
//   validate_pod_spec.cc  the rest of PodSpec, pod templates, Pod create
//   validate_pod_update.cc  Pod update
//   validate_apps.cc      label selectors, Deployment, ReplicaSet, DaemonSet
//   validate_workloads.cc StatefulSet, workload /status updates
//   validate_job.cc       Job; validate_job_policies.cc its failure, success and replacement
//                         policies and managedBy
//   validate_custom.cc    custom resources: ObjectMeta and the CRD's schema
//                         (crd/schema_validation.h)
// Every rule appends to a FieldErrors in the order kube-apiserver's own functions append, so the
// causes (and the message listing them) come out in the same order.
#ifndef KUBESIM_FAKEAPI_INTERNAL_VALIDATION_VALIDATION_RULES_H_
#define KUBESIM_FAKEAPI_INTERNAL_VALIDATION_VALIDATION_RULES_H_

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/object.h"
#include "kubesim/api/validation.h"
#include "fakeapi/internal/validation/field_errors.h"
#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi::internal::validation {

// How a kind validates its ObjectMeta.
struct MetaRules {
  api::NameRule name_rule = api::NameRule::kDns1123Subdomain;
  bool namespaced = true;
  // kube-apiserver's own kinds (core, apps, batch) also require a finalizer name without '/' to
  // be one of the standard finalizers (core's ValidateObjectMeta); other kinds do not.
  bool kube_finalizers = true;
};

// The object a rule looks at. On updates the stored object is either `old` (JSON holding at
// least every top-level member but apiVersion, kind and metadata) or `old_object` (read member
// by member, as the rules ask: old_member); both are null on creates. `old_meta` is its metadata.
struct Subject {
  const ResourceInfo& info;
  const Json& obj;
  const Json* old;
  std::string_view ns;  // the namespace the object lives in; "" for cluster-scoped kinds
  MetaRules meta;
  // On an update: the new metadata equals the stored one but for resourceVersion. The stored
  // metadata passed these rules when it was written, so the ObjectMeta rules have nothing to
  // report and are skipped (the common update, which changes only spec or data).
  bool meta_unchanged = false;
  const Json* old_meta = nullptr;

  const Json& metadata() const { return member(obj, "metadata"); }
  const Json& spec() const { return member(obj, "spec"); }
  const api::Object* old_object = nullptr;

  const Json& old_metadata() const { return old_meta ? *old_meta : member(Json(), ""); }
  const Json& old_spec() const { return old_member("spec"); }
  // The stored object's top-level member `key`; null when absent and on creates.
  const Json& old_member(std::string_view key) const {
    if (old != nullptr) return member(*old, key);
    if (old_object == nullptr) return member(Json(), "");
    for (const auto& [k, v] : old_read) {
      if (k == key) return v;
    }
    return old_read.emplace_back(std::string(key), old_object->member_value(key)).second;
  }

  // A copy of the stored object holding at least its members; an empty object on creates.
  Json old_copy() const {
    if (old != nullptr) return *old;
    if (old_object != nullptr) return old_object->to_json();
    return Json::object();
  }

  // The members old_member read from old_object.
  mutable std::deque<std::pair<std::string, Json>> old_read{};
};

using Rule = void (*)(const Subject&, FieldErrors&);

// The rules of one kind: a create, an update of the main resource, an update of /status.
struct KindRules {
  Rule create;
  Rule update;
  Rule update_status;
};

// --- validate_meta.cc --------------------------------------------------------------------------

// IsDNS1123Label / IsDNS1123Subdomain with apimachinery's wording for names.
std::vector<std::string> dns_label_messages(std::string_view value);
std::vector<std::string> dns_subdomain_messages(std::string_view value);
// A ValidateNameFunc: the messages for `name` under `rule`; `prefix` for generateName.
std::vector<std::string> name_messages(std::string_view name, api::NameRule rule, bool prefix);
// IsConfigMapKey.
std::vector<std::string> config_key_messages(std::string_view key);
// ValidateLabels: keys qualified names, values label values, reported at `path`.
void validate_label_map(const Json& labels, std::string_view path, FieldErrors& errs);
// ValidateAnnotations: keys qualified names (case-insensitively), total size at most 256 KiB.
void validate_annotation_map(const Json& annotations, std::string_view path, FieldErrors& errs);
// ValidateLabelName.
void validate_label_name(std::string_view name, std::string_view path, FieldErrors& errs);
// validateFinalizerName: a qualified name and, without a '/', a standard finalizer.
void validate_finalizer_name(std::string_view name, std::string_view path, FieldErrors& errs);
// ValidateOwnerReferences: each reference complete, no Event owner, at most one controller.
void validate_owner_references(const Json& refs, std::string_view path, FieldErrors& errs);
// ValidateFinalizers: qualified names, and not both orphan and foregroundDeletion.
void validate_finalizers(const Json& finalizers, std::string_view path, FieldErrors& errs);
// ValidateObjectMeta of a new object ("metadata"). `ns` is the request's namespace, which the
// server fills in when the body has none.
void validate_meta_create(const Subject& s, FieldErrors& errs);
// ValidateObjectMetaUpdate of s.obj against s.old.
void validate_meta_update(const Subject& s, FieldErrors& errs);
// What every /status update checks: the object's identity (name, namespace, uid).
void validate_meta_identity(const Subject& s, FieldErrors& errs);

// ValidateNonnegativeField for an optional integer member.
void validate_nonnegative(const Json& value, std::string_view path, FieldErrors& errs);
// ValidatePortNumOrName for an IntOrString member.
void validate_port_num_or_name(const Json& port, const std::string& path, FieldErrors& errs);
std::vector<std::string> port_name_messages(std::string_view port);
std::string port_range_message();  // "must be between 1 and 65535, inclusive"

// --- decode_check.cc ---------------------------------------------------------------------------

// The error encoding/json returns decoding `obj` into the Go type of the built-in kind
// (group, kind): the first wrong JSON type or bad base64 in key order. nullopt when it decodes,
// and for kinds without a schema here.
std::optional<std::string> decode_error(std::string_view group, std::string_view kind,
                                        const Json& obj);

// --- Per-kind rules (validate_core.cc, validate_service.cc, validate_pod*.cc, ...) -------------

KindRules config_map_rules();
KindRules secret_rules();
KindRules namespace_rules();
KindRules lease_rules();
KindRules service_rules();
KindRules pod_rules();
KindRules deployment_rules();
KindRules replica_set_rules();
KindRules daemon_set_rules();
KindRules stateful_set_rules();
KindRules job_rules();
KindRules custom_resource_rules();

// validatePodMetadataAndSpec: what both a Pod create and a Pod update check.
void validate_pod_metadata_and_spec(const Subject& s, FieldErrors& errs);
void validate_pod_create(const Subject& s, FieldErrors& errs);

// /status updates of the workload kinds (validate_workloads.cc).
void update_deployment_status(const Subject& s, FieldErrors& errs);
void update_replica_set_status(const Subject& s, FieldErrors& errs);

// --- validate_job.cc, validate_job_policies.cc ------------------------------------------------

// The values of a Job's spec the Job rules read, as SetDefaults_Job leaves them (job_defaults
// runs the generated defaulting of fakeapi/internal/defaulting on the spec it is given).
struct JobDefaults {
  std::optional<std::int64_t> completions;  // 1 when neither completions nor parallelism is set
  std::int64_t parallelism = 1;
  std::string completion_mode = "NonIndexed";  // as given when set, whatever it says
};
JobDefaults job_defaults(const Json& spec);
// validateJobSpec's podFailurePolicy, successPolicy and podReplacementPolicy rules.
void validate_job_policies(const Json& spec, const JobDefaults& job, FieldErrors& errs);
// spec.managedBy: a domain-prefixed path ("example.com/controller") of at most 63 bytes.
void validate_managed_by(const Json& spec, FieldErrors& errs);
// The internal batch.PodFailurePolicy and batch.SuccessPolicy as json.Marshal prints them (Go
// field names, SetDefaults_Job's defaults filled in), as an update that changes one reports it;
// null when absent.
nlohmann::ordered_json internal_pod_failure_policy(const Json& policy);
nlohmann::ordered_json internal_success_policy(const Json& policy);

// Pod templates and specs, shared by Pod and the workload kinds.
// ValidatePodSpec at `path` ("spec", "spec.template.spec").
void validate_pod_spec(const Json& spec, const std::string& path, FieldErrors& errs);
// Its volumes, containers and init containers (validate_pod.cc).
void validate_pod_containers(const Json& spec, const std::string& path, FieldErrors& errs);
// ValidatePodTemplateSpec at `path` ("spec.template").
void validate_pod_template(const Json& tmpl, const std::string& path, FieldErrors& errs);
// ValidateTolerations.
void validate_tolerations(const Json& tolerations, const std::string& path, FieldErrors& errs);

// Label selectors (metav1.LabelSelector).
// ValidateLabelSelector: matchLabels and matchExpressions.
void validate_label_selector(const Json& selector, const std::string& path, FieldErrors& errs);
// Whether LabelSelectorAsSelector accepts the selector (null is accepted: it selects nothing).
bool selector_convertible(const Json& selector);
// Whether a convertible selector matches `labels`. A null selector matches nothing; an empty one
// matches everything.
bool selector_matches(const Json& selector, const Json& labels);
// Whether a selector is empty (no matchLabels and no matchExpressions).
bool selector_empty(const Json& selector);
// The selector as Go's json.Marshal prints a *metav1.LabelSelector.
std::string render_selector(const Json& selector);

}  // namespace kubesim::fakeapi::internal::validation

#endif  // KUBESIM_FAKEAPI_INTERNAL_VALIDATION_VALIDATION_RULES_H_
