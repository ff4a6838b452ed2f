#include "kubesim/api/go_duration.h"

#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>

#include "kubesim/api/go_strings.h"

namespace kubesim::api {
namespace {

constexpr std::uint64_t kMaxMagnitude = std::uint64_t{1} << 63;  // of a negative Duration

Status invalid(std::string_view original) {
  return new_bad_request("time: invalid duration " + go_time_quote(original));
}

std::optional<std::uint64_t> unit_nanoseconds(std::string_view unit) {
  static constexpr std::pair<std::string_view, std::uint64_t> kUnits[] = {
      {"ns", 1},
      {"us", 1'000},
      {"\xC2\xB5s", 1'000},  // U+00B5 MICRO SIGN
      {"\xCE\xBCs", 1'000},  // U+03BC GREEK SMALL LETTER MU
      {"ms", 1'000'000},
      {"s", 1'000'000'000},
      {"m", 60'000'000'000},
      {"h", 3'600'000'000'000},
  };
  for (const auto& [name, ns] : kUnits) {
    if (name == unit) return ns;
  }
  return std::nullopt;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The leading digits of `s` (consumed) as an integer; nullopt when it passes 2^63.
std::optional<std::uint64_t> leading_int(std::string_view& s) {
  std::uint64_t x = 0;
  std::size_t i = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (x > kMaxMagnitude / 10) return std::nullopt;
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > kMaxMagnitude) return std::nullopt;
  }
  s.remove_prefix(i);
  return x;
}

// The leading digits of a fraction (consumed): as many as fit, and 10^(digits kept).
std::pair<std::uint64_t, double> leading_fraction(std::string_view& s) {
  std::uint64_t x = 0;
  double scale = 1;
  bool overflow = false;
  std::size_t i = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (overflow) continue;
    if (x > (kMaxMagnitude - 1) / 10) {
      overflow = true;
      continue;
    }
    const std::uint64_t y = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (y > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
  return {x, scale};
}

}  // namespace

Result<sim::Duration> parse_go_duration(std::string_view text) {
  const std::string_view original = text;
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return sim::Duration::zero();
  if (s.empty()) return invalid(original);
  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0]))) return invalid(original);
    const std::size_t before_int = s.size();
    auto v = leading_int(s);
    if (!v) return invalid(original);
    const bool pre = before_int != s.size();
    bool post = false;
    std::uint64_t f = 0;
    double scale = 1;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      const std::size_t before_fraction = s.size();
      std::tie(f, scale) = leading_fraction(s);
      post = before_fraction != s.size();
    }
    if (!pre && !post) return invalid(original);
    std::size_t i = 0;
    while (i < s.size() && s[i] != '.' && !is_digit(s[i])) ++i;
    if (i == 0) {
      return new_bad_request("time: missing unit in duration " + go_time_quote(original));
    }
    const std::string_view unit_text = s.substr(0, i);
    s.remove_prefix(i);
    const auto unit = unit_nanoseconds(unit_text);
    if (!unit) {
      return new_bad_request("time: unknown unit " + go_time_quote(unit_text) + " in duration " +
                             go_time_quote(original));
    }
    if (*v > kMaxMagnitude / *unit) return invalid(original);
    std::uint64_t value = *v * *unit;
    if (f > 0) {
      value += static_cast<std::uint64_t>(static_cast<double>(f) *
                                          (static_cast<double>(*unit) / scale));
      if (value > kMaxMagnitude) return invalid(original);
    }
    total += value;
    if (total > kMaxMagnitude) return invalid(original);
  }
  if (negative) {
    // -2^63 is the one magnitude with no positive counterpart.
    return sim::Duration(static_cast<std::int64_t>(0 - total));
  }
  if (total > kMaxMagnitude - 1) return invalid(original);
  return sim::Duration(static_cast<std::int64_t>(total));
}

namespace {

// `v` / 10^prec with the fraction's trailing zeros (and a bare point) dropped, as Go's fmtFrac.
std::string fraction(std::uint64_t& v, int prec) {
  std::string digits;
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    const std::uint64_t digit = v % 10;
    print = print || digit != 0;
    if (print) digits.insert(digits.begin(), static_cast<char>('0' + digit));
    v /= 10;
  }
  return print ? "." + digits : std::string();
}

}  // namespace

std::string format_go_duration(sim::Duration d) {
  const std::int64_t n = d.count();
  const bool negative = n < 0;
  std::uint64_t u = negative ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  std::string out;
  if (u < 1'000'000'000) {
    // Under a second: the largest unit below it that keeps an integer part.
    if (u == 0) return "0s";
    std::string unit;
    int prec = 0;
    if (u < 1'000) {
      unit = "ns";
    } else if (u < 1'000'000) {
      unit = "\xC2\xB5s";
      prec = 3;
    } else {
      unit = "ms";
      prec = 6;
    }
    const std::string frac = fraction(u, prec);
    out = std::to_string(u) + frac + unit;
  } else {
    const std::string frac = fraction(u, 9);
    const std::uint64_t seconds = u % 60;
    u /= 60;
    out = std::to_string(seconds) + frac + "s";
    if (u > 0) {
      out = std::to_string(u % 60) + "m" + out;
      u /= 60;
      if (u > 0) out = std::to_string(u) + "h" + out;
    }
  }
  return negative ? "-" + out : out;
}

std::string format_rounded(sim::Duration d) {
  constexpr std::int64_t kMillisecond = 1'000'000;
  const std::int64_t n = d.count();
  if (n > -kMillisecond && n < kMillisecond) return format_go_duration(d);
  // Halves away from zero, as Go's Duration.Round.
  const std::int64_t magnitude = (n < 0 ? -(n / kMillisecond) : n / kMillisecond) +
                                 ((n < 0 ? -(n % kMillisecond) : n % kMillisecond) >= kMillisecond / 2 ? 1 : 0);
  return format_go_duration(sim::Duration((n < 0 ? -magnitude : magnitude) * kMillisecond));
}

}  // namespace kubesim::api
