// Partial object trees, matched as kuttl and chainsaw match their assert files, and the small
// JSON helpers that report on them: a value at a dotted path, and a value cut short for a message.
//
// match_tree: an expected tree matches an actual one when every key the expected map gives
// matches (keys it leaves out are not looked at), lists match element-wise in order and have the
// same length, and scalars are equal (numbers by value: 1 matches 1.0). An expected null matches
// a null or an absent key. compare_trees is the same with nothing left out: a key only the actual
// tree has is a mismatch too, unless its value is null (null and absent count as the same).
//
// The result counts the expected leaves that do not match (an absent subtree counts each of its
// leaves), so that among several objects the closest one can be named, and describes the first
// kMaxDescribed of them in document order (`data.k: "x", want "v"`, `spec.ports[1]: absent, …`).
#ifndef KUBESIM_API_MATCH_H_
#define KUBESIM_API_MATCH_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::api {

struct TreeMatch {
  static constexpr std::size_t kMaxDescribed = 10;

  std::size_t mismatches = 0;      // leaves that do not match
  std::vector<std::string> found;  // the first kMaxDescribed of them: `data.k: "x", want "v"`
  bool matched() const { return mismatches == 0; }
  // The first mismatch described; "" when the trees match.
  std::string first() const { return found.empty() ? std::string() : found.front(); }
};

TreeMatch match_tree(const nlohmann::json& expected, const nlohmann::json& actual);
TreeMatch compare_trees(const nlohmann::json& expected, const nlohmann::json& actual);

// The value at a dotted path ("spec.replicas"; a step that is a number indexes a list:
// "spec.containers.0.image"), or null when a step is absent. An empty path is `root` itself.
// The pointer is into `root`.
const nlohmann::json* find_path(const nlohmann::json& root, std::string_view dotted_path);

// `value` as compact JSON, cut to about `limit` characters ("…" marks a cut).
std::string short_json(const nlohmann::json& value, std::size_t limit = 80);

}  // namespace kubesim::api

#endif  // KUBESIM_API_MATCH_H_
