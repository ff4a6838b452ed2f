// Apply and Update over small schemas, ported from structured-merge-diff's merge tests
// (merge/leaf_test.go, set_test.go, multiple_appliers_test.go, nested_test.go). Those tests run
// several API versions; kubesim serves one, so every operation here is at v1.
#include "fakeapi/internal/apply/field_walk.h"

#include <gtest/gtest.h>

#include "tests/apply/apply_state.h"

namespace kubesim::fakeapi::apply {
namespace {

using nlohmann::json;
using testing::ApplyState;

const json kLeafSchema = json::parse(R"({"type":"object","properties":{
  "numeric":{"type":"number"},"string":{"type":"string"},"bool":{"type":"boolean"}}})");

const json kSetSchema = json::parse(R"({"type":"object","properties":{
  "list":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}})");

const json kNestedSchema = json::parse(R"({"type":"object","properties":{
  "list":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","properties":{"name":{"type":"string"},"value":{"type":"string"}}}},
  "listOfLists":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","properties":{"name":{"type":"string"},
      "value":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}},
  "struct":{"type":"object","properties":{"name":{"type":"string"},"scalarField":{"type":"string"},
    "complexField":{"type":"object","properties":{"name":{"type":"string"}}}}},
  "atomicMap":{"type":"object","x-kubernetes-map-type":"atomic","additionalProperties":{"type":"string"}},
  "granularMap":{"type":"object","additionalProperties":{"type":"string"}}}})");

TypeRef leaf_type() { return TypeRef::custom_resource(&kLeafSchema); }
TypeRef set_type() { return TypeRef::custom_resource(&kSetSchema); }
TypeRef nested_type() { return TypeRef::custom_resource(&kNestedSchema); }

// Ported: TestUpdateLeaf/apply_update_apply_with_conflict
TEST(MergeTest, LeafConflictThenForce) {
  ApplyState s(leaf_type());
  ASSERT_TRUE(s.apply("default", {{"numeric", 1}, {"string", "string"}}));
  s.update("controller", {{"numeric", 1}, {"string", "controller string"}, {"bool", true}});
  EXPECT_FALSE(s.apply("default", {{"numeric", 2}, {"string", "user string"}}));
  EXPECT_EQ(s.last_error().code, 409);
  EXPECT_EQ(s.last_error().message,
            "Apply failed with 1 conflict: conflict with \"controller\" using v1: .string");
  ASSERT_TRUE(s.force_apply("default", {{"numeric", 2}, {"string", "user string"}}));
  EXPECT_EQ(s.object(), (json{{"numeric", 2}, {"string", "user string"}, {"bool", true}}));
  EXPECT_EQ(s.fields("default"), json::parse(R"({"f:numeric":{},"f:string":{}})"));
  EXPECT_EQ(s.fields("controller"), json::parse(R"({"f:bool":{}})"));
}

// Ported: TestUpdateLeaf/apply_twice_remove
TEST(MergeTest, ApplyTwiceRemovesWhatIsNoLongerApplied) {
  ApplyState s(leaf_type());
  ASSERT_TRUE(s.apply("default", {{"numeric", 1}, {"string", "string"}, {"bool", false}}));
  ASSERT_TRUE(s.apply("default", {{"string", "new string"}}));
  EXPECT_EQ(s.object(), (json{{"string", "new string"}}));
  EXPECT_EQ(s.fields("default"), json::parse(R"({"f:string":{}})"));
}

// Ported: TestUpdateLeaf/update_apply_omits
TEST(MergeTest, UpdateTakesTheFieldAndAnEmptyApplyLeavesIt) {
  ApplyState s(leaf_type());
  ASSERT_TRUE(s.apply("default", {{"numeric", 2}}));
  s.update("controller", {{"numeric", 1}});
  ASSERT_TRUE(s.apply("default", json::object()));
  EXPECT_EQ(s.object(), (json{{"numeric", 1}}));
  EXPECT_EQ(s.fields("default"), nullptr);
  EXPECT_EQ(s.fields("controller"), json::parse(R"({"f:numeric":{}})"));
}

// Ported: TestUpdateLeaf/update_remove_empty_set and apply_remove_empty_set
TEST(MergeTest, ManagersWithNothingLeftAreDropped) {
  ApplyState s(leaf_type());
  ASSERT_TRUE(s.apply("default", {{"string", "string"}}));
  s.update("controller", {{"string", "new string"}});
  EXPECT_EQ(s.fields("default"), nullptr);
  EXPECT_EQ(s.fields("controller"), json::parse(R"({"f:string":{}})"));

  ApplyState t(leaf_type());
  ASSERT_TRUE(t.apply("default", {{"string", "string"}}));
  ASSERT_TRUE(t.apply("default", json::object()));
  EXPECT_EQ(t.object(), json::object());
  EXPECT_TRUE(t.managed().empty());
}

// Ported: TestUpdateSet/apply_update_apply_no_overlap
TEST(MergeTest, SetItemsKeepTheirPlaces) {
  ApplyState s(set_type());
  ASSERT_TRUE(s.apply("default", {{"list", {"a", "c"}}}));
  s.update("controller", {{"list", {"a", "b", "c", "d"}}});
  ASSERT_TRUE(s.apply("default", {{"list", {"a", "aprime", "c", "cprime"}}}));
  EXPECT_EQ(s.object(), (json{{"list", {"a", "b", "aprime", "c", "d", "cprime"}}}));
  EXPECT_EQ(s.fields("default"),
            json::parse(R"({"f:list":{"v:\"a\"":{},"v:\"aprime\"":{},"v:\"c\"":{},"v:\"cprime\"":{}}})"));
  EXPECT_EQ(s.fields("controller"), json::parse(R"({"f:list":{"v:\"b\"":{},"v:\"d\"":{}}})"));
}

// Ported: TestUpdateSet/apply_twice
TEST(MergeTest, SetAppliedTwiceGrows) {
  ApplyState s(set_type());
  ASSERT_TRUE(s.apply("default", {{"list", {"a", "c"}}}));
  ASSERT_TRUE(s.apply("default", {{"list", {"a", "b", "c", "d"}}}));
  EXPECT_EQ(s.object(), (json{{"list", {"a", "b", "c", "d"}}}));
}

// Ported: TestMultipleAppliersSet/remove_one
TEST(MergeTest, MapListItemsOfAnotherApplierStay) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("apply-one", {{"list", {{{"name", "a"}}, {{"name", "b"}}}}}));
  ASSERT_TRUE(s.apply("apply-two", {{"list", {{{"name", "c"}}}}}));
  ASSERT_TRUE(s.apply("apply-one", {{"list", {{{"name", "a"}}}}}));
  EXPECT_EQ(s.object(), (json{{"list", {{{"name", "a"}}, {{"name", "c"}}}}}));
  EXPECT_EQ(s.fields("apply-one"),
            json::parse(R"({"f:list":{"k:{\"name\":\"a\"}":{".":{},"f:name":{}}}})"));
  EXPECT_EQ(s.fields("apply-two"),
            json::parse(R"({"f:list":{"k:{\"name\":\"c\"}":{".":{},"f:name":{}}}})"));
}

// Ported: TestMultipleAppliersSet/change_value_yes_conflict
TEST(MergeTest, TwoAppliersOfOneFieldConflict) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("apply-one", {{"list", {{{"name", "a"}, {"value", "0"}}}}}));
  EXPECT_FALSE(s.apply("apply-two", {{"list", {{{"name", "a"}, {"value", "1"}}}}}));
  EXPECT_EQ(s.last_error().message,
            "Apply failed with 1 conflict: conflict with \"apply-one\": .list[name=\"a\"].value");
  ASSERT_EQ(s.last_error().details->causes.size(), 1u);
  EXPECT_EQ(s.last_error().details->causes[0].type, "FieldManagerConflict");
  EXPECT_EQ(s.last_error().details->causes[0].message, "conflict with \"apply-one\"");
  EXPECT_EQ(s.last_error().details->causes[0].field, ".list[name=\"a\"].value");
}

// Ported: TestMultipleAppliersSet/same_value_no_conflict
TEST(MergeTest, TwoAppliersOfOneValueShareIt) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("apply-one", {{"list", {{{"name", "a"}, {"value", "0"}}}}}));
  ASSERT_TRUE(s.apply("apply-two", {{"list", {{{"name", "a"}, {"value", "0"}}}}}));
  EXPECT_EQ(s.fields("apply-one"), s.fields("apply-two"));
}

// Ported: TestMultipleAppliersFieldUnsetting/unset_scalar_shared_with_updater
TEST(MergeTest, UnsetFieldSharedWithAnUpdaterStays) {
  ApplyState s(nested_type());
  s.update("updater", {{"struct", {{"name", "a"}, {"scalarField", "a"}}}});
  ASSERT_TRUE(s.apply("applier", {{"struct", {{"name", "a"}, {"scalarField", "a"}}}}));
  ASSERT_TRUE(s.apply("applier", {{"struct", {{"name", "a"}}}}));
  EXPECT_EQ(s.object(), (json{{"struct", {{"name", "a"}, {"scalarField", "a"}}}}));
  EXPECT_EQ(s.fields("updater"),
            json::parse(R"({"f:struct":{".":{},"f:name":{},"f:scalarField":{}}})"));
  EXPECT_EQ(s.fields("applier"), json::parse(R"({"f:struct":{"f:name":{}}})"));
}

// Ported: TestMultipleAppliersFieldUnsetting/updater_claims_field
TEST(MergeTest, UpdaterClaimsAChangedField) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("applier", {{"struct", {{"name", "a"}, {"scalarField", "a"}}}}));
  s.update("updater", {{"struct", {{"name", "a"}, {"scalarField", "b"}}}});
  EXPECT_EQ(s.fields("updater"), json::parse(R"({"f:struct":{"f:scalarField":{}}})"));
  EXPECT_EQ(s.fields("applier"), json::parse(R"({"f:struct":{"f:name":{}}})"));
}

// Ported: TestMultipleAppliersFieldUnsetting/unset_complex_sole_owner
TEST(MergeTest, UnsetComplexFieldOfItsSoleOwnerGoes) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("apply-one", {{"struct", {{"name", "a"}, {"complexField", {{"name", "b"}}}}}}));
  ASSERT_TRUE(s.apply("apply-one", {{"struct", {{"name", "a"}}}}));
  EXPECT_EQ(s.object(), (json{{"struct", {{"name", "a"}}}}));
}

// Ported: TestMultipleAppliersNestedType/remove_one_keep_one_with_dangling_subitem
TEST(MergeTest, DanglingSubItemsOfOthersStay) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("apply-one",
                      {{"listOfLists", {{{"name", "a"}}, {{"name", "b"}, {"value", {"c"}}}}}}));
  ASSERT_TRUE(s.apply("apply-two", {{"listOfLists", {{{"name", "b"}, {"value", {"d"}}}}}}));
  s.update("controller",
           {{"listOfLists", {{{"name", "a"}}, {{"name", "b"}, {"value", {"c", "d", "e"}}}}}});
  ASSERT_TRUE(s.apply("apply-one", {{"listOfLists", {{{"name", "a"}}}}}));
  EXPECT_EQ(s.object(),
            (json{{"listOfLists", {{{"name", "a"}}, {{"name", "b"}, {"value", {"d", "e"}}}}}}));
  EXPECT_EQ(s.fields("apply-one"),
            json::parse(R"({"f:listOfLists":{"k:{\"name\":\"a\"}":{".":{},"f:name":{}}}})"));
  EXPECT_EQ(s.fields("apply-two"), json::parse(R"({"f:listOfLists":{"k:{\"name\":\"b\"}":{
      ".":{},"f:name":{},"f:value":{"v:\"d\"":{}}}}})"));
  EXPECT_EQ(s.fields("controller"),
            json::parse(R"({"f:listOfLists":{"k:{\"name\":\"b\"}":{"f:value":{"v:\"e\"":{}}}}})"));
}

// Ported: TestMultipleApplierAtomicMaps/force
TEST(MergeTest, AtomicMapsAreOwnedWholeAndForceTakesThem) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("apply-one", {{"atomicMap", {{"a", "1"}, {"b", "2"}}}}));
  EXPECT_FALSE(s.apply("apply-two", {{"atomicMap", {{"c", "3"}}}}));
  EXPECT_EQ(s.last_error().message,
            "Apply failed with 1 conflict: conflict with \"apply-one\": .atomicMap");
  ASSERT_TRUE(s.force_apply("apply-two", {{"atomicMap", {{"c", "3"}}}}));
  EXPECT_EQ(s.object(), (json{{"atomicMap", {{"c", "3"}}}}));
  EXPECT_EQ(s.fields("apply-one"), nullptr);
  EXPECT_EQ(s.fields("apply-two"), json::parse(R"({"f:atomicMap":{}})"));
}

TEST(MergeTest, GranularMapsMergeKeyByKey) {
  ApplyState s(nested_type());
  ASSERT_TRUE(s.apply("one", {{"granularMap", {{"a", "1"}}}}));
  ASSERT_TRUE(s.apply("two", {{"granularMap", {{"b", "2"}}}}));
  EXPECT_EQ(s.object(), (json{{"granularMap", {{"a", "1"}, {"b", "2"}}}}));
  EXPECT_EQ(s.fields("two"), json::parse(R"({"f:granularMap":{"f:b":{}}})"));
}

TEST(MergeTest, InvalidConfigurationsAreRefusedWithStructuredMergeDiffsWords) {
  ApplyState s(nested_type());
  EXPECT_FALSE(s.apply("one", {{"list", {{{"name", "a"}}, {{"name", "a"}}}}}));
  EXPECT_EQ(s.last_error().code, 500);
  EXPECT_EQ(s.last_error().message,
            "failed to create typed patch object (default/test; v1, Kind=Test): .list: duplicate "
            "entries for key [name=\"a\"]");
  EXPECT_FALSE(s.apply("one", {{"list", {{{"value", "x"}}}}}));
  EXPECT_EQ(s.last_error().message,
            "failed to create typed patch object (default/test; v1, Kind=Test): .list: element 0: "
            "associative list with keys has an element that omits all key fields [\"name\"] (and "
            "doesn't have default values for any key fields)");
  EXPECT_TRUE(s.managed().empty());
  EXPECT_EQ(s.object(), json::object());
}

TEST(MergeTest, DeducedTypesMergeMapsAndReplaceLists) {
  const TypeRef deduced = TypeRef::deduced();
  EXPECT_EQ(merge({{"a", {{"x", 1}}}, {"l", {1, 2}}}, {{"a", {{"y", 2}}}, {"l", {3}}}, deduced),
            (json{{"a", {{"x", 1}, {"y", 2}}}, {"l", {3}}}));
  // Every member of a deduced map is a member of the set, as maps' keys are.
  EXPECT_EQ(fields_of({{"a", {{"x", 1}}}}, deduced).to_fields_v1(),
            json::parse(R"({"f:a":{".":{},"f:x":{}}})"));
}

}  // namespace
}  // namespace kubesim::fakeapi::apply
