// go_syntax_check: a port of encoding/json's scanner state machine (scanner.go), one state per
// Go state function with the same transitions, so that the syntax errors are Go's own, word for
// word.
#include <string>
#include <vector>

#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal {
namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_hex(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// The scanner's quoteChar: the byte as a Go character literal.
std::string quote_char(unsigned char c) {
  if (c == '\'') return R"('\'')";
  if (c == '"') return R"('"')";
  // strconv.Quote(string(rune(c))): a byte >= 0x80 is the code point U+0080..U+00FF.
  std::string utf8;
  if (c < 0x80) {
    utf8.push_back(static_cast<char>(c));
  } else {
    utf8.push_back(static_cast<char>(0xC0 | (c >> 6)));
    utf8.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  const std::string quoted = go_quote(utf8);
  return "'" + quoted.substr(1, quoted.size() - 2) + "'";
}

class Scanner {
 public:
  explicit Scanner(std::size_t max_depth) : max_depth_(max_depth) {}

  bool check(std::string_view data) {
    for (char ch : data) {
      if (!step(static_cast<unsigned char>(ch))) return false;
    }
    return eof();
  }
  const std::string& error() const { return error_; }

 private:
  enum class State {
    kBeginValueOrEmpty,
    kBeginValue,
    kBeginStringOrEmpty,
    kBeginString,
    kEndValue,
    kEndTop,
    kInString,
    kInStringEsc,
    kInStringEscU,
    kInStringEscU1,
    kInStringEscU12,
    kInStringEscU123,
    kNeg,
    k1,
    k0,
    kDot,
    kDot0,
    kE,
    kESign,
    kE0,
    kLiteral,
    kError,
  };
  enum class Parse { kObjectKey, kObjectValue, kArrayValue };

  bool fail(unsigned char c, std::string_view context) {
    state_ = State::kError;
    error_ = "invalid character " + quote_char(c) + " " + std::string(context);
    return false;
  }

  bool eof() {
    if (state_ == State::kError) return false;
    if (end_top_) return true;
    if (!step(' ')) return false;
    if (end_top_) return true;
    error_ = "unexpected end of JSON input";
    return false;
  }

  bool push(unsigned char c, Parse p) {
    parse_.push_back(p);
    return parse_.size() <= max_depth_ || fail(c, "exceeded max depth");
  }

  void pop() {
    parse_.pop_back();
    if (parse_.empty()) {
      state_ = State::kEndTop;
      end_top_ = true;
    } else {
      state_ = State::kEndValue;
    }
  }

  // Literals true/false/null: the bytes still expected and the literal's name.
  bool start_literal(std::string_view rest, std::string_view name) {
    literal_rest_ = rest;
    literal_name_ = name;
    state_ = State::kLiteral;
    return true;
  }

  bool literal(unsigned char c) {
    if (c != static_cast<unsigned char>(literal_rest_.front())) {
      return fail(c, "in literal " + std::string(literal_name_) + " (expecting '" +
                         std::string(1, literal_rest_.front()) + "')");
    }
    literal_rest_.remove_prefix(1);
    if (literal_rest_.empty()) state_ = State::kEndValue;
    return true;
  }

  bool begin_value(unsigned char c) {
    if (is_space(c)) return true;
    switch (c) {
      case '{':
        state_ = State::kBeginStringOrEmpty;
        return push(c, Parse::kObjectKey);
      case '[':
        state_ = State::kBeginValueOrEmpty;
        return push(c, Parse::kArrayValue);
      case '"':
        state_ = State::kInString;
        return true;
      case '-':
        state_ = State::kNeg;
        return true;
      case '0':
        state_ = State::k0;
        return true;
      case 't':
        return start_literal("rue", "true");
      case 'f':
        return start_literal("alse", "false");
      case 'n':
        return start_literal("ull", "null");
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      state_ = State::k1;
      return true;
    }
    return fail(c, "looking for beginning of value");
  }

  bool begin_string(unsigned char c) {
    if (is_space(c)) return true;
    if (c == '"') {
      state_ = State::kInString;
      return true;
    }
    return fail(c, "looking for beginning of object key string");
  }

  bool end_value(unsigned char c) {
    if (parse_.empty()) {
      state_ = State::kEndTop;
      end_top_ = true;
      return end_top(c);
    }
    if (is_space(c)) {
      state_ = State::kEndValue;
      return true;
    }
    switch (parse_.back()) {
      case Parse::kObjectKey:
        if (c == ':') {
          parse_.back() = Parse::kObjectValue;
          state_ = State::kBeginValue;
          return true;
        }
        return fail(c, "after object key");
      case Parse::kObjectValue:
        if (c == ',') {
          parse_.back() = Parse::kObjectKey;
          state_ = State::kBeginString;
          return true;
        }
        if (c == '}') {
          pop();
          return true;
        }
        return fail(c, "after object key:value pair");
      case Parse::kArrayValue:
        if (c == ',') {
          state_ = State::kBeginValue;
          return true;
        }
        if (c == ']') {
          pop();
          return true;
        }
        return fail(c, "after array element");
    }
    return fail(c, "");
  }

  // Go records the error and reports it on the next byte or at EOF; the outcome is the same.
  bool end_top(unsigned char c) { return is_space(c) || fail(c, "after top-level value"); }

  bool in_string(unsigned char c) {
    if (c == '"') {
      state_ = State::kEndValue;
    } else if (c == '\\') {
      state_ = State::kInStringEsc;
    } else if (c < 0x20) {
      return fail(c, "in string literal");
    }
    return true;
  }

  bool in_string_esc(unsigned char c) {
    switch (c) {
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case '\\':
      case '/':
      case '"':
        state_ = State::kInString;
        return true;
      case 'u':
        state_ = State::kInStringEscU;
        return true;
      default:
        return fail(c, "in string escape code");
    }
  }

  bool hex_digit(unsigned char c, State next) {
    if (!is_hex(c)) return fail(c, "in \\u hexadecimal character escape");
    state_ = next;
    return true;
  }

  bool number_state(unsigned char c) {
    switch (state_) {
      case State::kNeg:
        if (c == '0') {
          state_ = State::k0;
          return true;
        }
        if (c >= '1' && c <= '9') {
          state_ = State::k1;
          return true;
        }
        return fail(c, "in numeric literal");
      case State::k1:
        if (is_digit(c)) return true;
        [[fallthrough]];
      case State::k0:
        if (c == '.') {
          state_ = State::kDot;
          return true;
        }
        if (c == 'e' || c == 'E') {
          state_ = State::kE;
          return true;
        }
        return end_value(c);
      case State::kDot:
        if (is_digit(c)) {
          state_ = State::kDot0;
          return true;
        }
        return fail(c, "after decimal point in numeric literal");
      case State::kDot0:
        if (is_digit(c)) return true;
        if (c == 'e' || c == 'E') {
          state_ = State::kE;
          return true;
        }
        return end_value(c);
      case State::kE:
        if (c == '+' || c == '-') {
          state_ = State::kESign;
          return true;
        }
        [[fallthrough]];
      case State::kESign:
        if (is_digit(c)) {
          state_ = State::kE0;
          return true;
        }
        return fail(c, "in exponent of numeric literal");
      case State::kE0:
        if (is_digit(c)) return true;
        return end_value(c);
      default:
        return false;
    }
  }

  bool step(unsigned char c) {
    switch (state_) {
      case State::kBeginValueOrEmpty:
        if (is_space(c)) return true;
        if (c == ']') return end_value(c);
        return begin_value(c);
      case State::kBeginValue:
        return begin_value(c);
      case State::kBeginStringOrEmpty:
        if (is_space(c)) return true;
        if (c == '}') {
          parse_.back() = Parse::kObjectValue;
          return end_value(c);
        }
        return begin_string(c);
      case State::kBeginString:
        return begin_string(c);
      case State::kEndValue:
        return end_value(c);
      case State::kEndTop:
        return end_top(c);
      case State::kInString:
        return in_string(c);
      case State::kInStringEsc:
        return in_string_esc(c);
      case State::kInStringEscU:
        return hex_digit(c, State::kInStringEscU1);
      case State::kInStringEscU1:
        return hex_digit(c, State::kInStringEscU12);
      case State::kInStringEscU12:
        return hex_digit(c, State::kInStringEscU123);
      case State::kInStringEscU123:
        return hex_digit(c, State::kInString);
      case State::kLiteral:
        return literal(c);
      case State::kError:
        return false;
      default:
        return number_state(c);
    }
  }

  std::size_t max_depth_;
  State state_ = State::kBeginValue;
  std::vector<Parse> parse_;
  bool end_top_ = false;
  std::string_view literal_rest_;
  std::string_view literal_name_;
  std::string error_;
};

}  // namespace

bool go_syntax_check(std::string_view text, std::size_t max_depth, std::string& error) {
  Scanner scanner(max_depth);
  if (scanner.check(text)) return true;
  error = scanner.error();
  return false;
}

}  // namespace kubesim::fakeapi::internal
