// Syntax validation for object names, label keys and label values.
//
// Each is_* check returns the list of reasons the value is invalid, worded as
// Kubernetes' apimachinery words them (pkg/util/validation), so messages a
// client sees from kubesim read like those from a real API server. An empty
// list means the value is valid. No check throws or allocates on success.
//
// This header also holds ParseError and ParseResult<T>, the value-or-error type
// returned by the selector parsers in labels.h and fields.h.
#ifndef KUBESIM_API_VALIDATION_H_
#define KUBESIM_API_VALIDATION_H_

#include <cassert>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kubesim::api {

// Why a piece of text could not be parsed or converted. `position` is the
// 0-based byte offset in the input where the problem was found; it is 0 when
// the input has no meaningful offset (a JSON document, for instance).
struct ParseError {
  std::string message;
  std::size_t position = 0;
};

// Holds either a parsed T or the ParseError explaining why there is none.
// Accessing the side that is not held is a bug and asserts in debug builds.
template <class T>
class [[nodiscard]] ParseResult {
 public:
  ParseResult(T value)
      : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
  ParseResult(ParseError error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  const T& value() const& {
    assert(ok());
    return *std::get_if<0>(&state_);
  }
  T& value() & {
    assert(ok());
    return *std::get_if<0>(&state_);
  }
  T&& value() && {
    assert(ok());
    return std::move(*std::get_if<0>(&state_));
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  const ParseError& error() const& {
    assert(!ok());
    return *std::get_if<1>(&state_);
  }

 private:
  std::variant<T, ParseError> state_;
};

inline constexpr std::size_t kDns1123LabelMaxLength = 63;
inline constexpr std::size_t kDns1123SubdomainMaxLength = 253;
inline constexpr std::size_t kQualifiedNameMaxLength = 63;
inline constexpr std::size_t kLabelValueMaxLength = 63;

// Length errors read as apimachinery's: "must be no more than N characters" for the DNS names
// (util/validation), "... N bytes" for qualified names and label values (the content package,
// whose own DNS subdomain check words a qualified name's "prefix part" in bytes too).

// A lowercase RFC 1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 bytes.
std::vector<std::string> is_dns1123_label(std::string_view value);

// A DNS-1035 label (Service names): [a-z]([-a-z0-9]*[a-z0-9])?, at most 63 bytes.
std::vector<std::string> is_dns1035_label(std::string_view value);

// A lowercase RFC 1123 subdomain: dot-separated DNS-1123 labels, at most 253
// bytes in total.
std::vector<std::string> is_dns1123_subdomain(std::string_view value);

// A qualified name, the syntax of label and annotation keys: an optional DNS
// subdomain prefix and '/', then a name of at most 63 bytes made of
// [A-Za-z0-9] with '-', '_' and '.' allowed inside.
std::vector<std::string> is_qualified_name(std::string_view value);

// A label value: empty, or at most 63 bytes of [A-Za-z0-9] with '-', '_' and
// '.' allowed inside.
std::vector<std::string> is_valid_label_value(std::string_view value);

// A name that can be used as one segment of a REST path: not "." or "..", and
// without '/' or '%'. Like apimachinery, it does not reject the empty string.
std::vector<std::string> is_valid_path_segment_name(std::string_view name);

// The rule a kind applies to metadata.name.
enum class NameRule {
  kDns1123Subdomain,  // most kinds (ConfigMap, Pod, Deployment, CRD objects, ...)
  kDns1123Label,      // Namespace, ...
  kDns1035Label,      // Service
  kPathSegment,       // kinds such as ClusterRole that only need a usable path segment
};

// Validates metadata.name for a kind that follows `rule`: the name must be
// non-empty, usable as a path segment, and satisfy the rule.
std::vector<std::string> validate_object_name(std::string_view name, NameRule rule);

// Same, choosing between the two DNS rules: DNS-1123 label when
// `dns1123_label` is true, DNS-1123 subdomain otherwise.
std::vector<std::string> validate_object_name(std::string_view name, bool dns1123_label);

// Validates metadata.generateName, which is a prefix: a trailing '-' is
// accepted because generated characters follow it. An empty prefix is valid
// (it means "no generateName").
std::vector<std::string> validate_generate_name(std::string_view prefix, NameRule rule);

// Validates a metadata.labels JSON value: null, or an object whose keys are
// qualified names and whose values are label-value strings. Messages follow
// apimachinery's field errors, e.g.
//   metadata.labels: Invalid value: "a b": name part must consist of ...
std::vector<std::string> validate_labels(const nlohmann::json& labels);

}  // namespace kubesim::api

#endif  // KUBESIM_API_VALIDATION_H_
