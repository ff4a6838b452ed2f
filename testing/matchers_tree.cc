// The matchers of whole trees: MatchesTree (partial, as kuttl and chainsaw assert) and
// EqualObject (everything but the fields the server sets).
#include <utility>

#include "kubesim/api/match.h"
#include "kubesim/api/yaml.h"
#include "kubesim/testing/matchers.h"

namespace kubesim::testing {

using matchers_internal::kShownChars;
using matchers_internal::make_object_matcher;
using nlohmann::json;

namespace {

// "differs in 2 fields: data.k: "x", want "v"; spec.replicas: absent, want 3" (the first ten).
void explain(const api::TreeMatch& m, std::ostream& why) {
  why << "differs in " << m.mismatches << " field" << (m.mismatches == 1 ? "" : "s") << ": ";
  for (std::size_t i = 0; i < m.found.size(); ++i) why << (i == 0 ? "" : "; ") << m.found[i];
  if (m.mismatches > m.found.size()) why << "; …";
}

// The metadata a server sets on every object, which EqualObject does not compare.
constexpr const char* kServerSetMetadata[] = {
    "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"};

json comparable(const json& object, bool ignore_status) {
  json out = object;
  if (ignore_status) out.erase("status");
  const auto metadata = out.find("metadata");
  if (metadata != out.end() && metadata->is_object()) {
    for (const char* key : kServerSetMetadata) metadata->erase(key);
  }
  return out;
}

}  // namespace

::testing::PolymorphicMatcher<ObjectMatcher> MatchesTree(json tree) {
  const std::string text = api::short_json(tree, kShownChars);
  return make_object_matcher("matches the tree " + text, "doesn't match the tree " + text,
                             [tree = std::move(tree)](const api::Object& object, std::ostream& why) {
                               const api::TreeMatch m = api::match_tree(tree, object.json());
                               if (!m.matched()) explain(m, why);
                               return m.matched();
                             });
}

::testing::PolymorphicMatcher<ObjectMatcher> MatchesTree(std::string yaml) {
  auto tree = api::yaml_to_json(yaml);
  if (tree.ok()) return MatchesTree(std::move(tree).value());
  // A tree that does not parse fails every match, and says so. Not(MatchesTree(…)) would pass, so
  // the test fails here too.
  std::string why = "the expected tree does not parse: " + tree.status().message;
  ADD_FAILURE() << "MatchesTree: " << why;
  return make_object_matcher("matches a tree that does not parse", "doesn't match a tree that does not parse",
                             [why = std::move(why)](const api::Object&, std::ostream& out) {
                               out << why;
                               return false;
                             });
}

::testing::PolymorphicMatcher<ObjectMatcher> MatchesTree(const char* yaml) {
  return MatchesTree(std::string(yaml));
}

::testing::PolymorphicMatcher<ObjectMatcher> EqualObject(const api::Object& expected, bool ignore_status) {
  std::string name = std::string(expected.kind()) + " " + expected.key().str();
  std::string ignored =
      ignore_status ? " (server-set metadata and status ignored)" : " (server-set metadata ignored)";
  json want = comparable(expected.json(), ignore_status);
  return make_object_matcher(
      "equals " + name + ignored, "doesn't equal " + name + ignored,
      [want = std::move(want), ignore_status](const api::Object& object, std::ostream& why) {
        const api::TreeMatch m = api::compare_trees(want, comparable(object.json(), ignore_status));
        if (!m.matched()) explain(m, why);
        return m.matched();
      });
}

}  // namespace kubesim::testing
