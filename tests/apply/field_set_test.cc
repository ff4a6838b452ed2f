// FieldSet: the FieldsV1 encoding kube writes, and the set operations of fieldpath.Set.
#include "fakeapi/internal/apply/field_set.h"

#include <gtest/gtest.h>

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;

// The Update entry kubectl create deployment gets from kube-apiserver 1.33.
const json kDeploymentFields = json::parse(R"({
  "f:metadata":{"f:labels":{".":{},"f:app":{}}},
  "f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:selector":{},
    "f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},
    "f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
      "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}}})");

FieldSet parse(const json& j) {
  std::string error;
  auto set = FieldSet::from_fields_v1(j, &error);
  EXPECT_TRUE(set.has_value()) << error;
  return set.value_or(FieldSet());
}

TEST(FieldSetTest, FieldsV1RoundTrips) {
  const FieldSet set = parse(kDeploymentFields);
  EXPECT_EQ(set.to_fields_v1(), kDeploymentFields);
  EXPECT_TRUE(set.has({"f:spec", "f:replicas"}));
  EXPECT_TRUE(set.has({"f:metadata", "f:labels"}));
  EXPECT_FALSE(set.has({"f:metadata"}));
  EXPECT_TRUE(set.has({"f:spec", "f:template", "f:spec", "f:containers", "k:{\"name\":\"nginx\"}"}));
}

TEST(FieldSetTest, ElementsAreWrittenAsGoWritesThem) {
  EXPECT_EQ(key_element(json{{"protocol", "TCP"}, {"containerPort", 80}}),
            "k:{\"containerPort\":80,\"protocol\":\"TCP\"}");
  EXPECT_EQ(value_element("a<b"), "v:\"a\\u003cb\"");
  EXPECT_EQ(value_element(5), "v:5");
  // A key written with its fields in another order reads as the same element.
  const FieldSet set = parse(json{{"f:ports", {{"k:{\"protocol\":\"TCP\",\"containerPort\":80}", json::object()}}}});
  EXPECT_TRUE(set.has({"f:ports", "k:{\"containerPort\":80,\"protocol\":\"TCP\"}"}));
}

TEST(FieldSetTest, PathsPrintAsStructuredMergeDiffPrintsThem) {
  EXPECT_EQ(path_to_string({"f:spec", "f:replicas"}), ".spec.replicas");
  EXPECT_EQ(path_to_string({"f:spec", "f:containers", "k:{\"name\":\"nginx\"}", "f:image"}),
            ".spec.containers[name=\"nginx\"].image");
  EXPECT_EQ(path_to_string({"f:ports", "k:{\"containerPort\":80,\"protocol\":\"TCP\"}"}),
            ".ports[containerPort=80,protocol=\"TCP\"]");
  EXPECT_EQ(path_to_string({"f:finalizers", "v:\"a\""}), ".finalizers[=\"a\"]");
  EXPECT_EQ(path_to_string({"f:list", "v:3"}), ".list[=3]");
  EXPECT_EQ(path_to_string({"f:list", "i:2"}), ".list[2]");
}

TEST(FieldSetTest, MalformedKeysAreErrorsAndUnknownKindsAreSkipped) {
  std::string error;
  EXPECT_FALSE(FieldSet::from_fields_v1(json{{"f", json::object()}}, &error));
  EXPECT_EQ(error, "key must be 2 characters long:");
  EXPECT_FALSE(FieldSet::from_fields_v1(json{{"fx", json::object()}}, &error));
  EXPECT_EQ(error, "missing colon: fx");
  EXPECT_FALSE(FieldSet::from_fields_v1(json{{"k:[1]", json::object()}}, &error));
  const FieldSet skipped = parse(json{{"z:x", json::object()}, {"f:a", json::object()}});
  EXPECT_EQ(skipped.to_fields_v1(), (json{{"f:a", json::object()}}));
}

TEST(FieldSetTest, UnionDifferenceIntersection) {
  FieldSet a, b;
  a.insert({"f:spec"});
  a.insert({"f:spec", "f:replicas"});
  a.insert({"f:spec", "f:paused"});
  b.insert({"f:spec", "f:replicas"});
  b.insert({"f:status"});
  EXPECT_EQ(a.union_with(b).to_fields_v1(),
            json::parse(R"({"f:spec":{".":{},"f:paused":{},"f:replicas":{}},"f:status":{}})"));
  EXPECT_EQ(a.difference(b).to_fields_v1(), json::parse(R"({"f:spec":{".":{},"f:paused":{}}})"));
  EXPECT_EQ(a.intersection(b).to_fields_v1(), json::parse(R"({"f:spec":{"f:replicas":{}}})"));
  // A member of the other set does not take the paths under it away, except recursively.
  FieldSet spec;
  spec.insert({"f:spec"});
  EXPECT_EQ(a.difference(spec).to_fields_v1(),
            json::parse(R"({"f:spec":{"f:paused":{},"f:replicas":{}}})"));
  EXPECT_TRUE(a.recursive_difference(spec).empty());
}

TEST(FieldSetTest, IteratesMembersBeforeChildren) {
  const FieldSet set = parse(json::parse(R"({"f:a":{"f:x":{}},"f:b":{},"f:c":{".":{},"f:y":{}}})"));
  std::vector<std::string> seen;
  set.for_each([&](const std::vector<std::string>& p) { seen.push_back(path_to_string(p)); });
  EXPECT_EQ(seen, (std::vector<std::string>{".b", ".c", ".a.x", ".c.y"}));
}

}  // namespace
}  // namespace kubesim::fakeapi::apply
