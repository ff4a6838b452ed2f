// Custom resources' x-kubernetes-list-type lists keep their uniqueness
// (internal/crd/schema_list_types.h): duplicates in a set, repeated keys in a map, and items of a map
// list that are not objects are refused with kube-apiserver's 422, nothing stored; an update
// whose stored object already broke the rule is not held to it, as kube-apiserver ratchets it.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using testutil::kCrds;
using testutil::kWidgets;

const json kListSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "spec": {"type": "object", "properties": {
      "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
      "numbers": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "number"}},
      "pairs": {"type": "array", "x-kubernetes-list-type": "set",
                "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
      "ports": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
      "routes": {"type": "array", "x-kubernetes-list-type": "map",
                 "x-kubernetes-list-map-keys": ["port", "protocol"],
                 "items": {"type": "object", "properties": {
                   "port": {"type": "integer"}, "protocol": {"type": "string"}}}},
      "groups": {"type": "object", "additionalProperties": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}},
      "free": {"type": "array", "items": {"type": "string"}}}},
    "status": {"type": "object", "properties": {
      "conditions": {"type": "array", "x-kubernetes-list-type": "map",
                     "x-kubernetes-list-map-keys": ["type"],
                     "items": {"type": "object", "properties": {
                       "type": {"type": "string"}, "status": {"type": "string"}}}}}}}})");

api::ObjectPtr list_widget(const std::string& name, const json& spec) {
  return testutil::widget("default", name, 0)->edited([&](json& j) { j["spec"] = spec; });
}

class ServerListTypeTest : public testutil::ServerTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(must(server_.create(kCrds, "", testutil::widget_crd_with_schema(kListSchema),
                                    api::CreateOptions())));
    testutil::settle(loop_);
  }
  api::Result<api::ObjectPtr> create(const api::ObjectPtr& obj) {
    return server_.create(kWidgets, "default", obj, api::CreateOptions());
  }
  // The message of a write that must fail with 422 Invalid and change nothing.
  std::string refused(const std::function<api::Result<api::ObjectPtr>()>& write) {
    const auto before = server_.revision();
    const auto r = write();
    EXPECT_EQ(server_.revision(), before);
    EXPECT_FALSE(r.ok());
    if (r.ok()) return "";
    EXPECT_TRUE(api::is_invalid(r.status())) << r.status();
    return r.status().message;
  }
  std::string refused_create(const json& spec) {
    return refused([&] { return create(list_widget("w", spec)); });
  }
};

TEST_F(ServerListTypeTest, SetsRefuseTheSecondCopyOfAnItem) {
  EXPECT_EQ(refused_create({{"tags", {"a", "b", "a", "a", "b"}}}),
            "Widget.example.com \"w\" is invalid: [spec.tags[2]: Duplicate value: \"a\", "
            "spec.tags[4]: Duplicate value: \"b\"]");
  EXPECT_EQ(refused_create(
                {{"pairs", json::parse(R"([{"k": [1, {"x": true}]}, {"k": [1, {"x": true}]}])")}}),
            "Widget.example.com \"w\" is invalid: spec.pairs[1]: Duplicate value: "
            "{\"k\":[1,{\"x\":true}]}");
  // Under additionalProperties too.
  EXPECT_EQ(refused_create({{"groups", {{"g", {"x", "x"}}}}}),
            "Widget.example.com \"w\" is invalid: spec.groups[g][1]: Duplicate value: \"x\"");
  ASSERT_EQ(testutil::status_of(server_.get(kWidgets, "default", "w", api::GetOptions())).code,
            404);
}

TEST_F(ServerListTypeTest, SetItemsCompareWithTheirGoTypes) {
  // int64(1) and float64(1) differ as scalars; inside objects json.Marshal writes both as 1.
  EXPECT_TRUE(must(create(list_widget("a", json::parse(R"({"numbers": [1, 1.0, 2.5]})")))));
  EXPECT_EQ(refused_create(json::parse(R"({"pairs": [{"n": 1}, {"n": 1.0}]})")),
            "Widget.example.com \"w\" is invalid: spec.pairs[1]: Duplicate value: {\"n\":1}");
  // Lists without a list type may repeat items.
  EXPECT_TRUE(must(create(list_widget("b", {{"free", {"x", "x"}}}))));
  EXPECT_TRUE(must(create(list_widget("c", {{"tags", {"a", "b"}}}))));
}

TEST_F(ServerListTypeTest, MapsRefuseRepeatedKeys) {
  EXPECT_EQ(refused_create(json::parse(
                R"({"ports": [{"name": "a"}, {"name": "a", "port": 2}, {}, {"port": 3}]})")),
            "Widget.example.com \"w\" is invalid: [spec.ports[1]: Duplicate value: "
            "{\"name\":\"a\"}, spec.ports[3]: Duplicate value: {}]");
  EXPECT_EQ(refused_create(json::parse(R"({"routes": [{"port": 80, "protocol": "TCP"},
      {"port": 80, "protocol": "UDP"}, {"port": 80, "protocol": "TCP"}, {"port": 80}]})")),
            "Widget.example.com \"w\" is invalid: spec.routes[2]: Duplicate value: "
            "{\"port\":80,\"protocol\":\"TCP\"}");
  // Keys of different Go types are different keys.
  EXPECT_TRUE(must(create(list_widget("a", json::parse(R"({"ports": [{"name": 1}, {"name": "1"}]})")))));
}

TEST_F(ServerListTypeTest, MapItemsMustBeObjects) {
  const std::string message = refused_create(json::parse(R"({"ports": [{"name": "a"}, "b"]})"));
  EXPECT_NE(message.find("spec.ports[1]: Invalid value: \"b\": must be an object for an array of "
                         "list-type map"),
            std::string::npos)
      << message;
}

TEST_F(ServerListTypeTest, UpdatesAndPatchesAreChecked) {
  auto w = must(create(list_widget("w", {{"tags", {"a"}}})));
  ASSERT_TRUE(w);
  EXPECT_EQ(refused([&] {
              return server_.update(kWidgets, "default", w->edited([](json& j) {
                j["spec"]["tags"] = {"a", "a"};
              }),
                                    api::UpdateOptions());
            }),
            "Widget.example.com \"w\" is invalid: spec.tags[1]: Duplicate value: \"a\"");
  EXPECT_EQ(refused([&] {
              return server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                                   R"({"spec": {"tags": ["b", "b"]}})", api::PatchOptions());
            }),
            "Widget.example.com \"w\" is invalid: spec.tags[1]: Duplicate value: \"b\"");
}

TEST_F(ServerListTypeTest, StatusConditionsAreAMapByType) {
  auto w = must(create(list_widget("w", {{"tags", {"a"}}})));
  ASSERT_TRUE(w);
  EXPECT_EQ(refused([&] {
              return server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                                   R"({"status": {"conditions": [{"type": "Ready"},
                                       {"type": "Ready", "status": "True"}]}})",
                                   api::PatchOptions(), api::Subresource::kStatus);
            }),
            "Widget.example.com \"w\" is invalid: status.conditions[1]: Duplicate value: "
            "{\"type\":\"Ready\"}");
  EXPECT_TRUE(must(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                                 R"({"status": {"conditions": [{"type": "Ready"}]}})",
                                 api::PatchOptions(), api::Subresource::kStatus)));
}

TEST_F(ServerListTypeTest, AStoredObjectThatBrokeTheRuleIsNotHeldToIt) {
  // Stored before the CRD made tags a set.
  json loose = kListSchema;
  loose["properties"]["spec"]["properties"]["tags"].erase("x-kubernetes-list-type");
  loose["properties"]["status"]["properties"]["conditions"].erase("x-kubernetes-list-type");
  auto crd = must(server_.get(kCrds, "", "widgets.example.com", api::GetOptions()));
  ASSERT_TRUE(must(server_.update(kCrds, "", crd->edited([&](json& j) {
    j["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = loose;
  }),
                                  api::UpdateOptions())));
  testutil::settle(loop_);
  ASSERT_TRUE(must(create(list_widget("old", {{"tags", {"a", "a"}}}))));
  ASSERT_TRUE(must(create(list_widget("new", {{"tags", {"a"}}}))));
  ASSERT_TRUE(must(server_.patch(kWidgets, "default", "new", api::PatchType::kMergePatch,
                                 R"({"status": {"conditions": [{"type": "A"}, {"type": "A"}]}})",
                                 api::PatchOptions(), api::Subresource::kStatus)));
  crd = must(server_.get(kCrds, "", "widgets.example.com", api::GetOptions()));
  ASSERT_TRUE(must(server_.update(kCrds, "", crd->edited([&](json& j) {
    j["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = kListSchema;
  }),
                                  api::UpdateOptions())));
  testutil::settle(loop_);
  // The stored object already repeats "a": its updates are not checked for repeats.
  EXPECT_TRUE(must(server_.patch(kWidgets, "default", "old", api::PatchType::kMergePatch,
                                 R"({"spec": {"tags": ["a", "a", "b", "b"]}})",
                                 api::PatchOptions())));
  // "new" repeats a condition type in its status: nothing of it is checked either, the spec
  // included (the whole stored object is what ratchets).
  EXPECT_TRUE(must(server_.patch(kWidgets, "default", "new", api::PatchType::kMergePatch,
                                 R"({"spec": {"tags": ["c", "c"]}})", api::PatchOptions())));
  // Once fixed, it is held to the rule again.
  ASSERT_TRUE(must(server_.patch(kWidgets, "default", "new", api::PatchType::kMergePatch,
                                 R"({"spec": {"tags": ["c"]}})", api::PatchOptions())));
  ASSERT_TRUE(must(server_.patch(kWidgets, "default", "new", api::PatchType::kMergePatch,
                                 R"({"status": {"conditions": [{"type": "A"}]}})",
                                 api::PatchOptions(), api::Subresource::kStatus)));
  EXPECT_EQ(refused([&] {
              return server_.patch(kWidgets, "default", "new", api::PatchType::kMergePatch,
                                   R"({"spec": {"tags": ["c", "c"]}})", api::PatchOptions());
            }),
            "Widget.example.com \"new\" is invalid: spec.tags[1]: Duplicate value: \"c\"");
}

}  // namespace
}  // namespace kubesim::fakeapi
