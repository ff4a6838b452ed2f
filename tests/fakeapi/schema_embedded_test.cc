// Objects a custom resource embeds (x-kubernetes-embedded-resource) are checked as
// apiextensions-apiserver checks them (internal/crd/schema_embedded.h), on creates and updates.
#include "fakeapi/internal/crd/schema_embedded.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using testutil::kCrds;
using testutil::kWidgets;

const json kEmbeddedSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "spec": {"type": "object", "properties": {
      "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                   "x-kubernetes-preserve-unknown-fields": true},
      "resources": {"type": "array", "items": {
        "type": "object", "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true}},
      "byName": {"type": "object", "additionalProperties": {
        "type": "object", "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true}},
      "plain": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}})");

// The errors of `spec`, one per line.
std::string embedded_errors_of(const json& spec) {
  internal::validation::FieldErrors errs;
  internal::validate_embedded_resources(kEmbeddedSchema, {{"spec", spec}}, errs);
  std::string out;
  for (const api::StatusCause& c : errs.causes()) out += c.field + ": " + c.message + "\n";
  return out;
}

TEST(SchemaEmbeddedTest, TypeMetaIsRequiredAndChecked) {
  EXPECT_EQ(embedded_errors_of({{"template", json::object()}}),
            "spec.template.apiVersion: Required value\nspec.template.kind: Required value\n");
  EXPECT_EQ(embedded_errors_of({{"template", {{"apiVersion", "a/b/c"}, {"kind", ""}}}}),
            "spec.template.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: "
            "a/b/c\nspec.template.kind: Invalid value: \"\": must not be empty\n");
  EXPECT_EQ(embedded_errors_of({{"template", {{"apiVersion", 1}, {"kind", true}}}}),
            "spec.template.apiVersion: Invalid value: 1: must be a string\n"
            "spec.template.kind: Invalid value: true: must be a string\n");
  const std::string bad_kind =
      embedded_errors_of({{"template", {{"apiVersion", "v1"}, {"kind", "My_Kind"}}}});
  EXPECT_EQ(bad_kind.rfind("spec.template.kind: Invalid value: \"My_Kind\": may have mixed case, "
                           "but should otherwise match: a DNS-1035 label must consist of lower "
                           "case alphanumeric characters",
                           0),
            0u)
      << bad_kind;
  // Mixed case is fine, and so are group/version pairs and a bare version.
  EXPECT_EQ(embedded_errors_of({{"template", {{"apiVersion", "apps/v1"}, {"kind", "ReplicaSet"}}},
                       {"resources", {{{"apiVersion", "v1"}, {"kind", "Pod"}}}}}),
            "");
  // Only embedded objects are checked.
  EXPECT_EQ(embedded_errors_of({{"plain", {{"apiVersion", "a/b/c"}}}}), "");
}

TEST(SchemaEmbeddedTest, MetadataIsANewObjectsWithPathSegmentNames) {
  const json meta = {{"name", "a/b"},
                     {"generateName", "x%"},
                     {"namespace", "Bad_NS"},
                     {"generation", -1},
                     {"labels", {{"bad key", "v"}}},
                     {"finalizers", {"orphan", "foregroundDeletion"}}};
  EXPECT_EQ(
      embedded_errors_of({{"template", {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}}}}),
      "spec.template.metadata.generateName: Invalid value: \"x%\": may not contain '%'\n"
      "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'\n"
      "spec.template.metadata.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label "
      "must consist of lower case alphanumeric characters or '-', and must start and end with an "
      "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
      "spec.template.metadata.generation: Invalid value: -1: must be greater than or equal to 0\n"
      "spec.template.metadata.labels: Invalid value: \"bad key\": name part must consist of "
      "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n"
      "spec.template.metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: "
      "finalizer orphan and foregroundDeletion cannot be both set\n");
  // No name is fine (kube validates a made-up one); names need not be DNS names.
  EXPECT_EQ(embedded_errors_of({{"template", {{"apiVersion", "v1"}, {"kind", "Pod"},
                                     {"metadata", {{"name", "Not_A_DNS:name"}}}}},
                       {"resources", {{{"apiVersion", "v1"}, {"kind", "Pod"},
                                       {"metadata", json::object()}}}}}),
            "");
  EXPECT_EQ(embedded_errors_of({{"template", {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", "x"}}}}),
            "spec.template.metadata: Invalid value: \"x\": json: cannot unmarshal string into Go "
            "value of type v1.ObjectMeta\n");
}

TEST(SchemaEmbeddedTest, ListsAndMapsOfEmbeddedObjects) {
  EXPECT_EQ(embedded_errors_of({{"resources", {{{"apiVersion", "v1"}, {"kind", "Pod"}}, {{"kind", "Pod"}}}},
                       {"byName", {{"a", {{"apiVersion", "v1"}}}}}}),
            "spec.byName[a].kind: Required value\nspec.resources[1].apiVersion: Required value\n");
}

class SchemaEmbeddedServerTest : public testutil::ServerTest {};

TEST_F(SchemaEmbeddedServerTest, TheServerRefusesBadEmbeddedObjectsOnCreateAndUpdate) {
  ApiServer& server = server_;
  ASSERT_TRUE(server.create(kCrds, "", testutil::widget_crd_with_schema(kEmbeddedSchema),
                            api::CreateOptions())
                  .ok());
  testutil::settle(loop_);
  const auto widget = [](const std::string& name, const json& spec) {
    return testutil::widget("default", name, 0)->edited([&](json& j) { j["spec"] = spec; });
  };
  const auto before = server.revision();
  auto bad = server.create(kWidgets, "default", widget("w", {{"template", {{"kind", "Pod"}}}}),
                           api::CreateOptions());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code, 422);
  EXPECT_EQ(bad.status().message,
            "Widget.example.com \"w\" is invalid: spec.template.apiVersion: Required value");
  EXPECT_EQ(server.revision(), before);
  auto good = server.create(kWidgets, "default",
                            widget("w", {{"template", {{"apiVersion", "v1"}, {"kind", "Pod"}}}}),
                            api::CreateOptions());
  ASSERT_TRUE(good.ok()) << good.status();
  auto updated = server.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                              R"({"spec": {"template": {"kind": "no_good"}}})",
                              api::PatchOptions());
  ASSERT_FALSE(updated.ok());
  EXPECT_NE(updated.status().message.find("spec.template.kind: Invalid value: \"no_good\""),
            std::string::npos)
      << updated.status().message;
}

}  // namespace
}  // namespace kubesim::fakeapi
