// The policy parts of a Job's spec as kube-apiserver (1.34 and later) validates them (kubernetes
// pkg/apis/batch/validation: validatePodFailurePolicy and its rules, validateSuccessPolicy,
// validatePodReplacementPolicy, the managedBy check), and the internal Go values an immutable
// policy prints as when an update changes it.
#include <limits>
#include <set>

#include "kubesim/api/validation.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::int64_t kMaxPodFailurePolicyRules = 20;
constexpr std::int64_t kMaxOnExitCodesValues = 255;
constexpr std::int64_t kMaxOnPodConditionsPatterns = 20;
constexpr std::int64_t kMaxSuccessPolicyRules = 20;
constexpr std::int64_t kMaxSucceededIndexesBytes = 64 * 1024;
constexpr std::size_t kMaxManagedByBytes = 63;

// field.Invalid with field.OmitValueType: apimachinery prints "Invalid value: <detail>", which is
// what invalid() prints for a value equal to the detail and no detail of its own.
void invalid_omitting_value(FieldErrors& errs, std::string path, std::string_view detail) {
  errs.invalid(std::move(path), detail, "");
}

// A value of a named Go string type (PodFailurePolicyAction, RestartPolicy, ...): field errors
// print it as json.Marshal does, not with %q.
std::string typed_string(const Json& v) { return go_json(v.is_string() ? v : Json("")); }

void validate_on_exit_codes(const Json& req, const std::string& path,
                            const std::set<std::string>& containers, FieldErrors& errs) {
  const std::string op = string_member(req, "operator");
  if (op.empty()) {
    errs.required(child(path, "operator"), R"(valid values: ["In" "NotIn"])");
  } else if (op != "In" && op != "NotIn") {
    errs.not_supported(child(path, "operator"), typed_string(member(req, "operator")),
                       {"In", "NotIn"});
  }
  const Json& name = member(req, "containerName");
  if (name.is_string() && containers.count(name.get<std::string>()) == 0) {
    errs.invalid(child(path, "containerName"), quote(name.get<std::string>()),
                 "must be one of the container or initContainer names in the pod template");
  }
  const std::string values_path = child(path, "values");
  const Json& values = member(req, "values");
  const std::size_t n = values.is_array() ? values.size() : 0;
  if (n == 0) {
    errs.invalid(values_path, go_json(values), "at least one value is required");
  } else if (n > static_cast<std::size_t>(kMaxOnExitCodesValues)) {
    errs.too_many(values_path, static_cast<std::int64_t>(n), kMaxOnExitCodesValues);
  }
  bool ordered = true;
  std::set<std::int64_t> seen;
  for (std::size_t j = 0; j < n; ++j) {
    const std::int64_t v = as_int(values[j]).value_or(0);
    if (op == "In" && v == 0) {
      errs.invalid(index(values_path, j), render_int(v), "must not be 0 for the In operator");
    }
    if (!seen.insert(v).second) errs.duplicate(index(values_path, j), render_int(v));
    if (j > 0 && as_int(values[j - 1]).value_or(0) > v) ordered = false;
  }
  if (!ordered) errs.invalid(values_path, go_json(values), "must be ordered");
}

void validate_on_pod_conditions(const Json& patterns, const std::string& path, FieldErrors& errs) {
  if (static_cast<std::int64_t>(patterns.size()) > kMaxOnPodConditionsPatterns) {
    errs.too_many(path, static_cast<std::int64_t>(patterns.size()), kMaxOnPodConditionsPatterns);
  }
  for (std::size_t j = 0; j < patterns.size(); ++j) {
    const std::string at = index(path, j);
    const std::string type = string_member(patterns[j], "type");
    for (const std::string& msg : api::is_qualified_name(type)) {
      errs.invalid(child(at, "type"), quote(type), msg);
    }
    // SetDefaults_Job fills in an empty status with True, so only a wrong one reaches here.
    const std::string status = string_member(patterns[j], "status");
    if (!status.empty() && status != "True" && status != "False" && status != "Unknown") {
      errs.not_supported(child(at, "status"), typed_string(member(patterns[j], "status")),
                         {"False", "True", "Unknown"});
    }
  }
}

void validate_pod_failure_rule(const Json& spec, const Json& rule, const std::string& path,
                               const std::set<std::string>& containers, FieldErrors& errs) {
  const std::string action = string_member(rule, "action");
  const std::string action_path = child(path, "action");
  if (action.empty()) {
    errs.required(action_path, R"(valid values: ["Count" "FailIndex" "FailJob" "Ignore"])");
  } else if (action == "FailIndex") {
    if (!present(member(spec, "backoffLimitPerIndex"))) {
      errs.invalid(action_path, typed_string(member(rule, "action")),
                   "requires the backoffLimitPerIndex to be set");
    }
  } else if (action != "Count" && action != "FailJob" && action != "Ignore") {
    errs.not_supported(action_path, typed_string(member(rule, "action")),
                       {"Count", "FailIndex", "FailJob", "Ignore"});
  }
  const Json& on_exit = member(rule, "onExitCodes");
  const Json& on_conditions = member(rule, "onPodConditions");
  const bool has_conditions = non_empty(on_conditions) && on_conditions.is_array();
  if (present(on_exit))
    validate_on_exit_codes(on_exit, child(path, "onExitCodes"), containers, errs);
  if (has_conditions)
    validate_on_pod_conditions(on_conditions, child(path, "onPodConditions"), errs);
  if (present(on_exit) && has_conditions) {
    invalid_omitting_value(errs, path,
                           "specifying both OnExitCodes and OnPodConditions is not supported");
  }
  if (!present(on_exit) && !has_conditions) {
    invalid_omitting_value(errs, path,
                           "specifying one of OnExitCodes and OnPodConditions is required");
  }
}

// strconv.Atoi: an optional sign, then decimal digits; nullopt when it does not fit.
std::optional<std::int64_t> parse_go_atoi(std::string_view s) {
  std::size_t i = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) return std::nullopt;
  std::int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    if (v > (std::numeric_limits<std::int64_t>::max() - (s[i] - '0')) / 10) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return negative ? -v : v;
}

// parseIndexInterval: "X" or "X-Y" with X < Y, both below `completions`.
std::optional<std::string> parse_interval(std::string_view text, std::int64_t completions,
                                          std::int64_t& x, std::int64_t& y) {
  std::vector<std::string_view> limits;
  for (std::size_t start = 0;;) {
    const std::size_t dash = text.find('-', start);
    limits.push_back(text.substr(start, dash == std::string_view::npos ? dash : dash - start));
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  if (limits.size() > 2) {
    return "the fragment " + quote(text) +
           " violates the requirement that an index interval can have at most two parts "
           "separated by '-'";
  }
  std::int64_t parsed[2] = {0, 0};
  for (std::size_t i = 0; i < limits.size(); ++i) {
    std::optional<std::int64_t> v = parse_go_atoi(limits[i]);
    if (!v) return "cannot convert string to integer for index: " + quote(limits[i]);
    if (*v >= completions) return "too large index: " + quote(limits[i]);
    parsed[i] = *v;
  }
  x = parsed[0];
  y = limits.size() > 1 ? parsed[1] : parsed[0];
  if (limits.size() > 1 && x >= y) {
    return "non-increasing order, previous: " + render_int(x) + ", current: " + render_int(y);
  }
  return std::nullopt;
}

// validateIndexesFormat: how many indexes a list of intervals ("1,3-5") names; `error` says
// why it is not one.
std::int64_t count_indexes(std::string_view text, std::int64_t completions, std::string& error) {
  error.clear();
  if (text.empty()) return 0;
  std::optional<std::int64_t> last;
  std::int64_t total = 0;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view interval =
        text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    std::int64_t x = 0;
    std::int64_t y = 0;
    if (auto bad = parse_interval(interval, completions, x, y)) {
      error = *bad;
      return 0;
    }
    if (last && *last >= x) {
      error =
          "non-increasing order, previous: " + render_int(*last) + ", current: " + render_int(x);
      return 0;
    }
    total += y - x + 1;
    last = y;
    if (comma == std::string_view::npos) return total;
    start = comma + 1;
  }
}

void validate_success_rule(const Json& rule, std::optional<std::int64_t> completions,
                           const std::string& path, FieldErrors& errs) {
  const Json& indexes = member(rule, "succeededIndexes");
  const Json& count = member(rule, "succeededCount");
  if (!present(indexes) && !present(count)) {
    errs.required(path, "at least one of succeededCount or succeededIndexes must be specified");
  }
  std::int64_t total = 0;
  if (indexes.is_string()) {
    const std::string at = child(path, "succeededIndexes");
    const std::string& text = indexes.get_ref<const std::string&>();
    if (static_cast<std::int64_t>(text.size()) > kMaxSucceededIndexesBytes) {
      errs.too_long(at, kMaxSucceededIndexesBytes);
    }
    std::string error;
    if (completions) total = count_indexes(text, *completions, error);
    if (!error.empty()) errs.invalid(at, quote(text), "error parsing succeededIndexes: " + error);
  }
  // kube-apiserver reads spec.completions here unguarded; an Indexed Job without completions has
  // been refused already ("when completion mode is Indexed"), so nothing more is said of it.
  if (!present(count) || !completions) return;
  const std::string at = child(path, "succeededCount");
  const std::int64_t n = as_int(count).value_or(0);
  validate_nonnegative(count, at, errs);
  if (n > *completions) {
    errs.invalid(at, render_int(n),
                 "must be less than or equal to " + render_int(*completions) +
                     " (the number of specified completions)");
  }
  if (indexes.is_string() && n > total) {
    errs.invalid(at, render_int(n),
                 "must be less than or equal to " + render_int(total) +
                     " (the number of indexes in the specified succeededIndexes field)");
  }
}

void validate_success_policy(const Json& policy, std::optional<std::int64_t> completions,
                             FieldErrors& errs) {
  const std::string path = "spec.successPolicy.rules";
  const Json& rules = member(policy, "rules");
  const std::size_t n = rules.is_array() ? rules.size() : 0;
  if (n == 0) {
    errs.required(path, "at least one rules must be specified when the successPolicy is specified");
  }
  if (static_cast<std::int64_t>(n) > kMaxSuccessPolicyRules) {
    errs.too_many(path, static_cast<std::int64_t>(n), kMaxSuccessPolicyRules);
  }
  for (std::size_t i = 0; i < n; ++i)
    validate_success_rule(rules[i], completions, index(path, i), errs);
}

// IsDomainPrefixedPath: "host/path", the host a DNS subdomain, the path of URL path characters.
void validate_domain_prefixed_path(const std::string& value, const std::string& path,
                                   FieldErrors& errs) {
  if (value.empty()) {
    errs.required(path);
    return;
  }
  const std::size_t slash = value.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == value.size()) {
    errs.invalid(path, quote(value), "must be a domain-prefixed path (such as \"acme.io/foo\")");
    return;
  }
  const std::string host = value.substr(0, slash);
  for (const std::string& msg : api::is_dns1123_subdomain(host))
    errs.invalid(path, quote(host), msg);
  const std::string rest = value.substr(slash + 1);
  constexpr std::string_view kPathChars = "/-._~%!$&'()*+,;=:";
  for (char c : rest) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && kPathChars.find(c) == std::string_view::npos) {
      errs.invalid(path, quote(rest),
                   "must be a valid path (regex used for validation is "
                   "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')");
      return;
    }
  }
}

}  // namespace

void validate_job_policies(const Json& spec, const JobDefaults& job, FieldErrors& errs) {
  const Json& pfp = member(spec, "podFailurePolicy");
  if (present(pfp)) {
    const std::string path = "spec.podFailurePolicy.rules";
    const Json& rules = member(pfp, "rules");
    const std::size_t n = rules.is_array() ? rules.size() : 0;
    if (static_cast<std::int64_t>(n) > kMaxPodFailurePolicyRules) {
      errs.too_many(path, static_cast<std::int64_t>(n), kMaxPodFailurePolicyRules);
    }
    std::set<std::string> containers;
    const Json& pod = member(member(spec, "template"), "spec");
    for (const char* list : {"containers", "initContainers"}) {
      const Json& cs = member(pod, list);
      if (!cs.is_array()) continue;
      for (const Json& c : cs) containers.insert(string_member(c, "name"));
    }
    for (std::size_t i = 0; i < n; ++i) {
      validate_pod_failure_rule(spec, rules[i], index(path, i), containers, errs);
    }
  }
  const Json& success = member(spec, "successPolicy");
  if (present(success)) {
    if (job.completion_mode != "Indexed") {
      errs.invalid("spec.successPolicy", go_json(internal_success_policy(success)),
                   "requires indexed completion mode");
    } else {
      validate_success_policy(success, job.completions, errs);
    }
  }
  const Json& replacement = member(spec, "podReplacementPolicy");
  if (replacement.is_string()) {
    const std::string v = replacement.get<std::string>();
    if (present(pfp)) {
      if (v != "Failed")
        errs.not_supported("spec.podReplacementPolicy", typed_string(replacement), {"Failed"});
    } else if (v != "Failed" && v != "TerminatingOrFailed") {
      errs.not_supported("spec.podReplacementPolicy", typed_string(replacement),
                         {"Failed", "TerminatingOrFailed"});
    }
  }
}

void validate_managed_by(const Json& spec, FieldErrors& errs) {
  const Json& managed_by = member(spec, "managedBy");
  if (!managed_by.is_string()) return;
  const std::string& v = managed_by.get_ref<const std::string&>();
  validate_domain_prefixed_path(v, "spec.managedBy", errs);
  if (v.size() > kMaxManagedByBytes) errs.too_long("spec.managedBy", kMaxManagedByBytes);
}

namespace {

// {"Rules": [rule_of(r) for each r of policy.rules]} (Rules null when policy.rules is not a list),
// or null when there is no policy: the internal type's shape that messages print.
template <class RuleOf>
nlohmann::ordered_json internal_rules(const Json& policy, RuleOf rule_of) {
  if (!present(policy)) return nullptr;
  nlohmann::ordered_json rules = nullptr;
  const Json& in = member(policy, "rules");
  if (in.is_array()) {
    rules = nlohmann::ordered_json::array();
    for (const Json& r : in) rules.push_back(rule_of(r));
  }
  nlohmann::ordered_json out;
  out["Rules"] = std::move(rules);
  return out;
}

}  // namespace

nlohmann::ordered_json internal_pod_failure_policy(const Json& policy) {
  return internal_rules(policy, [](const Json& r) {
    nlohmann::ordered_json rule;
    rule["Action"] = string_member(r, "action");
    const Json& exit = member(r, "onExitCodes");
    if (present(exit)) {
      rule["OnExitCodes"]["ContainerName"] = member(exit, "containerName");
      rule["OnExitCodes"]["Operator"] = string_member(exit, "operator");
      rule["OnExitCodes"]["Values"] = member(exit, "values");
    } else {
      rule["OnExitCodes"] = nullptr;
    }
    const Json& patterns = member(r, "onPodConditions");
    rule["OnPodConditions"] = nullptr;
    if (patterns.is_array()) {
      rule["OnPodConditions"] = nlohmann::ordered_json::array();
      for (const Json& p : patterns) {
        std::string status = string_member(p, "status");
        if (status.empty()) status = "True";  // SetDefaults_Job
        rule["OnPodConditions"].push_back({{"Type", string_member(p, "type")}, {"Status", status}});
      }
    }
    return rule;
  });
}

nlohmann::ordered_json internal_success_policy(const Json& policy) {
  return internal_rules(policy, [](const Json& r) {
    nlohmann::ordered_json rule;
    rule["SucceededIndexes"] = member(r, "succeededIndexes");
    rule["SucceededCount"] = member(r, "succeededCount");
    return rule;
  });
}

}  // namespace kubesim::fakeapi::internal::validation
