// Pod update (kubernetes pkg/apis/core/validation: ValidatePodUpdate, ValidateContainerUpdates,
// validateOnlyAddedTolerations, validateOnlyDeletedSchedulingGates). Only container images,
// activeDeadlineSeconds (lowered), tolerations (added), scheduling gates (removed), a negative
// terminationGracePeriodSeconds (raised to 1) and, for gated pods, nodeSelector additions may
// change. Both specs are compared as defaulted.
#include <algorithm>
#include <map>

#include "fakeapi/internal/defaulting/walker.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::string_view kUpdatablePodSpecFields =
    "pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

std::size_t list_size(const Json& j) { return j.is_array() ? j.size() : 0; }

// ValidateContainerUpdates; false when validation stops (containers added or removed).
bool validate_container_updates(const Json& now, const Json& before, const std::string& path,
                                FieldErrors& errs) {
  if (list_size(now) != list_size(before)) {
    errs.forbidden(path, "pod updates may not add or remove containers");
    return false;
  }
  for (std::size_t i = 0; i < list_size(now); ++i) {
    const std::string image = string_member(now[i], "image");
    if (image.empty()) errs.required(child(index(path, i), "image"));
    const auto space = [](char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    if (!image.empty() && (space(image.front()) || space(image.back()))) {
      errs.invalid(child(index(path, i), "image"), quote(image),
                   "must not have leading or trailing whitespace");
    }
  }
  return true;
}

// Returns false when validation stops.
bool validate_active_deadline(const Json& spec, const Json& old, FieldErrors& errs) {
  const std::optional<std::int64_t> now = as_int(member(spec, "activeDeadlineSeconds"));
  const std::optional<std::int64_t> before = as_int(member(old, "activeDeadlineSeconds"));
  if (now) {
    if (*now < 0 || *now > 2147483647) {
      errs.invalid("spec.activeDeadlineSeconds", render_int(*now),
                   "must be between 0 and 2147483647, inclusive");
      return false;
    }
    if (before && *before < *now) {
      errs.invalid("spec.activeDeadlineSeconds", render_int(*now),
                   "must be less than or equal to previous value");
      return false;
    }
  } else if (before) {
    errs.invalid("spec.activeDeadlineSeconds", "null",
                 "must not update from a positive integer to nil value");
  }
  return true;
}

Json without(const Json& j, const char* field) {
  Json copy = j;
  if (copy.is_object()) copy.erase(field);
  return copy;
}

void validate_only_added_tolerations(const Json& now, const Json& before, FieldErrors& errs) {
  if (before.is_array()) {
    for (const Json& old : before) {
      const bool found = now.is_array() && std::any_of(now.begin(), now.end(), [&](const Json& t) {
                           return semantically_equal(without(old, "tolerationSeconds"),
                                                     without(t, "tolerationSeconds"));
                         });
      if (!found) {
        errs.forbidden("spec.tolerations",
                       "existing toleration can not be modified except its tolerationSeconds");
        return;
      }
    }
  }
  validate_tolerations(now, "spec.tolerations", errs);
}

void validate_only_deleted_gates(const Json& now, const Json& before, FieldErrors& errs) {
  if (!non_empty(now)) return;
  std::map<std::string, std::size_t> added;
  for (std::size_t i = 0; i < now.size(); ++i) added[string_member(now[i], "name")] = i;
  if (before.is_array()) {
    for (const Json& g : before) added.erase(string_member(g, "name"));
  }
  std::vector<std::pair<std::size_t, std::string>> ordered;
  for (const auto& [name, i] : added) ordered.emplace_back(i, name);
  std::sort(ordered.begin(), ordered.end());
  for (const auto& [i, name] : ordered) {
    errs.forbidden(child(index("spec.schedulingGates", i), "name"),
                   "only deletion is allowed, but found new scheduling gate '" + name + "'");
  }
}

// The PodSpec as kube-apiserver stores it after defaulting (SetDefaults_Pod and what it reaches,
// from the generated rules of fakeapi/internal/defaulting), in canonical form. The server
// defaults every write before it validates it; this keeps the rule right for callers that do not.
Json defaulted(const Json& spec) {
  Json pod = {{"spec", spec.is_object() ? spec : Json::object()}};
  defaulting::apply_defaults(*types::go_type_of("", "Pod"), pod);
  return canonical(pod["spec"]);
}

Json munged(const Json& spec, const Json& old) {
  Json m = spec.is_object() ? spec : Json::object();
  for (const char* list : {"containers", "initContainers"}) {
    Json& containers = m[list];
    const Json& before = member(old, list);
    for (std::size_t i = 0; i < list_size(containers) && i < list_size(before); ++i) {
      if (containers[i].is_object()) containers[i]["image"] = member(before[i], "image");
    }
  }
  for (const char* f : {"activeDeadlineSeconds", "schedulingGates", "tolerations"}) {
    m[f] = member(old, f);
  }
  const std::optional<std::int64_t> old_grace =
      as_int(member(old, "terminationGracePeriodSeconds"));
  if (old_grace && *old_grace < 0 &&
      as_int(member(m, "terminationGracePeriodSeconds")) == std::optional<std::int64_t>(1)) {
    m["terminationGracePeriodSeconds"] = *old_grace;
  }
  // A gated pod may add nodeSelector entries.
  if (non_empty(member(old, "schedulingGates")) && member(m, "nodeSelector").is_object()) {
    const Json& before = member(old, "nodeSelector");
    bool superset = true;
    if (before.is_object()) {
      for (const auto& [k, v] : before.items()) {
        superset = superset && member(m["nodeSelector"], k) == v;
      }
    }
    if (superset) m["nodeSelector"] = before;
  }
  return m;
}

// A short description of what differs, in the shape of the go-cmp diff kube-apiserver appends
// (whose exact text go-cmp deliberately keeps unstable).
std::string spec_diff(const Json& before, const Json& after) {
  std::string out = "  core.PodSpec{\n";
  std::map<std::string, std::pair<Json, Json>> fields;
  for (const auto& [k, v] : before.items()) fields[k].first = v;
  for (const auto& [k, v] : after.items()) fields[k].second = v;
  for (const auto& [k, pair] : fields) {
    if (pair.first == pair.second) continue;
    if (!pair.first.is_null()) out += "- \t" + k + ": " + go_json(pair.first) + ",\n";
    if (!pair.second.is_null()) out += "+ \t" + k + ": " + go_json(pair.second) + ",\n";
  }
  return out + "  }\n";
}

void update_pod(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  validate_pod_metadata_and_spec(s, errs);
  const Json& spec = s.spec();
  const Json& old = s.old_spec();
  if (!validate_container_updates(member(spec, "containers"), member(old, "containers"),
                                  "spec.containers", errs))
    return;
  if (!validate_container_updates(member(spec, "initContainers"), member(old, "initContainers"),
                                  "spec.initContainers", errs)) {
    return;
  }
  if (!validate_active_deadline(spec, old, errs)) return;
  validate_only_added_tolerations(member(spec, "tolerations"), member(old, "tolerations"), errs);
  validate_only_deleted_gates(member(spec, "schedulingGates"), member(old, "schedulingGates"),
                              errs);
  const Json before = defaulted(old);
  if (defaulted(spec) == before) return;
  const Json after = defaulted(munged(spec, old));
  if (after != before) {
    errs.forbidden("spec", std::string(kUpdatablePodSpecFields) + "\n" + spec_diff(before, after));
  }
}

}  // namespace

KindRules pod_rules() { return {validate_pod_create, update_pod, validate_meta_identity}; }

}  // namespace kubesim::fakeapi::internal::validation
