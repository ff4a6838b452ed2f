#include "api/rest/internal/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kubesim::api::rest::internal {

std::optional<std::string> read_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "open " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) {
    *error = "read " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return out.str();
}

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::optional<std::string> decode_base64(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
    clean.push_back(c);
  }
  if (clean.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(clean.size() / 4 * 3);
  for (std::size_t i = 0; i < clean.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = clean[i + k];
      if (c == '=') {
        // Padding only at the very end, and at most two.
        if (i + 4 != clean.size() || k < 2) return std::nullopt;
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad > 0) return std::nullopt;
      v[k] = sextet(c);
      if (v[k] < 0) return std::nullopt;
    }
    const unsigned triple = (unsigned(v[0]) << 18) | (unsigned(v[1]) << 12) | (unsigned(v[2]) << 6) |
                            unsigned(v[3]);
    out.push_back(static_cast<char>((triple >> 16) & 0xff));
    if (pad < 2) out.push_back(static_cast<char>((triple >> 8) & 0xff));
    if (pad < 1) out.push_back(static_cast<char>(triple & 0xff));
  }
  return out;
}

std::string encode_base64(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < data.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, data.size() - i);
    unsigned triple = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      triple <<= 8;
      if (k < n) triple |= static_cast<unsigned char>(data[i + k]);
    }
    out.push_back(kAlphabet[(triple >> 18) & 63]);
    out.push_back(kAlphabet[(triple >> 12) & 63]);
    out.push_back(n > 1 ? kAlphabet[(triple >> 6) & 63] : '=');
    out.push_back(n > 2 ? kAlphabet[triple & 63] : '=');
  }
  return out;
}

}  // namespace kubesim::api::rest::internal
