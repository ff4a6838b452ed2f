// Properties of tree matching: a tree matches and equals itself, compare_trees agrees with JSON
// equality, match_tree ignores what the expected tree leaves out, and a result describes a
// mismatch exactly when it counts one.
#include "kubesim/api/match.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace kubesim::api {
namespace {

using nlohmann::json;

const std::vector<std::string> kMatchKeys = {"a", "b", "c"};
const std::vector<std::string> kStrings = {"", "x", "1"};

// Small trees without nulls: few keys and values, so that two trees are often equal or close.
rc::Gen<json> gen_tree(int depth) {
  return rc::gen::exec([depth] {
    const int kind = *rc::gen::inRange(0, depth > 0 ? 5 : 3);
    switch (kind) {
      case 0: return json(*rc::gen::inRange(0, 3));
      case 1: return json(*rc::gen::elementOf(kStrings));
      case 2: return json(*rc::gen::arbitrary<bool>());
      case 3: {
        json list = json::array();
        const int n = *rc::gen::inRange(0, 3);
        for (int i = 0; i < n; ++i) list.push_back(*gen_tree(depth - 1));
        return list;
      }
      default: {
        json map = json::object();
        for (const std::string& key : kMatchKeys) {
          if (*rc::gen::arbitrary<bool>()) map[key] = *gen_tree(depth - 1);
        }
        return map;
      }
    }
  });
}

void check_consistent(const TreeMatch& m) {
  RC_ASSERT(m.matched() == m.found.empty());
  RC_ASSERT(m.found.size() <= TreeMatch::kMaxDescribed);
  RC_ASSERT(m.found.size() <= m.mismatches);
}

RC_GTEST_PROP(MatchPropertyTest, ATreeMatchesAndEqualsItself, ()) {
  const json t = *gen_tree(3);
  RC_ASSERT(match_tree(t, t).matched());
  RC_ASSERT(compare_trees(t, t).matched());
}

RC_GTEST_PROP(MatchPropertyTest, CompareTreesIsJsonEquality, ()) {
  const json a = *gen_tree(3);
  const json b = *gen_tree(3);
  const TreeMatch m = compare_trees(a, b);
  check_consistent(m);
  RC_ASSERT(m.matched() == (a == b));
  // Equal trees match partially too.
  if (m.matched()) RC_ASSERT(match_tree(a, b).matched());
  check_consistent(match_tree(a, b));
}

RC_GTEST_PROP(MatchPropertyTest, MatchTreeIgnoresKeysTheExpectedTreeLeavesOut, ()) {
  json actual = *gen_tree(3);
  if (!actual.is_object()) actual = json{{"a", actual}};
  json expected = actual;
  // Drop some keys of the expected map; the rest still match.
  for (const std::string& key : kMatchKeys) {
    if (*rc::gen::arbitrary<bool>()) expected.erase(key);
  }
  RC_ASSERT(match_tree(expected, actual).matched());
  RC_ASSERT(compare_trees(expected, actual).matched() == (expected == actual));
}

}  // namespace
}  // namespace kubesim::api
