// Partial object trees as kuttl and chainsaw match them, whole trees compared, dotted paths, and
// values cut short for messages.
#include "kubesim/api/match.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kubesim::api {
namespace {

using nlohmann::json;

const json kObject = json::parse(R"({
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "a", "namespace": "ns", "labels": {"app": "x", "tier": "web"}},
  "data": {"k": "v", "n": "1"},
  "spec": {"replicas": 3, "ports": [{"port": 80, "name": "http"}, {"port": 443}], "ratio": 0.5}
})");

struct Case {
  const char* name;
  const char* expected;
  std::size_t mismatches;
  const char* first;
};

TEST(MatchTreeTest, MatchesAsKuttlAndChainsawDo) {
  const Case cases[] = {
      {"an empty map matches anything", "{}", 0, ""},
      {"the keys given match", R"({"metadata": {"labels": {"app": "x"}}, "data": {"k": "v"}})", 0, ""},
      {"numbers match by value", R"({"spec": {"replicas": 3.0, "ratio": 0.5}})", 0, ""},
      {"lists element-wise, partial elements", R"({"spec": {"ports": [{"port": 80}, {}]}})", 0, ""},
      {"null matches an absent key", R"({"status": null})", 0, ""},
      {"a different scalar", R"({"data": {"k": "w"}})", 1, R"(data.k: "v", want "w")"},
      {"a string is not a number", R"({"data": {"n": 1}})", 1, R"(data.n: "1", want 1)"},
      {"an absent key", R"({"data": {"gone": "x"}})", 1, R"(data.gone: absent, want "x")"},
      {"an absent subtree counts its leaves", R"({"status": {"a": 1, "b": {"c": 2}}})", 2,
       R"(status: absent, want {"a":1,"b":{"c":2}})"},
      {"a list of another length", R"({"spec": {"ports": [{"port": 80}]}})", 1,
       "spec.ports: a list of 2, want a list of 1"},
      {"a list element", R"({"spec": {"ports": [{"port": 80}, {"port": 8443}]}})", 1,
       "spec.ports[1].port: 443, want 8443"},
      {"a map where a scalar is", R"({"data": {"k": {"x": 1}}})", 1, R"(data.k: "v", want a map)"},
      {"null where a value is", R"({"data": {"k": null}})", 1, R"(data.k: "v", want null)"},
      {"every mismatch counted, the first named", R"({"data": {"k": "w", "n": "2"}, "metadata": {"name": "b"}})", 3,
       R"(data.k: "v", want "w")"},
  };
  for (const Case& c : cases) {
    const TreeMatch m = match_tree(json::parse(c.expected), kObject);
    EXPECT_EQ(m.mismatches, c.mismatches) << c.name;
    EXPECT_EQ(m.first(), c.first) << c.name;
    EXPECT_EQ(m.matched(), c.mismatches == 0) << c.name;
  }
}

TEST(MatchTreeTest, ShortJsonCutsLongValuesAtACharacterBoundary) {
  EXPECT_EQ(short_json(json("abc")), "\"abc\"");
  EXPECT_EQ(short_json(json(std::string(100, 'x')), 10), "\"xxxxxxxxx…");
  // "é" is two bytes; a cut inside it backs off to the character before.
  EXPECT_EQ(short_json(json("aaaaaaaaé"), 10), "\"aaaaaaaa…");
}

TEST(MatchTreeTest, DescribesTheFirstTenMismatchesInDocumentOrder) {
  json expected = json::object();
  json actual = json::object();
  for (int i = 0; i < 12; ++i) {
    const std::string key = "k" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    expected[key] = i;
    actual[key] = i + 1;
  }
  const TreeMatch m = match_tree(expected, actual);
  EXPECT_EQ(m.mismatches, 12u);
  ASSERT_EQ(m.found.size(), TreeMatch::kMaxDescribed);
  EXPECT_EQ(m.found.front(), "k00: 1, want 0");
  EXPECT_EQ(m.found.back(), "k09: 10, want 9");
}

TEST(CompareTreesTest, KeysOnlyTheActualTreeHasDifferToo) {
  const struct {
    const char* name;
    const char* expected;
    const char* actual;
    std::vector<std::string> found;
    std::size_t mismatches;
  } cases[] = {
      {"equal trees", R"({"a": 1, "b": [1, {"c": "x"}]})", R"({"b": [1.0, {"c": "x"}], "a": 1})", {}, 0},
      {"null and absent are the same", R"({"a": 1, "b": null})", R"({"a": 1, "c": null})", {}, 0},
      {"a key only the actual tree has", R"({"a": 1})", R"({"a": 1, "b": {"c": 2, "d": 3}})",
       {R"(b: {"c":2,"d":3}, want absent)"}, 2},
      {"a key only the expected tree has", R"({"a": 1, "b": 2})", R"({"a": 1})", {"b: absent, want 2"}, 1},
      {"in key order, nested", R"({"a": {"x": 1}, "c": 3})", R"({"a": {"x": 2, "y": 1}, "b": 0, "c": 3})",
       {"a.x: 2, want 1", "a.y: 1, want absent", "b: 0, want absent"}, 3},
      {"inside a list", R"({"l": [{"a": 1}]})", R"({"l": [{"a": 1, "b": 2}]})", {"l[0].b: 2, want absent"}, 1},
      {"scalars at the root", "1", "2", {"the object: 2, want 1"}, 1},
  };
  for (const auto& c : cases) {
    const TreeMatch m = compare_trees(json::parse(c.expected), json::parse(c.actual));
    EXPECT_EQ(m.found, c.found) << c.name;
    EXPECT_EQ(m.mismatches, c.mismatches) << c.name;
  }
}

TEST(FindPathTest, StepsThroughMapsAndListIndexes) {
  const struct {
    const char* path;
    const char* found;  // nullptr: not found
  } cases[] = {
      {"", nullptr},  // the whole object, checked below
      {"data.k", R"("v")"},
      {"metadata.labels.tier", R"("web")"},
      {"spec.ports.0.port", "80"},
      {"spec.ports.1", R"({"port":443})"},
      {"spec.ports.2", nullptr},
      {"spec.ports.x", nullptr},
      {"spec.ports.-1", nullptr},
      {"spec.ports.01x", nullptr},
      {"data.k.deeper", nullptr},
      {"data.gone", nullptr},
      {"data..k", nullptr},
  };
  for (const auto& c : cases) {
    const json* got = find_path(kObject, c.path);
    if (std::string(c.path).empty()) {
      EXPECT_EQ(got, &kObject);
    } else if (c.found == nullptr) {
      EXPECT_EQ(got, nullptr) << c.path;
    } else {
      ASSERT_NE(got, nullptr) << c.path;
      EXPECT_EQ(got->dump(), c.found) << c.path;
    }
  }
}

}  // namespace
}  // namespace kubesim::api
