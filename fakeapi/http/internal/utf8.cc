#include "kubesim/fakeapi/http/internal/utf8.h"

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::http::internal {
namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629: no overlongs, no surrogates,
// nothing past U+10FFFF).
std::size_t sequence_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sequence_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string scrub_utf8(std::string_view s) {
  if (valid_utf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string quote(std::string_view s) { return nlohmann::json(scrub_utf8(s)).dump(); }

api::Status scrub_status(api::Status status) {
  status.message = scrub_utf8(status.message);
  if (status.details) {
    auto& d = *status.details;
    for (std::string* f : {&d.name, &d.group, &d.kind, &d.uid}) *f = scrub_utf8(*f);
    for (auto& cause : d.causes) {
      cause.type = scrub_utf8(cause.type);
      cause.message = scrub_utf8(cause.message);
      cause.field = scrub_utf8(cause.field);
    }
  }
  return status;
}

}  // namespace kubesim::fakeapi::http::internal
