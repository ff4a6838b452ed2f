#include "kubesim/sim/time.h"

#include <cctype>
#include <cstdio>

namespace kubesim::sim {
namespace {

using std::chrono::days;
using std::chrono::duration_cast;
using std::chrono::floor;
using std::chrono::nanoseconds;
using std::chrono::seconds;
using std::chrono::sys_days;

// Writes `v` as `width` decimal digits, zero-padded, ending before `end`.
char* put_digits(char* at, long long v, int width) {
  for (int i = width - 1; i >= 0; --i) {
    at[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return at + width;
}

std::string format(Time t, std::int64_t epoch, bool micro) {
  const nanoseconds since_unix = t.time_since_epoch() + seconds(epoch);
  const auto day = floor<days>(since_unix);
  const std::chrono::year_month_day ymd{sys_days(day)};
  const nanoseconds in_day = since_unix - day;
  const auto secs = duration_cast<seconds>(in_day).count();
  const int year = int(ymd.year());
  if (year < 0 || year > 9999) {
    // Years four digits do not hold are printed as printf widens them.
    char wide[64];
    std::snprintf(wide, sizeof wide, "%04d-%02u-%02uT%02lld:%02lld:%02lld", year,
                  unsigned(ymd.month()), unsigned(ymd.day()), static_cast<long long>(secs / 3600),
                  static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
    std::string out = wide;
    if (micro) {
      char frac[8];
      put_digits(frac, duration_cast<std::chrono::microseconds>(in_day - seconds(secs)).count(), 6);
      out += '.';
      out.append(frac, 6);
    }
    return out + "Z";
  }
  // YYYY-MM-DDTHH:MM:SS[.ffffff]Z
  char buf[32];
  char* p = buf;
  p = put_digits(p, year, 4);
  *p++ = '-';
  p = put_digits(p, unsigned(ymd.month()), 2);
  *p++ = '-';
  p = put_digits(p, unsigned(ymd.day()), 2);
  *p++ = 'T';
  p = put_digits(p, secs / 3600, 2);
  *p++ = ':';
  p = put_digits(p, secs / 60 % 60, 2);
  *p++ = ':';
  p = put_digits(p, secs % 60, 2);
  if (micro) {
    *p++ = '.';
    p = put_digits(p, duration_cast<std::chrono::microseconds>(in_day - seconds(secs)).count(), 6);
  }
  *p++ = 'Z';
  return std::string(buf, p);
}

// Reads exactly `width` digits at `pos`.
bool digits(const std::string& s, size_t& pos, int width, int& out) {
  if (pos + width > s.size()) return false;
  int v = 0;
  for (int i = 0; i < width; ++i) {
    const char c = s[pos + i];
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  pos += width;
  out = v;
  return true;
}

bool expect(const std::string& s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

std::string format_rfc3339(Time t, std::int64_t epoch_unix_seconds) {
  return format(t, epoch_unix_seconds, false);
}

std::string format_rfc3339_micro(Time t, std::int64_t epoch_unix_seconds) {
  return format(t, epoch_unix_seconds, true);
}

bool parse_rfc3339(const std::string& text, Time& out, std::int64_t epoch_unix_seconds) {
  size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, pos, 4, year) || !expect(text, pos, '-') || !digits(text, pos, 2, month) ||
      !expect(text, pos, '-') || !digits(text, pos, 2, day)) {
    return false;
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't')) return false;
  ++pos;
  if (!digits(text, pos, 2, hour) || !expect(text, pos, ':') || !digits(text, pos, 2, minute) ||
      !expect(text, pos, ':') || !digits(text, pos, 2, second)) {
    return false;
  }
  if (hour > 23 || minute > 59 || second > 60) return false;
  nanoseconds frac{0};
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::int64_t scale = 100000000;
    size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
      frac += nanoseconds((text[pos] - '0') * scale);
      scale /= 10;
      ++pos;
    }
    if (pos == start) return false;
  }
  seconds offset{0};
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos] == '+' ? 1 : -1;
    ++pos;
    int oh = 0, om = 0;
    if (!digits(text, pos, 2, oh) || !expect(text, pos, ':') || !digits(text, pos, 2, om) ||
        oh > 23 || om > 59) {
      return false;
    }
    offset = seconds(sign * (oh * 3600 + om * 60));
  } else {
    return false;
  }
  if (pos != text.size()) return false;
  const std::chrono::year_month_day ymd{std::chrono::year(year),
                                        std::chrono::month(static_cast<unsigned>(month)),
                                        std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok()) return false;
  // Whole seconds first: a far-off year would overflow 64-bit nanoseconds.
  const seconds since_epoch = sys_days(ymd).time_since_epoch() + std::chrono::hours(hour) +
                              std::chrono::minutes(minute) + seconds(second) - offset -
                              seconds(epoch_unix_seconds);
  constexpr seconds kLimit = duration_cast<seconds>(nanoseconds::max()) - seconds(1);
  if (since_epoch > kLimit || since_epoch < -kLimit) return false;
  out = Time(since_epoch + frac);
  return true;
}

}  // namespace kubesim::sim
