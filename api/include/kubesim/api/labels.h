// Label selectors, with the syntax and semantics of Kubernetes' pkg/labels.
//
// A LabelSelector is an AND of LabelRequirements, each relating one label key
// to a set of values:
//   key=value  key==value  key!=value  key in (a,b)  key notin (a,b)
//   key  (exists)  !key  (does not exist)  key>N  key<N  (integer comparison)
// joined by commas. Whitespace (space, tab, CR, LF) between tokens is ignored.
//
// Guarantees:
// - Parsing never throws: bad input yields a ParseError naming the byte
//   offset and what was expected there, or the offending key or value.
// - Requirements built by the parser or LabelRequirement::create are valid:
//   keys are qualified names, values are label values, and operators have the
//   number of values they need. Only selector_from_set skips validation.
// - Requirements are kept sorted by key (stably), values sorted and unique,
//   so to_string() is the canonical form apimachinery prints and
//   parse_label_selector(s.to_string()) gives back an equal selector.
// - A selector is an immutable value; copies are independent.
#ifndef KUBESIM_API_LABELS_H_
#define KUBESIM_API_LABELS_H_

#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kubesim/api/validation.h"

namespace kubesim::api {

// How a requirement relates its key to its values (apimachinery's
// selection.Operator, restricted to what label selectors accept).
enum class SelectionOperator {
  kIn,
  kNotIn,
  kEquals,        // key=value
  kDoubleEquals,  // key==value; matches like kEquals, printed as written
  kNotEquals,
  kExists,
  kDoesNotExist,
  kGreaterThan,
  kLessThan,
};

class LabelSelector;

// apimachinery's spelling of the operator: "in", "notin", "=", "==", "!=",
// "exists", "!", "gt", "lt".
std::string_view to_string(SelectionOperator op);

// One key/operator/values clause of a label selector. Valid by construction
// through create(); only selector_from_set makes unvalidated ones.
class LabelRequirement {
 public:
  // Validates and builds a requirement. In/NotIn need at least one value,
  // Equals/DoubleEquals/NotEquals exactly one, Exists/DoesNotExist none, and
  // GreaterThan/LessThan exactly one decimal 64-bit integer. Values are
  // sorted and de-duplicated. The error names the offending key or value.
  static ParseResult<LabelRequirement> create(std::string key, SelectionOperator op,
                                              std::vector<std::string> values = {});

  const std::string& key() const noexcept { return key_; }
  SelectionOperator op() const noexcept { return op_; }
  // Sorted, without duplicates.
  const std::vector<std::string>& values() const noexcept { return values_; }

  // Whether a label set in which this key has `value` (nullopt: the key is
  // absent) satisfies the requirement. NotIn and NotEquals match an absent
  // key; GreaterThan/LessThan never match a value that is not an integer.
  bool matches(std::optional<std::string_view> value) const;

  // Canonical text, e.g. "x in (a,b)", "!x", "x>3".
  std::string to_string() const;

  friend bool operator==(const LabelRequirement&, const LabelRequirement&) = default;

 private:
  friend LabelSelector selector_from_set(const std::map<std::string, std::string>& set);

  LabelRequirement(std::string key, SelectionOperator op, std::vector<std::string> values,
                   std::int64_t bound)
      : key_(std::move(key)), op_(op), values_(std::move(values)), bound_(bound) {}

  bool has_value(std::string_view value) const;

  std::string key_;
  SelectionOperator op_;
  std::vector<std::string> values_;
  std::int64_t bound_ = 0;  // the parsed value, for GreaterThan/LessThan only
};

// Looks up a label by key; nullopt when the object has no such label.
template <class F>
concept LabelLookupFn = std::invocable<const F&, std::string_view> &&
    std::convertible_to<std::invoke_result_t<const F&, std::string_view>,
                        std::optional<std::string_view>>;

class LabelSelector {
 public:
  // The selector that matches everything (no requirements).
  LabelSelector() = default;

  static LabelSelector everything() { return LabelSelector(); }
  // Matches no label set at all; prints as "".
  static LabelSelector nothing();
  // A selector requiring all of `requirements` (sorted here, stably by key).
  static LabelSelector from_requirements(std::vector<LabelRequirement> requirements);

  // A copy of this selector with `requirement` added. Adding to nothing()
  // gives nothing().
  LabelSelector add(LabelRequirement requirement) const;

  // True when the selector does not restrict anything: everything().
  bool empty() const noexcept { return !nothing_ && requirements_.empty(); }
  // True only for nothing(); a contradictory selector such as "a=1,a=2" is
  // not detected.
  bool matches_nothing() const noexcept { return nothing_; }
  // Sorted by key; empty for both everything() and nothing().
  const std::vector<LabelRequirement>& requirements() const noexcept { return requirements_; }

  // Whether the labels given by `lookup` satisfy every requirement. The
  // lookup is called once per requirement and must stay cheap.
  template <LabelLookupFn Lookup>
  bool matches(const Lookup& lookup) const {
    if (nothing_) return false;
    for (const LabelRequirement& r : requirements_) {
      if (!r.matches(lookup(std::string_view(r.key())))) return false;
    }
    return true;
  }
  bool matches(const std::map<std::string, std::string>& labels) const;
  // `labels` is an object's metadata.labels: a JSON object of strings, or
  // null/absent for no labels. Non-string values count as absent.
  bool matches(const nlohmann::json& labels) const;

  // The value the selector forces `key` to have, if it has exactly one
  // (key=v, key==v or key in (v)); used to narrow a list by an index.
  std::optional<std::string> requires_exact_match(std::string_view key) const;

  // Canonical text: requirements in key order joined by ",". "" for both
  // everything() and nothing().
  std::string to_string() const;

  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;

 private:
  std::vector<LabelRequirement> requirements_;
  bool nothing_ = false;
};

// Parses the label selector syntax described above. "" (or only whitespace)
// is everything().
ParseResult<LabelSelector> parse_label_selector(std::string_view text);

// A selector matching exactly the labels in `set` (key=value for each entry),
// without validating them; an empty set gives everything().
LabelSelector selector_from_set(const std::map<std::string, std::string>& set);

// Like selector_from_set, but rejects keys and values that are not valid.
ParseResult<LabelSelector> validated_selector_from_set(
    const std::map<std::string, std::string>& set);

// Converts a metav1.LabelSelector JSON object
//   {"matchLabels": {k: v}, "matchExpressions": [{"key", "operator", "values"}]}
// with operators In, NotIn, Exists and DoesNotExist. null gives nothing() and
// an object with no labels or expressions gives everything(), as in
// apimachinery's LabelSelectorAsSelector. In/NotIn must have values and
// Exists/DoesNotExist must not; keys and values are validated. Error
// positions are 0; messages name the offending field path.
ParseResult<LabelSelector> label_selector_from_json(const nlohmann::json& selector);

}  // namespace kubesim::api

#endif  // KUBESIM_API_LABELS_H_
