#include <gtest/gtest.h>

#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

// RFC 7386 appendix A (the rows whose target is an object, as a stored object always is), and
// the places where evanphx/json-patch v4 prunes nulls the RFC would keep.
TEST(MergePatchTest, RfcExamplesAndPruning) {
  struct Case {
    const char* doc;
    const char* patch;
    const char* want;
  };
  const Case cases[] = {
      {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {R"({"a":"b"})", R"({"a":null})", R"({})"},
      {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {R"({"e":null})", R"({"a":1})", R"({"a":1,"e":null})"},
      {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
      {R"({"a":1})", R"({})", R"({"a":1})"},
      // evanphx prunes nulls in objects nested in arrays the patch inserts, keeps null elements.
      {R"({})", R"({"a":[{"b":null,"c":1},null]})", R"({"a":[{"c":1},null]})"},
      {R"({"a":5})", R"({"a":{"b":null,"c":[{"d":null}]}})", R"({"a":{"c":[{}]}})"},
      // … but not in an array that replaces an object.
      {R"({"a":{"x":1}})", R"({"a":[{"b":null}]})", R"({"a":[{"b":null}]})"},
      // A null member of the document is replaced like a missing one.
      {R"({"a":null})", R"({"a":{"b":null,"c":2}})", R"({"a":{"c":2}})"},
  };
  for (const Case& c : cases) {
    const json doc = json::parse(c.doc);
    auto r = apply_merge_patch(doc, c.patch);
    ASSERT_TRUE(r.ok()) << c.patch << ": " << r.status();
    EXPECT_EQ(r.value(), json::parse(c.want)) << c.doc << " + " << c.patch;
    EXPECT_EQ(doc, json::parse(c.doc));
  }
}

TEST(MergePatchTest, MalformedBodiesAnswerBadRequest) {
  struct Case {
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {"null", "Invalid JSON Patch"},
      {"", "error decoding patch: unexpected end of JSON input"},
      {"{", "error decoding patch: unexpected end of JSON input"},
      {R"({"a":})", "error decoding patch: invalid character '}' looking for beginning of value"},
      {R"({"a" 1})", "error decoding patch: invalid character '1' after object key"},
      {R"({"a":1 "b":2})",
       "error decoding patch: invalid character '\"' after object key:value pair"},
      {R"({'a':1})",
       "error decoding patch: invalid character '\\'' looking for beginning of object key string"},
      {"[1]",
       "error decoding patch: json: cannot unmarshal array into Go value of type "
       "map[string]interface {}"},
      {"5",
       "error decoding patch: json: cannot unmarshal number into Go value of type "
       "map[string]interface {}"},
      {"true",
       "error decoding patch: json: cannot unmarshal bool into Go value of type "
       "map[string]interface {}"},
      {R"("x")",
       "error decoding patch: json: cannot unmarshal string into Go value of type "
       "map[string]interface {}"},
  };
  const json doc = json::parse(R"({"a":1})");
  for (const Case& c : cases) {
    auto r = apply_merge_patch(doc, c.body);
    ASSERT_FALSE(r.ok()) << c.body;
    EXPECT_EQ(r.status().code, 400) << c.body;
    EXPECT_EQ(r.status().reason, api::StatusReason::kBadRequest);
    EXPECT_EQ(r.status().message, c.message) << c.body;
  }
}

TEST(MergePatchTest, KubectlPatches) {
  const json pod = json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"p","labels":{"app":"web","tier":"fe"},"annotations":{"a":"1"}},
      "spec":{"containers":[{"name":"c","image":"x:1"}]}})");
  struct Case {
    const char* what;
    const char* patch;
    const char* pointer;
    const char* want;
  };
  const Case cases[] = {
      {"kubectl label", R"({"metadata":{"labels":{"env":"prod"}}})", "/metadata/labels",
       R"({"app":"web","env":"prod","tier":"fe"})"},
      {"kubectl label tier-", R"({"metadata":{"labels":{"tier":null}}})", "/metadata/labels",
       R"({"app":"web"})"},
      {"kubectl annotate --overwrite", R"({"metadata":{"annotations":{"a":"2"}}})",
       "/metadata/annotations", R"({"a":"2"})"},
      {"merge patch replaces lists", R"({"spec":{"containers":[{"name":"d"}]}})",
       "/spec/containers", R"([{"name":"d"}])"},
  };
  for (const Case& c : cases) {
    auto r = apply_merge_patch(pod, c.patch);
    ASSERT_TRUE(r.ok()) << c.what;
    EXPECT_EQ(r.value().at(json::json_pointer(c.pointer)), json::parse(c.want)) << c.what;
  }
  auto scaled = apply_merge_patch(json::parse(R"({"kind":"Deployment","spec":{"replicas":1}})"),
                                  R"({"spec":{"replicas":5}})");
  ASSERT_TRUE(scaled.ok());
  EXPECT_EQ(scaled.value()["spec"]["replicas"], 5);
}

TEST(MergePatchTest, KindMustStayAString) {
  auto r = apply_merge_patch(json::parse(R"({"kind":"Pod"})"), R"({"kind":{"x":1}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 422);
  EXPECT_EQ(r.status().message,
            R"( "" is invalid: patch: Invalid value: "{\"kind\":{\"x\":1}}": couldn't get )"
            "version/kind; json parse error: json: cannot unmarshal object into Go struct field "
            ".kind of type string");
  EXPECT_TRUE(apply_merge_patch(json::parse(R"({"kind":"Pod"})"), R"({"kind":null})").ok());
}

}  // namespace
}  // namespace kubesim::fakeapi
