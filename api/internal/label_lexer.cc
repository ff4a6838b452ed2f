#include "api/internal/label_lexer.h"

namespace kubesim::api::internal {
namespace {

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

}  // namespace

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

}  // namespace kubesim::api::internal
