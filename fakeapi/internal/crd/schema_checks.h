// The pieces of schema_validation.cc's port of kube-openapi's SchemaValidator: its Result (the
// errors found, each message once, and the match count that ranks anyOf and oneOf failures),
// a schema node's type and format as the validator sees them, and the checks of single values
// (type, string, format, number, enum) and of counts (items, properties), each producing the
// errors of kube-openapi's validator of the same name with its message text.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_CHECKS_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_CHECKS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::internal::schema_checks {

using Json = nlohmann::json;

// How apiextensions-apiserver turns an error into a field error: by the code of a kube-openapi
// Validation error, or kPlain for the errors that are no Validation (anyOf, oneOf, allOf, not,
// and the range checks of numbers), which carry no field.
enum class Code {
  kPlain,
  kInvalidType,
  kRequired,
  kTooLong,
  kEnum,
  kMaxItems,
  kTooManyProperties,
  kOther
};

struct SchemaError {
  Code code = Code::kOther;
  std::string name;         // the value's path as kube-openapi names it: "spec.items[0]", ".spec"
  std::string message;      // the error's text
  Json value;               // the value the error carries; null for none
  std::int64_t valid = -1;  // the limit broken, for kTooLong, kMaxItems and kTooManyProperties
  Json values;              // kEnum: the allowed values
};

class Result {
 public:
  std::vector<SchemaError> errors;
  int matches = 0;  // MatchCount: how many validators applied, over the whole subtree

  bool valid() const { return errors.empty(); }
  // Adds `e` unless an error with the same message is there.
  void add(SchemaError e);
  // Adds the errors of `other` and its match count.
  void merge(Result&& other);
  // Forgets the errors (ratcheting keeps the match count).
  void drop_errors();

 private:
  std::set<std::string> messages_;
};

SchemaError error(Code code, std::string name, std::string message);
SchemaError plain(std::string message);

// Member `name` of a schema object; null when it is missing or `s` is not an object.
const Json* keyword(const Json& s, const char* name);

// A value as field.Error prints it: strings quoted, numbers and booleans as %v, anything else as
// json.Marshal writes it (null as "null").
std::string print(const Json& value);

// A schema node as apiextensions-apiserver hands it to kube-openapi.
struct Node {
  explicit Node(const Json& schema);

  const Json& s;
  // The type, or integer and string for x-kubernetes-int-or-string; empty when untyped.
  std::vector<std::string> types;
  bool nullable = false;
  // The format kept (schema_formats.h's effective_format); "" when none.
  std::string format;
  // What numberValidator checks ranges by: "integer" or "number" when that is the only type, and
  // its int32/int64 or float/double format.
  std::string number_type;
  std::string number_format;
};

// The validators of one value, in kube-openapi's names. `path` is the value's name. Holds the
// patterns compiled so far, so one instance serves one object.
class ValueChecks {
 public:
  // typeValidator, also for null (nullable).
  Result type(const Node& n, const Json& data, const std::string& path);
  // stringValidator: maxLength, minLength, pattern; the first failing one.
  Result string(const Node& n, const Json& data, const std::string& path);
  // formatValidator, for a string and a string format.
  Result format(const Node& n, const Json& data, const std::string& path);
  // numberValidator: the type's range, multipleOf, minimum, maximum.
  Result number(const Node& n, const Json& data, const std::string& path);
  // basicCommonValidator: enum, with Go's conversions between the decoded types.
  Result enumeration(const Node& n, const Json& data, const std::string& path);
  // schemaSliceValidator's minItems, maxItems and uniqueItems, added to `r`.
  void list_limits(const Json& s, const Json& data, const std::string& path, Result& r);
  // objectValidator's minProperties and maxProperties, added to `r`.
  void property_limits(const Json& s, const Json& data, const std::string& path, Result& r);

 private:
  // `pattern` compiled as ECMAScript; null when it does not compile.
  const std::regex* regex(const std::string& pattern);

  std::map<std::string, std::unique_ptr<std::regex>> regexes_;
};

}  // namespace kubesim::fakeapi::internal::schema_checks

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_CHECKS_H_
