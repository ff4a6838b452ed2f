// Reading the results JSON back (result.cc, run_set.cc): typed field readers that name the path
// of what is wrong ("scenarios[0].seeds[3].seed: expected an unsigned integer").
//
// The readers throw ResultsJsonError; the public from_json functions catch it at their edge and
// return it as a BadRequest Status. Durations and instants are Go duration text, which
// api::format_go_duration writes and api::parse_go_duration reads back exactly.
#ifndef KUBESIM_RUNNER_INTERNAL_RESULTS_JSON_H_
#define KUBESIM_RUNNER_INTERNAL_RESULTS_JSON_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kubesim/api/go_duration.h"
#include "kubesim/sim/time.h"

namespace kubesim::runner::internal {

class ResultsJsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void results_json_fail(const std::string& path, std::string_view what) {
  throw ResultsJsonError((path.empty() ? std::string("results") : path) + ": " + std::string(what));
}

inline std::string json_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
inline std::string json_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

inline const nlohmann::json& json_object(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) results_json_fail(path, "expected an object");
  return j;
}
inline const nlohmann::json& json_array(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array()) results_json_fail(path, "expected an array");
  return j;
}
// The member `key` of the object `j` (at `path`); missing is an error.
inline const nlohmann::json& json_field(const nlohmann::json& j, const std::string& path,
                                        std::string_view key) {
  json_object(j, path);
  auto it = j.find(key);
  if (it == j.end()) results_json_fail(json_path(path, key), "missing");
  return *it;
}
inline std::string json_string(const nlohmann::json& j, const std::string& path) {
  if (!j.is_string()) results_json_fail(path, "expected a string");
  return j.get<std::string>();
}
inline std::uint64_t json_uint(const nlohmann::json& j, const std::string& path) {
  // A parsed document holds non-negative integers as unsigned; a built one may hold them signed.
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0)) {
    results_json_fail(path, "expected an unsigned integer");
  }
  return j.get<std::uint64_t>();
}
inline std::int64_t json_int(const nlohmann::json& j, const std::string& path) {
  if (!j.is_number_integer()) results_json_fail(path, "expected an integer");
  return j.get<std::int64_t>();
}
inline double json_number(const nlohmann::json& j, const std::string& path) {
  if (!j.is_number()) results_json_fail(path, "expected a number");
  return j.get<double>();
}
inline sim::Duration json_duration(const nlohmann::json& j, const std::string& path) {
  auto parsed = api::parse_go_duration(json_string(j, path));
  if (!parsed.ok()) results_json_fail(path, parsed.status().message);
  return parsed.value();
}
inline sim::Time json_time(const nlohmann::json& j, const std::string& path) {
  return sim::Time{json_duration(j, path)};
}

// Optional members: `def` when absent.
inline std::string json_string_or(const nlohmann::json& j, const std::string& path,
                                  std::string_view key, std::string def = {}) {
  auto it = j.find(key);
  return it == j.end() ? def : json_string(*it, json_path(path, key));
}
inline std::uint64_t json_uint_or(const nlohmann::json& j, const std::string& path,
                                  std::string_view key, std::uint64_t def = 0) {
  auto it = j.find(key);
  return it == j.end() ? def : json_uint(*it, json_path(path, key));
}

}  // namespace kubesim::runner::internal

#endif  // KUBESIM_RUNNER_INTERNAL_RESULTS_JSON_H_
