// managedFields entries, their identity and order, and Apply/Update on built-in kinds as
// kube-apiserver records them.
#include "fakeapi/internal/apply/managed_fields.h"

#include <gtest/gtest.h>

#include "fakeapi/internal/encoding/types/go_encoding.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;

OperationContext context(std::string now = "2026-01-01T00:00:00Z", bool has_status = true,
                         std::string subresource = "") {
  OperationContext c;
  c.api_version = "apps/v1";
  c.subresource = subresource;
  c.now = std::move(now);
  c.object_label = "default/web; apps/v1, Kind=Deployment";
  c.reset_fields = reset_fields_for(has_status, c.subresource, json::object());
  return c;
}

json rendered(json j) {
  types::render_go_json(*types::go_type_of("apps", "Deployment"), j);
  return j;
}

const json kDeployment = json::parse(R"({
  "apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"nginx","namespace":"default","labels":{"app":"nginx"}},
  "spec":{"replicas":1,"progressDeadlineSeconds":600,"revisionHistoryLimit":10,
    "selector":{"matchLabels":{"app":"nginx"}},
    "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
    "template":{"metadata":{"labels":{"app":"nginx"}},
      "spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}})");

TEST(ManagedFieldsTest, CreateRecordsWhatKubeRecords) {
  ManagedFields managed;
  const TypeRef type = TypeRef::builtin_kind("apps", "Deployment");
  record_update(managed, rendered(json::object()), rendered(kDeployment), type, "kubectl-create",
                context());
  ASSERT_EQ(managed.size(), 1u);
  EXPECT_EQ(managed[0].operation, "Update");
  EXPECT_EQ(managed[0].time, "2026-01-01T00:00:00Z");
  // Value structs (spec, strategy, template) exist in the empty object, so only what a
  // pointer or map adds (labels, rollingUpdate) is a member itself; the container's
  // resources, an empty value struct, are owned as kube owns them.
  EXPECT_EQ(managed[0].fields.to_fields_v1(), json::parse(R"({
    "f:metadata":{"f:labels":{".":{},"f:app":{}}},
    "f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},
      "f:selector":{},
      "f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},
      "f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
        "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{},
          "f:resources":{}}}}}}})"));
}

TEST(ManagedFieldsTest, AnUpdateThatChangesNothingKeepsTheTime) {
  ManagedFields managed;
  const TypeRef type = TypeRef::builtin_kind("apps", "Deployment");
  const json d = rendered(kDeployment);
  record_update(managed, rendered(json::object()), d, type, "m", context("2026-01-01T00:00:00Z"));
  record_update(managed, d, d, type, "m", context("2026-01-01T00:01:00Z"));
  ASSERT_EQ(managed.size(), 1u);
  EXPECT_EQ(managed[0].time, "2026-01-01T00:00:00Z");
  // The status is the status subresource's: a main-resource write of it is nobody's.
  json with_status = d;
  with_status["status"]["replicas"] = 3;
  record_update(managed, d, with_status, type, "m", context("2026-01-01T00:02:00Z"));
  EXPECT_EQ(managed[0].time, "2026-01-01T00:00:00Z");
}

TEST(ManagedFieldsTest, ApplyConflictsNameUpdatersWithTheirVersion) {
  const TypeRef type = TypeRef::builtin_kind("apps", "Deployment");
  ManagedFields managed;
  const json live = rendered(kDeployment);
  record_update(managed, rendered(json::object()), live, type, "kubectl-create", context());
  const json config = json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"nginx"},"spec":{"replicas":3,"revisionHistoryLimit":5}})");
  auto out = apply_configuration(live, config, managed, type, "kubectl", false, context());
  ASSERT_FALSE(out);
  EXPECT_EQ(out.status().code, 409);
  EXPECT_EQ(out.status().reason, api::StatusReason::kConflict);
  EXPECT_EQ(out.status().message,
            "Apply failed with 2 conflicts: conflicts with \"kubectl-create\" using apps/v1:\n"
            "- .spec.replicas\n- .spec.revisionHistoryLimit");
  // Forced, the applier takes the fields; the creator keeps the rest.
  auto forced = apply_configuration(live, config, managed, type, "kubectl", true,
                                    context("2026-01-01T00:00:05Z"));
  ASSERT_TRUE(forced) << forced.status().message;
  EXPECT_EQ(forced.value().object["spec"]["replicas"], 3);
  EXPECT_TRUE(forced.value().changed);
  const json encoded = encode_managed_fields(forced.value().managed);
  ASSERT_EQ(encoded.size(), 2u);
  EXPECT_EQ(encoded[0]["manager"], "kubectl");
  EXPECT_EQ(encoded[0]["operation"], "Apply");
  EXPECT_EQ(encoded[0]["time"], "2026-01-01T00:00:05Z");
  EXPECT_EQ(encoded[0]["fieldsV1"],
            json::parse(R"({"f:spec":{"f:replicas":{},"f:revisionHistoryLimit":{}}})"));
  EXPECT_FALSE(encoded[1]["fieldsV1"]["f:spec"].contains("f:replicas"));
}

TEST(ManagedFieldsTest, ConflictsFromSeveralManagersAreGrouped) {
  const TypeRef type = TypeRef::deduced();
  ManagedFields managed;
  const json live = {{"a", 1}, {"b", 2}};
  OperationContext c = context("", false);
  auto one = apply_configuration(json::object(), {{"a", 1}}, managed, type, "one", false, c);
  ASSERT_TRUE(one);
  managed = one.value().managed;
  record_update(managed, one.value().object, live, type, "two", c);
  auto out = apply_configuration(live, {{"a", 5}, {"b", 5}}, managed, type, "three", false, c);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.status().message,
            "Apply failed with 2 conflicts: conflicts with \"one\":\n- .a\n"
            "conflicts with \"two\" using apps/v1:\n- .b");
  ASSERT_EQ(out.status().details->causes.size(), 2u);
  EXPECT_EQ(out.status().details->causes[1].message, "conflict with \"two\" using apps/v1");
}

TEST(ManagedFieldsTest, ApplyOwnsNoObjectMetaBookkeeping) {
  const TypeRef type = TypeRef::builtin_kind("", "ConfigMap");
  const json config = json::parse(R"({"apiVersion":"v1","kind":"ConfigMap",
    "metadata":{"name":"c","namespace":"default","labels":{"a":"b"}},"data":{"k":"v"}})");
  auto out = apply_configuration(json::object(), config, {}, type, "m", false, context("t", false));
  ASSERT_TRUE(out);
  ASSERT_EQ(out.value().managed.size(), 1u);
  EXPECT_EQ(out.value().managed[0].fields.to_fields_v1(),
            json::parse(R"({"f:data":{"f:k":{}},"f:metadata":{"f:labels":{"f:a":{}}}})"));
  // Applying the same configuration again changes nothing and keeps the time.
  auto again = apply_configuration(out.value().object, config, out.value().managed, type, "m", false,
                                   context("later", false));
  ASSERT_TRUE(again);
  EXPECT_FALSE(again.value().changed);
  EXPECT_EQ(again.value().managed[0].time, "t");
}

TEST(ManagedFieldsTest, EntriesDecodeAndSortAsKubeWritesThem) {
  const json entries = json::parse(R"([
    {"manager":"b","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:02Z",
     "fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}},
    {"manager":"a","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:02Z",
     "fieldsType":"FieldsV1","fieldsV1":{"f:data":{}},"subresource":"status"},
    {"manager":"z","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:09Z",
     "fieldsType":"FieldsV1","fieldsV1":{"f:x":{}}}])");
  auto managed = decode_managed_fields(entries);
  ASSERT_TRUE(managed);
  EXPECT_EQ((*managed)[0].identifier(), R"({"manager":"b","operation":"Update","apiVersion":"v1"})");
  EXPECT_EQ((*managed)[1].identifier(),
            R"({"manager":"a","operation":"Update","apiVersion":"v1","subresource":"status"})");
  EXPECT_EQ((*managed)[2].identifier(), R"({"manager":"z","operation":"Apply"})");
  EXPECT_EQ((*managed)[1].printed(), "\"a\" with subresource \"status\" using v1");
  const json encoded = encode_managed_fields(*managed);
  EXPECT_EQ(encoded[0]["manager"], "z");
  EXPECT_EQ(encoded[1]["manager"], "a");
  EXPECT_EQ(encoded[2]["manager"], "b");
  EXPECT_EQ(encode_managed_fields({}), nullptr);
}

TEST(ManagedFieldsTest, BadEntriesAreRefusedWithKubesWords) {
  std::string error;
  EXPECT_FALSE(decode_managed_fields(json::parse(R"([{"manager":"a","operation":"Patch",
      "apiVersion":"v1","fieldsType":"FieldsV1"}])"), &error));
  EXPECT_EQ(error, "operation must be `Apply` or `Update`");
  EXPECT_FALSE(decode_managed_fields(json::parse(R"([{"manager":"a","operation":"Apply",
      "fieldsType":"FieldsV1"}])"), &error));
  EXPECT_EQ(error, "apiVersion must not be empty");
  EXPECT_FALSE(decode_managed_fields(json::parse(R"([{"manager":"a","operation":"Apply",
      "apiVersion":"v1"}])"), &error));
  EXPECT_EQ(error, "missing fieldsType in managed fields entry 0");
  EXPECT_FALSE(decode_managed_fields(json::parse(R"([{"manager":"a","operation":"Apply",
      "apiVersion":"v1","fieldsType":"FieldsV2"}])"), &error));
  EXPECT_EQ(error, "invalid fieldsType \"FieldsV2\" in managed fields entry 0");
  EXPECT_TRUE(resets_managed_fields(json::array()));
  EXPECT_TRUE(resets_managed_fields(json::parse("[{}]")));
  EXPECT_FALSE(resets_managed_fields(nullptr));
}

TEST(ManagedFieldsTest, StatusApplyOwnsOnlyTheStatus) {
  const TypeRef type = TypeRef::builtin_kind("apps", "Deployment");
  const json config = json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"nginx"},"spec":{"replicas":9},"status":{"replicas":2}})");
  OperationContext c = context("t", true, "status");
  c.reset_fields = reset_fields_for(true, "status", config);
  auto out = apply_configuration(rendered(kDeployment), config, {}, type, "ctl", false, c);
  ASSERT_TRUE(out) << out.status().message;
  ASSERT_EQ(out.value().managed.size(), 1u);
  EXPECT_EQ(out.value().managed[0].subresource, "status");
  EXPECT_EQ(out.value().managed[0].fields.to_fields_v1(),
            json::parse(R"({"f:status":{"f:replicas":{}}})"));
}

// Ported: TestCapManagersManagerMergesEntries (capmanagers_test.go)
TEST(ManagedFieldsTest, TheOldestOfElevenUpdatersMergeIntoAncientChanges) {
  const TypeRef type = TypeRef::deduced();
  ManagedFields managed;
  json object = json::object();
  for (int i = 0; i < 11; ++i) {
    json next = object;
    next["f" + std::to_string(i)] = i;
    record_update(managed, object, next, type, "m" + std::to_string(i),
                  context("2026-01-01T00:00:" + std::string(i < 10 ? "0" : "") + std::to_string(i) + "Z",
                          false));
    object = next;
  }
  ASSERT_EQ(managed.size(), 10u);
  const json encoded = encode_managed_fields(managed);
  EXPECT_EQ(encoded[0]["manager"], "ancient-changes");
  EXPECT_EQ(encoded[0]["time"], "2026-01-01T00:00:01Z");
  EXPECT_EQ(encoded[0]["fieldsV1"], json::parse(R"({"f:f0":{},"f:f1":{}})"));
  EXPECT_EQ(encoded[1]["manager"], "m2");
  EXPECT_EQ(encoded[9]["manager"], "m10");
}

}  // namespace
}  // namespace kubesim::fakeapi::apply
