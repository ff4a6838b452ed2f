// StatefulSet (kubernetes pkg/apis/apps/validation: ValidateStatefulSetSpec,
// ValidateStatefulSetUpdate, ValidateStatefulSetStatus) and the /status updates of Deployment,
// ReplicaSet and StatefulSet. Job has its own files (validate_job.cc, validate_job_policies.cc).
#include <array>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

bool is_percent(const Json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() < 2 || s.back() != '%') return false;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

std::int64_t percent_or_int(const Json& v) {
  if (is_percent(v)) {
    const std::string& s = v.get_ref<const std::string&>();
    return s.size() > 19 ? 101 : std::stoll(s.substr(0, s.size() - 1));
  }
  return as_int(v).value_or(0);
}

// The internal RollingUpdateStatefulSetStrategy as json.Marshal prints it (no JSON tags).
nlohmann::ordered_json internal_sts_rolling(const Json& ru) {
  nlohmann::ordered_json out;
  out["Partition"] = as_int(member(ru, "partition")).value_or(0);
  out["MaxUnavailable"] = member(ru, "maxUnavailable");
  return out;
}

void validate_sts_max_unavailable(const Json& mu, const std::string& path, FieldErrors& errs) {
  if (mu.is_string() && !is_percent(mu)) {
    errs.invalid(
        path, render(mu),
        "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or "
        "'93%', regex used for validation is '[0-9]+%')");
  } else if (!mu.is_string()) {
    validate_nonnegative(mu, path, errs);
  }
  if (percent_or_int(mu) == 0) errs.invalid(path, render(mu), "cannot be 0");
  if (is_percent(mu) && percent_or_int(mu) > 100) {
    errs.invalid(path, render(mu), "must not be greater than 100%");
  }
}

void validate_sts_strategy(const Json& spec, FieldErrors& errs) {
  const Json& strategy = member(spec, "updateStrategy");
  std::string type = string_member(strategy, "type");
  if (type.empty()) type = "RollingUpdate";
  const Json& ru = member(strategy, "rollingUpdate");
  if (type == "OnDelete") {
    if (present(ru)) {
      errs.invalid("spec.updateStrategy.rollingUpdate", go_json(internal_sts_rolling(ru)),
                   "only allowed for updateStrategy 'RollingUpdate'");
    }
  } else if (type == "RollingUpdate") {
    if (!present(ru)) return;
    validate_nonnegative(member(ru, "partition"), "spec.updateStrategy.rollingUpdate.partition",
                         errs);
    const Json& mu = member(ru, "maxUnavailable");
    if (present(mu)) {
      validate_sts_max_unavailable(mu, "spec.updateStrategy.rollingUpdate.maxUnavailable", errs);
    }
  } else {
    nlohmann::ordered_json out;
    out["Type"] = type;
    out["RollingUpdate"] = present(ru) ? internal_sts_rolling(ru) : nlohmann::ordered_json();
    errs.invalid("spec.updateStrategy", go_json(out), "must be 'RollingUpdate' or 'OnDelete'");
  }
}

void validate_sts_template(const Json& spec, const Json& selector, FieldErrors& errs) {
  const Json& tmpl = member(spec, "template");
  const Json& meta = member(tmpl, "metadata");
  const bool everything = present(selector) && selector_empty(selector);
  if (!everything && !selector_matches(selector, member(meta, "labels"))) {
    errs.invalid("spec.template.metadata.labels", render(member(meta, "labels")),
                 "`selector` does not match template `labels`");
  }
  validate_label_map(member(meta, "labels"), "spec.template.labels", errs);
  validate_annotation_map(member(meta, "annotations"), "spec.template.annotations", errs);
}

void validate_sts_spec(const Json& spec, FieldErrors& errs) {
  const std::string policy = string_member(spec, "podManagementPolicy");
  if (!policy.empty() && policy != "OrderedReady" && policy != "Parallel") {
    errs.invalid("spec.podManagementPolicy", quote(policy), "must be 'OrderedReady' or 'Parallel'");
  }
  validate_sts_strategy(spec, errs);
  const Json& retention = member(spec, "persistentVolumeClaimRetentionPolicy");
  for (const char* f : {"whenDeleted", "whenScaled"}) {
    const std::string v = string_member(retention, f);
    if (!v.empty() && v != "Retain" && v != "Delete") {
      errs.not_supported(child("spec.persistentVolumeClaimRetentionPolicy", f), quote(v),
                         {"Retain", "Delete"});
    }
  }
  validate_nonnegative(member(spec, "replicas"), "spec.replicas", errs);
  validate_nonnegative(member(spec, "minReadySeconds"), "spec.minReadySeconds", errs);
  validate_nonnegative(member(member(spec, "ordinals"), "start"), "spec.ordinals.start", errs);
  const Json& selector = member(spec, "selector");
  if (!present(selector)) {
    errs.required("spec.selector");
  } else {
    validate_label_selector(selector, "spec.selector", errs);
    if (selector_empty(selector)) {
      errs.invalid("spec.selector", render_selector(selector),
                   "empty selector is invalid for statefulset");
    }
  }
  if (!selector_convertible(selector)) {
    errs.invalid("spec.selector", render_selector(selector), "");
  } else {
    validate_sts_template(spec, selector, errs);
  }
  const Json& pod = member(member(spec, "template"), "spec");
  const std::string restart = string_member(pod, "restartPolicy");
  if (!restart.empty() && restart != "Always") {
    errs.not_supported("spec.template.spec.restartPolicy", quote(restart), {"Always"});
  }
  if (present(member(pod, "activeDeadlineSeconds"))) {
    errs.forbidden("spec.template.spec.activeDeadlineSeconds",
                   "activeDeadlineSeconds in StatefulSet is not Supported");
  }
}

void validate_stateful_set(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_sts_spec(s.spec(), errs);
}

// The spec fields a StatefulSet update may not change, with their defaults filled in.
Json sts_fixed_fields(const Json& spec) {
  Json fixed = spec.is_object() ? spec : Json::object();
  for (const char* f : {"replicas", "template", "updateStrategy", "minReadySeconds", "ordinals",
                        "persistentVolumeClaimRetentionPolicy"}) {
    fixed.erase(f);
  }
  if (!present(member(fixed, "podManagementPolicy"))) fixed["podManagementPolicy"] = "OrderedReady";
  if (!present(member(fixed, "revisionHistoryLimit"))) fixed["revisionHistoryLimit"] = 10;
  return fixed;
}

void update_stateful_set(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  validate_sts_spec(s.spec(), errs);
  if (!semantically_equal(sts_fixed_fields(s.spec()), sts_fixed_fields(s.old_spec()))) {
    errs.forbidden(
        "spec",
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
        "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
        "forbidden");
  }
}

// A /status rule: counters that must be non-negative, and counters bounded by another.
struct StatusBound {
  const char* field;
  const char* bound;
  const char* message;
};

void validate_status_counts(const Json& status, std::initializer_list<const char*> nonnegative,
                            std::initializer_list<StatusBound> bounds, FieldErrors& errs) {
  for (const char* f : nonnegative) {
    validate_nonnegative(member(status, f), child("status", f), errs);
  }
  for (const StatusBound& b : bounds) {
    const std::int64_t v = as_int(member(status, b.field)).value_or(0);
    if (v > as_int(member(status, b.bound)).value_or(0)) {
      errs.invalid(child("status", b.field), render_int(v), b.message);
    }
  }
}

void validate_collision_count(const Subject& s, FieldErrors& errs) {
  const std::optional<std::int64_t> now = as_int(member(member(s.obj, "status"), "collisionCount"));
  const std::optional<std::int64_t> before =
      as_int(member(s.old_member("status"), "collisionCount"));
  if (before && (!now || *now < *before)) {
    errs.invalid("status.collisionCount", render_int(now.value_or(0)), "cannot be decremented");
  }
}

constexpr const char* kAboveReplicas = "cannot be greater than status.replicas";

void update_stateful_set_status(const Subject& s, FieldErrors& errs) {
  const Json& status = member(s.obj, "status");
  validate_status_counts(
      status,
      {"replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas",
       "observedGeneration", "collisionCount"},
      {{"readyReplicas", "replicas", kAboveReplicas},
       {"currentReplicas", "replicas", kAboveReplicas},
       {"updatedReplicas", "replicas", kAboveReplicas},
       {"availableReplicas", "replicas", kAboveReplicas},
       {"availableReplicas", "readyReplicas", "cannot be greater than status.readyReplicas"}},
      errs);
  validate_meta_identity(s, errs);
  validate_collision_count(s, errs);
}

}  // namespace

void update_deployment_status(const Subject& s, FieldErrors& errs) {
  validate_meta_identity(s, errs);
  validate_status_counts(
      member(s.obj, "status"),
      {"observedGeneration", "replicas", "updatedReplicas", "readyReplicas", "availableReplicas",
       "unavailableReplicas", "collisionCount"},
      {{"updatedReplicas", "replicas", kAboveReplicas},
       {"readyReplicas", "replicas", kAboveReplicas},
       {"availableReplicas", "replicas", kAboveReplicas},
       {"availableReplicas", "readyReplicas", "cannot be greater than readyReplicas"}},
      errs);
  validate_collision_count(s, errs);
}

void update_replica_set_status(const Subject& s, FieldErrors& errs) {
  validate_meta_identity(s, errs);
  validate_status_counts(
      member(s.obj, "status"),
      {"replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas",
       "observedGeneration"},
      {{"fullyLabeledReplicas", "replicas", kAboveReplicas},
       {"readyReplicas", "replicas", kAboveReplicas},
       {"availableReplicas", "replicas", kAboveReplicas},
       {"availableReplicas", "readyReplicas", "cannot be greater than readyReplicas"}},
      errs);
}

KindRules stateful_set_rules() {
  return {validate_stateful_set, update_stateful_set, update_stateful_set_status};
}

}  // namespace kubesim::fakeapi::internal::validation
