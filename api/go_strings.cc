#include "kubesim/api/go_strings.h"

#include <algorithm>

namespace kubesim::api {
namespace {

// unicode.IsPrint for the code points a Kubernetes object realistically holds: everything but
// controls, the non-ASCII spaces and separators, format characters and private use.
bool is_print(std::uint32_t r) {
  if (r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0xA0) || r == 0xAD) return false;
  if (r == 0x1680 || (r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F)) return false;
  if ((r >= 0x205F && r <= 0x206F) || r == 0x3000 || r == 0xFEFF) return false;
  if ((r >= 0xE000 && r <= 0xF8FF) || (r >= 0xFFF9 && r <= 0xFFFB) || r >= 0xF0000) return false;
  return true;
}

void append_hex(std::string& out, std::uint32_t v, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    out.push_back(kHex[(v >> shift) & 0xF]);
}

}  // namespace

std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4;
  else
    return 0;
  if (c == 0xE0) lo = 0xA0;
  if (c == 0xED) hi = 0x9F;
  if (c == 0xF0) lo = 0x90;
  if (c == 0xF4) hi = 0x8F;
  if (i + n > s.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
  std::uint32_t v = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    v = (v << 6) | (b(i + k) & 0x3F);
  }
  cp = v;
  return n;
}

std::string go_quote(std::string_view s) {
  // Printable ASCII but the quote and the backslash (names, keys) is written as it is.
  if (std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; })) {
    std::string plain;
    plain.reserve(s.size() + 2);
    plain.push_back('"');
    plain.append(s);
    plain.push_back('"');
    return plain;
  }
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t r = 0;
    const std::size_t n = decode_utf8(s, i, r);
    if (n == 0) {
      out += "\\x";
      append_hex(out, static_cast<unsigned char>(s[i]), 2);
      ++i;
      continue;
    }
    switch (r) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (is_print(r)) {
          out.append(s.substr(i, n));
        } else if (r < 0x20 || r == 0x7F) {
          out += "\\x";
          append_hex(out, r, 2);
        } else if (r < 0x10000) {
          out += "\\u";
          append_hex(out, r, 4);
        } else {
          out += "\\U";
          append_hex(out, r, 8);
        }
    }
    i += n;
  }
  return out + "\"";
}

std::string go_time_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80) {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    const std::size_t n = c < 0x80 ? 1 : decode_utf8(s, i, cp);
    for (std::size_t j = 0; j < (n == 0 ? 1 : n); ++j) {
      const auto b = static_cast<unsigned char>(s[i + j]);
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xf];
    }
    i += n == 0 ? 1 : n;
  }
  return out + "\"";
}

bool valid_utf8(std::string_view s) {
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = decode_utf8(s, i, cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace kubesim::api
