// Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet and Job rules.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/validation.h"

#include "fakeapi/internal/defaulting/walker.h"
#include "fakeapi/internal/encoding/types/go_encoding.h"
#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

struct WorkloadCase {
  const char* name;
  Json body;
  std::string message;  // "" when valid
};

void run_workload_creates(const ResourceInfo& info, const std::vector<WorkloadCase>& cases) {
  for (const WorkloadCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto s = validate_create(info, c.body, "default");
    if (c.message.empty()) {
      EXPECT_TRUE(is_valid(s));
    } else {
      EXPECT_TRUE(is_status(s, 422, c.message));
    }
  }
}

Json set(Json base, const Json::json_pointer& at, Json value) {
  base[at] = std::move(value);
  return base;
}

Json without(Json base, const Json::json_pointer& at) {
  Json& parent = base[at.parent_pointer()];
  if (parent.is_array()) {
    parent.erase(std::stoul(at.back()));
  } else {
    parent.erase(at.back());
  }
  return base;
}

TEST(ValidationPodTest, Create) {
  const std::string invalid = "Pod \"p\" is invalid: ";
  const Json two =
      Json::array({{{"name", "web"}, {"image", "a"}}, {{"name", "web"}, {"image", "b"}}});
  run_workload_creates(
      builtin("pods"),
      {{"valid", pod(), ""},
       {"no containers", set(pod(), "/spec/containers"_json_pointer, Json::array()),
        invalid + "spec.containers: Required value"},
       {"empty container", set(pod(), "/spec/containers/0"_json_pointer, Json::object()),
        invalid +
            "[spec.containers[0].name: Required value, spec.containers[0].image: Required value]"},
       {"bad container name", set(pod(), "/spec/containers/0/name"_json_pointer, "Web"),
        invalid + "spec.containers[0].name: Invalid value: \"Web\": " + kLabelMsg},
       {"duplicate names", set(pod(), "/spec/containers"_json_pointer, two),
        invalid + "spec.containers[1].name: Duplicate value: \"web\""},
       {"init name clash",
        set(pod(), "/spec/initContainers"_json_pointer, {{{"name", "web"}, {"image", "i"}}}),
        invalid + "spec.initContainers[0].name: Duplicate value: \"web\""},
       {"unknown volume",
        set(pod(), "/spec/containers/0/volumeMounts"_json_pointer,
            {{{"name", "data"}, {"mountPath", "/d"}}}),
        invalid + "spec.containers[0].volumeMounts[0].name: Not found: \"data\""},
       {"known volume",
        set(set(pod(), "/spec/volumes"_json_pointer,
                {{{"name", "data"}, {"emptyDir", Json::object()}}}),
            "/spec/containers/0/volumeMounts"_json_pointer,
            {{{"name", "data"}, {"mountPath", "/d"}}}),
        ""},
       {"volume without source", set(pod(), "/spec/volumes"_json_pointer, {{{"name", "data"}}}),
        invalid + "spec.volumes[0]: Required value: must specify a volume type"},
       {"restart policy", set(pod(), "/spec/restartPolicy"_json_pointer, "Sometimes"),
        invalid +
            "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
            "\"OnFailure\", \"Never\""},
       {"image whitespace", set(pod(), "/spec/containers/0/image"_json_pointer, " nginx"),
        invalid + "spec.containers[0].image: Invalid value: \" nginx\": must not have leading or "
                  "trailing "
                  "whitespace"},
       {"container port",
        set(pod(), "/spec/containers/0/ports"_json_pointer, {{{"containerPort", 70000}}}),
        invalid + "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be "
                  "between 1 and "
                  "65535, inclusive"},
       {"toleration",
        set(pod(), "/spec/tolerations"_json_pointer,
            {{{"key", "k"}, {"operator", "Exists"}, {"value", "v"}}}),
        invalid + "spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when "
                  "`operator` is "
                  "'Exists'"},
       {"ephemeral on create",
        set(pod(), "/spec/ephemeralContainers"_json_pointer, {{{"name", "dbg"}}}),
        invalid + "spec.ephemeralContainers: Forbidden: cannot be set on create"}});
}

TEST(ValidationPodTest, UpdateMayChangeImagesOnly) {
  const ResourceInfo& pods = builtin("pods");
  const std::string invalid = "Pod \"p\" is invalid: ";
  const Json old =
      set(pod(), "/spec/tolerations"_json_pointer, {{{"key", "k"}, {"operator", "Exists"}}});
  auto update = [&](const Json& now) {
    return validate_update(pods, old, now, "default", "p", false);
  };
  EXPECT_TRUE(is_valid(update(set(old, "/spec/containers/0/image"_json_pointer, "nginx:1.26"))));
  EXPECT_TRUE(
      is_valid(update(set(old, "/spec/restartPolicy"_json_pointer, "Always"))));  // the default
  EXPECT_TRUE(is_valid(update(
      set(old, "/spec/tolerations/1"_json_pointer, {{"key", "x"}, {"operator", "Exists"}}))));
  EXPECT_TRUE(is_status(
      update(set(old, "/spec/containers/1"_json_pointer, {{"name", "b"}, {"image", "b"}})), 422,
      invalid + "spec.containers: Forbidden: pod updates may not add or remove containers"));
  EXPECT_TRUE(is_status(
      update(without(old, "/spec/tolerations/0"_json_pointer)), 422,
      invalid + "spec.tolerations: Forbidden: existing toleration can not be modified except its "
                "tolerationSeconds"));
  Json deadline = set(old, "/spec/activeDeadlineSeconds"_json_pointer, 10);
  EXPECT_TRUE(is_status(
      validate_update(pods, deadline, set(deadline, "/spec/activeDeadlineSeconds"_json_pointer, 20),
                      "default", "p", false),
      422,
      invalid + "spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to "
                "previous value"));
  auto s = update(set(old, "/spec/restartPolicy"_json_pointer, "Never"));
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->code, 422);
  const std::string head =
      "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
      "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
      "additions to existing "
      "tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
      "previously negative)\n";
  EXPECT_THAT(s->message, ::testing::StartsWith(invalid + head));
  EXPECT_THAT(s->message, ::testing::HasSubstr("restartPolicy"));
}

TEST(ValidationDeploymentTest, Create) {
  const std::string invalid = "Deployment.apps \"d\" is invalid: ";
  const std::string no_match =
      "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: " + kNoMatch;
  run_workload_creates(
      builtin("deployments", "apps"),
      {{"valid", deployment(), ""},
       {"no selector", without(deployment(), "/spec/selector"_json_pointer),
        invalid + "[spec.selector: Required value, " + no_match + "]"},
       {"selector mismatch",
        set(deployment(), "/spec/selector/matchLabels/app"_json_pointer, "api"),
        invalid + no_match},
       {"empty selector", set(deployment(), "/spec/selector"_json_pointer, Json::object()),
        invalid + "spec.selector: Invalid value: {}: empty selector is invalid for deployment"},
       {"bad operator",
        set(deployment(), "/spec/selector"_json_pointer,
            {{"matchExpressions", {{{"key", "app"}, {"operator", "Is"}}}}}),
        invalid + "[spec.selector.matchExpressions[0].operator: Invalid value: \"Is\": not a valid "
                  "selector "
                  "operator, spec.selector: Invalid value: "
                  "{\"matchExpressions\":[{\"key\":\"app\",\"operator\":"
                  "\"Is\"}]}: invalid label selector]"},
       {"expression selector",
        set(deployment(), "/spec/selector"_json_pointer,
            {{"matchExpressions",
              {{{"key", "app"}, {"operator", "In"}, {"values", {"web", "api"}}}}}}),
        ""},
       {"negative replicas", set(deployment(), "/spec/replicas"_json_pointer, -1),
        invalid + "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
       {"no containers",
        set(deployment(), "/spec/template/spec/containers"_json_pointer, Json::array()),
        invalid + "spec.template.spec.containers: Required value"},
       {"restart never",
        set(deployment(), "/spec/template/spec/restartPolicy"_json_pointer, "Never"),
        invalid + "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported "
                  "values: \"Always\""},
       {"bad template label",
        set(deployment(), "/spec/template/metadata/labels/x y"_json_pointer, "z"),
        invalid + "spec.template.labels: Invalid value: \"x y\": " + kNamePartMsg},
       {"zero rollout",
        set(deployment(), "/spec/strategy"_json_pointer,
            {{"rollingUpdate", {{"maxUnavailable", 0}, {"maxSurge", "0%"}}}}),
        invalid + "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when "
                  "`maxSurge` is 0"},
       {"recreate with rollingUpdate",
        set(deployment(), "/spec/strategy"_json_pointer,
            {{"type", "Recreate"}, {"rollingUpdate", Json::object()}}),
        invalid + "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy "
                  "`type` is 'Recreate'"},
       {"progress deadline", set(deployment(), "/spec/minReadySeconds"_json_pointer, 600),
        invalid + "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than "
                  "minReadySeconds"}});
}

TEST(ValidationDeploymentTest, SelectorIsImmutable) {
  const ResourceInfo& deployments = builtin("deployments", "apps");
  const Json old = deployment();
  Json now = set(old, "/spec/selector/matchLabels/tier"_json_pointer, "x");
  now["spec"]["template"]["metadata"]["labels"]["tier"] = "x";
  EXPECT_TRUE(is_status(validate_update(deployments, old, now, "default", "d", false), 422,
                        "Deployment.apps \"d\" is invalid: spec.selector: Invalid value: "
                        "{\"matchLabels\":{\"app\":\"web\","
                        "\"tier\":\"x\"}}: field is immutable"));
  EXPECT_TRUE(is_valid(validate_update(deployments, old, set(old, "/spec/replicas"_json_pointer, 5),
                                       "default", "d", false)));
  const ResourceInfo& replica_sets = builtin("replicasets", "apps");
  const Json rs = deployment("ReplicaSet", "d");
  EXPECT_TRUE(
      is_status(validate_update(replica_sets, rs,
                                set(rs, "/spec/selector/matchLabels/app"_json_pointer, "api"),
                                "default", "d", false),
                422,
                "ReplicaSet.apps \"d\" is invalid: [spec.template.metadata.labels: Invalid value: "
                "{\"app\":\"web\"}: " +
                    kNoMatch +
                    ", spec.selector: Invalid value: {\"matchLabels\":"
                    "{\"app\":\"api\"}}: field is immutable]"));
}

TEST(ValidationStatefulSetTest, CreateAndUpdate) {
  const ResourceInfo& sets = builtin("statefulsets", "apps");
  const Json sts = set(deployment("StatefulSet", "web"), "/spec/serviceName"_json_pointer, "web");
  const std::string invalid = "StatefulSet.apps \"web\" is invalid: ";
  run_workload_creates(
      sets,
      {{"valid", sts, ""},
       {"empty selector", set(sts, "/spec/selector"_json_pointer, Json::object()),
        invalid + "spec.selector: Invalid value: {}: empty selector is invalid for statefulset"},
       {"bad policy", set(sts, "/spec/podManagementPolicy"_json_pointer, "Random"),
        invalid + "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or "
                  "'Parallel'"}});
  EXPECT_TRUE(is_valid(validate_update(sets, sts, set(sts, "/spec/replicas"_json_pointer, 7),
                                       "default", "web", false)));
  EXPECT_TRUE(is_status(
      validate_update(sets, sts, set(sts, "/spec/serviceName"_json_pointer, "other"), "default",
                      "web", false),
      422,
      invalid + "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', "
                "'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' "
                "and 'minReadySeconds' are forbidden"));
}

TEST(ValidationDaemonSetTest, Create) {
  const std::string invalid = "DaemonSet.apps \"ds\" is invalid: ";
  const Json ds = deployment("DaemonSet", "ds");
  run_workload_creates(
      builtin("daemonsets", "apps"),
      {{"valid", without(ds, "/spec/replicas"_json_pointer), ""},
       {"no selector", without(ds, "/spec/selector"_json_pointer),
        invalid + "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: " + kNoMatch},
       {"surge and unavailable",
        set(ds, "/spec/updateStrategy"_json_pointer, {{"rollingUpdate", {{"maxSurge", 1}}}}),
        invalid +
            "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when "
            "maxUnavailable is non-zero"},
       {"bad percent",
        set(ds, "/spec/updateStrategy"_json_pointer,
            {{"rollingUpdate", {{"maxUnavailable", "ten"}}}}),
        invalid + "[spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"ten\": a "
                  "valid percent "
                  "string must be a numeric string followed by an ending '%' (e.g. '1%',  or "
                  "'93%', regex used "
                  "for validation is '[0-9]+%'), spec.updateStrategy.rollingUpdate.maxUnavailable: "
                  "Required "
                  "value: cannot be 0 when maxSurge is 0]"}});
}

TEST(ValidationJobTest, CreateAndUpdate) {
  const ResourceInfo& jobs = builtin("jobs", "batch");
  Json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", "j"}}},
              {"spec", {{"template", pod_template()}}}};
  const std::string invalid = "Job.batch \"j\" is invalid: ";
  EXPECT_TRUE(is_status(
      validate_create(jobs, job, "default"), 422,
      invalid +
          "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", "
          "\"Never\""));
  job["spec"]["template"]["spec"]["restartPolicy"] = "OnFailure";
  EXPECT_TRUE(is_valid(validate_create(jobs, job, "default")));
  EXPECT_TRUE(is_status(
      validate_create(jobs, set(job, "/spec/backoffLimit"_json_pointer, -1), "default"), 422,
      invalid + "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"));
  auto s = validate_update(jobs, job,
                           set(job, "/spec/template/spec/containers/0/image"_json_pointer, "other"),
                           "default", "j", false);
  ASSERT_TRUE(s.has_value());
  EXPECT_THAT(s->message, ::testing::StartsWith(invalid + "spec.template: Invalid value: {"));
  EXPECT_THAT(s->message, ::testing::EndsWith("}: field is immutable"));
  // The stored Job is defaulted (completions 1); a patch of parallelism keeps its completions.
  Json stored = job;
  defaulting::apply_defaults(*types::go_type_of("batch", "Job"), stored);
  EXPECT_TRUE(is_valid(validate_update(jobs, stored, set(stored, "/spec/parallelism"_json_pointer, 3),
                                       "default", "j", false)));
}

TEST(ValidationStatusTest, WorkloadCounters) {
  const ResourceInfo& deployments = builtin("deployments", "apps");
  const Json old = deployment();
  EXPECT_TRUE(is_status(
      validate_update(deployments, old,
                      set(old, "/status"_json_pointer, {{"replicas", 2}, {"readyReplicas", 3}}),
                      "default", "d", true),
      422,
      "Deployment.apps \"d\" is invalid: status.readyReplicas: Invalid value: 3: cannot be greater "
      "than status.replicas"));
  EXPECT_TRUE(is_valid(validate_update(
      deployments, old, set(old, "/status"_json_pointer, {{"replicas", 2}, {"readyReplicas", 2}}),
      "default", "d", true)));
  const ResourceInfo& replica_sets = builtin("replicasets", "apps");
  const Json rs = deployment("ReplicaSet", "d");
  EXPECT_TRUE(is_status(
      validate_update(replica_sets, rs,
                      set(rs, "/status"_json_pointer,
                          {{"replicas", 3}, {"readyReplicas", 1}, {"availableReplicas", 2}}),
                      "default", "d", true),
      422,
      "ReplicaSet.apps \"d\" is invalid: status.availableReplicas: Invalid value: 2: cannot be "
      "greater than readyReplicas"));
  const Json collided = set(old, "/status"_json_pointer, {{"collisionCount", 2}});
  EXPECT_TRUE(is_status(validate_update(deployments, collided,
                                        set(old, "/status"_json_pointer, {{"collisionCount", 1}}),
                                        "default", "d", true),
                        422,
                        "Deployment.apps \"d\" is invalid: status.collisionCount: Invalid value: "
                        "1: cannot be decremented"));
}

}  // namespace
}  // namespace kubesim::fakeapi
