// parse_label_selector: apimachinery's grammar, with the same context rule that reads "in" and
// "notin" as plain identifiers wherever a key or value is expected.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/internal/label_errors.h"
#include "api/internal/label_lexer.h"
#include "kubesim/api/labels.h"

namespace kubesim::api {
namespace {

using internal::key_error;
using internal::not_integer_error;
using internal::parse_int64;
using internal::Tok;
using internal::Token;
using internal::value_error;
using Op = SelectionOperator;

class Parser {
 public:
  explicit Parser(std::string_view input) : tokens_(internal::lex(input)) {}

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

}  // namespace kubesim::api
