// Custom resources are pruned and defaulted by their CRD's structural schema, as
// apiextensions-apiserver does: the pruning and the defaulting themselves (internal/crd/prune.h,
// internal/crd/schema_defaults.h) and what the server does with them (fieldValidation).
#include "fakeapi/internal/crd/prune.h"
#include "fakeapi/internal/crd/schema_defaults.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using Paths = std::vector<std::string>;

// A schema with declared, nested, listed, mapped, preserved and embedded members.
const json kSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "spec": {
      "type": "object",
      "properties": {
        "size": {"type": "integer"},
        "ports": {"type": "array", "items": {"type": "object",
                  "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "selectors": {"type": "object", "additionalProperties": {"type": "object",
                      "properties": {"key": {"type": "string"}}}},
        "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                "properties": {"typed": {"type": "object", "properties": {"a": {"type": "string"}}}}},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                     "properties": {"spec": {"type": "object", "properties": {"x": {"type": "string"}}}}}
      }
    },
    "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
  }
})");

Paths prune(json& obj, const json& schema = kSchema) {
  Paths paths;
  internal::prune_custom_resource(schema, obj, &paths);
  return paths;
}

TEST(PruneTest, DropsWhatTheSchemaDoesNotDeclareAndNamesItsPath) {
  json obj = json::parse(R"({
    "apiVersion": "example.com/v1", "kind": "Widget",
    "metadata": {"name": "w", "unknownMeta": "x", "labels": {"a": "b"}},
    "spec": {"size": 1, "unknown1": "v", "ports": [{"name": "p", "port": 1, "unknownNested": 2}],
             "labels": {"any": "kept"}, "selectors": {"s": {"key": "k", "extra": 1}}},
    "status": {"ready": true, "phase": "x"},
    "extraTop": {"a": 1}
  })");
  EXPECT_EQ(prune(obj), (Paths{"metadata.unknownMeta", "extraTop", "spec.ports[0].unknownNested",
                               "spec.selectors.s.extra", "spec.unknown1", "status.phase"}));
  // Metadata goes through ObjectMeta, whose zero creationTimestamp 1.33 writes as null.
  EXPECT_EQ(obj, json::parse(R"({
    "apiVersion": "example.com/v1", "kind": "Widget",
    "metadata": {"name": "w", "labels": {"a": "b"}, "creationTimestamp": null},
    "spec": {"size": 1, "ports": [{"name": "p", "port": 1}], "labels": {"any": "kept"},
             "selectors": {"s": {"key": "k"}}},
    "status": {"ready": true}
  })"));
}

TEST(PruneTest, PreservedMembersKeepUnknownFieldsButPruneTheirDeclaredOnes) {
  json obj = json::parse(R"({"spec": {"raw": {"free": {"deep": 1}, "typed": {"a": "x", "b": "y"}}}})");
  EXPECT_EQ(prune(obj), (Paths{"spec.raw.typed.b"}));
  EXPECT_EQ(obj, json::parse(R"({"spec": {"raw": {"free": {"deep": 1}, "typed": {"a": "x"}}}})"));
}

TEST(PruneTest, EmbeddedResourcesKeepTheirTypeAndMetadataAndDropUnknownMetadata) {
  json obj = json::parse(R"({"spec": {"template": {
    "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "unknownEmbeddedMeta": 1},
    "spec": {"x": "kept", "y": "dropped"}, "other": 1}}})");
  EXPECT_EQ(prune(obj), (Paths{"spec.template.other", "spec.template.spec.y",
                               "spec.template.metadata.unknownEmbeddedMeta"}));
  EXPECT_EQ(obj, json::parse(R"({"spec": {"template": {
    "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "creationTimestamp": null},
    "spec": {"x": "kept"}}}})"));
}

TEST(PruneTest, NoSchemaPrunesNothingAndAPreservingRootOnlyMetadata) {
  json obj = json::parse(R"({"metadata": {"name": "w", "bogus": 1}, "spec": {"anything": 1}})");
  json same = obj;
  EXPECT_TRUE(prune(same, json()).empty());
  EXPECT_EQ(same, obj);
  const json preserve = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  EXPECT_EQ(prune(obj, preserve), (Paths{"metadata.bogus"}));
  EXPECT_EQ(obj, json::parse(R"({"metadata": {"name": "w", "creationTimestamp": null},
                                 "spec": {"anything": 1}})"));
}

TEST(PruneTest, AnObjectWithoutPropertiesLosesAllItsMembers) {
  json obj = json::parse(R"({"spec": {"a": 1, "b": {"c": 2}}})");
  EXPECT_EQ(prune(obj, json::parse(R"({"type": "object", "properties": {"spec": {"type": "object"}}})")),
            (Paths{"spec.a", "spec.b"}));
  EXPECT_EQ(obj, json::parse(R"({"spec": {}})"));
}

TEST(SchemaDefaultsTest, AbsentAndNonNullableNullFieldsGetTheirDefaultAtEveryLevel) {
  const json schema = json::parse(R"({"type": "object", "properties": {
    "spec": {"type": "object", "default": {}, "properties": {
      "replicas": {"type": "integer", "default": 1},
      "mode": {"type": "string", "default": "auto"},
      "note": {"type": "string", "nullable": true, "default": "n"},
      "ports": {"type": "array", "items": {"type": "object", "properties": {
        "protocol": {"type": "string", "default": "TCP"}}}},
      "byName": {"type": "object", "additionalProperties": {"type": "object", "properties": {
        "weight": {"type": "integer", "default": 10}}}}}}}})");
  json absent = json::object();
  internal::default_custom_resource(schema, absent);
  EXPECT_EQ(absent, json::parse(R"({"spec": {"replicas": 1, "mode": "auto", "note": "n"}})"));
  json given = json::parse(R"({"spec": {"replicas": 3, "mode": null, "note": null,
    "ports": [{"name": "a"}, {"protocol": "UDP"}], "byName": {"x": {}, "y": {"weight": 2}}}})");
  internal::default_custom_resource(schema, given);
  EXPECT_EQ(given, json::parse(R"({"spec": {"replicas": 3, "mode": "auto", "note": null,
    "ports": [{"name": "a", "protocol": "TCP"}, {"protocol": "UDP"}],
    "byName": {"x": {"weight": 10}, "y": {"weight": 2}}}})"));
  json no_schema = json::parse(R"({"spec": {}})");
  internal::default_custom_resource(json(), no_schema);
  EXPECT_EQ(no_schema, json::parse(R"({"spec": {}})"));
}

TEST(SchemaDefaultsTest, NullsTheSchemaNeitherAllowsNorDefaultsAreDropped) {
  const json schema = json::parse(R"({"type": "object", "properties": {
    "spec": {"type": "object", "properties": {
      "name": {"type": "string"},
      "note": {"type": "string", "nullable": true},
      "mode": {"type": "string", "default": "auto"},
      "items": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
      "byName": {"type": "object", "additionalProperties": {"type": "string"}}}}}})");
  json obj = json::parse(R"({"spec": {"name": null, "note": null, "mode": null,
    "items": [{"x": null}, null], "byName": {"a": null}}})");
  internal::drop_non_nullable_nulls(schema, obj);
  EXPECT_EQ(obj, json::parse(R"({"spec": {"note": null, "mode": null, "items": [{}, null], "byName": {}}})"));
  // Decoding prunes, drops those nulls, then defaults: the null with a default gets it.
  json decoded = json::parse(R"({"spec": {"name": null, "mode": null, "unknown": 1}})");
  std::vector<std::string> pruned;
  internal::decode_custom_resource(schema, decoded, &pruned);
  EXPECT_EQ(decoded, json::parse(R"({"spec": {"mode": "auto"}})"));
  EXPECT_EQ(pruned, (Paths{"spec.unknown"}));
}

// A CRD whose v1 declares spec.size and spec.ports[].name, and a status subresource.
api::ObjectPtr structural_widget_crd() {
  return testutil::widget_crd()->edited([](json& j) {
    j["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = json::parse(R"({
      "type": "object",
      "properties": {
        "spec": {"type": "object", "properties": {
          "size": {"type": "integer"},
          "ports": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
          "mode": {"type": "string", "default": "auto"}}},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}})");
  });
}

class ServerPruneTest : public testutil::ServerTest {
 protected:
  testutil::WarnedWrites writes_{server_};
  void SetUp() override {
    ASSERT_TRUE(must(writes_.create(testutil::kCrds, "", structural_widget_crd(), api::CreateOptions())));
    testutil::settle(loop_);
  }
  api::ObjectPtr typo_widget() {
    return testutil::widget("default", "w", 3)->edited([](json& j) {
      j["spec"]["sise"] = 4;
      j["spec"]["ports"] = json::parse(R"([{"name": "p", "nmae": "q"}])");
      j["metadata"]["lables"] = {{"a", "b"}};
    });
  }
};

TEST_F(ServerPruneTest, CreateStoresThePrunedObjectAndWarnsPerField) {
  auto created = must(writes_.create(testutil::kWidgets, "default", typo_widget(), api::CreateOptions()));
  ASSERT_TRUE(created);
  EXPECT_EQ(writes_.warnings(),
            (Paths{"unknown field \"metadata.lables\"", "unknown field \"spec.ports[0].nmae\"",
                   "unknown field \"spec.sise\""}));
  EXPECT_EQ(created->json()["spec"], json::parse(R"({"size": 3, "ports": [{"name": "p"}], "mode": "auto"})"));
  EXPECT_FALSE(created->json()["metadata"].contains("lables"));
  auto got = must(server_.get(testutil::kWidgets, "default", "w", api::GetOptions()));
  EXPECT_EQ(got->json(), created->json());
}

TEST_F(ServerPruneTest, StrictRefusesUnknownFieldsAndChangesNothing) {
  const auto before = server_.revision();
  api::CreateOptions strict;
  strict.field_validation = api::FieldValidation::kStrict;
  auto refused = writes_.create(testutil::kWidgets, "default", typo_widget(), strict);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 400);
  EXPECT_EQ(refused.status().message,
            "Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: "
            "unknown field \"metadata.lables\", unknown field \"spec.ports[0].nmae\", "
            "unknown field \"spec.sise\"");
  EXPECT_EQ(server_.revision(), before);
  // Ignore drops them silently.
  api::CreateOptions ignore;
  ignore.field_validation = api::FieldValidation::kIgnore;
  auto created = must(writes_.create(testutil::kWidgets, "default", typo_widget(), ignore));
  ASSERT_TRUE(created);
  EXPECT_TRUE(writes_.warnings().empty());
  EXPECT_FALSE(created->json()["spec"].contains("sise"));
}

TEST_F(ServerPruneTest, PatchesAndStatusWritesArePrunedToo) {
  ASSERT_TRUE(must(writes_.create(testutil::kWidgets, "default", testutil::widget("default", "w", 3),
                                  api::CreateOptions())));
  api::PatchOptions strict;
  strict.field_validation = api::FieldValidation::kStrict;
  auto refused = writes_.patch(testutil::kWidgets, "default", "w", api::PatchType::kMergePatch,
                               R"({"spec": {"colour": "red"}})", strict);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message, "strict decoding error: unknown field \"spec.colour\"");
  // Without Strict the patch adds nothing: no write.
  const auto before = server_.revision();
  auto same = must(writes_.patch(testutil::kWidgets, "default", "w", api::PatchType::kMergePatch,
                                 R"({"spec": {"colour": "red"}})", api::PatchOptions()));
  ASSERT_TRUE(same);
  EXPECT_EQ(server_.revision(), before);
  EXPECT_EQ(writes_.warnings(), (Paths{"unknown field \"spec.colour\""}));
  auto status = must(writes_.patch(testutil::kWidgets, "default", "w", api::PatchType::kMergePatch,
                                   R"({"status": {"ready": true, "phase": "Up"}})", api::PatchOptions(), api::Subresource::kStatus));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->json()["status"], json::parse(R"({"ready": true})"));
  // An update leaving out a defaulted field gets the default back.
  auto updated = must(writes_.update(testutil::kWidgets, "default", status->edited([](json& j) {
    j["spec"].erase("mode");
    j["spec"]["size"] = 5;
  }), api::UpdateOptions()));
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->json()["spec"], json::parse(R"({"size": 5, "mode": "auto"})"));
}

}  // namespace
}  // namespace kubesim::fakeapi
