// Job as kube-apiserver (1.34 and later) validates it (kubernetes pkg/apis/batch/validation:
// ValidateJob, validateJobSpec, ValidateJobSpecUpdate with validateCompletions and
// validatePodTemplateUpdate, and the counters of ValidateJobUpdateStatus). An update runs
// ValidateJob and then ValidateJobUpdate, as the registry's strategy does, so a spec error is a
// cause twice but listed once in the message.
//
// kube-apiserver validates the Job SetDefaults_Job has filled in, as this server does (its writes
// are defaulted first); the rules read the values through job_defaults(), which defaults a Job
// passed to them as sent the same way. The selector rules apply to a manual selector
// only: this server does not generate one.
#include <set>

#include "kubesim/api/validation.h"
#include "fakeapi/internal/defaulting/walker.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

constexpr std::int64_t kMaxParallelismIndexed = 100'000;
constexpr std::int64_t kMaxFailedIndexes = 100'000;
constexpr std::int64_t kCompletionsSoftLimit = 100'000;
constexpr std::int64_t kParallelismLimitHighCompletions = 10'000;
constexpr std::int64_t kMaxFailedIndexesHighCompletions = 10'000;
constexpr const char* kRequiresIndexed = "requires indexed completion mode";
constexpr const char* kHighCompletions =
    " when completions are above 100000 and used with backoff limit per index";

void validate_job_counts(const Json& spec, FieldErrors& errs) {
  for (const char* f : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                        "ttlSecondsAfterFinished", "backoffLimitPerIndex"}) {
    validate_nonnegative(member(spec, f), child("spec", f), errs);
  }
  if (present(member(spec, "maxFailedIndexes"))) {
    validate_nonnegative(member(spec, "maxFailedIndexes"), "spec.maxFailedIndexes", errs);
    if (!present(member(spec, "backoffLimitPerIndex"))) {
      errs.required("spec.backoffLimitPerIndex", "when maxFailedIndexes is specified");
    }
  }
}

void validate_indexed(const Json& spec, const JobDefaults& job, FieldErrors& errs) {
  const std::optional<std::int64_t> max_failed = as_int(member(spec, "maxFailedIndexes"));
  if (!job.completions) errs.required("spec.completions", "when completion mode is Indexed");
  if (job.parallelism > kMaxParallelismIndexed) {
    errs.invalid("spec.parallelism", render_int(job.parallelism),
                 "must be less than or equal to 100000 when completion mode is Indexed");
  }
  if (job.completions && max_failed && *max_failed > *job.completions) {
    errs.invalid("spec.maxFailedIndexes", render_int(*max_failed),
                 "must be less than or equal to completions");
  }
  if (max_failed && *max_failed > kMaxFailedIndexes) {
    errs.invalid("spec.maxFailedIndexes", render_int(*max_failed),
                 "must be less than or equal to 100000");
  }
  if (!job.completions || *job.completions <= kCompletionsSoftLimit ||
      !present(member(spec, "backoffLimitPerIndex"))) {
    return;
  }
  if (!max_failed) {
    errs.required("spec.maxFailedIndexes", "must be specified when completions is above 100000");
  }
  if (job.parallelism > kParallelismLimitHighCompletions) {
    errs.invalid("spec.parallelism", render_int(job.parallelism),
                 std::string("must be less than or equal to 10000") + kHighCompletions);
  }
  if (max_failed && *max_failed > kMaxFailedIndexesHighCompletions) {
    errs.invalid("spec.maxFailedIndexes", render_int(*max_failed),
                 std::string("must be less than or equal to 10000") + kHighCompletions);
  }
}

void validate_completion_mode(const Json& spec, const JobDefaults& job, FieldErrors& errs) {
  const std::string& mode = job.completion_mode;
  if (mode != "NonIndexed" && mode != "Indexed") {
    errs.not_supported("spec.completionMode", go_json(Json(mode)), {"NonIndexed", "Indexed"});
  }
  if (mode == "Indexed") validate_indexed(spec, job, errs);
  if (mode != "NonIndexed") return;
  for (const char* f : {"backoffLimitPerIndex", "maxFailedIndexes"}) {
    if (auto v = as_int(member(spec, f)))
      errs.invalid(child("spec", f), render_int(*v), kRequiresIndexed);
  }
}

void validate_restart_policy(const Json& spec, FieldErrors& errs) {
  const std::string path = "spec.template.spec.restartPolicy";
  const std::string restart =
      string_member(member(member(spec, "template"), "spec"), "restartPolicy");
  // SetDefaults_PodSpec makes an unset policy Always, which a Job may not have.
  if (restart.empty() || restart == "Always") {
    errs.required(path, R"(valid values: "OnFailure", "Never")");
  } else if (restart != "OnFailure" && restart != "Never") {
    errs.not_supported(path, go_json(Json(restart)), {"OnFailure", "Never"});
  } else if (present(member(spec, "podFailurePolicy")) && restart != "Never") {
    errs.invalid(path, go_json(Json(restart)),
                 R"(only "Never" is supported when podFailurePolicy is specified)");
  }
}

// validateJobSpec, then ValidateJobSpec's selector rules.
void validate_job_spec(const Json& spec, const JobDefaults& job, FieldErrors& errs) {
  validate_job_counts(spec, errs);
  validate_managed_by(spec, errs);
  validate_completion_mode(spec, job, errs);
  validate_job_policies(spec, job, errs);
  const Json& tmpl = member(spec, "template");
  validate_pod_template(tmpl, "spec.template", errs);
  validate_restart_policy(spec, errs);
  if (member(spec, "manualSelector") != Json(true)) return;
  const Json& selector = member(spec, "selector");
  if (!present(selector)) {
    errs.required("spec.selector");
  } else {
    validate_label_selector(selector, "spec.selector", errs);
  }
  const Json& labels = member(member(tmpl, "metadata"), "labels");
  if (selector_convertible(selector) && !selector_matches(selector, labels) &&
      !(present(selector) && selector_empty(selector))) {
    errs.invalid("spec.template.metadata.labels", render(labels),
                 "`selector` does not match template `labels`");
  }
}

// An Indexed Job's pods are named NAME-INDEX, and their hostname must be a DNS label. A name still
// to be generated (generateName) is not known here, so only a given name is checked.
void validate_indexed_pod_names(const Subject& s, const JobDefaults& job, FieldErrors& errs) {
  const std::string name = string_member(s.metadata(), "name");
  if (job.completion_mode != "Indexed" || !job.completions || *job.completions <= 0 ||
      name.empty()) {
    return;
  }
  const std::string hostname = name + "-" + render_int(*job.completions - 1);
  if (!api::is_dns1123_label(hostname).empty()) {
    errs.invalid("metadata.name", quote(name),
                 "will not able to create pod with invalid DNS label: " + hostname);
  }
}

void validate_job(const Subject& s, FieldErrors& errs) {
  const JobDefaults job = job_defaults(s.spec());
  validate_meta_create(s, errs);
  validate_job_spec(s.spec(), job, errs);
  validate_indexed_pod_names(s, job, errs);
}

// A defaulted optional integer as a field error prints a *int32.
std::string render_optional(std::optional<std::int64_t> v) { return v ? render_int(*v) : "null"; }

// validateCompletions: completions may change only on an Indexed Job, and then together with
// parallelism.
void validate_completions_update(const JobDefaults& now, const JobDefaults& before,
                                 FieldErrors& errs) {
  if (now.completion_mode != "Indexed") {
    if (now.completions != before.completions) {
      errs.invalid("spec.completions", render_optional(now.completions), "field is immutable");
    }
    return;
  }
  if (now.completions == before.completions || !now.completions) return;
  if (*now.completions != now.parallelism) {
    errs.invalid("spec.completions", render_int(*now.completions),
                 "can only be modified in tandem with spec.parallelism");
  }
}

// The old template as validatePodTemplateUpdate compares it for a Job that is suspended and has
// never started: what such a Job may change (labels, annotations, node selector, tolerations,
// scheduling gates, node affinity) taken from the new one.
Json with_scheduling_directives_of(const Json& tmpl, Json old) {
  auto take = [](Json& into, const Json& from, const char* key) {
    if (!into.is_object()) into = Json::object();
    const Json& v = member(from, key);
    if (present(v)) {
      into[key] = v;
    } else {
      into.erase(key);
    }
  };
  if (!old.is_object()) old = Json::object();
  for (const char* key : {"labels", "annotations"})
    take(old["metadata"], member(tmpl, "metadata"), key);
  const Json& spec = member(tmpl, "spec");
  for (const char* key : {"nodeSelector", "tolerations", "schedulingGates"})
    take(old["spec"], spec, key);
  if (present(member(spec, "affinity")) || present(member(member(old, "spec"), "affinity"))) {
    take(old["spec"]["affinity"], member(spec, "affinity"), "nodeAffinity");
  }
  return old;
}

void validate_template_update(const Subject& s, FieldErrors& errs) {
  const Json& tmpl = member(s.spec(), "template");
  Json old = member(s.old_spec(), "template");
  const bool suspended = member(s.old_spec(), "suspend") == Json(true);
  const bool started = present(member(s.old_member("status"), "startTime"));
  if (suspended && !started) old = with_scheduling_directives_of(tmpl, std::move(old));
  if (!semantically_equal(tmpl, old)) {
    // kube-apiserver prints the internal PodTemplateSpec; its v1 JSON stands in for it here.
    errs.invalid("spec.template", go_json(canonical(tmpl)), "field is immutable");
  }
}

void validate_immutable_fields(const Subject& s, const JobDefaults& now, FieldErrors& errs) {
  const Json& spec = s.spec();
  const Json& old = s.old_spec();
  if (now.completion_mode != job_defaults(old).completion_mode) {
    errs.invalid("spec.completionMode", go_json(Json(now.completion_mode)), "field is immutable");
  }
  const nlohmann::ordered_json pfp = internal_pod_failure_policy(member(spec, "podFailurePolicy"));
  if (pfp != internal_pod_failure_policy(member(old, "podFailurePolicy"))) {
    errs.invalid("spec.podFailurePolicy", go_json(pfp), "field is immutable");
  }
  for (const char* f : {"backoffLimitPerIndex", "managedBy"}) {
    if (member(spec, f) != member(old, f)) {
      errs.invalid(child("spec", f), go_json(member(spec, f)), "field is immutable");
    }
  }
  const nlohmann::ordered_json success = internal_success_policy(member(spec, "successPolicy"));
  if (success != internal_success_policy(member(old, "successPolicy"))) {
    errs.invalid("spec.successPolicy", go_json(success), "field is immutable");
  }
}

void update_job(const Subject& s, FieldErrors& errs) {
  const JobDefaults now = job_defaults(s.spec());
  validate_job(s, errs);
  validate_meta_update(s, errs);
  validate_job_spec(s.spec(), now, errs);
  validate_completions_update(now, job_defaults(s.old_spec()), errs);
  const Json& selector = member(s.spec(), "selector");
  const Json& old_selector = member(s.old_spec(), "selector");
  if (present(selector) != present(old_selector) || !semantically_equal(selector, old_selector)) {
    errs.invalid("spec.selector", render_selector(selector), "field is immutable");
  }
  validate_template_update(s, errs);
  validate_immutable_fields(s, now, errs);
}

// The counters of validateJobStatus and its uncounted pods (the rules kube-apiserver applies to
// every /status update; those it applies only to some transitions are not modelled).
void update_job_status(const Subject& s, FieldErrors& errs) {
  validate_meta_identity(s, errs);
  const Json& status = member(s.obj, "status");
  for (const char* f : {"active", "succeeded", "failed", "ready", "terminating"}) {
    validate_nonnegative(member(status, f), child("status", f), errs);
  }
  const Json& uncounted = member(status, "uncountedTerminatedPods");
  std::set<std::string> seen;
  for (const char* list : {"succeeded", "failed"}) {
    const Json& uids = member(uncounted, list);
    if (!uids.is_array()) continue;
    const std::string path = child("status.uncountedTerminatedPods", list);
    for (std::size_t i = 0; i < uids.size(); ++i) {
      const std::string uid = uids[i].is_string() ? uids[i].get<std::string>() : "";
      if (uid.empty()) {
        errs.invalid(index(path, i), go_json(Json(uid)), "must not be empty");
      } else if (!seen.insert(uid).second) {
        errs.duplicate(index(path, i), go_json(Json(uid)));
      }
    }
  }
}

}  // namespace

JobDefaults job_defaults(const Json& spec) {
  // SetDefaults_Job's values, from the generated rules (fakeapi/internal/defaulting): the server
  // validates defaulted Jobs; the rules' other callers may pass them as sent.
  Json job = {{"spec", spec.is_object() ? spec : Json::object()}};
  defaulting::apply_defaults(*types::go_type_of("batch", "Job"), job);
  const Json& defaulted = job["spec"];
  JobDefaults d;
  d.completions = as_int(member(defaulted, "completions"));
  d.parallelism = as_int(member(defaulted, "parallelism")).value_or(1);
  const Json& mode = member(defaulted, "completionMode");
  if (mode.is_string()) d.completion_mode = mode.get<std::string>();
  return d;
}

KindRules job_rules() { return {validate_job, update_job, update_job_status}; }

}  // namespace kubesim::fakeapi::internal::validation
