// The label selector lexer: apimachinery's tokens, with "in" and "notin" as keywords.
// A NUL byte is an ordinary character here (and so fails key/value validation later) where
// Go's lexer treats it as the end of the input.
#ifndef KUBESIM_API_INTERNAL_LABEL_LEXER_H_
#define KUBESIM_API_INTERNAL_LABEL_LEXER_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace kubesim::api::internal {

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
  std::string_view text;  // into the lexed input
  std::size_t pos;
};

// Splits the input into tokens, ending with one kEnd token.
std::vector<Token> lex(std::string_view s);

}  // namespace kubesim::api::internal

#endif  // KUBESIM_API_INTERNAL_LABEL_LEXER_H_
