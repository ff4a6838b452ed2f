#include "api/internal/label_errors.h"

#include <charconv>

#include "kubesim/api/go_strings.h"

namespace kubesim::api::internal {

using Op = SelectionOperator;

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

std::optional<std::int64_t> parse_int64(std::string_view s) {
  std::string_view digits = s;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
  if (digits.empty()) return std::nullopt;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::string_view text = s.front() == '+' ? digits : s;
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::string> key_error(std::string_view key) {
  std::vector<std::string> errs = is_qualified_name(key);
  if (errs.empty()) return std::nullopt;
  return "invalid label key " + go_quote(key) + ": " + join(errs, "; ");
}

std::optional<std::string> value_error(std::string_view key, std::string_view value) {
  std::vector<std::string> errs = is_valid_label_value(value);
  if (errs.empty()) return std::nullopt;
  return "invalid label value " + go_quote(value) + " for key " + go_quote(key) +
         ": " + join(errs, "; ");
}

std::string not_integer_error(std::string_view value) {
  return "for 'Gt', 'Lt' operators, the value must be an integer: " + go_quote(value);
}

std::optional<std::string> arity_error(Op op, std::size_t count) {
  switch (op) {
    case Op::kIn:
    case Op::kNotIn:
      if (count == 0) return "for 'in', 'notin' operators, values set can't be empty";
      break;
    case Op::kEquals:
    case Op::kDoubleEquals:
    case Op::kNotEquals:
      if (count != 1) return "exact-match compatibility requires one single value";
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      if (count != 0) return "values set must be empty for exists and does not exist";
      break;
    case Op::kGreaterThan:
    case Op::kLessThan:
      if (count != 1) return "for 'Gt', 'Lt' operators, exactly one value is required";
      break;
  }
  return std::nullopt;
}

}  // namespace kubesim::api::internal
