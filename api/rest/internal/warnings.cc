// apimachinery's pkg/util/net/http.go ParseWarningHeader and parseQuotedString.
#include "api/rest/internal/warnings.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kubesim::api::rest::internal {
namespace {

std::string_view trim_space(std::string_view s) {
  const auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Whether `s` is valid UTF-8 without control characters (Go's unicode.IsControl: U+0000–U+001F
// and U+007F–U+009F).
bool printable_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = 0;
    std::size_t n = 0;
    if (b < 0x80) {
      cp = b;
      n = 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
      cp = b & 0x1Fu;
      n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      cp = b & 0x0Fu;
      n = 3;
    } else if (b >= 0xF0 && b <= 0xF4) {
      cp = b & 0x07u;
      n = 4;
    } else {
      return false;
    }
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3Fu);
    }
    const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return false;
    i += n;
  }
  return true;
}

// A quoted string with backslash escapes, and what follows it (trimmed).
bool parse_quoted(std::string_view s, std::string& text, std::string_view& rest,
                  std::string& error) {
  if (s.empty()) {
    error = "invalid quoted string: 0-length";
    return false;
  }
  if (s.front() != '"') {
    error = "invalid quoted string: missing initial quote";
    return false;
  }
  s.remove_prefix(1);
  bool escaping = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"' && !escaping) {
      rest = trim_space(s.substr(i + 1));
      return true;
    }
    if (c == '\\' && !escaping) {
      escaping = true;
      continue;
    }
    text.push_back(c);
    escaping = false;
  }
  error = "invalid quoted string: missing closing quote";
  return false;
}

// One warning from the front of `header`; `rest` is what follows it.
std::optional<WarningHeader> parse_one(std::string_view header, std::string_view& rest,
                                       std::string& error) {
  header = trim_space(header);
  const std::size_t first = header.find(' ');
  const std::size_t second =
      first == std::string_view::npos ? std::string_view::npos : header.find(' ', first + 1);
  if (second == std::string_view::npos) {
    error = "invalid warning header: fewer than 3 segments";
    return std::nullopt;
  }
  const std::string_view code = header.substr(0, first);
  const std::string_view agent = header.substr(first + 1, second - first - 1);
  const std::string_view text_and_more = header.substr(second + 1);
  const bool three_digits = code.size() == 3 && std::isdigit(static_cast<unsigned char>(code[0])) &&
                            std::isdigit(static_cast<unsigned char>(code[1])) &&
                            std::isdigit(static_cast<unsigned char>(code[2]));
  if (!three_digits) {
    error = "invalid warning header: code segment is not 3 digits between 100-299";
    return std::nullopt;
  }
  if (agent.empty()) {
    error = "invalid warning header: empty agent segment";
    return std::nullopt;
  }
  if (!printable_utf8(agent)) {
    error = "invalid warning header: invalid agent";
    return std::nullopt;
  }
  if (text_and_more.empty()) {
    error = "invalid warning header: empty text segment";
    return std::nullopt;
  }
  WarningHeader w;
  std::string_view after;
  if (!parse_quoted(text_and_more, w.text, after, error)) {
    error = "invalid warning header: " + error;
    return std::nullopt;
  }
  if (!printable_utf8(w.text)) {
    error = "invalid warning header: invalid text";
    return std::nullopt;
  }
  w.code = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
  w.agent = std::string(agent);
  rest = {};
  if (!after.empty()) {
    if (after.front() == '"') {
      const std::size_t close = after.find('"', 1);
      if (close == std::string_view::npos) {
        error = "invalid warning header: unterminated date segment";
        return std::nullopt;
      }
      rest = trim_space(after.substr(close + 1));
    } else {
      rest = after;
    }
  }
  if (!rest.empty()) {
    if (rest.front() != ',') {
      error = "invalid warning header: unexpected token after warn-date";
      return std::nullopt;
    }
    rest = trim_space(rest.substr(1));
  }
  return w;
}

}  // namespace

std::vector<WarningHeader> parse_warning_headers(const std::vector<std::string>& values,
                                                 std::vector<std::string>* errors) {
  std::vector<WarningHeader> out;
  for (const std::string& value : values) {
    std::string_view header = value;
    while (!header.empty()) {
      std::string error;
      std::string_view rest;
      auto w = parse_one(header, rest, error);
      if (!w) {
        if (errors != nullptr) errors->push_back(std::move(error));
        break;
      }
      out.push_back(std::move(*w));
      header = rest;
    }
  }
  return out;
}

}  // namespace kubesim::api::rest::internal
