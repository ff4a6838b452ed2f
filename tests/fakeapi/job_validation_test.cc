// batch/v1 Job validation: completion modes, per-index backoff, the pod failure, success and
// replacement policies, managedBy, restart policies, the Indexed pod hostname rule, what an
// update may change, and the /status counters — each with kube-apiserver's exact message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/fakeapi/validation.h"

#include "fakeapi/internal/defaulting/walker.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

const std::string kInvalid = "Job.batch \"j\" is invalid: ";

// A valid NonIndexed Job, then each (JSON pointer, value) set on it; a null value removes it.
Json job(std::vector<std::pair<std::string, Json>> changes = {}) {
  Json tmpl = pod_template();
  tmpl["spec"]["restartPolicy"] = "Never";
  Json j = {{"apiVersion", "batch/v1"},
            {"kind", "Job"},
            {"metadata", {{"name", "j"}, {"namespace", "default"}}},
            {"spec", {{"template", tmpl}}}};
  for (auto& [at, value] : changes) {
    const Json::json_pointer p(at);
    if (value.is_null()) {
      j[p.parent_pointer()].erase(p.back());
    } else {
      j[p] = std::move(value);
    }
  }
  return j;
}

// An Indexed Job of `n` completions and parallelism, then `changes`.
Json indexed(int n, std::vector<std::pair<std::string, Json>> changes = {}) {
  changes.insert(
      changes.begin(),
      {{"/spec/completionMode", "Indexed"}, {"/spec/completions", n}, {"/spec/parallelism", n}});
  return job(std::move(changes));
}

struct JobCase {
  const char* name;
  Json body;
  std::string message;  // after "Job.batch \"j\" is invalid: "; "" when valid
};

void run_creates(const std::vector<JobCase>& cases) {
  const ResourceInfo& jobs = builtin("jobs", "batch");
  for (const JobCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto s = validate_create(jobs, c.body, "default");
    if (c.message.empty()) {
      EXPECT_TRUE(is_valid(s));
    } else {
      const std::string name = c.body["metadata"]["name"];
      EXPECT_TRUE(is_status(s, 422, "Job.batch \"" + name + "\" is invalid: " + c.message));
    }
  }
}

const Json kExitCodesRule = {{"action", "FailJob"},
                             {"onExitCodes", {{"operator", "In"}, {"values", {1}}}}};

TEST(JobValidationTest, CompletionModes) {
  run_creates({
      {"NonIndexed by default", job(), ""},
      {"Indexed", indexed(3), ""},
      {"Indexed, both counts defaulted to 1", job({{"/spec/completionMode", "Indexed"}}), ""},
      {"Indexed without completions",
       job({{"/spec/completionMode", "Indexed"}, {"/spec/parallelism", 3}}),
       "spec.completions: Required value: when completion mode is Indexed"},
      {"unknown mode", job({{"/spec/completionMode", "Sometimes"}}),
       "spec.completionMode: Unsupported value: \"Sometimes\": supported values: \"NonIndexed\", "
       "\"Indexed\""},
      {"empty mode", job({{"/spec/completionMode", ""}}),
       "spec.completionMode: Unsupported value: \"\": supported values: \"NonIndexed\", "
       "\"Indexed\""},
      {"Indexed parallelism too high", indexed(3, {{"/spec/parallelism", 100001}}),
       "spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when "
       "completion mode is Indexed"},
      {"NonIndexed parallelism high", job({{"/spec/parallelism", 100001}}), ""},
      {"negative counts",
       job({{"/spec/parallelism", -1},
            {"/spec/completions", -2},
            {"/spec/ttlSecondsAfterFinished", -3}}),
       "[spec.parallelism: Invalid value: -1: must be greater than or equal to 0, "
       "spec.completions: Invalid value: -2: must be greater than or equal to 0, "
       "spec.ttlSecondsAfterFinished: Invalid value: -3: must be greater than or equal to 0]"},
      {"ttl zero and suspend", job({{"/spec/ttlSecondsAfterFinished", 0}, {"/spec/suspend", true}}),
       ""},
  });
}

TEST(JobValidationTest, BackoffLimitPerIndex) {
  const std::string high =
      " when completions are above 100000 and used with backoff limit per index";
  run_creates({
      {"per index", indexed(3, {{"/spec/backoffLimitPerIndex", 1}, {"/spec/maxFailedIndexes", 3}}),
       ""},
      {"negative", indexed(3, {{"/spec/backoffLimitPerIndex", -1}}),
       "spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0"},
      {"maxFailedIndexes alone", indexed(3, {{"/spec/maxFailedIndexes", 1}}),
       "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified"},
      {"more failed indexes than completions",
       indexed(3, {{"/spec/backoffLimitPerIndex", 1}, {"/spec/maxFailedIndexes", 5}}),
       "spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions"},
      {"NonIndexed", job({{"/spec/backoffLimitPerIndex", 1}, {"/spec/maxFailedIndexes", 1}}),
       "[spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode, "
       "spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode]"},
      {"high completions",
       indexed(100001, {{"/spec/parallelism", 10001}, {"/spec/backoffLimitPerIndex", 1}}),
       "[spec.maxFailedIndexes: Required value: must be specified when completions is above "
       "100000, spec.parallelism: Invalid value: 10001: must be less than or equal to 10000" +
           high + "]"},
      {"too many failed indexes",
       indexed(200000, {{"/spec/parallelism", 1},
                        {"/spec/backoffLimitPerIndex", 1},
                        {"/spec/maxFailedIndexes", 100001}}),
       "[spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000, "
       "spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 10000" +
           high + "]"},
      {"high completions without per-index backoff", indexed(100001, {{"/spec/parallelism", 1}}),
       ""},
  });
}

TEST(JobValidationTest, RestartPolicyAndPodNames) {
  const std::string long_name(61, 'a');
  run_creates({
      {"unset", job({{"/spec/template/spec/restartPolicy", nullptr}}),
       "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""},
      {"Always", job({{"/spec/template/spec/restartPolicy", "Always"}}),
       "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""},
      {"OnFailure", job({{"/spec/template/spec/restartPolicy", "OnFailure"}}), ""},
      {"OnFailure with a pod failure policy",
       job({{"/spec/template/spec/restartPolicy", "OnFailure"},
            {"/spec/podFailurePolicy", {{"rules", {kExitCodesRule}}}}}),
       "spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is "
       "supported when podFailurePolicy is specified"},
      {"dotted Indexed name", indexed(2, {{"/metadata/name", "a.b"}}),
       "metadata.name: Invalid value: \"a.b\": will not able to create pod with invalid DNS "
       "label: a.b-1"},
      {"dotted NonIndexed name", job({{"/metadata/name", "a.b"}}), ""},
      {"last hostname too long", indexed(11, {{"/metadata/name", long_name}}),
       "metadata.name: Invalid value: \"" + long_name +
           "\": will not able to create pod with invalid DNS label: " + long_name + "-10"},
      {"last hostname fits", indexed(10, {{"/metadata/name", long_name}}), ""},
  });
}

TEST(JobValidationTest, PodFailurePolicy) {
  const std::string rule = "spec.podFailurePolicy.rules[0]";
  auto with_rule = [](Json r, std::vector<std::pair<std::string, Json>> more = {}) {
    more.emplace_back("/spec/podFailurePolicy", Json{{"rules", {std::move(r)}}});
    return job(std::move(more));
  };
  const Json conditions = {{{"type", "DisruptionTarget"}}};
  run_creates({
      {"exit codes", with_rule(kExitCodesRule), ""},
      {"conditions, status defaulted",
       with_rule({{"action", "Ignore"}, {"onPodConditions", conditions}}), ""},
      {"nothing to match", with_rule(Json::object()),
       "[" + rule +
           ".action: Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" "
           "\"Ignore\"], " +
           rule +
           ": Invalid value: specifying one of OnExitCodes and OnPodConditions is required]"},
      {"unknown action", with_rule({{"action", "Retry"}, {"onPodConditions", conditions}}),
       rule + ".action: Unsupported value: \"Retry\": supported values: \"Count\", \"FailIndex\", "
              "\"FailJob\", \"Ignore\""},
      {"FailIndex without per-index backoff",
       with_rule({{"action", "FailIndex"}, {"onPodConditions", conditions}}),
       rule + ".action: Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set"},
      {"FailIndex with per-index backoff",
       with_rule({{"action", "FailIndex"}, {"onPodConditions", conditions}},
                 {{"/spec/completionMode", "Indexed"},
                  {"/spec/completions", 2},
                  {"/spec/backoffLimitPerIndex", 1}}),
       ""},
      {"both kinds of match",
       with_rule({{"action", "Count"},
                  {"onExitCodes", {{"operator", "NotIn"}, {"values", {0}}}},
                  {"onPodConditions", conditions}}),
       rule + ": Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"},
      {"bad exit codes",
       with_rule({{"action", "FailJob"},
                  {"onExitCodes",
                   {{"containerName", "other"}, {"operator", "In"}, {"values", {0, 3, 3, 1}}}}}),
       "[" + rule +
           ".onExitCodes.containerName: Invalid value: \"other\": must be one of the "
           "container or initContainer names in the pod template, " +
           rule + ".onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator, " +
           rule + ".onExitCodes.values[2]: Duplicate value: 3, " + rule +
           ".onExitCodes.values: Invalid value: [0,3,3,1]: must be ordered]"},
      {"no operator, no values",
       with_rule({{"action", "FailJob"},
                  {"onExitCodes", {{"containerName", "web"}, {"values", Json::array()}}}}),
       "[" + rule + ".onExitCodes.operator: Required value: valid values: [\"In\" \"NotIn\"], " +
           rule + ".onExitCodes.values: Invalid value: []: at least one value is required]"},
      {"unknown operator",
       with_rule({{"action", "FailJob"}, {"onExitCodes", {{"operator", "Is"}, {"values", {1}}}}}),
       rule +
           ".onExitCodes.operator: Unsupported value: \"Is\": supported values: \"In\", \"NotIn\""},
      {"bad condition",
       with_rule({{"action", "Ignore"},
                  {"onPodConditions", {{{"type", "not a type"}, {"status", "Maybe"}}}}}),
       "[" + rule + ".onPodConditions[0].type: Invalid value: \"not a type\": " + kNamePartMsg +
           ", " + rule +
           ".onPodConditions[0].status: Unsupported value: \"Maybe\": supported "
           "values: \"False\", \"True\", \"Unknown\"]"},
      {"too many rules",
       job({{"/spec/podFailurePolicy", {{"rules", Json(std::vector<Json>(21, kExitCodesRule))}}}}),
       "spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items"},
  });
}

TEST(JobValidationTest, SuccessAndReplacementPolicies) {
  const std::string rule = "spec.successPolicy.rules[0]";
  auto success = [](Json rules, int completions = 3) {
    return indexed(completions, {{"/spec/successPolicy", {{"rules", std::move(rules)}}}});
  };
  auto indexes = [&](const char* text) { return success({{{"succeededIndexes", text}}}); };
  const std::string parsing = rule + ".succeededIndexes: Invalid value: ";
  run_creates({
      {"success policy", success({{{"succeededIndexes", "0,2"}, {"succeededCount", 2}}}), ""},
      {"NonIndexed", job({{"/spec/successPolicy", {{"rules", {{{"succeededCount", 1}}}}}}}),
       "spec.successPolicy: Invalid value: {\"Rules\":[{\"SucceededIndexes\":null,"
       "\"SucceededCount\":1}]}: requires indexed completion mode"},
      {"no rules", success(Json::array()),
       "spec.successPolicy.rules: Required value: at least one rules must be specified when the "
       "successPolicy is specified"},
      {"empty rule", success({Json::object()}),
       rule + ": Required value: at least one of succeededCount or succeededIndexes must be "
              "specified"},
      {"counts", success({{{"succeededIndexes", "0-1"}, {"succeededCount", 4}}}),
       "[" + rule +
           ".succeededCount: Invalid value: 4: must be less than or equal to 3 (the "
           "number of specified completions), " +
           rule +
           ".succeededCount: Invalid value: 4: must be less than or equal to 2 (the number of "
           "indexes in the specified succeededIndexes field)]"},
      {"index too large", indexes("0-1,3"),
       parsing + "\"0-1,3\": error parsing succeededIndexes: too large index: \"3\""},
      {"interval upside down", indexes("2-1"),
       parsing + "\"2-1\": error parsing succeededIndexes: non-increasing order, previous: 2, "
                 "current: 1"},
      {"repeated index", indexes("1,1"),
       parsing + "\"1,1\": error parsing succeededIndexes: non-increasing order, previous: 1, "
                 "current: 1"},
      {"not a number", indexes("0,a"),
       parsing + "\"0,a\": error parsing succeededIndexes: cannot convert string to integer for "
                 "index: \"a\""},
      {"three parts", indexes("0-1-2"),
       parsing + "\"0-1-2\": error parsing succeededIndexes: the fragment \"0-1-2\" violates the "
                 "requirement that an index interval can have at most two parts separated by '-'"},
      {"replacement", job({{"/spec/podReplacementPolicy", "TerminatingOrFailed"}}), ""},
      {"unknown replacement", job({{"/spec/podReplacementPolicy", "Sometimes"}}),
       "spec.podReplacementPolicy: Unsupported value: \"Sometimes\": supported values: "
       "\"Failed\", \"TerminatingOrFailed\""},
      {"replacement with a failure policy",
       job({{"/spec/podReplacementPolicy", "TerminatingOrFailed"},
            {"/spec/podFailurePolicy", {{"rules", {kExitCodesRule}}}}}),
       "spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: "
       "\"Failed\""},
  });
}

TEST(JobValidationTest, ManagedBy) {
  const std::string path = "spec.managedBy: Invalid value: ";
  run_creates({
      {"domain-prefixed", job({{"/spec/managedBy", "kueue.x-k8s.io/manager"}}), ""},
      {"no domain", job({{"/spec/managedBy", "kueue"}}),
       path + "\"kueue\": must be a domain-prefixed path (such as \"acme.io/foo\")"},
      {"empty", job({{"/spec/managedBy", ""}}), "spec.managedBy: Required value"},
      {"bad host", job({{"/spec/managedBy", "Acme.io/x"}}), path + "\"Acme.io\": " + kSubdomainMsg},
      {"bad path", job({{"/spec/managedBy", "acme.io/a b"}}),
       path + "\"a b\": must be a valid path (regex used for validation is "
              "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"},
      {"too long", job({{"/spec/managedBy", "acme.io/" + std::string(56, 'x')}}),
       "spec.managedBy: Too long: may not be more than 63 bytes"},
  });
}

// The update of `old` to `now`; "" when valid. Both are defaulted, as the server stores `old`
// and defaults `now` before it validates it.
std::string update(Json old, Json now, bool status = false) {
  defaulting::apply_defaults(*types::go_type_of("batch", "Job"), old);
  defaulting::apply_defaults(*types::go_type_of("batch", "Job"), now);
  auto s = validate_update(builtin("jobs", "batch"), old, now, "default", "j", status);
  return s ? s->message : "";
}

TEST(JobValidationTest, UpdateOfCompletions) {
  const Json two = job({{"/spec/completions", 2}});
  EXPECT_EQ(update(two, job({{"/spec/completions", 3}})),
            kInvalid + "spec.completions: Invalid value: 3: field is immutable");
  EXPECT_EQ(update(job(), job({{"/spec/completions", 1}, {"/spec/parallelism", 1}})), "")
      << "the defaults are 1 and 1";
  EXPECT_EQ(update(job(), job({{"/spec/completions", 1}, {"/spec/parallelism", 3}})), "")
      << "a patch of parallelism keeps the completions (1) the stored Job was given";
  EXPECT_EQ(update(job(), job({{"/spec/parallelism", 3}})),
            kInvalid + "spec.completions: Invalid value: null: field is immutable")
      << "an update that leaves completions out unsets them: parallelism is set";
  EXPECT_EQ(update(job({{"/spec/parallelism", 2}}), job({{"/spec/parallelism", 1}})), "")
      << "completions stays unset when parallelism is set";
  EXPECT_EQ(update(two, job()), kInvalid + "spec.completions: Invalid value: 1: field is immutable")
      << "completions left out defaults to 1";
  EXPECT_EQ(update(indexed(3), indexed(5)), "") << "Indexed Jobs scale";
  EXPECT_EQ(update(indexed(3), indexed(5, {{"/spec/parallelism", 3}})),
            kInvalid +
                "spec.completions: Invalid value: 5: can only be modified in tandem with "
                "spec.parallelism");
  EXPECT_EQ(update(indexed(3), indexed(3, {{"/spec/parallelism", 1}})), "");
}

TEST(JobValidationTest, UpdateOfImmutableFields) {
  EXPECT_EQ(update(job(), job({{"/spec/completionMode", "NonIndexed"}})), "");
  EXPECT_EQ(update(job({{"/spec/completions", 2}}),
                   job({{"/spec/completions", 2}, {"/spec/completionMode", "Indexed"}})),
            kInvalid + "spec.completionMode: Invalid value: \"Indexed\": field is immutable");
  EXPECT_EQ(update(job(), job({{"/spec/podFailurePolicy", {{"rules", {kExitCodesRule}}}}})),
            kInvalid +
                "spec.podFailurePolicy: Invalid value: {\"Rules\":[{\"Action\":\"FailJob\","
                "\"OnExitCodes\":{\"ContainerName\":null,\"Operator\":\"In\",\"Values\":[1]},"
                "\"OnPodConditions\":null}]}: field is immutable");
  const Json per_index = indexed(2, {{"/spec/backoffLimitPerIndex", 1}});
  EXPECT_EQ(update(per_index, indexed(2, {{"/spec/backoffLimitPerIndex", 2}})),
            kInvalid + "spec.backoffLimitPerIndex: Invalid value: 2: field is immutable");
  EXPECT_EQ(update(job({{"/spec/managedBy", "example.com/a"}}),
                   job({{"/spec/managedBy", "example.com/b"}})),
            kInvalid + "spec.managedBy: Invalid value: \"example.com/b\": field is immutable");
  EXPECT_EQ(update(indexed(2),
                   indexed(2, {{"/spec/successPolicy", {{"rules", {{{"succeededCount", 1}}}}}}})),
            kInvalid +
                "spec.successPolicy: Invalid value: {\"Rules\":[{\"SucceededIndexes\":null,"
                "\"SucceededCount\":1}]}: field is immutable");
  EXPECT_EQ(update(job(), job({{"/spec/suspend", true}, {"/spec/activeDeadlineSeconds", 60}})), "");
}

TEST(JobValidationTest, UpdateRepeatsTheSpecRules) {
  auto s = validate_update(builtin("jobs", "batch"), job(),
                           job({{"/spec/ttlSecondsAfterFinished", -1}}), "default", "j", false);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->message, kInvalid +
                            "spec.ttlSecondsAfterFinished: Invalid value: -1: must be "
                            "greater than or equal to 0");
  ASSERT_TRUE(s->details.has_value());
  EXPECT_EQ(s->details->causes.size(), 2u) << "ValidateJob and ValidateJobUpdate both report it";
}

TEST(JobValidationTest, SuspendedJobsThatNeverStartedMayChangeSchedulingDirectives) {
  const Json suspended = job({{"/spec/suspend", true}});
  const Json directives = job({{"/spec/suspend", true},
                               {"/spec/template/metadata/labels/queue", "a"},
                               {"/spec/template/metadata/annotations", {{"note", "x"}}},
                               {"/spec/template/spec/nodeSelector", {{"zone", "a"}}},
                               {"/spec/template/spec/schedulingGates", {{{"name", "kueue"}}}},
                               {"/spec/template/spec/affinity/nodeAffinity", {{"x", 1}}}});
  EXPECT_EQ(update(suspended, directives), "");
  Json started = suspended;
  started["status"] = {{"startTime", "2024-01-01T00:00:00Z"}};
  const std::string immutable = kInvalid + "spec.template: Invalid value: {";
  EXPECT_THAT(update(started, directives), ::testing::StartsWith(immutable));
  EXPECT_THAT(update(job(), job({{"/spec/template/spec/nodeSelector", {{"zone", "a"}}}})),
              ::testing::StartsWith(immutable));
  EXPECT_THAT(update(suspended, job({{"/spec/suspend", true},
                                     {"/spec/template/spec/containers/0/image", "other"}})),
              ::testing::AllOf(::testing::StartsWith(immutable),
                               ::testing::EndsWith("}: field is immutable")));
  EXPECT_THAT(update(suspended, job({{"/spec/suspend", true},
                                     {"/spec/template/spec/affinity/podAffinity", {{"x", 1}}}})),
              ::testing::StartsWith(immutable));
}

TEST(JobValidationTest, StatusCounters) {
  const Json old = job();
  EXPECT_EQ(update(old, job({{"/status", {{"active", 1}, {"succeeded", 2}}}}), true), "");
  EXPECT_EQ(update(old, job({{"/status", {{"active", -1}, {"ready", -2}}}}), true),
            kInvalid +
                "[status.active: Invalid value: -1: must be greater than or equal to 0, "
                "status.ready: Invalid value: -2: must be greater than or equal to 0]");
  EXPECT_EQ(
      update(
          old,
          job({{"/status/uncountedTerminatedPods", {{"succeeded", {"a", ""}}, {"failed", {"a"}}}}}),
          true),
      kInvalid +
          "[status.uncountedTerminatedPods.succeeded[1]: Invalid value: \"\": must "
          "not be empty, status.uncountedTerminatedPods.failed[0]: Duplicate value: "
          "\"a\"]");
}

}  // namespace
}  // namespace kubesim::fakeapi
