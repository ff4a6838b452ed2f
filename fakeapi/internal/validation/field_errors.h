// Field errors as apimachinery's field.ErrorList builds them, and the non-throwing JSON reading
// the validation rules are written with.
//
// A FieldErrors collects causes in the order the rules find them, each with the cause type, the
// field path and the body apimachinery's field.Error.ErrorBody() prints ("Invalid value: \"x\":
// detail"). invalid_status() turns them into the 422 kube-apiserver returns. Bad values are passed
// already rendered (render(), quote(), go_json()), because how a value prints depends on its Go
// type: strings are %q-quoted, numbers and booleans printed bare, everything else as Go's
// json.Marshal prints it.
#ifndef KUBESIM_FAKEAPI_INTERNAL_VALIDATION_FIELD_ERRORS_H_
#define KUBESIM_FAKEAPI_INTERNAL_VALIDATION_FIELD_ERRORS_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/status.h"

namespace kubesim::fakeapi::internal::validation {

using Json = nlohmann::json;

// --- Reading JSON without throwing -------------------------------------------------------------

// The member `key` of `j`: a shared null when `j` is not an object or has no such member.
const Json& member(const Json& j, std::string_view key);
// The string member `key`, or "" when it is missing or not a string.
std::string string_member(const Json& j, std::string_view key);
// A JSON integer that fits in int64; nullopt for anything else (floats included).
std::optional<std::int64_t> as_int(const Json& j);
// Whether `j` is set: Go decodes a JSON null as "not set".
inline bool present(const Json& j) { return !j.is_null(); }
// Whether `j` is a non-empty object or array (Go's len(x) > 0 for maps and slices).
bool non_empty(const Json& j);
// JSON values compared as Go compares the decoded values with apiequality.Semantic.DeepEqual:
// null members, empty arrays and empty objects count as absent.
bool semantically_equal(const Json& a, const Json& b);
// `j` without null members, empty arrays and empty objects, recursively.
Json canonical(const Json& j);

// --- Field paths (field.Path.String()) ---------------------------------------------------------

std::string child(std::string_view path, std::string_view name);
std::string index(std::string_view path, std::size_t i);
std::string key(std::string_view path, std::string_view k);

// --- Rendering bad values ----------------------------------------------------------------------

// A string as Go's %q prints it.
std::string quote(std::string_view s);
// An integer as %v prints it.
std::string render_int(std::int64_t v);
// A JSON value as field.Error.ErrorBody prints the Go value it decodes to: strings quoted,
// numbers and booleans bare, null as "null", objects and arrays as Go's json.Marshal.
std::string render(const Json& value);
// Compact JSON as Go's json.Marshal writes it: '<', '>' and '&' escaped, invalid UTF-8 replaced.
// Members keep the container's order, so use nlohmann::ordered_json for Go structs (fields in
// declaration order) and nlohmann::json for Go maps (keys sorted).
std::string go_json(const Json& value);
std::string go_json(const nlohmann::ordered_json& value);
// A []string as %#v prints it: []string{"a", "b"}.
std::string go_string_slice(const std::vector<std::string>& values);

// --- Field errors ------------------------------------------------------------------------------

class FieldErrors {
 public:
  // field.Required: "Required value[: detail]".
  void required(std::string path, std::string_view detail = {});
  // field.Forbidden: "Forbidden: detail".
  void forbidden(std::string path, std::string_view detail);
  // field.Invalid: "Invalid value: <value>[: detail]"; `value` is already rendered.
  void invalid(std::string path, std::string_view value, std::string_view detail);
  // field.NotSupported: "Unsupported value: <value>: supported values: \"a\", \"b\"".
  void not_supported(std::string path, std::string_view value,
                     std::initializer_list<std::string_view> supported);
  void not_supported(std::string path, std::string_view value,
                     const std::vector<std::string>& supported);
  // field.TypeInvalid: "Invalid value: <value>: detail", of type FieldValueTypeInvalid.
  void type_invalid(std::string path, std::string_view value, std::string_view detail);
  // field.Duplicate: "Duplicate value: <value>".
  void duplicate(std::string path, std::string_view value);
  // field.NotFound: "Not found: <value>".
  void not_found(std::string path, std::string_view value);
  // field.TooLong: "Too long: may not be more than <max> bytes".
  void too_long(std::string path, std::int64_t max_bytes);
  // field.TooMany: "Too many: <actual>: must have at most <max> items" (a negative `actual` is
  // left out, a negative `max` says "has too many items").
  void too_many(std::string path, std::int64_t actual, std::int64_t max);

  // Moves every cause of `other` to the end of this list.
  void append(FieldErrors&& other);

  bool empty() const { return causes_.empty(); }
  std::size_t size() const { return causes_.size(); }
  const std::vector<api::StatusCause>& causes() const { return causes_; }
  std::vector<api::StatusCause> take() { return std::move(causes_); }

 private:
  void add(std::string_view type, std::string path, std::string body);

  std::vector<api::StatusCause> causes_;
};

// The 422 Invalid kube-apiserver returns for `causes` (errors.NewInvalid): the message lists each
// error as "<field>: <body>" — also for an empty field, which apimachinery prints as ": <body>".
api::Status invalid_status(const api::GroupKind& kind, std::string_view name,
                           std::vector<api::StatusCause> causes);

}  // namespace kubesim::fakeapi::internal::validation

#endif  // KUBESIM_FAKEAPI_INTERNAL_VALIDATION_FIELD_ERRORS_H_
