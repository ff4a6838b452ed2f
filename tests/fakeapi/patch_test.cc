#include "kubesim/fakeapi/patch.h"

#include <gtest/gtest.h>

#include <string>

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

const json kDeployment = json::parse(R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "namespace": "default", "finalizers": ["example.com/a"],
               "ownerReferences": [{"uid": "u1", "name": "o1", "kind": "X", "apiVersion": "v1"}]},
  "spec": {
    "replicas": 2,
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
    "template": {
      "metadata": {"labels": {"app": "web"}, "annotations": {"a": "1"}},
      "spec": {
        "containers": [
          {"name": "app", "image": "app:1",
           "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
           "ports": [{"containerPort": 80, "name": "http"}],
           "volumeMounts": [{"name": "cfg", "mountPath": "/etc/cfg"}]},
          {"name": "sidecar", "image": "side:1"}],
        "volumes": [{"name": "cfg", "configMap": {"name": "cfg"}}],
        "tolerations": [{"key": "k1", "operator": "Exists"}]}}},
  "status": {"conditions": [{"type": "Available", "status": "False"},
                            {"type": "Progressing", "status": "True"}]}})");

json smp(const json& doc, const char* patch, std::string_view group, std::string_view kind) {
  auto r = apply_patch(doc, api::PatchType::kStrategicMergePatch, patch,
                       builtin_patch_schema(group, kind));
  EXPECT_TRUE(r.ok()) << patch << ": " << (r.ok() ? "" : r.status().message);
  return r.ok() ? r.value() : json();
}

json at(const json& doc, const char* pointer) { return doc.at(json::json_pointer(pointer)); }

TEST(PatchTest, DispatchesOnType) {
  const json doc = {{"kind", "ConfigMap"}, {"data", {{"a", "1"}}}};
  const PatchSchema& schema = builtin_patch_schema("", "ConfigMap");
  auto jp = apply_patch(doc, api::PatchType::kJsonPatch,
                        R"([{"op":"add","path":"/data/b","value":"2"}])", schema);
  auto mp = apply_patch(doc, api::PatchType::kMergePatch, R"({"data":{"b":"2"}})", schema);
  auto sp = apply_patch(doc, api::PatchType::kStrategicMergePatch, R"({"data":{"b":"2"}})", schema);
  const json want = {{"kind", "ConfigMap"}, {"data", {{"a", "1"}, {"b", "2"}}}};
  ASSERT_TRUE(jp.ok() && mp.ok() && sp.ok());
  EXPECT_EQ(jp.value(), want);
  EXPECT_EQ(mp.value(), want);
  EXPECT_EQ(sp.value(), want);
  auto cr = apply_patch(doc, api::PatchType::kStrategicMergePatch, "{}",
                        builtin_patch_schema("example.com", "Widget"));
  ASSERT_FALSE(cr.ok());
  EXPECT_TRUE(api::is_unsupported_media_type(cr.status()));
  EXPECT_TRUE(
      apply_patch(doc, api::PatchType::kMergePatch, "{}", custom_resource_patch_schema()).ok());
}

TEST(PatchTest, KubectlSetImage) {
  json got =
      smp(kDeployment,
          R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"app:2"}]}}}})",
          "apps", "Deployment");
  json want = kDeployment;
  want["spec"]["template"]["spec"]["containers"][0]["image"] = "app:2";
  EXPECT_EQ(got, want);
}

TEST(PatchTest, KubectlRolloutRestart) {
  json got = smp(kDeployment, R"({"spec":{"template":{"metadata":{"annotations":{
      "kubectl.kubernetes.io/restartedAt":"2024-05-01T10:00:00Z"}}}}})",
                 "apps", "Deployment");
  EXPECT_EQ(at(got, "/spec/template/metadata/annotations"),
            json::parse(R"({"a":"1","kubectl.kubernetes.io/restartedAt":"2024-05-01T10:00:00Z"})"));
  EXPECT_EQ(at(got, "/spec/template/spec"), at(kDeployment, "/spec/template/spec"));
}

TEST(PatchTest, KubectlScaleAndLabel) {
  json scaled = smp(kDeployment, R"({"spec":{"replicas":5}})", "apps", "Deployment");
  EXPECT_EQ(at(scaled, "/spec/replicas"), 5);
  json labelled =
      smp(kDeployment, R"({"metadata":{"labels":{"env":"prod"}}})", "apps", "Deployment");
  EXPECT_EQ(at(labelled, "/metadata/labels"), json::parse(R"({"env":"prod"})"));
}

TEST(PatchTest, Finalizers) {
  json added =
      smp(kDeployment, R"({"metadata":{"finalizers":["example.com/b"]}})", "apps", "Deployment");
  EXPECT_EQ(at(added, "/metadata/finalizers"), json::parse(R"(["example.com/b","example.com/a"])"));
  json ordered = smp(kDeployment, R"({"metadata":{"$setElementOrder/finalizers":["example.com/a",
      "example.com/b"],"finalizers":["example.com/b"]}})",
                     "apps", "Deployment");
  EXPECT_EQ(at(ordered, "/metadata/finalizers"),
            json::parse(R"(["example.com/a","example.com/b"])"));
  json removed =
      smp(kDeployment, R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/a"]}})",
          "apps", "Deployment");
  EXPECT_EQ(at(removed, "/metadata/finalizers"), json::array());
  // A merge patch replaces the list.
  auto merge = apply_merge_patch(kDeployment, R"({"metadata":{"finalizers":["example.com/b"]}})");
  ASSERT_TRUE(merge.ok());
  EXPECT_EQ(at(merge.value(), "/metadata/finalizers"), json::parse(R"(["example.com/b"])"));
}

TEST(PatchTest, ContainerListsMergeByKey) {
  json got = smp(kDeployment, R"({"spec":{"template":{"spec":{"containers":[{"name":"app",
      "env":[{"name":"B","value":"3"},{"name":"C","value":"4"}],
      "ports":[{"containerPort":443,"name":"https"}],
      "volumeMounts":[{"mountPath":"/etc/cfg","readOnly":true}]}]}}}})",
                 "apps", "Deployment");
  const json app = at(got, "/spec/template/spec/containers/0");
  EXPECT_EQ(app["env"], json::parse(R"([{"name":"A","value":"1"},{"name":"B","value":"3"},
                                        {"name":"C","value":"4"}])"));
  EXPECT_EQ(app["ports"], json::parse(R"([{"containerPort":443,"name":"https"},
                                          {"containerPort":80,"name":"http"}])"));
  EXPECT_EQ(app["volumeMounts"],
            json::parse(R"([{"name":"cfg","mountPath":"/etc/cfg","readOnly":true}])"));
  EXPECT_EQ(at(got, "/spec/template/spec/containers/1"),
            at(kDeployment, "/spec/template/spec/containers/1"));
}

// The shape of kubectl apply after a container was renamed in the manifest, on a pod whose
// sidecar a webhook injected: Go's mergeSlice deletes in place and appends into the freed slot of
// the live list, which then orders the sidecar first.
TEST(PatchTest, KubectlApplyReplacingAContainerNextToAnInjectedSidecar) {
  const json pod = json::parse(R"({"kind":"Pod","spec":{"containers":[
      {"name":"proxy","image":"p:1"},{"name":"old","image":"o:1"},{"name":"log","image":"l:1"}]}})");
  json got = smp(pod, R"({"spec":{"$setElementOrder/containers":[{"name":"new"}],
      "containers":[{"name":"new","image":"n:1"},{"$patch":"delete","name":"old"}]}})",
                 "", "Pod");
  EXPECT_EQ(at(got, "/spec/containers"), json::parse(R"([{"name":"proxy","image":"p:1"},
      {"name":"log","image":"l:1"},{"name":"new","image":"n:1"}])"));
}

TEST(PatchTest, ContainerDeleteAndTolerationsReplace) {
  json got = smp(kDeployment, R"({"spec":{"template":{"spec":{
      "containers":[{"name":"sidecar","$patch":"delete"}],
      "tolerations":[{"key":"k2","operator":"Exists"}]}}}})",
                 "apps", "Deployment");
  EXPECT_EQ(at(got, "/spec/template/spec/containers").size(), 1u);
  EXPECT_EQ(at(got, "/spec/template/spec/containers/0/name"), "app");
  EXPECT_EQ(at(got, "/spec/template/spec/tolerations"),
            json::parse(R"([{"key":"k2","operator":"Exists"}])"));
}

TEST(PatchTest, RetainKeysForVolumesAndStrategy) {
  json got = smp(kDeployment, R"({"spec":{
      "strategy":{"$retainKeys":["type"],"type":"Recreate"},
      "template":{"spec":{"volumes":[{"name":"cfg","$retainKeys":["name","secret"],
                                       "secret":{"secretName":"s"}}]}}}})",
                 "apps", "Deployment");
  EXPECT_EQ(at(got, "/spec/strategy"), json::parse(R"({"type":"Recreate"})"));
  EXPECT_EQ(at(got, "/spec/template/spec/volumes"),
            json::parse(R"([{"name":"cfg","secret":{"secretName":"s"}}])"));
}

TEST(PatchTest, StatusConditionsMergeByType) {
  json got = smp(kDeployment, R"({"status":{"conditions":[{"type":"Available","status":"True"}]}})",
                 "apps", "Deployment");
  EXPECT_EQ(at(got, "/status/conditions"), json::parse(R"([{"type":"Available","status":"True"},
                                                           {"type":"Progressing","status":"True"}])"));
  const json node = json::parse(R"({"kind":"Node","status":{
      "conditions":[{"type":"Ready","status":"False"},{"type":"MemoryPressure","status":"False"}],
      "addresses":[{"type":"InternalIP","address":"10.0.0.1"}]}})");
  json ready = smp(node, R"({"status":{"conditions":[{"type":"Ready","status":"True"}],
      "addresses":[{"type":"Hostname","address":"n1"}]}})",
                   "", "Node");
  EXPECT_EQ(at(ready, "/status/conditions/0"), json::parse(R"({"type":"Ready","status":"True"})"));
  EXPECT_EQ(at(ready, "/status/conditions").size(), 2u);
  EXPECT_EQ(at(ready, "/status/addresses").size(), 2u);
}

TEST(PatchTest, PodServiceEndpointsAndOwners) {
  const json pod =
      json::parse(R"({"kind":"Pod","metadata":{"ownerReferences":[{"uid":"a","name":"x"}]},
      "spec":{"containers":[{"name":"c","image":"i"}],"ephemeralContainers":[{"name":"e","env":[{"name":"X","value":"1"}]}]},
      "status":{"conditions":[{"type":"Ready","status":"False"}]}})");
  json got = smp(pod, R"({"metadata":{"ownerReferences":[{"uid":"b","name":"y"}]},
      "spec":{"ephemeralContainers":[{"name":"e","env":[{"name":"Y","value":"2"}]}]},
      "status":{"conditions":[{"type":"Ready","status":"True"}]}})",
                 "", "Pod");
  EXPECT_EQ(at(got, "/metadata/ownerReferences").size(), 2u);
  EXPECT_EQ(at(got, "/spec/ephemeralContainers/0/env").size(), 2u);
  EXPECT_EQ(at(got, "/status/conditions"), json::parse(R"([{"type":"Ready","status":"True"}])"));

  const json svc =
      json::parse(R"({"kind":"Service","spec":{"ports":[{"port":80,"targetPort":8080}]}})");
  json ports =
      smp(svc, R"({"spec":{"ports":[{"port":80,"targetPort":9090},{"port":443}]}})", "", "Service");
  EXPECT_EQ(at(ports, "/spec/ports"),
            json::parse(R"([{"port":80,"targetPort":9090},{"port":443}])"));

  const json ep =
      json::parse(R"({"kind":"Endpoints","subsets":[{"addresses":[{"ip":"1.1.1.1"}]}]})");
  json subsets = smp(ep, R"({"subsets":[{"addresses":[{"ip":"2.2.2.2"}]}]})", "", "Endpoints");
  EXPECT_EQ(at(subsets, "/subsets"), json::parse(R"([{"addresses":[{"ip":"2.2.2.2"}]}])"));
}

TEST(PatchTest, PodTemplatesOfAllWorkloads) {
  struct Kind {
    const char* group;
    const char* kind;
    const char* pointer;  // to the pod spec
  };
  const Kind kinds[] = {
      {"apps", "Deployment", "/spec/template/spec"},
      {"apps", "ReplicaSet", "/spec/template/spec"},
      {"apps", "StatefulSet", "/spec/template/spec"},
      {"apps", "DaemonSet", "/spec/template/spec"},
      {"batch", "Job", "/spec/template/spec"},
      {"", "ReplicationController", "/spec/template/spec"},
      {"batch", "CronJob", "/spec/jobTemplate/spec/template/spec"},
      {"", "PodTemplate", "/template/spec"},
      {"", "Pod", "/spec"},
  };
  for (const Kind& k : kinds) {
    json doc = json::object();
    doc[json::json_pointer(std::string(k.pointer) + "/containers")] =
        json::parse(R"([{"name":"a","image":"1"},{"name":"b","image":"1"}])");
    json patch = json::object();
    patch[json::json_pointer(std::string(k.pointer) + "/containers")] =
        json::parse(R"([{"name":"b","image":"2"}])");
    json got = smp(doc, patch.dump().c_str(), k.group, k.kind);
    EXPECT_EQ(got[json::json_pointer(std::string(k.pointer) + "/containers")],
              json::parse(R"([{"name":"a","image":"1"},{"name":"b","image":"2"}])"))
        << k.kind;
  }
}

TEST(PatchTest, BuiltinSchemas) {
  const PatchSchema& pod = builtin_patch_schema("", "Pod");
  EXPECT_EQ(pod.field("spec").meta("containers"),
            (FieldPatchMeta{PatchStrategy::kMerge, "name", false}));
  EXPECT_EQ(pod.field("spec").meta("volumes"),
            (FieldPatchMeta{PatchStrategy::kMerge, "name", true}));
  EXPECT_EQ(pod.field("spec").meta("tolerations"), FieldPatchMeta{});
  EXPECT_EQ(pod.field("spec").field("containers").meta("envFrom"), FieldPatchMeta{});
  EXPECT_EQ(pod.field("spec").field("containers").meta("resizePolicy"), FieldPatchMeta{});
  EXPECT_EQ(pod.field("spec").field("initContainers").meta("volumeDevices").merge_key,
            "devicePath");
  EXPECT_EQ(pod.field("metadata").meta("finalizers"),
            (FieldPatchMeta{PatchStrategy::kMerge, "", false}));
  EXPECT_EQ(pod.field("metadata").meta("ownerReferences").merge_key, "uid");
  EXPECT_EQ(builtin_patch_schema("apps", "Deployment").field("spec").meta("strategy").retain_keys,
            true);
  EXPECT_EQ(
      builtin_patch_schema("policy", "PodDisruptionBudget").field("spec").meta("selector").strategy,
      PatchStrategy::kReplace);
  // Kinds of built-in groups without tagged fields get the metadata schema; other groups are
  // custom resources.
  const PatchSchema& cm = builtin_patch_schema("", "ConfigMap");
  EXPECT_TRUE(cm.supports_strategic_merge());
  EXPECT_EQ(cm.field("metadata").meta("ownerReferences").merge_key, "uid");
  EXPECT_TRUE(builtin_patch_schema("coordination.k8s.io", "Lease").supports_strategic_merge());
  EXPECT_FALSE(builtin_patch_schema("example.com", "Widget").supports_strategic_merge());
  EXPECT_EQ(&custom_resource_patch_schema(),
            &builtin_patch_schema("stable.example.com", "CronTab"));
  EXPECT_EQ(PatchSchema::unsupported(), custom_resource_patch_schema());
}

TEST(PatchTest, NestingIsBounded) {
  const auto nested = [](std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
  };
  const json doc = {{"a", 1}};
  // The body's own object counts as one level.
  auto ok = apply_strategic_merge_patch(doc, R"({"b":)" + nested(kMaxPatchNestingDepth - 1) + "}",
                                        PatchSchema{});
  ASSERT_TRUE(ok.ok()) << ok.status();
  auto deep = apply_merge_patch(doc, R"({"b":)" + nested(kMaxPatchNestingDepth) + "}");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().message,
            "error decoding patch: invalid character '[' exceeded max depth");
  auto smp = apply_strategic_merge_patch(doc, R"({"b":)" + nested(kMaxPatchNestingDepth) + "}",
                                         PatchSchema{});
  ASSERT_FALSE(smp.ok());
  EXPECT_TRUE(api::is_bad_request(smp.status()));
}

TEST(PatchTest, GoPanicsAnswerWhatTheApiserverAnswers) {
  // Go dereferences a nil value here; the apiserver's panic filter answers a plain 500.
  for (const char* ops : {R"([{"op":"test","path":""}])", R"([{"op":"replace","path":""}])",
                          R"([{"op":"test","path":"/l","value":[1,null]}])"}) {
    auto r = apply_json_patch(json::parse(R"({"l":[1,2]})"), ops);
    ASSERT_FALSE(r.ok()) << ops;
    EXPECT_EQ(r.status().code, 500);
    EXPECT_TRUE(api::is_internal_error(r.status()));
    EXPECT_EQ(r.status().message,
              "This request caused apiserver to panic. Look in the logs for details.");
  }
  for (const char* patch : {R"({"m":{"$retainKeys":[{"a":1}]}})", R"({"l":[null]})"}) {
    auto r = apply_strategic_merge_patch(json::parse(R"({"m":{"a":1},"l":[]})"), patch,
                                         PatchSchema().merge_list("l"));
    ASSERT_FALSE(r.ok()) << patch;
    EXPECT_EQ(r.status().reason, api::StatusReason::kInternalError) << patch;
  }
  // A null after elements of another type is an ordinary error.
  auto r = apply_strategic_merge_patch(json::parse(R"({"l":[1]})"), R"({"l":[null]})",
                                       PatchSchema().merge_list("l"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().reason, api::StatusReason::kUnknown);
  EXPECT_EQ(r.status().message, "list element types are not identical: [[1] [<nil>]]");
}

TEST(PatchTest, SchemaBuilder) {
  PatchSchema s;
  s.merge_list("a.b", "k").replace("a.c").graft("x", PatchSchema().merge_list("y"));
  EXPECT_EQ(s.meta("a"), FieldPatchMeta{});
  EXPECT_EQ(s.field("a").meta("b"), (FieldPatchMeta{PatchStrategy::kMerge, "k", false}));
  EXPECT_EQ(s.field("a").meta("c").strategy, PatchStrategy::kReplace);
  EXPECT_EQ(s.field("x").meta("y").strategy, PatchStrategy::kMerge);
  EXPECT_EQ(s.field("nope").field("deeper").meta("z"), FieldPatchMeta{});
  PatchSchema copy = s;
  EXPECT_EQ(copy, s);
  copy.merge_list("a.b", "other");
  EXPECT_FALSE(copy == s);
}

}  // namespace
}  // namespace kubesim::fakeapi
