// Partial object trees, matched as kuttl and chainsaw match their assert files.
//
// An expected tree matches an actual object when every key the expected map gives matches (keys
// it leaves out are not looked at), lists match element-wise in order and have the same length,
// and scalars are equal (numbers by value: 1 matches 1.0). An expected null matches a null or an
// absent key. The result counts the expected leaves that do not match, so that among several
// objects the closest one can be named, and describes the first of them.
#ifndef KUBESIM_SCENARIOS_INTERNAL_RUN_MATCH_H_
#define KUBESIM_SCENARIOS_INTERNAL_RUN_MATCH_H_

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace kubesim::scenarios::runner {

struct TreeMatch {
  std::size_t mismatches = 0;  // expected leaves that do not match
  std::string first;           // the first of them: `data.k: "x", want "v"`
  bool matched() const { return mismatches == 0; }
};

TreeMatch match_tree(const nlohmann::json& expected, const nlohmann::json& actual);

// `value` as compact JSON, cut to about `limit` characters ("…" marks a cut).
std::string short_json(const nlohmann::json& value, std::size_t limit = 80);

}  // namespace kubesim::scenarios::runner

#endif  // KUBESIM_SCENARIOS_INTERNAL_RUN_MATCH_H_
