// Label selectors (apimachinery pkg/apis/meta/v1/validation: ValidateLabelSelector;
// LabelSelectorAsSelector) and Deployment, ReplicaSet, DaemonSet (kubernetes
// pkg/apis/apps/validation: ValidateDeploymentSpec, ValidateDeploymentStrategy,
// ValidateRollingUpdateDeployment, ValidateReplicaSetSpec, ValidatePodTemplateSpecForReplicaSet,
// ValidateDaemonSetSpec, ValidateDaemonSetUpdateStrategy; the selector immutability of
// pkg/registry/apps/*/strategy.go). Fields apps/v1 defaults (replicas, strategies, rolling update
// bounds, progressDeadlineSeconds) are validated as their defaults when absent.
#include <algorithm>

#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::string_view kNoMatch = "`selector` does not match template `labels`";

bool is_percent(const Json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  return s.size() >= 2 && s.back() == '%' &&
         std::all_of(s.begin(), s.end() - 1, [](char c) { return c >= '0' && c <= '9'; });
}

// getIntOrPercentValue: a percent's number, an int, or Atoi of another string (0 on failure).
std::int64_t int_or_percent_value(const Json& v) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (is_percent(v)) s.pop_back();
    if (s.empty() || s.size() > 18 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return 0;
    }
    return std::stoll(s);
  }
  return as_int(v).value_or(0);
}

void validate_positive_int_or_percent(const Json& v, const std::string& path, FieldErrors& errs) {
  if (v.is_string()) {
    if (!is_percent(v)) {
      errs.invalid(path, render(v),
                   "a valid percent string must be a numeric string followed by an ending '%' "
                   "(e.g. '1%',  or "
                   "'93%', regex used for validation is '[0-9]+%')");
    }
    return;
  }
  validate_nonnegative(v, path, errs);
}

void validate_not_more_than_100_percent(const Json& v, const std::string& path, FieldErrors& errs) {
  if (is_percent(v) && int_or_percent_value(v) > 100) {
    errs.invalid(path, render(v), "must not be greater than 100%");
  }
}

Json member_or(const Json& j, std::string_view name, Json fallback) {
  const Json& v = member(j, name);
  return present(v) ? v : fallback;
}

// An invalid strategy is reported as the internal {Type, RollingUpdate} struct: the internal
// types have no JSON tags, so json.Marshal prints the Go field names.
std::string internal_strategy(const std::string& type, const Json& ru) {
  nlohmann::ordered_json out;
  out["Type"] = type;
  out["RollingUpdate"] = nullptr;
  if (ru.is_object()) {
    out["RollingUpdate"] = {{"MaxUnavailable", member_or(ru, "maxUnavailable", 0)},
                            {"MaxSurge", member_or(ru, "maxSurge", 0)}};
  }
  return go_json(out);
}

void validate_deployment_strategy(const Json& strategy, FieldErrors& errs) {
  std::string type = string_member(strategy, "type");
  if (type.empty()) type = "RollingUpdate";
  const Json& ru = member(strategy, "rollingUpdate");
  if (type == "Recreate") {
    if (present(ru)) {
      errs.forbidden("spec.strategy.rollingUpdate",
                     "may not be specified when strategy `type` is 'Recreate'");
    }
  } else if (type == "RollingUpdate") {
    const Json max_unavailable = member_or(ru, "maxUnavailable", "25%");
    const Json max_surge = member_or(ru, "maxSurge", "25%");
    validate_positive_int_or_percent(max_unavailable, "spec.strategy.rollingUpdate.maxUnavailable",
                                     errs);
    validate_positive_int_or_percent(max_surge, "spec.strategy.rollingUpdate.maxSurge", errs);
    if (int_or_percent_value(max_unavailable) == 0 && int_or_percent_value(max_surge) == 0) {
      errs.invalid("spec.strategy.rollingUpdate.maxUnavailable", render(max_unavailable),
                   "may not be 0 when `maxSurge` is 0");
    }
    validate_not_more_than_100_percent(max_unavailable,
                                       "spec.strategy.rollingUpdate.maxUnavailable", errs);
  } else {
    errs.not_supported("spec.strategy", internal_strategy(type, ru), {"Recreate", "RollingUpdate"});
  }
}

// ValidatePodTemplateSpecForReplicaSet (also used for Deployments).
void validate_template_for_replica_set(const Json& tmpl, const Json& selector, FieldErrors& errs) {
  const Json& labels = member(member(tmpl, "metadata"), "labels");
  const bool everything = present(selector) && selector_empty(selector);
  if (!everything && !selector_matches(selector, labels)) {
    errs.invalid("spec.template.metadata.labels", render(labels), kNoMatch);
  }
  validate_pod_template(tmpl, "spec.template", errs);
  const std::string restart = string_member(member(tmpl, "spec"), "restartPolicy");
  if (!restart.empty() && restart != "Always") {
    errs.not_supported("spec.template.spec.restartPolicy", quote(restart), {"Always"});
  }
  if (present(member(member(tmpl, "spec"), "activeDeadlineSeconds"))) {
    errs.forbidden("spec.template.spec.activeDeadlineSeconds",
                   "activeDeadlineSeconds in ReplicaSet is not Supported");
  }
}

// The selector checks Deployment and ReplicaSet share; then the template, when the selector
// converts.
void validate_selector_and_template(const Json& spec, FieldErrors& errs) {
  const Json& selector = member(spec, "selector");
  if (!present(selector)) {
    errs.required("spec.selector");
  } else {
    validate_label_selector(selector, "spec.selector", errs);
    if (selector_empty(selector)) {
      errs.invalid("spec.selector", render_selector(selector),
                   "empty selector is invalid for deployment");
    }
  }
  if (!selector_convertible(selector)) {
    errs.invalid("spec.selector", render_selector(selector), "invalid label selector");
  } else {
    validate_template_for_replica_set(member(spec, "template"), selector, errs);
  }
}

void validate_deployment_spec(const Json& spec, FieldErrors& errs) {
  validate_nonnegative(member(spec, "replicas"), "spec.replicas", errs);
  validate_selector_and_template(spec, errs);
  validate_deployment_strategy(member(spec, "strategy"), errs);
  validate_nonnegative(member(spec, "minReadySeconds"), "spec.minReadySeconds", errs);
  validate_nonnegative(member(spec, "revisionHistoryLimit"), "spec.revisionHistoryLimit", errs);
  const std::int64_t deadline = as_int(member(spec, "progressDeadlineSeconds")).value_or(600);
  validate_nonnegative(Json(deadline), "spec.progressDeadlineSeconds", errs);
  if (deadline <= as_int(member(spec, "minReadySeconds")).value_or(0)) {
    errs.invalid("spec.progressDeadlineSeconds", render_int(deadline),
                 "must be greater than minReadySeconds");
  }
}

void validate_selector_immutable(const Subject& s, FieldErrors& errs) {
  const Json& now = member(s.spec(), "selector");
  const Json& before = member(s.old_spec(), "selector");
  const bool same =
      present(now) == present(before) && (!present(now) || semantically_equal(now, before));
  if (!same) errs.invalid("spec.selector", render_selector(now), "field is immutable");
}

void validate_deployment(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_deployment_spec(s.spec(), errs);
}

void update_deployment(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  validate_deployment_spec(s.spec(), errs);
  validate_selector_immutable(s, errs);
}

void validate_replica_set_spec(const Json& spec, FieldErrors& errs) {
  validate_nonnegative(member(spec, "replicas"), "spec.replicas", errs);
  validate_nonnegative(member(spec, "minReadySeconds"), "spec.minReadySeconds", errs);
  validate_selector_and_template(spec, errs);
}

void validate_replica_set(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_replica_set_spec(s.spec(), errs);
}

void update_replica_set(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  validate_replica_set_spec(s.spec(), errs);
  validate_selector_immutable(s, errs);
}

void validate_daemon_set_strategy(const Json& strategy, FieldErrors& errs) {
  std::string type = string_member(strategy, "type");
  if (type.empty()) type = "RollingUpdate";
  if (type == "OnDelete") return;
  const Json& ru = member(strategy, "rollingUpdate");
  if (type != "RollingUpdate") {
    errs.not_supported("spec.updateStrategy", internal_strategy(type, ru),
                       {"RollingUpdate", "OnDelete"});
    return;
  }
  const std::string path = "spec.updateStrategy.rollingUpdate";
  const Json max_unavailable = member_or(ru, "maxUnavailable", 1);
  const Json max_surge = member_or(ru, "maxSurge", 0);
  validate_positive_int_or_percent(max_unavailable, path + ".maxUnavailable", errs);
  validate_positive_int_or_percent(max_surge, path + ".maxSurge", errs);
  validate_not_more_than_100_percent(max_unavailable, path + ".maxUnavailable", errs);
  validate_not_more_than_100_percent(max_surge, path + ".maxSurge", errs);
  const bool has_unavailable = int_or_percent_value(max_unavailable) != 0;
  const bool has_surge = int_or_percent_value(max_surge) != 0;
  if (has_unavailable && has_surge) {
    errs.invalid(path + ".maxSurge", render(max_surge),
                 "may not be set when maxUnavailable is non-zero");
  } else if (!has_unavailable && !has_surge) {
    errs.required(path + ".maxUnavailable", "cannot be 0 when maxSurge is 0");
  }
}

void validate_daemon_set_spec(const Json& spec, FieldErrors& errs) {
  const Json& selector = member(spec, "selector");
  const Json& tmpl = member(spec, "template");
  validate_label_selector(selector, "spec.selector", errs);
  const Json& labels = member(member(tmpl, "metadata"), "labels");
  if (selector_convertible(selector) && !selector_matches(selector, labels)) {
    errs.invalid("spec.template.metadata.labels", render(labels), kNoMatch);
  }
  if (present(selector) && selector_empty(selector)) {
    errs.invalid("spec.selector", render_selector(selector),
                 "empty selector is invalid for daemonset");
  }
  validate_pod_template(tmpl, "spec.template", errs);
  const std::string restart = string_member(member(tmpl, "spec"), "restartPolicy");
  if (!restart.empty() && restart != "Always") {
    errs.not_supported("spec.template.spec.restartPolicy", quote(restart), {"Always"});
  }
  if (present(member(member(tmpl, "spec"), "activeDeadlineSeconds"))) {
    errs.forbidden("spec.template.spec.activeDeadlineSeconds",
                   "activeDeadlineSeconds in DaemonSet is not Supported");
  }
  validate_nonnegative(member(spec, "minReadySeconds"), "spec.minReadySeconds", errs);
  validate_nonnegative(member(spec, "templateGeneration"), "spec.templateGeneration", errs);
  validate_daemon_set_strategy(member(spec, "updateStrategy"), errs);
  validate_nonnegative(member(spec, "revisionHistoryLimit"), "spec.revisionHistoryLimit", errs);
}

void validate_daemon_set(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  validate_daemon_set_spec(s.spec(), errs);
}

void update_daemon_set(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  validate_daemon_set_spec(s.spec(), errs);
  validate_selector_immutable(s, errs);
}

bool value_in(const Json& values, const std::string& v) {
  return values.is_array() &&
         std::any_of(values.begin(), values.end(), [&](const Json& x) { return x == v; });
}

}  // namespace

void validate_label_selector(const Json& selector, const std::string& path, FieldErrors& errs) {
  if (!selector.is_object()) return;
  validate_label_map(member(selector, "matchLabels"), child(path, "matchLabels"), errs);
  const Json& exprs = member(selector, "matchExpressions");
  if (!exprs.is_array()) return;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const Json& e = exprs[i];
    const std::string idx = index(child(path, "matchExpressions"), i);
    const std::string op = string_member(e, "operator");
    const Json& values = member(e, "values");
    if (op == "In" || op == "NotIn") {
      if (!non_empty(values)) {
        errs.required(child(idx, "values"), "must be specified when `operator` is 'In' or 'NotIn'");
      }
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (non_empty(values)) {
        errs.forbidden(child(idx, "values"),
                       "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      }
    } else {
      errs.invalid(child(idx, "operator"), quote(op), "not a valid selector operator");
    }
    validate_label_name(string_member(e, "key"), child(idx, "key"), errs);
    if (!values.is_array()) continue;
    for (std::size_t j = 0; j < values.size(); ++j) {
      const std::string v = values[j].is_string() ? values[j].get<std::string>() : std::string();
      for (const std::string& msg : api::is_valid_label_value(v)) {
        errs.invalid(index(child(idx, "values"), j), quote(v), msg);
      }
    }
  }
}

bool selector_convertible(const Json& selector) {
  FieldErrors errs;
  validate_label_selector(selector, "", errs);
  return errs.empty();
}

bool selector_empty(const Json& selector) {
  return !non_empty(member(selector, "matchLabels")) &&
         !non_empty(member(selector, "matchExpressions"));
}

bool selector_matches(const Json& selector, const Json& labels) {
  if (!selector.is_object()) return false;
  const Json& match = member(selector, "matchLabels");
  if (match.is_object()) {
    for (const auto& [k, v] : match.items()) {
      if (member(labels, k) != v) return false;
    }
  }
  const Json& exprs = member(selector, "matchExpressions");
  if (!exprs.is_array()) return true;
  for (const Json& e : exprs) {
    const std::string k = string_member(e, "key");
    const std::string op = string_member(e, "operator");
    const Json& value = member(labels, k);
    const bool has = value.is_string();
    const std::string v = has ? value.get<std::string>() : std::string();
    const Json& values = member(e, "values");
    if ((op == "In" && !(has && value_in(values, v))) ||
        (op == "NotIn" && has && value_in(values, v)) || (op == "Exists" && !has) ||
        (op == "DoesNotExist" && has)) {
      return false;
    }
  }
  return true;
}

std::string render_selector(const Json& selector) {
  if (!selector.is_object()) return "null";
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  const Json& match = member(selector, "matchLabels");
  if (non_empty(match)) out["matchLabels"] = match;
  const Json& exprs = member(selector, "matchExpressions");
  if (non_empty(exprs)) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Json& e : exprs) {
      nlohmann::ordered_json r;
      r["key"] = string_member(e, "key");
      r["operator"] = string_member(e, "operator");
      if (non_empty(member(e, "values"))) r["values"] = member(e, "values");
      list.push_back(std::move(r));
    }
    out["matchExpressions"] = std::move(list);
  }
  return go_json(out);
}

KindRules deployment_rules() {
  return {validate_deployment, update_deployment, update_deployment_status};
}
KindRules replica_set_rules() {
  return {validate_replica_set, update_replica_set, update_replica_set_status};
}
KindRules daemon_set_rules() {
  return {validate_daemon_set, update_daemon_set, validate_meta_identity};
}

}  // namespace kubesim::fakeapi::internal::validation
