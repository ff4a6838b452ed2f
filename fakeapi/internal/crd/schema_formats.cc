// kube-openapi's strfmt checks (pkg/validation/strfmt and its third_party/govalidator) of the
// formats apiextensions-apiserver supports; the network and address formats are in
// schema_formats_net.cc.
#include "fakeapi/internal/crd/schema_formats.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "fakeapi/internal/crd/schema_formats_net.h"

namespace kubesim::fakeapi::internal {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_lower_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z'); }
bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

std::string normalize(std::string_view format) {
  std::string out;
  for (char c : format) {
    if (c != '-') out.push_back(c);
  }
  return out;
}

// (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?V[0-9a-f]{3}-?W[0-9a-f]{3}-?[0-9a-f]{12}$: V the version digit
// and W a variant digit in [89ab] when asked for; 0 asks for none.
bool uuid(std::string_view s, char version, bool variant) {
  static constexpr std::array<std::size_t, 5> kGroups = {8, 4, 4, 4, 12};
  std::size_t i = 0;
  for (std::size_t g = 0; g < kGroups.size(); ++g) {
    if (g > 0 && i < s.size() && s[i] == '-') ++i;
    if (s.size() - i < kGroups[g]) return false;
    for (std::size_t k = 0; k < kGroups[g]; ++k) {
      if (!is_hex(s[i + k])) return false;
    }
    if (g == 2 && version != 0 && s[i] != version) return false;
    if (g == 3 && variant && std::string_view("89abAB").find(s[i]) == std::string_view::npos) {
      return false;
    }
    i += kGroups[g];
  }
  return i == s.size();
}

// govalidator.IsISBN: spaces and dashes removed, then the digits and the checksum.
bool isbn(std::string_view s, int version) {
  std::string d;
  for (char c : s) {
    if (c != '-' && c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r') d.push_back(c);
  }
  if (version == 10) {
    if (d.size() != 10 || !all_digits(d.substr(0, 9)) || !(is_digit(d[9]) || d[9] == 'X')) {
      return false;
    }
    int sum = 0;
    for (int i = 0; i < 9; ++i) sum += (i + 1) * (d[i] - '0');
    sum += 10 * (d[9] == 'X' ? 10 : d[9] - '0');
    return sum % 11 == 0;
  }
  if (d.size() != 13 || !all_digits(d)) return false;
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += (i % 2 == 0 ? 1 : 3) * (d[i] - '0');
  return (d[12] - '0') - ((10 - sum % 10) % 10) == 0;
}

// govalidator.IsCreditCard: the digits alone, a known issuer's shape and the Luhn checksum.
bool credit_card(std::string_view s) {
  std::string d;
  for (char c : s) {
    if (is_digit(c)) d.push_back(c);
  }
  const std::size_t n = d.size();
  if (n < 13) return false;
  auto starts = [&](std::string_view p) { return d.compare(0, p.size(), p) == 0; };
  const bool shape = (d[0] == '4' && (n == 13 || n == 16)) ||
                     (n == 16 && d[0] == '5' && d[1] >= '1' && d[1] <= '5') ||
                     (n == 16 && (starts("6011") || starts("65"))) ||
                     (n == 15 && (starts("34") || starts("37"))) ||
                     (n == 14 && ((starts("30") && d[2] <= '5') || starts("36") || starts("38"))) ||
                     (n == 15 && (starts("2131") || starts("1800"))) || (n == 16 && starts("35"));
  if (!shape) return false;
  int sum = 0;
  bool twice = false;
  for (std::size_t i = n; i-- > 0;) {
    int v = d[i] - '0';
    if (twice) v = v * 2 >= 10 ? v * 2 % 10 + 1 : v * 2;
    sum += v;
    twice = !twice;
  }
  return sum % 10 == 0;
}

// ^\d{3}[- ]?\d{2}[- ]?\d{4}$ in exactly 11 bytes: both separators are there.
bool ssn(std::string_view s) {
  auto sep = [](char c) { return c == '-' || c == ' '; };
  return s.size() == 11 && all_digits(s.substr(0, 3)) && sep(s[3]) && all_digits(s.substr(4, 2)) &&
         sep(s[6]) && all_digits(s.substr(7));
}

bool hex_color(std::string_view s) {
  if (!s.empty() && s[0] == '#') s.remove_prefix(1);
  return (s.size() == 3 || s.size() == 6) && std::all_of(s.begin(), s.end(), is_hex);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// ^rgb\(\s*N\s*,\s*N\s*,\s*N\s*\)$ with N in 0..255 written without leading zeros.
bool rgb_color(std::string_view s) {
  if (s.substr(0, 4) != "rgb(") return false;
  std::size_t i = 4;
  for (int k = 0; k < 3; ++k) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    const std::string_view n = s.substr(start, i - start);
    if (n.empty() || n.size() > 3 || (n.size() > 1 && n[0] == '0') ||
        std::stoi(std::string(n)) > 255) {
      return false;
    }
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size() || s[i] != (k < 2 ? ',' : ')')) return false;
    ++i;
  }
  return i == s.size();
}

bool base64_char(char c) { return is_letter(c) || is_digit(c) || c == '+' || c == '/'; }

// Standard base64 with its padding: whole groups of four, "xx==" or "xxx=" at the end.
bool base64(std::string_view s) {
  if (s.size() < 4 || s.size() % 4 != 0) return false;
  std::size_t body = s.size();
  if (s[s.size() - 1] == '=') body = s[s.size() - 2] == '=' ? s.size() - 2 : s.size() - 1;
  return std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(body), base64_char);
}

// time.Parse("2006-01-02", s).
bool date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!all_digits(s.substr(0, 4)) || !all_digits(s.substr(5, 2)) || !all_digits(s.substr(8, 2))) {
    return false;
  }
  const int year = std::stoi(std::string(s.substr(0, 4)));
  const int month = std::stoi(std::string(s.substr(5, 2)));
  const int day = std::stoi(std::string(s.substr(8, 2)));
  if (month < 1 || month > 12) return false;
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days = kDays[static_cast<std::size_t>(month - 1)] + (month == 2 && leap ? 1 : 0);
  return day >= 1 && day <= days;
}

// strfmt.IsDateTime: lowercased and cut at each 't', the first piece a date and the second
// ^HH:MM:SS(.[0-9]+)?(z|[+-]HH:MM)$ with HH <= 23, MM and SS <= 59.
bool date_time(std::string_view s) {
  if (s.size() < 4) return false;
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::size_t t = lower.find('t');
  if (t == std::string::npos || !date(std::string_view(lower).substr(0, t))) return false;
  std::string_view rest = std::string_view(lower).substr(t + 1);
  rest = rest.substr(0, rest.find('t'));
  if (rest.size() < 9 || rest[2] != ':' || rest[5] != ':') return false;
  for (std::size_t i : {0, 1, 3, 4, 6, 7}) {
    if (!is_digit(rest[i])) return false;
  }
  if (rest.substr(0, 2) > "23" || rest.substr(3, 2) > "59" || rest.substr(6, 2) > "59")
    return false;
  auto zone = [](std::string_view z) {
    return z == "z" || (z.size() == 6 && (z[0] == '+' || z[0] == '-') && is_digit(z[1]) &&
                        is_digit(z[2]) && z[3] == ':' && is_digit(z[4]) && is_digit(z[5]));
  };
  const std::string_view tail = rest.substr(8);
  if (zone(tail)) return true;
  // (.[0-9]+)? with '.' any character but a newline; no zone starts with a digit, so the
  // fraction takes every digit after its first character.
  if (tail.size() < 2 || tail[0] == '\n' || !is_digit(tail[1])) return false;
  std::size_t i = 1;
  while (i < tail.size() && is_digit(tail[i])) ++i;
  return zone(tail.substr(i));
}

// time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?unit)+ or "0", without overflowing an int64.
bool go_duration(std::string_view s) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return true;
  if (s.empty()) return false;
  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0]))) return false;
    std::uint64_t v = 0;
    std::size_t i = 0;
    for (; i < s.size() && is_digit(s[i]); ++i) {
      if (v > kLimit / 10) return false;
      v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
      if (v > kLimit) return false;
    }
    const bool pre = i > 0;
    s.remove_prefix(i);
    std::uint64_t frac = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflow = false;
      for (i = 0; i < s.size() && is_digit(s[i]); ++i) {
        if (overflow || frac > (kLimit - 1) / 10) {
          overflow = true;
          continue;
        }
        frac = frac * 10 + static_cast<std::uint64_t>(s[i] - '0');
        scale *= 10;
      }
      post = i > 0;
      s.remove_prefix(i);
    }
    if (!pre && !post) return false;
    for (i = 0; i < s.size() && s[i] != '.' && !is_digit(s[i]); ++i) {
    }
    const std::string_view u = s.substr(0, i);
    s.remove_prefix(i);
    std::uint64_t unit = 0;
    if (u == "ns")
      unit = 1;
    else if (u == "us" || u == "\xc2\xb5s" || u == "\xce\xbcs")
      unit = 1000;
    else if (u == "ms")
      unit = 1000000;
    else if (u == "s")
      unit = 1000000000;
    else if (u == "m")
      unit = 60000000000ULL;
    else if (u == "h")
      unit = 3600000000000ULL;
    else
      return false;
    if (v > kLimit / unit) return false;
    v *= unit;
    if (frac > 0) {
      v += static_cast<std::uint64_t>(static_cast<double>(frac) *
                                      (static_cast<double>(unit) / scale));
      if (v > kLimit) return false;
    }
    total += v;
    if (total > kLimit) return false;
  }
  return neg || total <= kLimit - 1;
}

// strfmt.ParseDuration: Go's syntax, or else every "<digits> <unit word>" in the text, which
// must name at least one known unit ("3 days", "1 hour 20 min").
bool duration(std::string_view s) {
  if (go_duration(s)) return true;
  static constexpr std::array<std::array<std::string_view, 3>, 8> kUnits = {
      {{"ns", "nano", ""},
       {"us", "\xc2\xb5s", "micro"},
       {"ms", "milli", ""},
       {"s", "sec", ""},
       {"m", "min", ""},
       {"h", "hr", "hour"},
       {"d", "day", ""},
       {"w", "wk", "week"}}};
  bool ok = false;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_digit(s[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && is_digit(s[j])) ++j;
    std::size_t k = j;
    while (k < s.size() && is_space(s[k])) ++k;
    std::string unit;
    std::size_t e = k;
    for (;;) {
      if (e < s.size() && is_letter(s[e])) {
        unit.push_back(static_cast<char>(s[e] >= 'A' && s[e] <= 'Z' ? s[e] - 'A' + 'a' : s[e]));
        ++e;
      } else if (s.substr(e, 2) == "\xc2\xb5") {
        unit += "\xc2\xb5";
        e += 2;
      } else {
        break;
      }
    }
    if (unit.empty()) {
      i = j;
      continue;
    }
    // strconv.Atoi of the digits: an overflow is an error of the whole parse.
    const std::string_view digits = s.substr(i, j - i);
    const std::size_t significant = digits.find_first_not_of('0');
    if (significant != std::string_view::npos &&
        (digits.size() - significant > 19 ||
         (digits.size() - significant == 19 &&
          digits.substr(significant) > "9223372036854775807"))) {
      return false;
    }
    for (const auto& variants : kUnits) {
      const std::size_t last = variants[2].empty() ? 1 : 2;
      for (std::size_t v = 0; v <= last; ++v) {
        if (unit == variants[v] ||
            (v == last && unit.compare(0, variants[v].size(), variants[v]) == 0)) {
          ok = true;
        }
      }
    }
    i = e;
  }
  return ok;
}

// ObjectIDFromHex: 24 hexadecimal digits.
bool bson_object_id(std::string_view s) {
  return s.size() == 24 && std::all_of(s.begin(), s.end(), is_hex);
}

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
bool dns_label(std::string_view s) {
  return !s.empty() && is_lower_alnum(s.front()) && is_lower_alnum(s.back()) &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_lower_alnum(c) || c == '-'; });
}

bool long_name(std::string_view s) {
  if (s.size() > 253) return false;
  for (;;) {
    const std::size_t dot = s.find('.');
    if (!dns_label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

}  // namespace

std::string effective_format(const std::vector<std::string>& types, const std::string& format) {
  if (format.empty()) return "";
  const std::string type = types.size() == 1 ? types[0] : "";
  if (type.empty() || type == "string") return is_string_format(format) ? format : "";
  if (type == "integer") return format == "int32" || format == "int64" ? format : "";
  if (type == "number") return format == "float" || format == "double" ? format : "";
  return "";
}

bool is_string_format(std::string_view format) {
  static constexpr std::array<std::string_view, 26> kFormats = {
      "bsonobjectid", "uri",        "email",    "hostname",     "ipv4",       "ipv6", "cidr",
      "mac",          "uuid",       "uuid3",    "uuid4",        "uuid5",      "isbn", "isbn10",
      "isbn13",       "creditcard", "ssn",      "hexcolor",     "rgbcolor",   "byte", "password",
      "date",         "duration",   "datetime", "k8sshortname", "k8slongname"};
  const std::string name = normalize(format);
  return std::find(kFormats.begin(), kFormats.end(), name) != kFormats.end();
}

bool string_format_valid(std::string_view format, std::string_view v) {
  const std::string f = normalize(format);
  if (f == "bsonobjectid") return bson_object_id(v);
  if (f == "uri") return request_uri(v);
  if (f == "email") return email_address(v);
  if (f == "hostname") return hostname(v);
  if (f == "ipv4") return go_ip(v, /*sloppy=*/true) && v.find('.') != std::string_view::npos;
  if (f == "ipv6") return go_ip(v, /*sloppy=*/false) && v.find(':') != std::string_view::npos;
  if (f == "cidr") return cidr(v);
  if (f == "mac") return mac(v);
  if (f == "uuid") return uuid(v, 0, false);
  if (f == "uuid3") return uuid(v, '3', false);
  if (f == "uuid4") return uuid(v, '4', true);
  if (f == "uuid5") return uuid(v, '5', true);
  if (f == "isbn") return isbn(v, 10) || isbn(v, 13);
  if (f == "isbn10") return isbn(v, 10);
  if (f == "isbn13") return isbn(v, 13);
  if (f == "creditcard") return credit_card(v);
  if (f == "ssn") return ssn(v);
  if (f == "hexcolor") return hex_color(v);
  if (f == "rgbcolor") return rgb_color(v);
  if (f == "byte") return base64(v);
  if (f == "password") return true;
  if (f == "date") return date(v);
  if (f == "duration") return duration(v);
  if (f == "datetime") return date_time(v);
  if (f == "k8sshortname") return v.size() <= 63 && dns_label(v);
  if (f == "k8slongname") return long_name(v);
  return false;
}

}  // namespace kubesim::fakeapi::internal
