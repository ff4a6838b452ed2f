// Server-side apply through ApiServer and the in-process client, ported from kube-apiserver's
// test/integration/apiserver/apply/apply_test.go, and the Update entries of other writes.
#include <gtest/gtest.h>

#include <string>

#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;
using nlohmann::json;

const char kTestConfigMap[] = R"({"apiVersion":"v1","kind":"ConfigMap",
  "metadata":{"name":"test-cm","namespace":"default","labels":{"test-label":"test"}},
  "data":{"key":"value"}})";

const char kDeploymentYaml[] = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: deployment
  labels: {app: nginx}
spec:
  replicas: 3
  selector:
    matchLabels: {app: nginx}
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        ports:
        - containerPort: 80
          protocol: TCP
)";

class ServerApplyTest : public ::testing::Test {
 protected:
  api::Result<api::ObjectPtr> apply(const api::GroupVersionResource& gvr, const std::string& name,
                                    const std::string& body, const std::string& manager,
                                    std::optional<bool> force = std::nullopt, bool dry_run = false,
                                    api::Subresource subresource = api::Subresource::kNone) {
    api::PatchOptions options;
    options.field_manager = manager;
    options.force = force;
    options.dry_run = dry_run;
    return server_.patch(gvr, "default", name, api::PatchType::kApply, body, options, subresource);
  }
  api::Result<api::ObjectPtr> merge_patch(const api::GroupVersionResource& gvr,
                                          const std::string& name, const std::string& body,
                                          const std::string& manager = "") {
    api::PatchOptions options;
    options.field_manager = manager;
    return server_.patch(gvr, "default", name, api::PatchType::kMergePatch, body, options);
  }
  json managed_fields(const api::GroupVersionResource& gvr, const std::string& name) {
    auto got = server_.get(gvr, "default", name, api::GetOptions());
    EXPECT_TRUE(got.ok());
    return got.ok() ? got.value()->metadata_field("managedFields") : json();
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
};

// Ported: TestApplyAlsoCreates
TEST_F(ServerApplyTest, ApplyAlsoCreates) {
  auto created = apply(kConfigMaps, "test-cm", kTestConfigMap, "apply_test");
  ASSERT_TRUE(created.ok()) << created.status();
  auto got = server_.get(kConfigMaps, "default", "test-cm", api::GetOptions());
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(data_of(got.value(), "key"), "value");
  EXPECT_FALSE(got.value()->uid().empty());
}

// Ported: TestNoOpUpdateSameResourceVersion
TEST_F(ServerApplyTest, ANoOpApplyKeepsTheResourceVersion) {
  auto first = apply(kDeployments, "deployment", kDeploymentYaml, "apply_test");
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = apply(kDeployments, "deployment", kDeploymentYaml, "apply_test");
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(first.value()->resource_version(), second.value()->resource_version());
}

TEST_F(ServerApplyTest, DefaultsAreFilledInAndNobodysFields) {
  auto created = apply(kDeployments, "deployment", kDeploymentYaml, "apply_test");
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created.value()->json()["spec"]["revisionHistoryLimit"], 10);
  std::string more = kDeploymentYaml;
  more += "      - name: sidecar\n        image: busybox:latest\n";
  auto updated = apply(kDeployments, "deployment", more, "apply_test");
  ASSERT_TRUE(updated.ok()) << updated.status();
  const json containers = updated.value()->json()["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 2u);
  EXPECT_EQ(containers[1]["imagePullPolicy"], "Always");
  const json fields = managed_fields(kDeployments, "deployment")[0]["fieldsV1"];
  EXPECT_FALSE(fields["f:spec"].contains("f:revisionHistoryLimit")) << fields.dump();
  EXPECT_TRUE(fields["f:spec"].contains("f:replicas"));
}

// Ported: TestApplyManagedFields
TEST_F(ServerApplyTest, ManagedFieldsOfAnApplierAndAnUpdater) {
  ASSERT_TRUE(apply(kConfigMaps, "test-cm", kTestConfigMap, "apply_test").ok());
  ASSERT_TRUE(merge_patch(kConfigMaps, "test-cm", R"({"data":{"new-key":"value"}})", "updater").ok());
  loop_.run_for(std::chrono::seconds(1));
  ASSERT_TRUE(merge_patch(kConfigMaps, "test-cm", R"({"data":{"key":"new value"}})", "updater").ok());
  const json managed = managed_fields(kConfigMaps, "test-cm");
  ASSERT_EQ(managed.size(), 2u) << managed.dump();
  EXPECT_EQ(managed[0]["manager"], "apply_test");
  EXPECT_EQ(managed[0]["operation"], "Apply");
  EXPECT_EQ(managed[0]["apiVersion"], "v1");
  EXPECT_EQ(managed[0]["fieldsType"], "FieldsV1");
  EXPECT_EQ(managed[0]["fieldsV1"], json::parse(R"({"f:metadata":{"f:labels":{"f:test-label":{}}}})"));
  EXPECT_EQ(managed[1]["manager"], "updater");
  EXPECT_EQ(managed[1]["operation"], "Update");
  EXPECT_EQ(managed[1]["fieldsV1"], json::parse(R"({"f:data":{"f:key":{},"f:new-key":{}}})"));
  EXPECT_NE(managed[0]["time"], managed[1]["time"]);
}

// Ported: TestApplyRemovesEmptyManagedFields
TEST_F(ServerApplyTest, AnApplyOfNothingLeavesNoManagedFields) {
  const std::string empty = R"({"apiVersion":"v1","kind":"ConfigMap",
    "metadata":{"name":"test-cm","namespace":"default"}})";
  ASSERT_TRUE(apply(kConfigMaps, "test-cm", empty, "apply_test").ok());
  ASSERT_TRUE(apply(kConfigMaps, "test-cm", empty, "apply_test").ok());
  EXPECT_TRUE(managed_fields(kConfigMaps, "test-cm").is_null());
}

// Ported: TestApplyRequiresFieldManager
TEST_F(ServerApplyTest, ApplyRequiresAFieldManager) {
  auto refused = apply(kConfigMaps, "test-cm", kTestConfigMap, "");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 422);
  EXPECT_EQ(refused.status().message,
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required "
            "for apply patch");
  EXPECT_TRUE(apply(kConfigMaps, "test-cm", kTestConfigMap, "apply_test").ok());
}

// Ported: TestApplyRemoveContainerPort
TEST_F(ServerApplyTest, ApplyRemovesAContainerPortItNoLongerApplies) {
  ASSERT_TRUE(apply(kDeployments, "deployment", kDeploymentYaml, "apply_test").ok());
  std::string without_port = kDeploymentYaml;
  without_port.erase(without_port.find("        ports:"));
  auto applied = apply(kDeployments, "deployment", without_port, "apply_test");
  ASSERT_TRUE(applied.ok()) << applied.status();
  const json containers = applied.value()->json()["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 1u);
  EXPECT_FALSE(containers[0].contains("ports")) << containers.dump();
}

// Ported: TestApplyFailsWithVersionMismatch
TEST_F(ServerApplyTest, ApplyFailsWithVersionMismatch) {
  ASSERT_TRUE(apply(kDeployments, "deployment", kDeploymentYaml, "apply_test").ok());
  std::string other = kDeploymentYaml;
  other.replace(other.find("apps/v1"), 7, "extensions/v1beta");
  auto refused = apply(kDeployments, "deployment", other, "apply_test");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 400);
  EXPECT_EQ(refused.status().message, "invalid object type: extensions/v1beta, Kind=Deployment");
}

// Ported: TestClearManagedFieldsWithMergePatch
TEST_F(ServerApplyTest, AMergePatchClearsManagedFields) {
  ASSERT_TRUE(apply(kConfigMaps, "test-cm", kTestConfigMap, "apply_test").ok());
  ASSERT_TRUE(merge_patch(kConfigMaps, "test-cm", R"({"metadata":{"managedFields":[{}]}})").ok());
  EXPECT_TRUE(managed_fields(kConfigMaps, "test-cm").is_null());
}

// Ported: TestApplyUpdateApplyConflictForced
TEST_F(ServerApplyTest, AnUpdatersFieldConflictsUntilForced) {
  ASSERT_TRUE(apply(kDeployments, "deployment", kDeploymentYaml, "apply_test").ok());
  ASSERT_TRUE(merge_patch(kDeployments, "deployment", R"({"spec":{"replicas":5}})", "controller").ok());
  auto refused = apply(kDeployments, "deployment", kDeploymentYaml, "apply_test");
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(api::is_conflict(refused.status()));
  EXPECT_EQ(refused.status().message,
            "Apply failed with 1 conflict: conflict with \"controller\" using apps/v1: .spec.replicas");
  ASSERT_TRUE(refused.status().details);
  ASSERT_EQ(refused.status().details->causes.size(), 1u);
  EXPECT_EQ(refused.status().details->causes[0].field, ".spec.replicas");
  auto forced = apply(kDeployments, "deployment", kDeploymentYaml, "apply_test", true);
  ASSERT_TRUE(forced.ok()) << forced.status();
  EXPECT_EQ(forced.value()->json()["spec"]["replicas"], 3);
}

TEST_F(ServerApplyTest, DryRunStoresNothing) {
  auto dry = apply(kConfigMaps, "test-cm", kTestConfigMap, "apply_test", std::nullopt, true);
  ASSERT_TRUE(dry.ok()) << dry.status();
  EXPECT_EQ(data_of(dry.value(), "key"), "value");
  EXPECT_TRUE(api::is_not_found(server_.get(kConfigMaps, "default", "test-cm", api::GetOptions()).status()));
}

TEST_F(ServerApplyTest, BadRequestsAreRefusedAndChangeNothing) {
  const Revision before = server_.revision();
  auto forced_merge = server_.patch(kConfigMaps, "default", "x", api::PatchType::kMergePatch, "{}",
                                    api::PatchOptions{.force = true});
  EXPECT_EQ(forced_merge.status().message,
            "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for "
            "non-apply patch");
  auto cbor = server_.patch(kConfigMaps, "default", "x", api::PatchType::kApplyCbor, "",
                            api::PatchOptions{.field_manager = "m"});
  EXPECT_EQ(cbor.status().code, 415);
  auto yaml = apply(kConfigMaps, "test-cm", "- a\n- b\n", "m");
  EXPECT_EQ(yaml.status().code, 400);
  auto managed = apply(kConfigMaps, "test-cm",
                       R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test-cm","managedFields":[]}})",
                       "m");
  EXPECT_EQ(managed.status().message, "metadata.managedFields must be nil");
  auto renamed = apply(kConfigMaps, "other", kTestConfigMap, "m");
  EXPECT_EQ(renamed.status().message,
            "the name of the object (test-cm) does not match the name on the URL (other)");
  auto unknown = apply(kConfigMaps, "test-cm",
                       R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test-cm"},"spec":{}})",
                       "m");
  EXPECT_EQ(unknown.status().code, 500);
  EXPECT_EQ(unknown.status().message,
            "failed to create typed patch object (default/test-cm; /v1, Kind=ConfigMap): .spec: "
            "field not declared in schema");
  EXPECT_EQ(server_.revision(), before);
}

TEST_F(ServerApplyTest, StatusApplyOwnsTheStatus) {
  ASSERT_TRUE(apply(kDeployments, "deployment", kDeploymentYaml, "apply_test").ok());
  auto status = apply(kDeployments, "deployment",
                      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"deployment"},
                          "status":{"replicas":2}})",
                      "status-writer", std::nullopt, false, api::Subresource::kStatus);
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(status.value()->json()["status"]["replicas"], 2);
  const json managed = managed_fields(kDeployments, "deployment");
  ASSERT_EQ(managed.size(), 2u);
  EXPECT_EQ(managed[1]["manager"], "status-writer");
  EXPECT_EQ(managed[1]["subresource"], "status");
  EXPECT_EQ(managed[1]["fieldsV1"], json::parse(R"({"f:status":{"f:replicas":{}}})"));
}

TEST_F(ServerApplyTest, CreatesAndUpdatesRecordTheirManager) {
  api::CreateOptions create;
  create.field_manager = "creator";
  ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "c", {{"a", "1"}}), create).ok());
  json managed = managed_fields(kConfigMaps, "c");
  ASSERT_EQ(managed.size(), 1u);
  EXPECT_EQ(managed[0]["manager"], "creator");
  EXPECT_EQ(managed[0]["operation"], "Update");
  EXPECT_EQ(managed[0]["fieldsV1"], json::parse(R"({"f:data":{".":{},"f:a":{}}})"));
  // A patch without a manager of an object whose fields are tracked is "unknown"'s. (The text
  // fast paths of create and update are taken only by writes that name no manager, and store
  // managedFields as sent.)
  ASSERT_TRUE(merge_patch(kConfigMaps, "c", R"({"data":{"b":"2"}})").ok());
  managed = managed_fields(kConfigMaps, "c");
  ASSERT_EQ(managed.size(), 2u);
  EXPECT_EQ(managed[1]["manager"], "unknown");
  EXPECT_EQ(managed[1]["fieldsV1"], json::parse(R"({"f:data":{"f:b":{}}})"));
  // Writes that name no manager to objects nobody tracks stay without managedFields.
  ASSERT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "plain"), api::CreateOptions()).ok());
  EXPECT_TRUE(managed_fields(kConfigMaps, "plain").is_null());
}

TEST_F(ServerApplyTest, AnApplyThatCreatesAnswers201) {
  api::Request request;
  request.verb = api::Verb::kPatch;
  request.resource = kConfigMaps;
  request.ns = "default";
  request.name = "test-cm";
  request.patch_type = api::PatchType::kApply;
  request.patch_body = kTestConfigMap;
  request.options = api::PatchOptions{.field_manager = "apply_test"};
  EXPECT_EQ(server_.answer(request).code, 201);
  EXPECT_EQ(server_.answer(request).code, 200);
}

TEST_F(ServerApplyTest, TheClientAppliesAConfiguration) {
  InProcessClient client(server_);
  api::PatchOptions options;
  options.field_manager = "client";
  auto out = loop_.run_until_complete(client.apply(
      sim::Context(), kConfigMaps, "default", config_map("default", "via-client", {{"k", "v"}}), options));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(data_of(out.value(), "k"), "v");
  EXPECT_EQ(out.value()->metadata_field("managedFields")[0]["manager"], "client");
}

}  // namespace
}  // namespace kubesim::fakeapi
