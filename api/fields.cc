#include "kubesim/api/fields.h"

#include <algorithm>
#include <utility>

namespace kubesim::api {
namespace {

bool canonical_less(const FieldRequirement& a, const FieldRequirement& b) {
  return a.to_string() < b.to_string();
}

bool selects_nothing_in_particular(const FieldRequirement& r) {
  return r.field.empty() && r.value.empty();
}

// A UTF-8 sequence starting at `s[i]`, for quoting it whole in messages.
std::string_view utf8_char_at(std::string_view s, std::size_t i) {
  auto lead = static_cast<unsigned char>(s[i]);
  std::size_t len = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  return s.substr(i, len);
}

// The operator a term is split at: the first position where one starts,
// trying "!=" before "==" before "=" so "==" never leaves '=' in the value.
struct SplitTerm {
  std::string_view field;
  FieldOperator op;
  std::string_view raw_value;
  std::size_t value_offset;
};

std::optional<SplitTerm> split_term(std::string_view term) {
  for (std::size_t i = 0; i < term.size(); ++i) {
    std::string_view rest = term.substr(i);
    for (std::string_view op :
         {std::string_view("!="), std::string_view("=="), std::string_view("=")}) {
      if (rest.starts_with(op)) {
        FieldOperator kind = op == "!=" ? FieldOperator::kNotEquals : FieldOperator::kEquals;
        return SplitTerm{term.substr(0, i), kind, rest.substr(op.size()), i + op.size()};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string FieldRequirement::to_string() const {
  std::string out = field;
  out += op == FieldOperator::kEquals ? "=" : "!=";
  out += escape_field_value(value);
  return out;
}

FieldSelector FieldSelector::nothing() {
  FieldSelector s;
  s.nothing_ = true;
  return s;
}

FieldSelector FieldSelector::from_requirements(std::vector<FieldRequirement> requirements) {
  std::erase_if(requirements, selects_nothing_in_particular);
  std::stable_sort(requirements.begin(), requirements.end(), canonical_less);
  FieldSelector s;
  s.requirements_ = std::move(requirements);
  return s;
}

FieldSelector FieldSelector::one_term_equal(std::string field, std::string value) {
  return from_requirements({{std::move(field), FieldOperator::kEquals, std::move(value)}});
}

FieldSelector FieldSelector::one_term_not_equal(std::string field, std::string value) {
  return from_requirements({{std::move(field), FieldOperator::kNotEquals, std::move(value)}});
}

FieldSelector FieldSelector::add(FieldRequirement requirement) const {
  if (nothing_) return *this;
  std::vector<FieldRequirement> all = requirements_;
  all.push_back(std::move(requirement));
  return from_requirements(std::move(all));
}

bool FieldSelector::matches(const std::map<std::string, std::string>& fields) const {
  if (nothing_) return false;
  for (const FieldRequirement& r : requirements_) {
    auto it = fields.find(r.field);
    if (!r.matches(it == fields.end() ? std::string_view() : std::string_view(it->second))) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> FieldSelector::requires_exact_match(std::string_view field) const {
  for (const FieldRequirement& r : requirements_) {
    if (r.field == field && r.op == FieldOperator::kEquals) return r.value;
  }
  return std::nullopt;
}

std::string FieldSelector::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) out += ',';
    out += requirements_[i].to_string();
  }
  return out;
}

ParseResult<FieldSelector> parse_field_selector(std::string_view text) {
  std::vector<FieldRequirement> requirements;
  std::size_t start = 0;
  bool escaped = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size()) {
      // A backslash protects the next character from being a separator.
      if (escaped) {
        escaped = false;
        continue;
      }
      if (text[i] == '\\') escaped = true;
      if (text[i] != ',') continue;
    }
    std::string_view term = text.substr(start, i - start);
    std::size_t term_start = start;
    start = i + 1;
    if (term.empty()) continue;
    std::optional<SplitTerm> split = split_term(term);
    if (!split) {
      return ParseError{"position " + std::to_string(term_start) + ": can't understand '" +
                            std::string(term) +
                            "'; expected field=value, field==value or field!=value",
                        term_start};
    }
    ParseResult<std::string> value = unescape_field_value(split->raw_value);
    if (!value) {
      std::size_t pos = term_start + split->value_offset + value.error().position;
      return ParseError{"position " + std::to_string(pos) + ": " + value.error().message, pos};
    }
    requirements.push_back({std::string(split->field), split->op, std::move(value).value()});
  }
  return FieldSelector::from_requirements(std::move(requirements));
}

FieldSelector field_selector_from_set(const std::map<std::string, std::string>& set) {
  std::vector<FieldRequirement> requirements;
  requirements.reserve(set.size());
  for (const auto& [field, value] : set) {
    requirements.push_back({field, FieldOperator::kEquals, value});
  }
  return FieldSelector::from_requirements(std::move(requirements));
}

std::string escape_field_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

ParseResult<std::string> unescape_field_value(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    char c = escaped[i];
    if (c == ',' || c == '=') {
      return ParseError{
          "invalid field selector: unescaped character in value: '" + std::string(1, c) + "'", i};
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i + 1 == escaped.size()) {
      return ParseError{"invalid field selector: invalid escape sequence: \\", i};
    }
    char next = escaped[i + 1];
    if (next != '\\' && next != ',' && next != '=') {
      return ParseError{"invalid field selector: invalid escape sequence: \\" +
                            std::string(utf8_char_at(escaped, i + 1)),
                        i};
    }
    out += next;
    ++i;
  }
  return out;
}

}  // namespace kubesim::api
