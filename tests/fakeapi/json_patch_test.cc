#include <gtest/gtest.h>

#include <string>

#include "fakeapi/internal/patch/patch_meta.h"
#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

// The error text evanphx/json-patch gives for `ops` on `doc`, "" when they apply.
std::string library_error(json doc, const json& ops, std::size_t limit = kJsonPatchMaxCopyBytes) {
  return internal::apply_json_patch_operations(doc, ops, limit).value_or("");
}

json patched(const json& doc, const json& ops) {
  auto r = apply_json_patch(doc, ops.dump());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.status().message) << " for " << ops.dump();
  return r.ok() ? r.value() : json();
}

void expect_generic_invalid(const api::Result<json>& r) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 422);
  EXPECT_EQ(r.status().reason, api::StatusReason::kInvalid);
  EXPECT_EQ(r.status().message, "the server rejected our request due to an error in our request");
  EXPECT_TRUE(api::is_invalid(r.status()));
  ASSERT_TRUE(r.status().details.has_value());
  EXPECT_EQ(*r.status().details, api::StatusDetails{});
}

// RFC 6902 appendix A, re-expressed as table rows: document, patch, expected document.
TEST(JsonPatchTest, RfcExamples) {
  struct Case {
    const char* name;
    const char* doc;
    const char* ops;
    const char* want;
  };
  const Case cases[] = {
      {"add member", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":"qux"}])",
       R"({"baz":"qux","foo":"bar"})"},
      {"add element", R"({"foo":["bar","baz"]})", R"([{"op":"add","path":"/foo/1","value":"qux"}])",
       R"({"foo":["bar","qux","baz"]})"},
      {"remove member", R"({"baz":"qux","foo":"bar"})", R"([{"op":"remove","path":"/baz"}])",
       R"({"foo":"bar"})"},
      {"remove element", R"({"foo":["bar","qux","baz"]})", R"([{"op":"remove","path":"/foo/1"}])",
       R"({"foo":["bar","baz"]})"},
      {"replace", R"({"baz":"qux","foo":"bar"})",
       R"([{"op":"replace","path":"/baz","value":"boo"}])", R"({"baz":"boo","foo":"bar"})"},
      {"move member", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
       R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
       R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
      {"move element", R"({"foo":["all","grass","cows","eat"]})",
       R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
       R"({"foo":["all","cows","eat","grass"]})"},
      {"test then add", R"({"baz":"qux","foo":["a",2,"c"]})",
       R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
       R"({"baz":"qux","foo":["a",2,"c"]})"},
      {"add nested object", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
       R"({"child":{"grandchild":{}},"foo":"bar"})"},
      {"ignores unknown members", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])", R"({"baz":"qux","foo":"bar"})"},
      {"escaped keys", R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":10},
        {"op":"replace","path":"/~1","value":8}])",
       R"({"/":8,"~1":10})"},
      {"append with dash", R"({"foo":["bar"]})",
       R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
       R"({"foo":["bar",["abc","def"]]})"},
      {"copy", R"({"a":{"b":1}})", R"([{"op":"copy","from":"/a","path":"/c"}])",
       R"({"a":{"b":1},"c":{"b":1}})"},
      {"empty patch", R"({"a":1})", "[]", R"({"a":1})"},
      {"null patch changes nothing", R"({"a":1})", "null", R"({"a":1})"},
  };
  for (const Case& c : cases) {
    auto r = apply_json_patch(json::parse(c.doc), c.ops);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.status();
    EXPECT_EQ(r.value(), json::parse(c.want)) << c.name;
  }
}

// Where evanphx/json-patch v4, and so kube-apiserver, departs from the RFC.
TEST(JsonPatchTest, EvanphxQuirks) {
  struct Case {
    const char* name;
    const char* doc;
    const char* ops;
    const char* want;
  };
  const Case cases[] = {
      {"replace of a missing member adds it", R"({"a":1})",
       R"([{"op":"replace","path":"/b","value":2}])", R"({"a":1,"b":2})"},
      {"copy from a missing member copies null", R"({"a":1})",
       R"([{"op":"copy","from":"/nope","path":"/b"}])", R"({"a":1,"b":null})"},
      {"move of a null member", R"({"a":null})", R"([{"op":"move","from":"/a","path":"/b"}])",
       R"({"b":null})"},
      {"test of a missing member against null", R"({"a":1})",
       R"([{"op":"test","path":"/b","value":null}])", R"({"a":1})"},
      {"test of a missing member without value", R"({"a":1})", R"([{"op":"test","path":"/b"}])",
       R"({"a":1})"},
      {"test of a null member without value", R"({"a":null})", R"([{"op":"test","path":"/a"}])",
       R"({"a":null})"},
      {"add without value adds null", R"({})", R"([{"op":"add","path":"/a"}])", R"({"a":null})"},
      {"negative index counts from the end", R"({"l":[1,2,3]})",
       R"([{"op":"replace","path":"/l/-1","value":9},{"op":"remove","path":"/l/-3"}])",
       R"({"l":[2,9]})"},
      {"add at -1 appends", R"({"l":[1,2]})", R"([{"op":"add","path":"/l/-1","value":3}])",
       R"({"l":[1,2,3]})"},
      {"index with sign and leading zeros", R"({"l":[1,2,3]})",
       R"([{"op":"remove","path":"/l/+01"}])", R"({"l":[1,3]})"},
      {"path without leading slash addresses the root", R"({"a":1})",
       R"([{"op":"add","path":"x/b","value":2}])", R"({"a":1,"b":2})"},
      {"empty key", R"({})", R"([{"op":"add","path":"/","value":1}])", R"({"":1})"},
      {"replace of the whole document", R"({"a":1})",
       R"([{"op":"replace","path":"","value":{"b":2}}])", R"({"b":2})"},
      {"test of the whole document", R"({"a":[1,{"b":null}]})",
       R"([{"op":"test","path":"","value":{"a":[1,{"b":null}]}}])", R"({"a":[1,{"b":null}]})"},
      {"numbers compare by type", R"({"a":1.5})", R"([{"op":"test","path":"/a","value":1.5}])",
       R"({"a":1.5})"},
      {"~01 decodes to ~1", R"({"~1":1})", R"([{"op":"remove","path":"/~01"}])", R"({})"},
      {"invalid escape left alone", R"({"~2":1})", R"([{"op":"remove","path":"/~2"}])", R"({})"},
  };
  for (const Case& c : cases) {
    auto r = apply_json_patch(json::parse(c.doc), c.ops);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.status();
    EXPECT_EQ(r.value(), json::parse(c.want)) << c.name;
  }
}

TEST(JsonPatchTest, FailedOperationsAnswerGenericInvalidAndKeepTheOriginal) {
  struct Case {
    const char* ops;
    const char* library_error;  // evanphx's own text, which kube-apiserver does not send
  };
  const json doc = json::parse(R"({"a":{"b":1},"l":[1,2],"s":"x","n":null})");
  const Case cases[] = {
      {R"([{"op":"test","path":"/a/b","value":2}])", "testing value /a/b failed: test failed"},
      {R"([{"op":"test","path":"/a/b","value":1.0}])", "testing value /a/b failed: test failed"},
      {R"([{"op":"test","path":"/a/b"}])", "testing value /a/b failed: test failed"},
      {R"([{"op":"test","path":"/a","value":{"b":1,"c":null}}])",
       "testing value /a failed: test failed"},
      {R"([{"op":"add","path":"/x/y","value":1}])",
       R"(add operation does not apply: doc is missing path: "/x/y": missing value)"},
      {R"([{"op":"add","path":"/n/y","value":1}])",
       R"(add operation does not apply: doc is missing path: "/n/y": missing value)"},
      {R"([{"op":"add","path":"/s/y","value":1}])",
       R"(add operation does not apply: doc is missing path: "/s/y": missing value)"},
      {R"([{"op":"add","path":"","value":1}])",
       R"(add operation does not apply: doc is missing path: "": missing value)"},
      {R"([{"op":"add","path":"/l/3","value":1}])",
       "error in add for path: '/l/3': Unable to access invalid index: 3: invalid index "
       "referenced"},
      {R"([{"op":"add","path":"/l/x","value":1}])",
       "error in add for path: '/l/x': value was not a proper array index: 'x': strconv.Atoi: "
       "parsing \"x\": invalid syntax"},
      {R"([{"op":"remove","path":"/a/c"}])",
       "error in remove for path: '/a/c': Unable to remove nonexistent key: c: missing value"},
      {R"([{"op":"remove","path":"/l/2"}])",
       "error in remove for path: '/l/2': Unable to access invalid index: 2: invalid index "
       "referenced"},
      {R"([{"op":"remove","path":"/l/-3"}])",
       "error in remove for path: '/l/-3': Unable to access invalid index: -3: invalid index "
       "referenced"},
      {R"([{"op":"remove"}])", "remove operation failed to decode path: missing value"},
      {R"([{"op":"replace","path":"/l/5","value":1}])",
       "replace operation does not apply: doc is missing key: /l/5: missing value"},
      {R"([{"op":"replace","path":"","value":1}])",
       "replace operation value must be object or array: %!w(<nil>)"},
      {R"([{"op":"move","from":"/nope","path":"/b"}])",
       "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value"},
      {R"([{"op":"move","from":"/a","path":"/a/b/c"}])",
       "move operation does not apply: doc is missing destination path: /a/b/c: missing value"},
      {R"([{"op":"copy","from":"/l/7","path":"/b"}])",
       "error in copy for from: '/l/7': Unable to access invalid index: 7: invalid index "
       "referenced"},
      {R"([{"op":"copy","from":"/a","path":"/z/q"}])",
       "copy operation does not apply: doc is missing destination path: /z/q: missing value"},
      {R"([{"op":"frob","path":"/a"}])", "Unexpected kind: frob"},
      {R"([{"path":"/a"}])", "Unexpected kind: unknown"},
      {R"([null])", "Unexpected kind: unknown"},
      {R"([{"op":"add","path":"/ok","value":1},{"op":"test","path":"/ok","value":2}])",
       "testing value /ok failed: test failed"},
  };
  for (const Case& c : cases) {
    const json before = doc;
    EXPECT_EQ(library_error(doc, json::parse(c.ops)), c.library_error) << c.ops;
    expect_generic_invalid(apply_json_patch(doc, c.ops));
    EXPECT_EQ(doc, before);
  }
}

TEST(JsonPatchTest, MalformedBodiesAnswerBadRequest) {
  struct Case {
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {"", "error decoding patch: unexpected end of JSON input"},
      {"[{", "error decoding patch: unexpected end of JSON input"},
      {"[{]",
       "error decoding patch: invalid character ']' looking for beginning of object key string"},
      {R"({"op":"add"})",
       "error decoding patch: json: cannot unmarshal object into Go value of type "
       "[]handlers.jsonPatchOp"},
      {R"("add")",
       "error decoding patch: json: cannot unmarshal string into Go value of type "
       "[]handlers.jsonPatchOp"},
      {"[1]",
       "error decoding patch: json: cannot unmarshal number into Go value of type "
       "handlers.jsonPatchOp"},
      {R"([{"op":1,"path":"/a"}])",
       "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of "
       "type string"},
      {R"([{"op":"add","path":["a"]}])",
       "error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.path "
       "of type string"},
      {"[] x", "error decoding patch: invalid character 'x' after top-level value"},
  };
  const json doc = json::parse(R"({"a":1})");
  for (const Case& c : cases) {
    auto r = apply_json_patch(doc, c.body);
    ASSERT_FALSE(r.ok()) << c.body;
    EXPECT_TRUE(api::is_bad_request(r.status())) << c.body;
    EXPECT_EQ(r.status().code, 400);
    EXPECT_EQ(r.status().message, c.message) << c.body;
  }
}

TEST(JsonPatchTest, TooManyOperationsAnswer413) {
  json ops = json::array();
  for (std::size_t i = 0; i <= kMaxJsonPatchOperations; ++i)
    ops.push_back({{"op", "test"}, {"path", "/a"}, {"value", 1}});
  auto r = apply_json_patch(json{{"a", 1}}, ops.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_request_entity_too_large(r.status()));
  EXPECT_EQ(
      r.status().message,
      "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got "
      "10001");
  ops.erase(ops.size() - 1);
  EXPECT_TRUE(apply_json_patch(json{{"a", 1}}, ops.dump()).ok());
}

TEST(JsonPatchTest, CopiesAreBoundedByTheAccumulatedSize) {
  const json doc = {{"a", std::string(100, 'x')}};  // 102 bytes as JSON
  const json ops = json::parse(R"([{"op":"copy","from":"/a","path":"/b"},
                                   {"op":"copy","from":"/a","path":"/c"}])");
  EXPECT_EQ(library_error(doc, ops, 204), "");
  EXPECT_EQ(library_error(doc, ops, 203),
            "Unable to complete the copy, the accumulated size increase of copy is 204, exceeding "
            "the limit 203");
  // The default limit is 3 MiB: doubling a 1 MiB string twice fits, a third time does not.
  const json big = {{"a", std::string(1 << 20, 'x')}};
  const json doubling = json::parse(R"([{"op":"copy","from":"/a","path":"/b"},
      {"op":"copy","from":"/a","path":"/c"},{"op":"copy","from":"/a","path":"/d"}])");
  expect_generic_invalid(apply_json_patch(big, doubling.dump()));
}

TEST(JsonPatchTest, ResultThatIsNotAnObjectIsInvalid) {
  auto r = apply_json_patch(json{{"a", 1}}, R"([{"op":"replace","path":"","value":[1,"<x>"]}])");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 422);
  EXPECT_EQ(r.status().reason, api::StatusReason::kInvalid);
  const std::string detail =
      R"(couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })";
  EXPECT_EQ(r.status().message,
            R"( "" is invalid: patch: Invalid value: "[1,\"\\u003cx\\u003e\"]": )" + detail);
  ASSERT_TRUE(r.status().details.has_value());
  ASSERT_EQ(r.status().details->causes.size(), 1u);
  EXPECT_EQ(r.status().details->causes[0].field, "patch");
  EXPECT_EQ(r.status().details->causes[0].type, "FieldValueInvalid");

  auto kind =
      apply_json_patch(json{{"kind", "Pod"}}, R"([{"op":"replace","path":"/kind","value":5}])");
  ASSERT_FALSE(kind.ok());
  EXPECT_EQ(
      kind.status().message,
      R"( "" is invalid: patch: Invalid value: "{\"kind\":5}": couldn't get version/kind; json )"
      "parse error: json: cannot unmarshal number into Go struct field .kind of type string");
}

TEST(JsonPatchTest, KubectlStylePatches) {
  const json deployment = json::parse(R"({
    "apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","finalizers":["a","b"]},
    "spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"app","image":"app:1"}]}}}})");
  json want = deployment;
  want["spec"]["replicas"] = 3;
  EXPECT_EQ(
      patched(deployment, json::parse(R"([{"op":"replace","path":"/spec/replicas","value":3}])")),
      want);
  want = deployment;
  want["metadata"]["finalizers"] = {"b"};
  EXPECT_EQ(
      patched(deployment, json::parse(R"([{"op":"test","path":"/metadata/finalizers/0","value":"a"},
                                               {"op":"remove","path":"/metadata/finalizers/0"}])")),
      want);
  want = deployment;
  want["spec"]["template"]["spec"]["containers"][0]["image"] = "app:2";
  EXPECT_EQ(patched(deployment, json::parse(R"([{"op":"replace",
      "path":"/spec/template/spec/containers/0/image","value":"app:2"}])")),
            want);
  want = deployment;
  want["metadata"]["labels"] = {{"app.kubernetes.io/name", "web"}};
  EXPECT_EQ(patched(deployment, json::parse(R"([{"op":"add","path":"/metadata/labels","value":{}},
      {"op":"add","path":"/metadata/labels/app.kubernetes.io~1name","value":"web"}])")),
            want);
}

}  // namespace
}  // namespace kubesim::fakeapi
