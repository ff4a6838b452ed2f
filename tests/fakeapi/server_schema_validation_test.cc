// The server validates custom resources against their CRD's schema (internal/crd/schema_validation.h)
// on every write — create, update, patch, /status, dry runs — after pruning and defaulting,
// answering kube-apiserver's 422 and changing nothing; updates ratchet against the stored object.
#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using testutil::kCrds;
using testutil::kWidgets;

const json kWidgetSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "spec": {"type": "object", "required": ["replicas"], "properties": {
      "replicas": {"type": "integer", "minimum": 0},
      "mode": {"type": "string", "enum": ["auto", "manual"], "default": "auto"},
      "name": {"type": "string"}}},
    "status": {"type": "object", "properties": {"ready": {"type": "integer", "minimum": 0}}}}})");

api::ObjectPtr schema_widget(const std::string& name, const json& spec) {
  return testutil::widget("default", name, 0)->edited([&](json& j) { j["spec"] = spec; });
}

class ServerSchemaValidationTest : public testutil::ServerTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(must(server_.create(kCrds, "", testutil::widget_crd_with_schema(kWidgetSchema),
                                    api::CreateOptions())));
    testutil::settle(loop_);
  }
  api::Result<api::ObjectPtr> create(const api::ObjectPtr& obj, bool dry_run = false) {
    api::CreateOptions options;
    options.dry_run = dry_run;
    return server_.create(kWidgets, "default", obj, options);
  }
  api::ObjectPtr get(const std::string& name) {
    return must(server_.get(kWidgets, "default", name, api::GetOptions()));
  }
  // The Status of a write that must fail with 422 Invalid.
  static api::Status invalid(const api::Result<api::ObjectPtr>& r) {
    EXPECT_FALSE(r.ok());
    if (r.ok()) return {};
    EXPECT_TRUE(api::is_invalid(r.status())) << r.status();
    return r.status();
  }
};

TEST_F(ServerSchemaValidationTest, CreateAnswersKubeApiServers422AndStoresNothing) {
  const auto before = server_.revision();
  const api::Status s = invalid(create(schema_widget("w", {{"replicas", "three"}})));
  EXPECT_EQ(s.code, 422);
  EXPECT_EQ(s.message,
            "Widget.example.com \"w\" is invalid: spec.replicas: Invalid value: \"string\": "
            "spec.replicas in body must be of type integer: \"string\"");
  ASSERT_TRUE(s.details.has_value());
  EXPECT_EQ(s.details->group, "example.com");
  EXPECT_EQ(s.details->kind, "Widget");
  ASSERT_EQ(s.details->causes.size(), 1u);
  EXPECT_EQ(s.details->causes[0].type, "FieldValueTypeInvalid");
  EXPECT_EQ(s.details->causes[0].field, "spec.replicas");
  EXPECT_EQ(server_.revision(), before);
  EXPECT_TRUE(api::is_not_found(
      testutil::status_of(server_.get(kWidgets, "default", "w", api::GetOptions()))));
  // Dry runs are validated too.
  EXPECT_EQ(
      invalid(create(schema_widget("w", {{"mode", "fast"}}), /*dry_run=*/true)).message,
      "Widget.example.com \"w\" is invalid: [spec.mode: Unsupported value: \"fast\": supported "
      "values: \"auto\", \"manual\", spec.replicas: Required value]");
}

TEST_F(ServerSchemaValidationTest, ValidObjectsAreStoredWithTheirDefaults) {
  auto created = must(create(schema_widget("w", {{"replicas", 2}})));
  ASSERT_TRUE(created);
  EXPECT_EQ(created->json()["spec"], json::parse(R"({"replicas": 2, "mode": "auto"})"));
  // A null the schema does not allow is dropped, as the decoder drops it, not refused.
  auto nulled = must(create(schema_widget("n", {{"replicas", 1}, {"name", nullptr}})));
  ASSERT_TRUE(nulled);
  EXPECT_FALSE(nulled->json()["spec"].contains("name"));
  // The status a create carries is dropped before validation (there is a status subresource).
  auto with_status = must(create(schema_widget("s", {{"replicas", 1}})->edited([](json& j) {
    j["status"] = {{"ready", "no"}};
  })));
  ASSERT_TRUE(with_status);
  EXPECT_FALSE(with_status->json().contains("status"));
}

TEST_F(ServerSchemaValidationTest, ObjectMetaAndSchemaErrorsAreOne422InThatOrder) {
  const api::Status s = invalid(create(schema_widget("Bad_Name", {{"replicas", -1}})));
  ASSERT_TRUE(s.details.has_value());
  ASSERT_EQ(s.details->causes.size(), 2u);
  EXPECT_EQ(s.details->causes[0].field, "metadata.name");
  EXPECT_EQ(s.details->causes[1].field, "spec.replicas");
  EXPECT_EQ(s.details->causes[1].message,
            "Invalid value: -1: spec.replicas in body should be greater than or equal to 0");
}

TEST_F(ServerSchemaValidationTest, UpdatesAndPatchesAreValidatedAfterTheConflictCheck) {
  auto w = must(create(schema_widget("w", {{"replicas", 1}})));
  ASSERT_TRUE(w);
  const auto before = server_.revision();
  auto bad = w->edited([](json& j) { j["spec"]["replicas"] = -1; });
  EXPECT_EQ(invalid(server_.update(kWidgets, "default", bad, api::UpdateOptions())).message,
            "Widget.example.com \"w\" is invalid: spec.replicas: Invalid value: -1: spec.replicas "
            "in body should be greater than or equal to 0");
  // A stale resourceVersion is a conflict first.
  auto stale = bad->edited([](json& j) { j["metadata"]["resourceVersion"] = "1"; });
  EXPECT_TRUE(api::is_conflict(
      testutil::status_of(server_.update(kWidgets, "default", stale, api::UpdateOptions()))));
  auto patched = server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                               R"({"spec": {"mode": "fast"}})", api::PatchOptions());
  EXPECT_EQ(
      invalid(patched).message,
      "Widget.example.com \"w\" is invalid: spec.mode: Unsupported value: \"fast\": supported "
      "values: \"auto\", \"manual\"");
  api::PatchOptions dry;
  dry.dry_run = true;
  invalid(server_.patch(kWidgets, "default", "w", api::PatchType::kJsonPatch,
                        R"([{"op": "remove", "path": "/spec/replicas"}])", dry));
  EXPECT_EQ(server_.revision(), before);
  EXPECT_EQ(get("w")->json()["spec"], json::parse(R"({"replicas": 1, "mode": "auto"})"));
  // A valid patch goes through.
  ASSERT_TRUE(must(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                                 R"({"spec": {"mode": "manual"}})", api::PatchOptions())));
}

TEST_F(ServerSchemaValidationTest, StatusWritesValidateTheStatusAlone) {
  auto w = must(create(schema_widget("w", {{"replicas", 1}})));
  ASSERT_TRUE(w);
  const auto before = server_.revision();
  auto bad = w->edited([](json& j) { j["status"] = {{"ready", "yes"}}; });
  EXPECT_EQ(
      invalid(server_.update(kWidgets, "default", bad, api::UpdateOptions(), api::Subresource::kStatus))
          .message,
      "Widget.example.com \"w\" is invalid: status.ready: Invalid value: \"string\": ready in "
      "body must be of type integer: \"string\"");
  invalid(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                        R"({"status": {"ready": -1}})", api::PatchOptions(), api::Subresource::kStatus));
  EXPECT_EQ(server_.revision(), before);
  // The main resource ignores the status, and /status ignores the spec: neither is refused for
  // the part it does not write.
  ASSERT_TRUE(must(server_.update(kWidgets, "default",
                                  bad->edited([](json& j) { j["spec"]["name"] = "x"; }),
                                  api::UpdateOptions())));
  auto ok = must(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                               R"({"spec": {"replicas": "ignored"}, "status": {"ready": 2}})",
                               api::PatchOptions(), api::Subresource::kStatus));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->json()["status"], json::parse(R"({"ready": 2})"));
  EXPECT_EQ(ok->json()["spec"]["replicas"], 1);
}

TEST_F(ServerSchemaValidationTest, UpdatesRatchetValuesTheSchemaNowRefuses) {
  // Stored under a looser schema, then the CRD tightens replicas.
  auto w = must(create(schema_widget("w", {{"replicas", 1}, {"name", "a"}})));
  ASSERT_TRUE(w);
  auto crd = must(server_.get(kCrds, "", "widgets.example.com", api::GetOptions()));
  ASSERT_TRUE(must(server_.update(kCrds, "", crd->edited([](json& j) {
    j["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
     ["replicas"]["minimum"] = 3;
  }),
                                  api::UpdateOptions())));
  testutil::settle(loop_);
  // An update leaving replicas alone is accepted; one changing it is checked.
  auto renamed = must(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                                    R"({"spec": {"name": "b"}})", api::PatchOptions()));
  ASSERT_TRUE(renamed);
  EXPECT_EQ(
      invalid(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                            R"({"spec": {"replicas": 2}})", api::PatchOptions()))
          .message,
      "Widget.example.com \"w\" is invalid: spec.replicas: Invalid value: 2: spec.replicas in "
      "body should be greater than or equal to 3");
  // A new object gets no such grace.
  invalid(create(schema_widget("x", {{"replicas", 1}})));
}

}  // namespace
}  // namespace kubesim::fakeapi
