#include "fakeapi/internal/encoding/types/go_time.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <optional>

#include "kubesim/api/go_strings.h"

namespace kubesim::fakeapi::types {
namespace {

// The layouts' elements in order, each with the literal text before it: how time.Parse walks
// them (nextStdChunk) for the two layouts the API uses.
enum class Elem { kYear, kMonth, kDay, kHour, kMinute, kSecond, kFraction, kZone };
struct Step {
  std::string_view prefix;
  Elem elem;
  std::string_view text;  // the element as the layout writes it, for errors
};
// MicroTime's layout; a Time's has no fraction step.
constexpr std::array<Step, 8> kSteps = {{{"", Elem::kYear, "2006"},
                                        {"-", Elem::kMonth, "01"},
                                        {"-", Elem::kDay, "02"},
                                        {"T", Elem::kHour, "15"},
                                        {":", Elem::kMinute, "04"},
                                        {":", Elem::kSecond, "05"},
                                        {"", Elem::kFraction, ".000000"},
                                        {"", Elem::kZone, "Z07:00"}}};

constexpr std::string_view layout_text(TimeLayout layout) {
  return layout == TimeLayout::kRFC3339 ? "2006-01-02T15:04:05Z07:00"
                                        : "2006-01-02T15:04:05.000000Z07:00";
}

// The zero time.Time, 0001-01-01T00:00:00Z, in Unix seconds.
constexpr std::int64_t kZeroTimeSeconds = -62135596800;

bool is_digit(std::string_view s, std::size_t i) {
  return i < s.size() && s[i] >= '0' && s[i] <= '9';
}

// getnum: one or two digits (`fixed`: two); nullopt when there are none (or one, fixed).
std::optional<int> getnum(std::string_view& s, bool fixed) {
  if (!is_digit(s, 0)) return std::nullopt;
  if (!is_digit(s, 1)) {
    if (fixed) return std::nullopt;
    const int v = s[0] - '0';
    s.remove_prefix(1);
    return v;
  }
  const int v = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return v;
}

// time.atoi: an optional sign, then digits only (none is 0); nullopt otherwise. At most nine digits
// reach it here, so nothing overflows.
std::optional<std::int64_t> go_atoi(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::int64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

// parseNanoseconds: `value` starts with the separator and holds `n` bytes of fraction with it.
struct Fraction {
  bool bad = false;
  bool out_of_range = false;
  std::int32_t nanos = 0;
};
Fraction parse_fraction(std::string_view value, std::size_t n) {
  Fraction f;
  if (value[0] != '.' && value[0] != ',') {
    f.bad = true;
    return f;
  }
  if (n > 10) n = 10;
  const auto v = go_atoi(value.substr(1, n - 1));
  if (!v) {
    f.bad = true;
    return f;
  }
  if (*v < 0) {
    f.out_of_range = true;
    return f;
  }
  std::int64_t ns = *v;
  for (std::size_t i = n; i < 10; ++i) ns *= 10;
  f.nanos = static_cast<std::int32_t>(ns);
  return f;
}

bool is_leap(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int days_in(int month, std::int64_t year) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

std::variant<GoInstant, std::string> parse_layout(std::string_view original, TimeLayout layout) {
  const bool micro = layout == TimeLayout::kRFC3339Micro;
  const auto cannot_parse = [&](std::string_view value_elem, std::string_view layout_elem) {
    return "parsing time " + api::go_time_quote(original) + " as " + api::go_time_quote(layout_text(layout)) +
           ": cannot parse " + api::go_time_quote(value_elem) + " as " + api::go_time_quote(layout_elem);
  };
  const auto message = [&](const std::string& text) {
    return "parsing time " + api::go_time_quote(original) + text;
  };
  std::string_view value = original;
  std::int64_t year = 0;
  int month = 0, day = 0, hour = 0, minute = 0, second = 0, offset = 0;
  std::int32_t nanos = 0;
  for (const Step& step : kSteps) {
    if (step.elem == Elem::kFraction && !micro) continue;
    for (const char c : step.prefix) {
      if (value.empty() || value[0] != c) return cannot_parse(value, step.prefix);
      value.remove_prefix(1);
    }
    const std::string_view hold = value;
    bool bad = false;
    std::string_view range;
    // A field of one or two digits (`fixed`: two) into `out`, out of range outside [lo, hi].
    const auto number = [&](bool fixed, int& out, int lo, int hi, std::string_view name) {
      if (const auto v = getnum(value, fixed)) {
        out = *v;
        if (out < lo || out > hi) range = name;
      } else {
        bad = true;
      }
    };
    switch (step.elem) {
      case Elem::kYear:
        if (value.size() < 4 || !is_digit(value, 0)) {
          bad = true;
        } else if (const auto y = go_atoi(value.substr(0, 4))) {
          year = *y;
          value.remove_prefix(4);
        } else {
          bad = true;
        }
        break;
      case Elem::kMonth:
        number(true, month, 1, 12, "month");
        break;
      case Elem::kDay:
        number(true, day, 0, 99, "");  // checked against the month once all is read
        break;
      case Elem::kHour:
        number(false, hour, 0, 23, "hour");
        break;
      case Elem::kMinute:
        number(true, minute, 0, 59, "minute");
        break;
      case Elem::kSecond: {
        const auto s = getnum(value, true);
        if (!s) {
          bad = true;
          break;
        }
        second = *s;
        if (second >= 60) {
          range = "second";
          break;
        }
        // A fraction the layout does not ask for is read here, any number of digits.
        if (!micro && value.size() >= 2 && (value[0] == '.' || value[0] == ',') &&
            is_digit(value, 1)) {
          std::size_t n = 2;
          while (is_digit(value, n)) ++n;
          const Fraction f = parse_fraction(value, n);  // digits only: cannot fail
          nanos = f.nanos;
          value.remove_prefix(n);
        }
        break;
      }
      case Elem::kFraction: {
        constexpr std::size_t kDigits = 1 + 6;
        if (value.size() < kDigits) {
          bad = true;
          break;
        }
        const Fraction f = parse_fraction(value, kDigits);
        if (f.out_of_range) range = "fractional second";
        bad = f.bad;
        nanos = f.nanos;
        value.remove_prefix(kDigits);
        break;
      }
      case Elem::kZone: {
        if (!value.empty() && value[0] == 'Z') {
          value.remove_prefix(1);
          break;
        }
        if (value.size() < 6 || value[3] != ':') {
          bad = true;
          break;
        }
        const char sign = value[0];
        std::string_view hh = value.substr(1, 2);
        std::string_view mm = value.substr(4, 2);
        value.remove_prefix(6);
        int h = 0, m = 0;
        if (const auto parsed_h = getnum(hh, true)) {
          h = *parsed_h;
          if (const auto parsed_m = getnum(mm, true)) {
            m = *parsed_m;
          } else {
            bad = true;
          }
        } else {
          bad = true;
        }
        // Offsets of 24 hours or 60 minutes are taken, as Go takes them.
        if (h > 24) range = "time zone offset hour";
        if (m > 60) range = "time zone offset minute";
        offset = (h * 60 + m) * 60;
        if (sign == '-') {
          offset = -offset;
        } else if (sign != '+') {
          bad = true;
        }
        break;
      }
    }
    if (!range.empty()) return message(": " + std::string(range) + " out of range");
    if (bad) return cannot_parse(hold, step.text);
  }
  if (!value.empty()) return message(": extra text: " + api::go_time_quote(value));
  if (day < 1 || day > days_in(month, year)) return message(": day out of range");
  using namespace std::chrono;
  const sys_days date{std::chrono::year{static_cast<int>(year)} / month / day};
  const std::int64_t seconds = std::int64_t{date.time_since_epoch().count()} * 86400 +
                               hour * 3600 + minute * 60 + second - offset;
  return GoInstant{seconds, nanos};
}

}  // namespace

std::variant<GoInstant, std::string> parse_go_time(std::string_view value, TimeLayout layout) {
  return parse_layout(value, layout);
}

std::string format_go_time(GoInstant t, TimeLayout layout) {
  using namespace std::chrono;
  const sys_seconds at{std::chrono::seconds{t.seconds}};
  const sys_days day = floor<days>(at);
  const year_month_day ymd{day};
  const hh_mm_ss<std::chrono::seconds> clock{at - day};
  const int y = static_cast<int>(ymd.year());
  std::array<char, 64> buf{};
  // appendInt(year, 4): a sign, then at least four digits.
  int n = std::snprintf(buf.data(), buf.size(), "%s%04d-%02u-%02uT%02d:%02d:%02d",
                        y < 0 ? "-" : "", y < 0 ? -y : y, static_cast<unsigned>(ymd.month()),
                        static_cast<unsigned>(ymd.day()), static_cast<int>(clock.hours().count()),
                        static_cast<int>(clock.minutes().count()),
                        static_cast<int>(clock.seconds().count()));
  std::string out(buf.data(), static_cast<std::size_t>(n));
  if (layout == TimeLayout::kRFC3339Micro) {
    n = std::snprintf(buf.data(), buf.size(), ".%06d", static_cast<int>(t.nanos / 1000));
    out.append(buf.data(), static_cast<std::size_t>(n));
  }
  out += 'Z';
  return out;
}

std::variant<StoredTime, std::string> stored_time(std::string_view value, TimeLayout layout) {
  auto parsed = parse_go_time(value, layout);
  if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
  GoInstant t = std::get<GoInstant>(parsed);
  // Storage keeps whole seconds of a Time and microseconds of a MicroTime.
  t.nanos = layout == TimeLayout::kRFC3339 ? 0 : t.nanos / 1000 * 1000;
  if (t == GoInstant{kZeroTimeSeconds, 0}) return StoredTime{};
  return StoredTime{format_go_time(t, layout)};
}

}  // namespace kubesim::fakeapi::types
