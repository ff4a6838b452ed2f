#include <gtest/gtest.h>

#include <string>

#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

// A schema in the spirit of apimachinery's strategicpatch test struct.
PatchSchema test_schema() {
  return PatchSchema()
      .merge_list("mergingList", "name")
      .merge_list("mergingList.mergingIntList")
      .merge_list("mergingIntList")
      .set("retainKeysMergingList", {PatchStrategy::kMerge, "name", true})
      .retain_keys("retainKeysMap")
      .replace("replacingMap")
      .merge_list("mixedList", "name");
}

struct SmpCase {
  const char* name;
  const char* doc;
  const char* patch;
  const char* want;
};

void run_cases(const SmpCase* begin, const SmpCase* end, const PatchSchema& schema) {
  for (const SmpCase* c = begin; c != end; ++c) {
    const json doc = json::parse(c->doc);
    auto r = apply_strategic_merge_patch(doc, c->patch, schema);
    ASSERT_TRUE(r.ok()) << c->name << ": " << r.status();
    EXPECT_EQ(r.value(), json::parse(c->want)) << c->name << "\n got " << r.value().dump();
    EXPECT_EQ(doc, json::parse(c->doc)) << c->name;
  }
}

TEST(StrategicMergePatchTest, Maps) {
  const SmpCase cases[] = {
      {"fields merge, null deletes", R"({"a":1,"b":{"c":1,"d":2}})", R"({"b":{"c":null,"e":3}})",
       R"({"a":1,"b":{"d":2,"e":3}})"},
      {"null for a missing field", R"({"a":1})", R"({"z":null})", R"({"a":1})"},
      {"$patch replace", R"({"a":1,"b":{"c":1,"d":2}})", R"({"b":{"$patch":"replace","x":1}})",
       R"({"a":1,"b":{"x":1}})"},
      {"$patch replace drops nulls", R"({"b":{"c":1}})",
       R"({"b":{"$patch":"replace","x":null,"y":2}})", R"({"b":{"y":2}})"},
      {"$patch delete empties the map", R"({"a":1,"b":{"c":1}})", R"({"b":{"$patch":"delete"}})",
       R"({"a":1,"b":{}})"},
      {"$patch delete at the top", R"({"a":1})", R"({"$patch":"delete"})", R"({})"},
      {"replace strategy", R"({"replacingMap":{"a":1,"b":2}})", R"({"replacingMap":{"c":3}})",
       R"({"replacingMap":{"c":3}})"},
      {"new field drops nulls and directives", R"({})",
       R"({"n":{"a":null,"b":{"$patch":"delete"},"c":[{"d":null,"e":1},{"$patch":"delete"}],"f":1}})",
       R"({"n":{"c":[{"e":1}],"f":1}})"},
      {"type change replaces", R"({"a":[1,2]})", R"({"a":{"b":1}})", R"({"a":{"b":1}})"},
      {"int and float are different types", R"({"a":{"b":1}})", R"({"a":1.5})", R"({"a":1.5})"},
      {"non-merging list replaced", R"({"l":[{"name":"a"},{"name":"b"}]})",
       R"({"l":[{"name":"c"}]})", R"({"l":[{"name":"c"}]})"},
      {"null body changes nothing", R"({"a":1})", "null", R"({"a":1})"},
      {"empty patch", R"({"a":1})", "{}", R"({"a":1})"},
  };
  run_cases(std::begin(cases), std::end(cases), test_schema());
}

TEST(StrategicMergePatchTest, MergingListsOfMaps) {
  const SmpCase cases[] = {
      {"merge by key and append",
       R"({"mergingList":[{"name":"a","value":1},{"name":"b","value":2}]})",
       R"({"mergingList":[{"name":"b","value":3},{"name":"c"}]})",
       R"({"mergingList":[{"name":"a","value":1},{"name":"b","value":3},{"name":"c"}]})"},
      {"patch items keep the patch order, new ones lead",
       R"({"mergingList":[{"name":"a"},{"name":"b"}]})",
       R"({"mergingList":[{"name":"c"},{"name":"a","value":9}]})",
       R"({"mergingList":[{"name":"c"},{"name":"a","value":9},{"name":"b"}]})"},
      {"null inside an element deletes", R"({"mergingList":[{"name":"a","value":1,"other":2}]})",
       R"({"mergingList":[{"name":"a","value":null}]})",
       R"({"mergingList":[{"name":"a","other":2}]})"},
      {"$patch delete removes by key",
       R"({"mergingList":[{"name":"a"},{"name":"b"},{"name":"a","x":1}]})",
       R"({"mergingList":[{"name":"a","$patch":"delete"}]})", R"({"mergingList":[{"name":"b"}]})"},
      {"$patch delete of a missing key", R"({"mergingList":[{"name":"a"}]})",
       R"({"mergingList":[{"name":"zz","$patch":"delete"}]})", R"({"mergingList":[{"name":"a"}]})"},
      {"$patch replace in a list", R"({"mergingList":[{"name":"a"},{"name":"b"}]})",
       R"({"mergingList":[{"name":"x","v":1},{"$patch":"replace"}]})",
       R"({"mergingList":[{"name":"x","v":1}]})"},
      {"nested merging lists", R"({"mergingList":[{"name":"a","mergingIntList":[1,2]}]})",
       R"({"mergingList":[{"name":"a","mergingIntList":[3]}]})",
       R"({"mergingList":[{"name":"a","mergingIntList":[3,1,2]}]})"},
      {"list added where there was none", R"({})",
       R"({"mergingList":[{"name":"a","$patch":"delete"},{"name":"b","x":null}]})",
       R"({"mergingList":[{"name":"b"}]})"},
      {"empty patch list keeps the list", R"({"mergingList":[{"name":"a"}]})",
       R"({"mergingList":[]})", R"({"mergingList":[{"name":"a"}]})"},
      {"merge keys compare by Go type", R"({"mergingList":[{"name":1}]})",
       R"({"mergingList":[{"name":1.0,"x":1}]})",
       R"({"mergingList":[{"name":1.0,"x":1},{"name":1}]})"},
  };
  run_cases(std::begin(cases), std::end(cases), test_schema());
}

TEST(StrategicMergePatchTest, PrimitiveListsAndDirectives) {
  const SmpCase cases[] = {
      {"set union, new items lead", R"({"mergingIntList":[1,2]})", R"({"mergingIntList":[3]})",
       R"({"mergingIntList":[3,1,2]})"},
      {"known items keep the live order", R"({"mergingIntList":[1,2]})",
       R"({"mergingIntList":[2,3]})", R"({"mergingIntList":[1,2,3]})"},
      {"duplicates collapse", R"({"mergingIntList":[1,2,1]})", R"({"mergingIntList":[2]})",
       R"({"mergingIntList":[1,2]})"},
      {"delete from primitive list", R"({"mergingIntList":[1,2,3,2]})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[2,9]})", R"({"mergingIntList":[1,3]})"},
      {"delete from a missing list adds nothing", R"({})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[2]})", R"({})"},
      {"delete from a non-merging list", R"({"plain":["a","b"]})",
       R"({"$deleteFromPrimitiveList/plain":["a"]})", R"({"plain":["b"]})"},
      {"delete directive with null deletes the list", R"({"mergingIntList":[1]})",
       R"({"$deleteFromPrimitiveList/mergingIntList":null})", R"({})"},
      {"add and delete", R"({"mergingIntList":[1,2,3]})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[3],"mergingIntList":[4]})",
       R"({"mergingIntList":[4,1,2]})"},
      {"set element order of primitives", R"({"mergingIntList":[1,2,3]})",
       R"({"$setElementOrder/mergingIntList":[3,1,2]})", R"({"mergingIntList":[3,1,2]})"},
      {"set element order with additions and server-only items", R"({"mergingIntList":[1,2,4]})",
       R"({"$setElementOrder/mergingIntList":[1,2,3],"mergingIntList":[3]})",
       R"({"mergingIntList":[1,2,3,4]})"},
      {"set element order of maps", R"({"mergingList":[{"name":"a"},{"name":"b"},{"name":"s"}]})",
       R"({"$setElementOrder/mergingList":[{"name":"b"},{"name":"c"},{"name":"a"}],
           "mergingList":[{"name":"c","v":1}]})",
       R"({"mergingList":[{"name":"b"},{"name":"c","v":1},{"name":"a"},{"name":"s"}]})"},
      {"set element order for a list that is nowhere", R"({"a":1})",
       R"({"$setElementOrder/mergingIntList":[1]})", R"({"a":1})"},
      {"retainKeys clears unlisted fields",
       R"({"retainKeysMap":{"name":"n","value":"v","other":"o"}})",
       R"({"retainKeysMap":{"$retainKeys":["name","value"],"value":"w"}})",
       R"({"retainKeysMap":{"name":"n","value":"w"}})"},
      {"retainKeys ignores nulls in the check", R"({"retainKeysMap":{"name":"n","other":"o"}})",
       R"({"retainKeysMap":{"$retainKeys":["name"],"other":null}})",
       R"({"retainKeysMap":{"name":"n"}})"},
      {"retainKeys in list elements",
       R"({"retainKeysMergingList":[{"name":"v","configMap":{"name":"c"}}]})",
       R"({"retainKeysMergingList":[{"name":"v","$retainKeys":["name","secret"],"secret":{"n":"s"}}]})",
       R"({"retainKeysMergingList":[{"name":"v","secret":{"n":"s"}}]})"},
  };
  run_cases(std::begin(cases), std::end(cases), test_schema());
}

// Go visits the patch map in an order that, for a small map, is its document order most of the
// time; the engine always takes that order.
TEST(StrategicMergePatchTest, FieldsAreVisitedInDocumentOrder) {
  const SmpCase cases[] = {
      {"add then delete", R"({})",
       R"({"mergingIntList":[1,2],"$deleteFromPrimitiveList/mergingIntList":[1]})",
       R"({"mergingIntList":[2]})"},
      {"delete then add", R"({})",
       R"({"$deleteFromPrimitiveList/mergingIntList":[1],"mergingIntList":[1,2]})",
       R"({"mergingIntList":[1,2]})"},
  };
  run_cases(std::begin(cases), std::end(cases), test_schema());
  // The first error met is the one answered.
  auto r = apply_strategic_merge_patch(
      json::parse(R"({"mergingIntList":[1],"mergingList":[{"name":"a"}]})"),
      R"({"mergingList":[{"x":1}],"mergingIntList":["s"]})", test_schema());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message, "map: map[x:1] does not contain declared merge key: name");
}

TEST(StrategicMergePatchTest, ErrorsAnswerWhatKubeApiserverAnswers) {
  struct ErrorCase {
    const char* doc;
    const char* patch;
    int code;
    api::StatusReason reason;
    const char* message;
  };
  using R = api::StatusReason;
  const ErrorCase cases[] = {
      {"{}", "", 400, R::kBadRequest, "unexpected end of JSON input"},
      {"{}", "{x}", 400, R::kBadRequest,
       "invalid character 'x' looking for beginning of object key string"},
      {"{}", "[1]", 400, R::kBadRequest,
       "json: cannot unmarshal array into Go value of type map[string]interface {}"},
      {"{}", "7", 400, R::kBadRequest,
       "json: cannot unmarshal number into Go value of type map[string]interface {}"},
      {R"({"mergingIntList":[1]})", R"({"$deleteFromPrimitiveList":[1]})", 400, R::kBadRequest,
       "invalid patch format of primitive list"},
      {R"({"a":1})", R"({"$setElementOrder":[1]})", 400, R::kBadRequest,
       "invalid patch format of setElementOrder list"},
      {R"({"m":{"a":1}})", R"({"m":{"$retainKeys":"a"}})", 400, R::kBadRequest,
       "invalid patch format of retainKeys"},
      {R"({"m":{"a":1}})", R"({"m":{"$retainKeys":["a"],"b":1}})", 400, R::kBadRequest,
       "invalid patch format of retainKeys"},
      {R"({"mergingIntList":[[1]]})", R"({"mergingIntList":[[2]]})", 422, R::kInvalid,
       "the server rejected our request due to an error in our request"},
      {R"({"mergingList":[{"name":"a"}]})", R"({"mergingList":[{"value":"b"}]})", 500, R::kUnknown,
       "map: map[value:b] does not contain declared merge key: name"},
      {R"({"mergingList":[{"value":"a"}]})", R"({"mergingList":[{"name":"b"}]})", 500, R::kUnknown,
       "map: map[value:a] does not contain declared merge key: name"},
      {R"({"mergingList":[{"name":"a"}]})", R"({"mergingList":[{"name":"a","$patch":"merge"}]})",
       500, R::kUnknown, "merging lists cannot yet be specified in the patch"},
      {R"({"mergingList":[{"name":"a"}]})", R"({"mergingList":[{"name":"a","$patch":5}]})", 500,
       R::kUnknown, "unknown patch type: %!s(int64=5) in map: map[$patch:5 name:a]"},
      {R"({"m":{"a":1}})", R"({"m":{"$patch":"merge","a":2}})", 500, R::kUnknown,
       "unknown patch type: merge in map: map[$patch:merge a:2]"},
      {R"({"mergingIntList":["a","b"]})", R"({"mergingIntList":[1]})", 500, R::kUnknown,
       "list element types are not identical: [[a b] [1]]"},
      {R"({"mixedList":["a"]})", R"({"mixedList":[{"name":"b"}]})", 500, R::kUnknown,
       "list element types are not identical: [[a] [map[name:b]]]"},
      {R"({"mergingIntList":[1]})", R"({"$setElementOrder/mergingIntList":"x"})", 500, R::kUnknown,
       "expected a []interface {}, but received a string"},
      {R"({"mergingIntList":[]})", R"({"$setElementOrder/mergingIntList":[]})", 500, R::kUnknown,
       "no elements in any of the given slices"},
      {R"({"mergingIntList":[1,2]})",
       R"({"$setElementOrder/mergingIntList":[2,1],"mergingIntList":[1,2]})", 500, R::kUnknown,
       "The order in patch list:\n[1 2]\n doesn't match $setElementOrder list:\n[2 1]\n"},
      {R"({"plainList":[{"a":1}]})", R"({"$deleteFromPrimitiveList/plainList":[{"a":1}]})", 500,
       R::kUnknown, "cannot merge lists without merge key for struct"},
  };
  const PatchSchema schema = test_schema();
  for (const ErrorCase& c : cases) {
    const json doc = json::parse(c.doc);
    auto r = apply_strategic_merge_patch(doc, c.patch, schema);
    ASSERT_FALSE(r.ok()) << c.patch;
    EXPECT_EQ(r.status().code, c.code) << c.patch;
    EXPECT_EQ(r.status().reason, c.reason) << c.patch;
    EXPECT_EQ(r.status().message, c.message) << c.patch;
    EXPECT_EQ(doc, json::parse(c.doc));
  }
}

TEST(StrategicMergePatchTest, CustomResourcesAnswer415) {
  for (const char* body : {R"({"a":1})", "not json"}) {
    auto r = apply_strategic_merge_patch(json{{"a", 0}}, body, custom_resource_patch_schema());
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(api::is_unsupported_media_type(r.status()));
    EXPECT_EQ(r.status().code, 415);
    EXPECT_EQ(r.status().message,
              "the body of the request was in an unknown format - accepted media types include: "
              "application/json-patch+json, application/merge-patch+json, "
              "application/apply-patch+yaml");
    EXPECT_FALSE(r.status().details.has_value());
  }
}

TEST(StrategicMergePatchTest, DirectiveLeftoversAreRemoved) {
  // Replaced lists and maps keep what the patch said verbatim in Go; the typed decode then drops
  // the directive keys and nulls. The result here is what a GET returns afterwards.
  const SmpCase cases[] = {
      {"replaced list", R"({"l":[1]})", R"({"l":[{"$patch":"delete","k":"v","n":null}]})",
       R"({"l":[{"k":"v"}]})"},
      {"replaced map", R"({"replacingMap":{"a":1}})",
       R"({"replacingMap":{"$retainKeys":["b"],"b":{"$setElementOrder/x":[1]}}})",
       R"({"replacingMap":{"b":{}}})"},
      {"keeps other dollar keys", R"({})", R"({"schema":{"$ref":"#/x"}})",
       R"({"schema":{"$ref":"#/x"}})"},
  };
  run_cases(std::begin(cases), std::end(cases), test_schema());
}

}  // namespace
}  // namespace kubesim::fakeapi
