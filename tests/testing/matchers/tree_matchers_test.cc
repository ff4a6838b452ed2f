// MatchesTree (partial trees, from YAML, JSON text or JSON) and EqualObject (everything but what
// the server sets), with the text a failure shows.
#include "kubesim/testing/matchers.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "kubesim/api/match.h"
#include "kubesim/api/yaml.h"
#include "tests/testing/matchers/matchers_util.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;
using testutil::describe;
using testutil::describe_negation;
using testutil::explain;
using ObjectM = ::testing::Matcher<const api::Object&>;

const json kConfigMap = json::parse(R"({
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "w1-0", "namespace": "default", "uid": "u-1", "resourceVersion": "12", "generation": 1,
               "creationTimestamp": "2025-01-01T00:00:00Z", "selfLink": "/api/v1/x",
               "managedFields": [{"manager": "kubesim"}], "labels": {"app": "w1"}},
  "data": {"k": "v", "num": "1"},
  "status": {"seen": true}
})");

TEST(MatchesTreeTest, MatchesTheKeysGivenFromYamlJsonOrATree) {
  const api::ObjectPtr object = api::make_object(kConfigMap);
  const struct {
    const char* name;
    ObjectM matcher;
    bool matched;
    std::string why;
  } cases[] = {
      {"YAML flow", MatchesTree("{data: {k: v}}"), true, ""},
      {"YAML block", MatchesTree("metadata:\n  labels:\n    app: w1\ndata:\n  num: '1'\n"), true, ""},
      {"JSON text", MatchesTree(R"({"data": {"k": "v"}})"), true, ""},
      {"a JSON tree", MatchesTree(json{{"status", {{"seen", true}}}}), true, ""},
      {"null matches absent", MatchesTree("{spec: null}"), true, ""},
      {"one field differs", MatchesTree("{data: {k: w}}"), false,
       R"(differs in 1 field: data.k: "v", want "w")"},
      {"YAML 1.1: an unquoted 1 is a number", MatchesTree("{data: {num: 1}}"), false,
       R"(differs in 1 field: data.num: "1", want 1)"},
      {"several differ", MatchesTree("{data: {k: w, gone: x}, metadata: {labels: {app: w2}}}"), false,
       R"(differs in 3 fields: data.gone: absent, want "x"; data.k: "v", want "w"; metadata.labels.app: "w1", want "w2")"},
  };
  for (const auto& c : cases) {
    const auto got = explain<api::Object>(c.matcher, *object);
    EXPECT_EQ(got.matched, c.matched) << c.name;
    EXPECT_EQ(got.why, c.why) << c.name;
  }
  EXPECT_EQ(describe<api::Object>(MatchesTree("{data: {k: v}}")), R"(matches the tree {"data":{"k":"v"}})");
  EXPECT_EQ(describe_negation<api::Object>(MatchesTree("{data: {k: v}}")),
            R"(doesn't match the tree {"data":{"k":"v"}})");
}

TEST(MatchesTreeTest, ATreeThatDoesNotParseFailsTheTestAndEveryMatch) {
  const api::ObjectPtr object = api::make_object(kConfigMap);
  const std::string text = "{data: [}";
  const auto parsed = api::yaml_to_json(text);
  ASSERT_FALSE(parsed.ok());
  const std::string why = "the expected tree does not parse: " + parsed.status().message;
  // Made once: it fails the test where it is made, so that Not(MatchesTree(…)) cannot pass quietly.
  std::optional<ObjectM> m;
  EXPECT_NONFATAL_FAILURE(m.emplace(MatchesTree(text)), "MatchesTree: " + why);
  const auto got = explain<api::Object>(*m, *object);
  EXPECT_FALSE(got.matched);
  EXPECT_EQ(got.why, why);
  EXPECT_EQ(describe<api::Object>(*m), "matches a tree that does not parse");
  EXPECT_EQ(describe_negation<api::Object>(*m), "doesn't match a tree that does not parse");
}

TEST(MatchesTreeTest, CutsTheDescriptionOfALongTree) {
  const json tree = {{"data", {{"k", std::string(300, 'x')}}}};
  const std::string text = describe<api::Object>(MatchesTree(tree));
  EXPECT_EQ(text, "matches the tree " + api::short_json(tree, 200));
  EXPECT_EQ(text.substr(text.size() - 3), "…");
}

TEST(EqualObjectTest, IgnoresWhatTheServerSets) {
  json expected_json = kConfigMap;
  for (const char* key :
       {"uid", "resourceVersion", "generation", "creationTimestamp", "selfLink", "managedFields"}) {
    expected_json["metadata"].erase(key);
  }
  const api::ObjectPtr expected = api::make_object(expected_json);
  const api::ObjectPtr actual = api::make_object(kConfigMap);

  json changed = kConfigMap;
  changed["data"]["k"] = "w";
  changed["data"]["extra"] = "e";
  changed["status"]["seen"] = false;
  json unchanged_but_status = kConfigMap;
  unchanged_but_status["status"] = {{"seen", false}};

  const struct {
    const char* name;
    ObjectM matcher;
    json object;
    bool matched;
    std::string why;
  } cases[] = {
      {"the same object as stored", EqualObject(*expected), kConfigMap, true, ""},
      {"fields differ, each named", EqualObject(*expected), changed, false,
       R"(differs in 3 fields: data.extra: "e", want absent; data.k: "w", want "v"; status.seen: false, want true)"},
      {"status compared", EqualObject(*expected), unchanged_but_status, false,
       "differs in 1 field: status.seen: false, want true"},
      {"status ignored", EqualObject(*expected, /*ignore_status=*/true), unchanged_but_status, true, ""},
  };
  for (const auto& c : cases) {
    const auto got = explain<api::Object>(c.matcher, *api::make_object(c.object));
    EXPECT_EQ(got.matched, c.matched) << c.name;
    EXPECT_EQ(got.why, c.why) << c.name;
  }
  EXPECT_TRUE(explain<api::Object>(EqualObject(*actual), *expected).matched);
  EXPECT_EQ(describe<api::Object>(EqualObject(*expected)),
            "equals ConfigMap default/w1-0 (server-set metadata ignored)");
  EXPECT_EQ(describe_negation<api::Object>(EqualObject(*expected, true)),
            "doesn't equal ConfigMap default/w1-0 (server-set metadata and status ignored)");
}

}  // namespace
}  // namespace kubesim::testing
