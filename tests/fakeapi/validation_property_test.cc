// Validation never throws or crashes, whatever JSON it is given, and answers only with a 400, a
// 422 or nullopt: random values are dropped into random places of valid objects of each kind.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/fakeapi/validation.h"
#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

const std::vector<std::string>& interesting_strings() {
  static const std::vector<std::string> kStrings = {"",
                                                    "a",
                                                    "A b",
                                                    "-",
                                                    ".",
                                                    "..",
                                                    "../x",
                                                    "/abs",
                                                    "orphan",
                                                    "foregroundDeletion",
                                                    "kubernetes",
                                                    "None",
                                                    "ExternalName",
                                                    "LoadBalancer",
                                                    "NodePort",
                                                    "In",
                                                    "NotIn",
                                                    "Exists",
                                                    "Always",
                                                    "Never",
                                                    "OnFailure",
                                                    "YQ==",
                                                    "YQ=",
                                                    "!!",
                                                    "v1",
                                                    "apps/v1",
                                                    "a/b/c",
                                                    "example.com/x",
                                                    "25%",
                                                    "101%",
                                                    "ten",
                                                    "10.0.0.1",
                                                    "kubernetes.io/tls",
                                                    "Recreate",
                                                    "RollingUpdate",
                                                    "OnDelete",
                                                    "\xff\xfe",
                                                    "<&>",
                                                    std::string(300, 'x')};
  return kStrings;
}

const std::vector<std::string>& interesting_keys() {
  static const std::vector<std::string> kKeys = {"metadata",
                                                 "name",
                                                 "namespace",
                                                 "generateName",
                                                 "labels",
                                                 "annotations",
                                                 "finalizers",
                                                 "ownerReferences",
                                                 "uid",
                                                 "controller",
                                                 "deletionTimestamp",
                                                 "deletionGracePeriodSeconds",
                                                 "generation",
                                                 "spec",
                                                 "status",
                                                 "apiVersion",
                                                 "kind",
                                                 "data",
                                                 "binaryData",
                                                 "stringData",
                                                 "immutable",
                                                 "type",
                                                 "containers",
                                                 "initContainers",
                                                 "image",
                                                 "ports",
                                                 "port",
                                                 "targetPort",
                                                 "nodePort",
                                                 "containerPort",
                                                 "hostPort",
                                                 "protocol",
                                                 "selector",
                                                 "matchLabels",
                                                 "matchExpressions",
                                                 "operator",
                                                 "values",
                                                 "key",
                                                 "template",
                                                 "replicas",
                                                 "strategy",
                                                 "rollingUpdate",
                                                 "maxSurge",
                                                 "maxUnavailable",
                                                 "updateStrategy",
                                                 "volumes",
                                                 "volumeMounts",
                                                 "tolerations",
                                                 "restartPolicy",
                                                 "clusterIP",
                                                 "clusterIPs",
                                                 "externalName",
                                                 "schedulingGates",
                                                 "activeDeadlineSeconds",
                                                 "leaseDurationSeconds",
                                                 "readyReplicas",
                                                 "collisionCount",
                                                 "hostNetwork",
                                                 "podIPs"};
  return kKeys;
}

Json random_json(int depth) {
  const int choice = *rc::gen::inRange(0, depth > 0 ? 12 : 8);
  switch (choice) {
    case 0:
      return nullptr;
    case 1:
      return *rc::gen::arbitrary<bool>();
    case 2:
      return *rc::gen::arbitrary<std::int64_t>();
    case 3:
      return *rc::gen::inRange<std::int64_t>(-3, 70000);
    case 4:
      return *rc::gen::element(1.5, -0.0, 1e300, 3.0);
    case 5:
      return std::numeric_limits<std::uint64_t>::max();
    case 6:
      return *rc::gen::elementOf(interesting_strings());
    case 7:
      return *rc::gen::container<std::string>(rc::gen::inRange<char>(1, 127));
    case 8:
    case 9: {
      Json arr = Json::array();
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) arr.push_back(random_json(depth - 1));
      return arr;
    }
    default: {
      Json obj = Json::object();
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) {
        obj[*rc::gen::elementOf(interesting_keys())] = random_json(depth - 1);
      }
      return obj;
    }
  }
}

// Every place in `j` where a value can go: each member and element, and a new member of each
// object.
void collect_paths(const Json& j, const Json::json_pointer& at,
                   std::vector<Json::json_pointer>& out) {
  if (j.is_object()) {
    for (const std::string& k : interesting_keys()) out.push_back(at / k);
    for (const auto& [k, v] : j.items()) collect_paths(v, at / k, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collect_paths(j[i], at / i, out);
  }
}

Json mutate(Json body) {
  const int mutations = *rc::gen::inRange(1, 5);
  for (int m = 0; m < mutations; ++m) {
    std::vector<Json::json_pointer> paths;
    collect_paths(body, Json::json_pointer(), paths);
    if (paths.empty()) return random_json(3);
    const Json::json_pointer at = paths[*rc::gen::inRange<std::size_t>(0, paths.size())];
    body[at] = random_json(3);
  }
  return body;
}

struct Skeleton {
  const ResourceInfo* info;
  Json object;
};

std::vector<Skeleton> skeletons() {
  static const ResourceInfo widget = widget_info();
  Json service = {{"apiVersion", "v1"},
                  {"kind", "Service"},
                  {"metadata", {{"name", "d"}}},
                  {"spec", {{"ports", {{{"port", 80}}}}, {"selector", {{"app", "web"}}}}}};
  Json secret = {{"apiVersion", "v1"},
                 {"kind", "Secret"},
                 {"metadata", {{"name", "d"}}},
                 {"data", {{"a", "YQ=="}}}};
  Json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", "d"}}},
              {"spec", {{"template", pod_template()}}}};
  job["spec"]["template"]["spec"]["restartPolicy"] = "Never";
  Json lease = {{"metadata", {{"name", "d"}}}, {"spec", {{"leaseDurationSeconds", 10}}}};
  Json widget_obj = {
      {"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", {{"name", "d"}}}};
  return {{&builtin("configmaps"), config_map("d")},
          {&builtin("pods"), pod("d")},
          {&builtin("deployments", "apps"), deployment()},
          {&builtin("replicasets", "apps"), deployment("ReplicaSet")},
          {&builtin("statefulsets", "apps"), deployment("StatefulSet")},
          {&builtin("daemonsets", "apps"), deployment("DaemonSet")},
          {&builtin("services"), service},
          {&builtin("secrets"), secret},
          {&builtin("jobs", "batch"), job},
          {&builtin("leases", "coordination.k8s.io"), lease},
          {&builtin("namespaces"), {{"metadata", {{"name", "d"}}}}},
          {&builtin("events"), {{"metadata", {{"name", "d"}}}}},
          {&widget, widget_obj}};
}

bool acceptable(const std::optional<api::Status>& s) {
  if (!s) return true;
  return (s->code == 400 && s->reason == api::StatusReason::kBadRequest) ||
         (s->code == 422 && s->reason == api::StatusReason::kInvalid && s->details.has_value());
}

RC_GTEST_PROP(ValidationProperty, RandomBodiesGetA400A422OrPass, ()) {
  const std::vector<Skeleton> all = skeletons();
  const Skeleton& sk = all[*rc::gen::inRange<std::size_t>(0, all.size())];
  const Json body = *rc::gen::arbitrary<bool>() ? mutate(sk.object) : random_json(3);
  const std::string ns = sk.info->namespaced ? "default" : "";
  const Json before = body;
  RC_ASSERT(acceptable(validate_create(*sk.info, body, ns)));
  RC_ASSERT(acceptable(validate_update(*sk.info, sk.object, body, ns, "d", false)));
  RC_ASSERT(acceptable(validate_update(*sk.info, sk.object, body, ns, "d", true)));
  // A garbled stored object must not break an update either.
  RC_ASSERT(
      acceptable(validate_update(*sk.info, body, sk.object, ns, "d", *rc::gen::arbitrary<bool>())));
  for (const std::string& path : sk.info->field_selectors) (void)field_value(*sk.info, body, path);
  (void)field_value(*sk.info, body, "metadata.name");
  RC_ASSERT(body == before);
}

TEST(ValidationPropertyTest, SkeletonsAreValid) {
  for (const Skeleton& sk : skeletons()) {
    SCOPED_TRACE(sk.info->kind);
    const std::string ns = sk.info->namespaced ? "default" : "";
    EXPECT_TRUE(is_valid(validate_create(*sk.info, sk.object, ns)));
    EXPECT_TRUE(is_valid(validate_update(*sk.info, sk.object, sk.object, ns, "d", false)));
  }
}

}  // namespace
}  // namespace kubesim::fakeapi
