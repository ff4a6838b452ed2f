// Partial object trees as kuttl and chainsaw match them.
#include "scenarios/internal/run_match.h"

#include <gtest/gtest.h>

namespace kubesim::scenarios::runner {
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
    EXPECT_EQ(m.first, c.first) << c.name;
    EXPECT_EQ(m.matched(), c.mismatches == 0) << c.name;
  }
}

TEST(MatchTreeTest, ShortJsonCutsLongValuesAtACharacterBoundary) {
  EXPECT_EQ(short_json(json("abc")), "\"abc\"");
  EXPECT_EQ(short_json(json(std::string(100, 'x')), 10), "\"xxxxxxxxx…");
  // "é" is two bytes; a cut inside it backs off to the character before.
  EXPECT_EQ(short_json(json("aaaaaaaaé"), 10), "\"aaaaaaaa…");
}

}  // namespace
}  // namespace kubesim::scenarios::runner
