// Go semantics the patch engine needs to answer what kube-apiserver answers: decoding JSON as
// encoding/json does (its syntax errors, word for word), Go's view of a decoded value's type
// (PreserveInts decoding: integers are int64, other numbers float64), interface equality,
// fmt's %v and %s and strconv.Quote, and sort.SliceStable.
#ifndef KUBESIM_FAKEAPI_INTERNAL_ENCODING_GO_COMPAT_H_
#define KUBESIM_FAKEAPI_INTERNAL_ENCODING_GO_COMPAT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/go_strings.h"

namespace kubesim::fakeapi::internal {

// encoding/json's maxNestingDepth.
inline constexpr std::size_t kGoMaxNestingDepth = 10000;

// encoding/json's syntax check (checkValid): true for valid JSON, else false with Go's message
// in `error`. Nesting deeper than `max_depth` is an error, as beyond 10000 in Go.
bool go_syntax_check(std::string_view text, std::size_t max_depth, std::string& error);

// Decodes `text` as encoding/json's Unmarshal into interface{} would. On a syntax error returns
// nullopt and sets `error` to Go's message ("invalid character 'x' looking for beginning of
// value", "unexpected end of JSON input"). Like Go, it accepts invalid UTF-8 and lone UTF-16
// surrogates in strings and decodes them as U+FFFD, and rejects nesting deeper than
// `max_depth` ("invalid character '[' exceeded max depth").
std::optional<nlohmann::json> go_parse(std::string_view text, std::string& error,
                                       std::size_t max_depth = kGoMaxNestingDepth);
// The same, keeping each object's members in document order, the order in which Go iterates a
// small decoded map most of the time.
std::optional<nlohmann::ordered_json> go_parse_ordered(std::string_view text, std::string& error,
                                                       std::size_t max_depth = kGoMaxNestingDepth);

// utf8.DecodeRuneInString and strconv.Quote (kubesim/api/go_strings.h).
using api::decode_utf8;
using api::go_quote;

// The dynamic Go type of a decoded value.
enum class GoType { kNil, kBool, kInt64, kFloat64, kString, kMap, kSlice };
template <class Json>
GoType go_type(const Json& v) {
  using T = typename Json::value_t;
  switch (v.type()) {
    case T::null:
      return GoType::kNil;
    case T::boolean:
      return GoType::kBool;
    case T::number_integer:
      return GoType::kInt64;
    case T::number_unsigned:
      // PreserveInts keeps an integer as int64 only while it fits.
      return v.template get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX)
                 ? GoType::kInt64
                 : GoType::kFloat64;
    case T::string:
      return GoType::kString;
    case T::array:
      return GoType::kSlice;
    case T::object:
      return GoType::kMap;
    default:
      return GoType::kFloat64;
  }
}

// reflect.Type's String() of the value's type ("map[string]interface {}", "[]interface {}",
// "string", "int64", "float64", "bool"), and fmt's "%!s(<nil>)" for null.
std::string go_type_name(const nlohmann::json& v);
// The word encoding/json's UnmarshalTypeError uses for a JSON value: "object", "array",
// "string", "number", "bool" ("null" for null, which never fails to decode).
std::string_view go_json_kind(const nlohmann::json& v);

// Go's == on two interface{} values holding decoded JSON: same dynamic type and value (so
// int64(1) != float64(1)); maps and slices, which Go cannot compare, compare deeply.
template <class Json>
bool go_equal(const Json& a, const Json& b) {
  const GoType t = go_type(a);
  if (t != go_type(b)) return false;
  switch (t) {
    case GoType::kNil:
      return true;
    case GoType::kSlice:
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!go_equal(a[i], b[i])) return false;
      }
      return true;
    case GoType::kMap:
      if (a.size() != b.size()) return false;
      for (auto it = a.begin(); it != a.end(); ++it) {
        auto other = b.find(it.key());
        if (other == b.end() || !go_equal(*it, *other)) return false;
      }
      return true;
    default:
      return a == b;
  }
}

// fmt.Sprintf("%v", v): "map[a:1 b:[x y]]", "<nil>", floats as %g with Go's shortest digits.
std::string go_format_v(const nlohmann::json& v);
// fmt.Sprintf("%s", v): strings as is, other scalars as "%!s(int64=5)".
std::string go_format_s(const nlohmann::json& v);
// The same for values whose objects keep document order (fmt sorts map keys).
inline std::string go_type_name(const nlohmann::ordered_json& v) {
  return go_type_name(nlohmann::json(v));
}
inline std::string go_format_v(const nlohmann::ordered_json& v) {
  return go_format_v(nlohmann::json(v));
}
inline std::string go_format_s(const nlohmann::ordered_json& v) {
  return go_format_s(nlohmann::json(v));
}

// sort.SliceStable(n elements, less): the permutation Go's algorithm (insertion sort of blocks
// of 20, then SymMerge) produces, also for a `less` that is not a strict weak order.
// `less(i, j)` compares the elements originally at positions i and j.
std::vector<std::size_t> go_stable_order(std::size_t n,
                                         const std::function<bool(std::size_t, std::size_t)>& less);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_ENCODING_GO_COMPAT_H_
