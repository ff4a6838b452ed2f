#include "fakeapi/http/protobuf/internal/json_forms.h"

#include <array>
#include <charconv>
#include <cstdio>

#include "kubesim/api/go_strings.h"
#include "fakeapi/internal/encoding/types/go_time.h"

namespace kubesim::fakeapi::http::k8s_protobuf {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t skip_digits(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_digit(s[pos])) ++pos;
  return pos;
}

// The suffixes quantitySuffixer knows, or an exponent "e<int64>" / "E<int64>".
bool known_suffix(std::string_view suffix) {
  static constexpr std::array<std::string_view, 16> kSuffixes = {
      "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E"};
  for (std::string_view known : kSuffixes) {
    if (suffix == known) return true;
  }
  if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) return false;
  std::string_view exponent = suffix.substr(1);
  if (exponent[0] == '+') exponent.remove_prefix(1);  // strconv.ParseInt accepts a '+'
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(exponent.data(), exponent.data() + exponent.size(), value);
  return ec == std::errc() && end == exponent.data() + exponent.size();
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t chunk = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

std::string go_json_text(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    std::uint32_t code_point = 0;
    const std::size_t n = api::decode_utf8(bytes, i, code_point);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(bytes.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::optional<std::string> rfc3339(std::int64_t seconds, std::int64_t nanos, bool micro) {
  // 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds.
  constexpr std::int64_t kFirst = -62167219200;
  constexpr std::int64_t kLast = 253402300799;
  if (seconds < kFirst - 1 || seconds > kLast + 1) return std::nullopt;  // nothing overflows
  // time.Unix normalises nanoseconds outside [0, 1e9) into the seconds.
  seconds += nanos / 1'000'000'000;
  nanos %= 1'000'000'000;
  if (nanos < 0) {
    nanos += 1'000'000'000;
    --seconds;
  }
  if (seconds < kFirst || seconds > kLast) return std::nullopt;
  return types::format_go_time({seconds, static_cast<std::int32_t>(nanos)},
                               micro ? types::TimeLayout::kRFC3339Micro
                                     : types::TimeLayout::kRFC3339);
}

std::optional<std::string> quantity_error(std::string_view text) {
  static const std::string kFormat =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  if (text.empty()) return kFormat;
  std::size_t pos = 0;
  if (text[0] == '+' || text[0] == '-') pos = 1;
  pos = skip_digits(text, pos);
  if (pos == text.size()) return std::nullopt;
  if (text[pos] == '.') pos = skip_digits(text, pos + 1);
  const std::size_t suffix_start = pos;
  while (pos < text.size() && std::string_view("eEinumkKMGTP").find(text[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
  if (skip_digits(text, pos) != text.size()) return kFormat;
  if (!known_suffix(text.substr(suffix_start))) return "unable to parse quantity's suffix";
  return std::nullopt;
}

}  // namespace kubesim::fakeapi::http::k8s_protobuf
