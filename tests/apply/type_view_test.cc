// TypeRef: what the Go tables, the list markers, the strategic merge tags and a CRD's schema say
// about each place in an object.
#include "fakeapi/internal/apply/type_view.h"

#include <gtest/gtest.h>

#include "fakeapi/internal/apply/field_walk.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;
using Keys = std::vector<std::string>;

TypeRef at(TypeRef t, std::initializer_list<std::string_view> path) {
  for (std::string_view step : path) t = step == "[]" ? t.element() : t.member(step);
  return t;
}

TEST(TypeViewTest, DeploymentFromTheGoTables) {
  const TypeRef d = TypeRef::builtin_kind("apps", "Deployment");
  const TypeRef pod = at(d, {"spec", "template", "spec"});
  EXPECT_EQ(pod.shape(json::object()), Shape::kStruct);
  const TypeRef containers = pod.member("containers");
  EXPECT_EQ(containers.shape(json::array()), Shape::kList);
  EXPECT_EQ(containers.list_type(), ListType::kMap);
  EXPECT_EQ(containers.list_keys(), Keys{"name"});
  const TypeRef ports = at(containers, {"[]", "ports"});
  EXPECT_EQ(ports.list_type(), ListType::kMap);
  EXPECT_EQ(ports.list_keys(), (Keys{"containerPort", "protocol"}));
  EXPECT_EQ(ports.key_default("protocol"), "TCP");
  EXPECT_EQ(at(containers, {"[]", "env"}).list_keys(), Keys{"name"});
  EXPECT_EQ(at(containers, {"[]", "args"}).list_type(), ListType::kAtomic);
  EXPECT_EQ(pod.member("tolerations").list_type(), ListType::kAtomic);
  EXPECT_TRUE(at(d, {"spec", "selector"}).atomic());
  EXPECT_FALSE(at(d, {"spec", "strategy"}).atomic());
  // Labels are a granular map of strings; replicas a scalar.
  const TypeRef labels = at(d, {"metadata", "labels"});
  EXPECT_EQ(labels.shape(json::object()), Shape::kMap);
  EXPECT_FALSE(labels.has_field("app"));
  EXPECT_EQ(labels.member("app").shape("x"), Shape::kScalar);
  EXPECT_EQ(at(d, {"spec", "replicas"}).shape(3), Shape::kScalar);
  EXPECT_TRUE(d.member("spec").has_field("replicas"));
  EXPECT_EQ(at(d, {"metadata", "finalizers"}).list_type(), ListType::kSet);
  EXPECT_EQ(at(d, {"metadata", "ownerReferences"}).list_keys(), Keys{"uid"});
  EXPECT_EQ(at(d, {"status", "conditions"}).list_keys(), Keys{"type"});
}

TEST(TypeViewTest, ListMarkersWinOverPatchTags) {
  // JobStatus.conditions has patchMergeKey=type but +listType=atomic.
  EXPECT_EQ(at(TypeRef::builtin_kind("batch", "Job"), {"status", "conditions"}).list_type(),
            ListType::kAtomic);
  EXPECT_EQ(at(TypeRef::builtin_kind("", "Service"), {"spec", "ports"}).list_keys(),
            (Keys{"port", "protocol"}));
}

TEST(TypeViewTest, UnknownFieldsAreDeduced) {
  const TypeRef d = TypeRef::builtin_kind("apps", "Deployment");
  const TypeRef unknown = at(d, {"spec", "notAField"});
  EXPECT_EQ(unknown.shape(json::object()), Shape::kMap);
  EXPECT_EQ(unknown.shape(json::array()), Shape::kList);
  EXPECT_EQ(unknown.list_type(), ListType::kAtomic);
  EXPECT_FALSE(d.member("spec").has_field("notAField"));
}

TEST(TypeViewTest, CustomResourcesFromTheirSchema) {
  const json schema = json::parse(R"({"type":"object","properties":{
    "spec":{"type":"object","properties":{
      "ports":{"type":"array","x-kubernetes-list-type":"map",
               "x-kubernetes-list-map-keys":["port","protocol"],
               "items":{"type":"object","properties":{"port":{"type":"integer"},
                        "protocol":{"type":"string","default":"TCP"}}}},
      "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
      "args":{"type":"array","items":{"type":"string"}},
      "selector":{"type":"object","x-kubernetes-map-type":"atomic",
                  "properties":{"app":{"type":"string"}}},
      "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}})");
  const TypeRef cr = TypeRef::custom_resource(&schema);
  const TypeRef ports = at(cr, {"spec", "ports"});
  EXPECT_EQ(ports.list_type(), ListType::kMap);
  EXPECT_EQ(ports.list_keys(), (Keys{"port", "protocol"}));
  EXPECT_EQ(ports.key_default("protocol"), "TCP");
  EXPECT_EQ(item_element(json{{"port", 80}}, ports, nullptr), "k:{\"port\":80,\"protocol\":\"TCP\"}");
  EXPECT_EQ(at(cr, {"spec", "tags"}).list_type(), ListType::kSet);
  EXPECT_EQ(at(cr, {"spec", "args"}).list_type(), ListType::kAtomic);
  EXPECT_TRUE(at(cr, {"spec", "selector"}).atomic());
  EXPECT_EQ(at(cr, {"spec", "extra"}).shape(json::object()), Shape::kMap);
  EXPECT_FALSE(at(cr, {"spec", "extra"}).has_field("x"));
  // metadata is ObjectMeta whatever the schema says.
  EXPECT_EQ(at(cr, {"metadata", "finalizers"}).list_type(), ListType::kSet);
  EXPECT_TRUE(cr.has_field("metadata"));
}

TEST(TypeViewTest, ItemsWithoutKeysAreErrors) {
  const TypeRef containers =
      at(TypeRef::builtin_kind("", "Pod"), {"spec", "containers"});
  std::string error;
  EXPECT_FALSE(item_element(nullptr, containers, &error));
  EXPECT_EQ(error, "associative list with keys may not have a null element");
  EXPECT_FALSE(item_element("x", containers, &error));
  EXPECT_EQ(error, "associative list with keys may not have non-map elements");
  const TypeRef finalizers = at(TypeRef::builtin_kind("", "Pod"), {"metadata", "finalizers"});
  EXPECT_FALSE(item_element(json::object(), finalizers, &error));
  EXPECT_EQ(error, "associative list without keys has an element that's a map type");
  EXPECT_EQ(item_element("a", finalizers, &error), "v:\"a\"");
}

}  // namespace
}  // namespace kubesim::fakeapi::apply
