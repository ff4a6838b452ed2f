// Field selectors, with the syntax and semantics of Kubernetes' pkg/fields.
//
// A FieldSelector is an AND of FieldRequirements, each comparing the value at
// a field path of an object (such as "metadata.name" or "status.phase") with a
// literal:
//   field=value  field==value  field!=value
// joined by commas. Unlike label selectors there is no whitespace skipping and
// no validation of field paths: which fields exist is up to each kind, so a
// server inspects requirements() and rejects the ones it does not support.
//
// In values, '\', ',' and '=' are written escaped as "\\", "\," and "\=" (see
// escape_field_value); any other backslash sequence is an error. Field paths
// are taken literally up to the first operator.
//
// Guarantees:
// - Parsing never throws: bad input yields a ParseError with the byte offset
//   of the offending term or character.
// - Requirements are kept sorted by their canonical text, so to_string() is
//   canonical and parse_field_selector(s.to_string()) gives back an equal
//   selector for every parsed selector, and for built ones whose field paths
//   contain none of ',', '=', '!' and '\' (true of every real field path).
// - A selector is an immutable value; copies are independent.
#ifndef KUBESIM_API_FIELDS_H_
#define KUBESIM_API_FIELDS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/validation.h"

namespace kubesim::api {

enum class FieldOperator {
  kEquals,     // "=" or "==" (the same operator in field selectors)
  kNotEquals,  // "!="
};

struct FieldRequirement {
  std::string field;
  FieldOperator op = FieldOperator::kEquals;
  std::string value;  // unescaped

  // Whether an object whose field has `actual` satisfies the requirement. A
  // field the object does not have counts as the empty string.
  bool matches(std::string_view actual) const {
    return (actual == value) == (op == FieldOperator::kEquals);
  }

  // Canonical text: field=value or field!=value, with the value escaped.
  std::string to_string() const;

  friend bool operator==(const FieldRequirement&, const FieldRequirement&) = default;
};

// Returns the value at a field path: an optional of something convertible to
// std::string_view (std::optional<std::string>, for instance), nullopt when
// the object has no such field.
template <class F>
concept FieldLookupFn = requires(const F& f, std::string_view field) {
  {static_cast<bool>(f(field))};
  {std::string_view(*f(field))};
};

class FieldSelector {
 public:
  // The selector that matches everything (no requirements).
  FieldSelector() = default;

  static FieldSelector everything() { return FieldSelector(); }
  // Matches nothing; prints as "".
  static FieldSelector nothing();
  // Requires all of `requirements`, sorted here. A requirement whose field
  // and value are both empty selects nothing in particular and is dropped,
  // as the parser drops the term "=".
  static FieldSelector from_requirements(std::vector<FieldRequirement> requirements);
  static FieldSelector one_term_equal(std::string field, std::string value);
  static FieldSelector one_term_not_equal(std::string field, std::string value);

  // A copy with `requirement` added (a no-op on nothing()).
  FieldSelector add(FieldRequirement requirement) const;

  // True when the selector does not restrict anything: everything().
  bool empty() const noexcept { return !nothing_ && requirements_.empty(); }
  bool matches_nothing() const noexcept { return nothing_; }
  // Sorted by canonical text; empty for both everything() and nothing().
  const std::vector<FieldRequirement>& requirements() const noexcept { return requirements_; }

  // Whether the fields given by `lookup` satisfy every requirement. The
  // lookup is called once per requirement.
  template <FieldLookupFn Lookup>
  bool matches(const Lookup& lookup) const {
    if (nothing_) return false;
    for (const FieldRequirement& r : requirements_) {
      auto actual = lookup(std::string_view(r.field));
      if (!r.matches(actual ? std::string_view(*actual) : std::string_view())) return false;
    }
    return true;
  }
  bool matches(const std::map<std::string, std::string>& fields) const;

  // The value the selector forces `field` to have (from a field=value
  // requirement), if any; lets a server narrow a list, e.g. by metadata.name.
  std::optional<std::string> requires_exact_match(std::string_view field) const;

  // Canonical text, requirements joined by ","; "" for everything() and nothing().
  std::string to_string() const;

  friend bool operator==(const FieldSelector&, const FieldSelector&) = default;

 private:
  std::vector<FieldRequirement> requirements_;
  bool nothing_ = false;
};

// Parses the field selector syntax described above. "" is everything(); empty
// terms (as in "a=b,,c=d") are skipped.
ParseResult<FieldSelector> parse_field_selector(std::string_view text);

// A selector requiring field=value for every entry of `set`; an empty set
// gives everything().
FieldSelector field_selector_from_set(const std::map<std::string, std::string>& set);

// Escapes '\', ',' and '=' in a literal value for use in a field selector.
std::string escape_field_value(std::string_view value);

// Reverses escape_field_value. Fails on a backslash that does not start one of
// the three escapes, and on an unescaped ',' or '='; the error position is the
// offset in `escaped`.
ParseResult<std::string> unescape_field_value(std::string_view escaped);

}  // namespace kubesim::api

#endif  // KUBESIM_API_FIELDS_H_
