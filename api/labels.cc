#include "api/labels.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include <nlohmann/json.hpp>

namespace kubesim::api {
namespace {

using Op = SelectionOperator;

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// Decimal 64-bit integer with an optional sign, as Go's strconv.ParseInt(s, 10, 64).
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
  return "invalid label key " + quote_for_message(key) + ": " + join(errs, "; ");
}

std::optional<std::string> value_error(std::string_view key, std::string_view value) {
  std::vector<std::string> errs = is_valid_label_value(value);
  if (errs.empty()) return std::nullopt;
  return "invalid label value " + quote_for_message(value) + " for key " + quote_for_message(key) +
         ": " + join(errs, "; ");
}

std::string not_integer_error(std::string_view value) {
  return "for 'Gt', 'Lt' operators, the value must be an integer: " + quote_for_message(value);
}

// Checks the number of values the operator needs; nullopt when it is right.
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

}  // namespace

std::string_view to_string(SelectionOperator op) {
  switch (op) {
    case Op::kIn: return "in";
    case Op::kNotIn: return "notin";
    case Op::kEquals: return "=";
    case Op::kDoubleEquals: return "==";
    case Op::kNotEquals: return "!=";
    case Op::kExists: return "exists";
    case Op::kDoesNotExist: return "!";
    case Op::kGreaterThan: return "gt";
    case Op::kLessThan: return "lt";
  }
  return "?";
}

ParseResult<LabelRequirement> LabelRequirement::create(std::string key, SelectionOperator op,
                                                       std::vector<std::string> values) {
  std::vector<std::string> problems;
  if (auto e = key_error(key)) problems.push_back(std::move(*e));
  if (auto e = arity_error(op, values.size())) problems.push_back(std::move(*e));
  std::int64_t bound = 0;
  for (const std::string& v : values) {
    if (op == Op::kGreaterThan || op == Op::kLessThan) {
      if (auto n = parse_int64(v)) {
        bound = *n;
      } else {
        problems.push_back(not_integer_error(v));
      }
    }
    if (auto e = value_error(key, v)) problems.push_back(std::move(*e));
  }
  if (!problems.empty()) return ParseError{join(problems, "; "), 0};
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return LabelRequirement(std::move(key), op, std::move(values), bound);
}

bool LabelRequirement::has_value(std::string_view value) const {
  // Almost always one value: a linear scan beats a binary search here.
  return std::find(values_.begin(), values_.end(), value) != values_.end();
}

bool LabelRequirement::matches(std::optional<std::string_view> value) const {
  switch (op_) {
    case Op::kIn:
    case Op::kEquals:
    case Op::kDoubleEquals: return value && has_value(*value);
    case Op::kNotIn:
    case Op::kNotEquals: return !value || !has_value(*value);
    case Op::kExists: return value.has_value();
    case Op::kDoesNotExist: return !value;
    case Op::kGreaterThan:
    case Op::kLessThan: {
      if (!value) return false;
      std::optional<std::int64_t> n = parse_int64(*value);
      if (!n) return false;
      return op_ == Op::kGreaterThan ? *n > bound_ : *n < bound_;
    }
  }
  return false;
}

std::string LabelRequirement::to_string() const {
  std::string out;
  if (op_ == Op::kDoesNotExist) out += '!';
  out += key_;
  switch (op_) {
    case Op::kExists:
    case Op::kDoesNotExist: return out;
    case Op::kIn: out += " in ("; break;
    case Op::kNotIn: out += " notin ("; break;
    case Op::kGreaterThan: out += '>'; break;
    case Op::kLessThan: out += '<'; break;
    default: out += api::to_string(op_); break;
  }
  out += join(values_, ",");
  if (op_ == Op::kIn || op_ == Op::kNotIn) out += ')';
  return out;
}

LabelSelector LabelSelector::nothing() {
  LabelSelector s;
  s.nothing_ = true;
  return s;
}

LabelSelector LabelSelector::from_requirements(std::vector<LabelRequirement> requirements) {
  std::stable_sort(
      requirements.begin(), requirements.end(),
      [](const LabelRequirement& a, const LabelRequirement& b) { return a.key() < b.key(); });
  LabelSelector s;
  s.requirements_ = std::move(requirements);
  return s;
}

LabelSelector LabelSelector::add(LabelRequirement requirement) const {
  if (nothing_) return *this;
  std::vector<LabelRequirement> all = requirements_;
  all.push_back(std::move(requirement));
  return from_requirements(std::move(all));
}

bool LabelSelector::matches(const std::map<std::string, std::string>& labels) const {
  if (nothing_) return false;
  for (const LabelRequirement& r : requirements_) {
    auto it = labels.find(r.key());
    std::optional<std::string_view> value;
    if (it != labels.end()) value = it->second;
    if (!r.matches(value)) return false;
  }
  return true;
}

bool LabelSelector::matches(const nlohmann::json& labels) const {
  if (nothing_) return false;
  const nlohmann::json::object_t* object = labels.get_ptr<const nlohmann::json::object_t*>();
  for (const LabelRequirement& r : requirements_) {
    std::optional<std::string_view> value;
    if (object != nullptr) {
      auto it = object->find(r.key());
      if (it != object->end() && it->second.is_string()) {
        value = it->second.get_ref<const std::string&>();
      }
    }
    if (!r.matches(value)) return false;
  }
  return true;
}

std::optional<std::string> LabelSelector::requires_exact_match(std::string_view key) const {
  for (const LabelRequirement& r : requirements_) {
    if (r.key() != key) continue;
    bool exact = r.op() == Op::kEquals || r.op() == Op::kDoubleEquals || r.op() == Op::kIn;
    if (exact && r.values().size() == 1) return r.values().front();
    return std::nullopt;
  }
  return std::nullopt;
}

std::string LabelSelector::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) out += ',';
    out += requirements_[i].to_string();
  }
  return out;
}

namespace {

// The lexer and parser follow apimachinery's: the same tokens, the same
// grammar, and the same context rule that reads "in" and "notin" as plain
// identifiers wherever a key or value is expected. One deliberate difference:
// a NUL byte is an ordinary character here (and so fails key/value validation)
// where Go's lexer treats it as the end of the input.
enum class Tok {
  kEnd,
  kIdentifier,
  kIn,
  kNotIn,
  kOpenPar,
  kClosePar,
  kComma,
  kBang,
  kEquals,
  kDoubleEquals,
  kNotEquals,
  kGreater,
  kLess,
};

struct Token {
  Tok kind;
  std::string_view text;
  std::size_t pos;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_special(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

Tok special_kind(std::string_view s) {
  if (s == "==") return Tok::kDoubleEquals;
  if (s == "!=") return Tok::kNotEquals;
  switch (s.front()) {
    case '=': return Tok::kEquals;
    case '!': return Tok::kBang;
    case '(': return Tok::kOpenPar;
    case ')': return Tok::kClosePar;
    case ',': return Tok::kComma;
    case '>': return Tok::kGreater;
    default: return Tok::kLess;
  }
}

// Splits the input into tokens, ending with one kEnd token.
std::vector<Token> lex(std::string_view s) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size()) break;
    std::size_t start = i;
    if (is_special(s[i])) {
      // Longest match: "==" and "!=" are the only two-character symbols.
      bool pair = i + 1 < s.size() && s[i + 1] == '=' && (s[i] == '=' || s[i] == '!');
      i += pair ? 2 : 1;
      std::string_view symbol = s.substr(start, i - start);
      tokens.push_back({special_kind(symbol), symbol, start});
      continue;
    }
    while (i < s.size() && !is_special(s[i]) && !is_space(s[i])) ++i;
    std::string_view word = s.substr(start, i - start);
    Tok kind = word == "in" ? Tok::kIn : word == "notin" ? Tok::kNotIn : Tok::kIdentifier;
    tokens.push_back({kind, word, start});
  }
  tokens.push_back({Tok::kEnd, {}, s.size()});
  return tokens;
}

class Parser {
 public:
  explicit Parser(std::string_view input) : tokens_(lex(input)) {}

  ParseResult<LabelSelector> parse() {
    std::vector<LabelRequirement> requirements;
    if (peek().kind == Tok::kEnd) return LabelSelector();
    while (true) {
      if (!starts_requirement(peek())) return fail(peek(), "!, identifier, or 'end of string'");
      std::optional<LabelRequirement> r = requirement();
      if (!r) return *error_;
      requirements.push_back(std::move(*r));
      const Token& t = take();
      if (t.kind == Tok::kEnd) break;
      if (t.kind != Tok::kComma) return fail(t, "',' or 'end of string'");
      if (!starts_requirement(peek())) return fail(peek(), "identifier after ','");
    }
    return LabelSelector::from_requirements(std::move(requirements));
  }

 private:
  // Where a key or a value is expected, the keywords are identifiers.
  static Tok as_value(const Token& t) {
    return t.kind == Tok::kIn || t.kind == Tok::kNotIn ? Tok::kIdentifier : t.kind;
  }
  static bool starts_requirement(const Token& t) {
    return as_value(t) == Tok::kIdentifier || t.kind == Tok::kBang;
  }

  const Token& peek() const { return tokens_[next_]; }
  const Token& take() {
    const Token& t = tokens_[next_];
    if (t.kind != Tok::kEnd) ++next_;
    return t;
  }

  ParseError fail(const Token& at, std::string_view expected) {
    std::string found = at.kind == Tok::kEnd ? "end of string" : "'" + std::string(at.text) + "'";
    return fail_at(at.pos, "found " + found + ", expected: " + std::string(expected));
  }
  ParseError fail_at(std::size_t pos, std::string message) {
    error_ = ParseError{"position " + std::to_string(pos) + ": " + std::move(message), pos};
    return *error_;
  }

  std::optional<LabelRequirement> requirement() {
    const Token* key = &take();
    bool does_not_exist = key->kind == Tok::kBang;
    if (does_not_exist) key = &take();
    if (as_value(*key) != Tok::kIdentifier) {
      fail(*key, "identifier");
      return std::nullopt;
    }
    if (auto e = key_error(key->text)) {
      fail_at(key->pos, std::move(*e));
      return std::nullopt;
    }

    Op op = Op::kDoesNotExist;
    std::vector<std::string> values;
    if (!does_not_exist) {
      Tok next = as_value(peek());
      if (next == Tok::kEnd || next == Tok::kComma) {
        op = Op::kExists;
      } else if (!parse_operator(op)) {
        return std::nullopt;
      } else if (op == Op::kIn || op == Op::kNotIn ? !set_values(key->text, values)
                                                   : !exact_value(key->text, op, values)) {
        return std::nullopt;
      }
    }
    ParseResult<LabelRequirement> r = LabelRequirement::create(std::string(key->text), op, values);
    if (!r) {
      fail_at(key->pos, r.error().message);
      return std::nullopt;
    }
    return std::move(r).value();
  }

  bool parse_operator(Op& op) {
    const Token& t = take();
    switch (t.kind) {
      case Tok::kIn: op = Op::kIn; return true;
      case Tok::kNotIn: op = Op::kNotIn; return true;
      case Tok::kEquals: op = Op::kEquals; return true;
      case Tok::kDoubleEquals: op = Op::kDoubleEquals; return true;
      case Tok::kNotEquals: op = Op::kNotEquals; return true;
      case Tok::kGreater: op = Op::kGreaterThan; return true;
      case Tok::kLess: op = Op::kLessThan; return true;
      default: fail(t, "in, notin, =, ==, !=, >, <"); return false;
    }
  }

  // "(" values ")", where values may be empty or have empty members: "()",
  // "(a,)", "(,a)" and "(a,,b)" all include the empty value.
  bool set_values(std::string_view key, std::vector<std::string>& values) {
    const Token& open = take();
    if (open.kind != Tok::kOpenPar) {
      fail(open, "'('");
      return false;
    }
    Tok first = as_value(peek());
    if (first == Tok::kClosePar) {
      take();
      values.emplace_back();
      return true;
    }
    if (first != Tok::kIdentifier && first != Tok::kComma) {
      fail(peek(), "',', ')' or identifier");
      return false;
    }
    while (true) {
      const Token& t = take();
      if (as_value(t) == Tok::kIdentifier) {
        if (auto e = value_error(key, t.text)) {
          fail_at(t.pos, std::move(*e));
          return false;
        }
        values.emplace_back(t.text);
        Tok next = as_value(peek());
        if (next == Tok::kClosePar) {
          take();
          return true;
        }
        if (next != Tok::kComma) {
          fail(peek(), "',' or ')'");
          return false;
        }
      } else if (t.kind == Tok::kComma) {
        if (values.empty()) values.emplace_back();  // "(,"
        Tok next = as_value(peek());
        if (next == Tok::kClosePar) {  // ",)"
          values.emplace_back();
          take();
          return true;
        }
        if (next == Tok::kComma) values.emplace_back();  // ",,"
      } else {
        fail(t, "',' or identifier");
        return false;
      }
    }
  }

  // The single value after =, ==, !=, > or <; absent means "".
  bool exact_value(std::string_view key, Op op, std::vector<std::string>& values) {
    std::size_t pos = peek().pos;
    std::string_view value;
    Tok next = as_value(peek());
    if (next != Tok::kEnd && next != Tok::kComma) {
      const Token& t = take();
      if (as_value(t) != Tok::kIdentifier) {
        fail(t, "identifier");
        return false;
      }
      value = t.text;
    }
    if ((op == Op::kGreaterThan || op == Op::kLessThan) && !parse_int64(value)) {
      fail_at(pos, not_integer_error(value));
      return false;
    }
    if (auto e = value_error(key, value)) {
      fail_at(pos, std::move(*e));
      return false;
    }
    values.emplace_back(value);
    return true;
  }

  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  std::optional<ParseError> error_;
};

}  // namespace

ParseResult<LabelSelector> parse_label_selector(std::string_view text) {
  return Parser(text).parse();
}

LabelSelector selector_from_set(const std::map<std::string, std::string>& set) {
  std::vector<LabelRequirement> requirements;
  requirements.reserve(set.size());
  for (const auto& [key, value] : set) {
    requirements.push_back(LabelRequirement(key, Op::kEquals, {value}, 0));
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

ParseResult<LabelSelector> validated_selector_from_set(
    const std::map<std::string, std::string>& set) {
  std::vector<LabelRequirement> requirements;
  requirements.reserve(set.size());
  for (const auto& [key, value] : set) {
    ParseResult<LabelRequirement> r = LabelRequirement::create(key, Op::kEquals, {value});
    if (!r) return r.error();
    requirements.push_back(std::move(r).value());
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

namespace {

ParseError json_error(std::string message) { return ParseError{std::move(message), 0}; }

ParseResult<LabelRequirement> expression_requirement(const nlohmann::json& expr,
                                                     const std::string& path) {
  if (!expr.is_object()) return json_error(path + ": Invalid value: must be an object");
  auto key = expr.find("key");
  if (key == expr.end() || !key->is_string()) {
    return json_error(path + ".key: Required value: must be a string");
  }
  auto op_name = expr.find("operator");
  if (op_name == expr.end() || !op_name->is_string()) {
    return json_error(path + ".operator: Required value: must be a string");
  }
  static const std::map<std::string, Op, std::less<>> kOperators = {
      {"In", Op::kIn},
      {"NotIn", Op::kNotIn},
      {"Exists", Op::kExists},
      {"DoesNotExist", Op::kDoesNotExist}};
  const std::string& name = op_name->get_ref<const std::string&>();
  auto op = kOperators.find(name);
  if (op == kOperators.end()) {
    return json_error(path + ".operator: " + quote_for_message(name) +
                      " is not a valid label selector operator");
  }
  std::vector<std::string> values;
  if (auto v = expr.find("values"); v != expr.end() && !v->is_null()) {
    if (!v->is_array()) return json_error(path + ".values: Invalid value: must be an array");
    for (const nlohmann::json& item : *v) {
      if (!item.is_string()) return json_error(path + ".values: Invalid value: must be strings");
      values.push_back(item.get<std::string>());
    }
  }
  bool set_based = op->second == Op::kIn || op->second == Op::kNotIn;
  if (set_based && values.empty()) {
    return json_error(path +
                      ".values: Required value: must be specified when `operator` is 'In' or "
                      "'NotIn'");
  }
  if (!set_based && !values.empty()) {
    return json_error(path +
                      ".values: Forbidden: may not be specified when `operator` is 'Exists' or "
                      "'DoesNotExist'");
  }
  ParseResult<LabelRequirement> r =
      LabelRequirement::create(key->get<std::string>(), op->second, std::move(values));
  if (!r) return json_error(path + ": " + r.error().message);
  return r;
}

}  // namespace

ParseResult<LabelSelector> label_selector_from_json(const nlohmann::json& selector) {
  if (selector.is_null()) return LabelSelector::nothing();
  if (!selector.is_object()) return json_error("label selector must be a JSON object");
  std::vector<LabelRequirement> requirements;
  if (auto labels = selector.find("matchLabels"); labels != selector.end() && !labels->is_null()) {
    if (!labels->is_object()) return json_error("matchLabels: Invalid value: must be an object");
    for (const auto& [key, value] : labels->items()) {
      if (!value.is_string()) {
        return json_error("matchLabels[" + key + "]: Invalid value: must be a string");
      }
      ParseResult<LabelRequirement> r =
          LabelRequirement::create(key, Op::kEquals, {value.get<std::string>()});
      if (!r) return json_error("matchLabels: " + r.error().message);
      requirements.push_back(std::move(r).value());
    }
  }
  if (auto exprs = selector.find("matchExpressions");
      exprs != selector.end() && !exprs->is_null()) {
    if (!exprs->is_array()) return json_error("matchExpressions: Invalid value: must be an array");
    for (std::size_t i = 0; i < exprs->size(); ++i) {
      std::string path = "matchExpressions[" + std::to_string(i) + "]";
      ParseResult<LabelRequirement> r = expression_requirement((*exprs)[i], path);
      if (!r) return r.error();
      requirements.push_back(std::move(r).value());
    }
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

}  // namespace kubesim::api
