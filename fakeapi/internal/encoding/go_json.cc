// go_parse: encoding/json's syntax check (go_scanner.cc) followed by decoding with
// nlohmann::json, after the repairs Go's decoder makes silently (invalid UTF-8 and lone
// surrogates become U+FFFD).
#include <cstdint>
#include <string>

#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal {
namespace {

bool is_hex(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::uint32_t hex4(std::string_view s, std::size_t i) {
  return static_cast<std::uint32_t>(std::stoul(std::string(s.substr(i, 4)), nullptr, 16));
}

// True when s[i..] is a "\uXXXX" escape of a low surrogate.
bool low_surrogate_escape_at(std::string_view s, std::size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return false;
  for (std::size_t k = i + 2; k < i + 6; ++k) {
    if (!is_hex(static_cast<unsigned char>(s[k]))) return false;
  }
  const std::uint32_t cp = hex4(s, i + 2);
  return cp >= 0xDC00 && cp <= 0xDFFF;
}

// Rewrites what Go's decoder replaces with U+FFFD: invalid UTF-8 bytes and "\u" escapes of
// surrogates that do not form a pair. `text` has passed the scanner.
std::string repair_strings(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!in_string || c == '"') {
      if (c == '"') in_string = !in_string;
      out.push_back(text[i++]);
    } else if (c == '\\' && text[i + 1] == 'u') {
      const std::uint32_t cp = hex4(text, i + 2);
      if (cp >= 0xD800 && cp <= 0xDBFF && low_surrogate_escape_at(text, i + 6)) {
        out.append(text.substr(i, 12));
        i += 12;
      } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        out.append("\\ufffd");
        i += 6;
      } else {
        out.append(text.substr(i, 6));
        i += 6;
      }
    } else if (c == '\\') {
      out.append(text.substr(i, 2));
      i += 2;
    } else if (c < 0x80) {
      out.push_back(text[i++]);
    } else if (std::uint32_t cp = 0; const std::size_t n = decode_utf8(text, i, cp)) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD");
      ++i;
    }
  }
  return out;
}

}  // namespace

namespace {

template <class Json>
std::optional<Json> parse_as(std::string_view text, std::string& error, std::size_t max_depth) {
  if (!go_syntax_check(text, max_depth, error)) return std::nullopt;
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    value = Json::parse(repair_strings(text), nullptr, /*allow_exceptions=*/false);
  }
  if (value.is_discarded()) {
    // Unreachable for text the scanner accepts; kept as a clear failure rather than a crash.
    error = "invalid JSON document";
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<nlohmann::json> go_parse(std::string_view text, std::string& error,
                                       std::size_t max_depth) {
  return parse_as<nlohmann::json>(text, error, max_depth);
}

std::optional<nlohmann::ordered_json> go_parse_ordered(std::string_view text, std::string& error,
                                                       std::size_t max_depth) {
  return parse_as<nlohmann::ordered_json>(text, error, max_depth);
}

}  // namespace kubesim::fakeapi::internal
