// Go's view of decoded JSON values: types, equality, fmt formatting, strconv.Quote and
// sort.SliceStable. go_parse lives in go_json.cc.
#include "fakeapi/internal/encoding/go_compat.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace kubesim::fakeapi::internal {
namespace {

using nlohmann::json;


// fmt's %v of a float64: strconv.FormatFloat(f, 'g', -1, 64) with %e below 1e-4 and from 1e6.
std::string format_float(double f) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // "-d.ddde+XX"
  std::string out;
  if (!sci.empty() && sci[0] == '-') {
    out.push_back('-');
    sci.erase(0, 1);
  }
  const std::size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  if (digits.size() > 1) digits.erase(1, 1);  // the '.'
  const int exp = std::atoi(sci.c_str() + e + 1);
  if (exp < -4 || exp >= 6) {
    out.push_back(digits[0]);
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    const int mag = exp < 0 ? -exp : exp;
    if (mag < 10) out.push_back('0');
    out += std::to_string(mag);
    return out;
  }
  const int dp = exp + 1;  // digits before the decimal point
  if (dp <= 0) {
    out += "0." + std::string(static_cast<std::size_t>(-dp), '0') + digits;
  } else if (static_cast<std::size_t>(dp) >= digits.size()) {
    out += digits + std::string(static_cast<std::size_t>(dp) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<std::size_t>(dp)) + "." +
           digits.substr(static_cast<std::size_t>(dp));
  }
  return out;
}

std::string format_number(const json& v) {
  switch (go_type(v)) {
    case GoType::kInt64:
      return v.is_number_unsigned() ? std::to_string(v.get<std::uint64_t>())
                                    : std::to_string(v.get<std::int64_t>());
    default:
      return format_float(v.get<double>());
  }
}

// fmt's %v or %s; a nil inside a map or slice prints "<nil>" under both verbs.
std::string format(const json& v, bool verb_s, bool top = true) {
  switch (v.type()) {
    case json::value_t::null:
      return verb_s && top ? "%!s(<nil>)" : "<nil>";
    case json::value_t::boolean: {
      const std::string b = v.get<bool>() ? "true" : "false";
      return verb_s ? "%!s(bool=" + b + ")" : b;
    }
    case json::value_t::string:
      return v.get<std::string>();
    case json::value_t::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += " ";
        out += format(v[i], verb_s, false);
      }
      return out + "]";
    }
    case json::value_t::object: {
      std::string out = "map[";
      bool first = true;
      for (const auto& [key, value] : v.items()) {
        if (!first) out += " ";
        first = false;
        out += key + ":" + format(value, verb_s, false);
      }
      return out + "]";
    }
    default:
      if (verb_s) return "%!s(" + go_type_name(v) + "=" + format_number(v) + ")";
      return format_number(v);
  }
}

}  // namespace

std::string go_type_name(const json& v) {
  switch (go_type(v)) {
    case GoType::kNil:
      return "%!s(<nil>)";
    case GoType::kBool:
      return "bool";
    case GoType::kInt64:
      return "int64";
    case GoType::kFloat64:
      return "float64";
    case GoType::kString:
      return "string";
    case GoType::kMap:
      return "map[string]interface {}";
    case GoType::kSlice:
      return "[]interface {}";
  }
  return "";
}

std::string_view go_json_kind(const json& v) {
  switch (go_type(v)) {
    case GoType::kNil:
      return "null";
    case GoType::kBool:
      return "bool";
    case GoType::kInt64:
    case GoType::kFloat64:
      return "number";
    case GoType::kString:
      return "string";
    case GoType::kMap:
      return "object";
    case GoType::kSlice:
      return "array";
  }
  return "";
}

std::string go_format_v(const json& v) { return format(v, false); }
std::string go_format_s(const json& v) { return format(v, true); }

namespace {

// sort.SliceStable's helpers over a permutation: less/swap act on current positions.
struct Perm {
  std::vector<std::size_t> at;
  const std::function<bool(std::size_t, std::size_t)>& less_fn;

  bool less(std::size_t i, std::size_t j) const { return less_fn(at[i], at[j]); }
  void swap(std::size_t i, std::size_t j) { std::swap(at[i], at[j]); }

  void insertion_sort(std::size_t a, std::size_t b) {
    for (std::size_t i = a + 1; i < b; ++i) {
      for (std::size_t j = i; j > a && less(j, j - 1); --j) swap(j, j - 1);
    }
  }
  void swap_range(std::size_t a, std::size_t b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) swap(a + i, b + i);
  }
  void rotate(std::size_t a, std::size_t m, std::size_t b) {
    std::size_t i = m - a, j = b - m;
    while (i != j) {
      if (i > j) {
        swap_range(m - i, m, j);
        i -= j;
      } else {
        swap_range(m - i, m + j - i, i);
        j -= i;
      }
    }
    swap_range(m - i, m, i);
  }
  void sym_merge(std::size_t a, std::size_t m, std::size_t b) {
    if (m - a == 1) {
      std::size_t i = m, j = b;
      while (i < j) {
        const std::size_t h = (i + j) / 2;
        if (less(h, a))
          i = h + 1;
        else
          j = h;
      }
      for (std::size_t k = a; k + 1 < i; ++k) swap(k, k + 1);
      return;
    }
    if (b - m == 1) {
      std::size_t i = a, j = m;
      while (i < j) {
        const std::size_t h = (i + j) / 2;
        if (!less(m, h))
          i = h + 1;
        else
          j = h;
      }
      for (std::size_t k = m; k > i; --k) swap(k, k - 1);
      return;
    }
    const std::size_t mid = (a + b) / 2, n = mid + m;
    std::size_t start = m > mid ? n - b : a;
    std::size_t r = m > mid ? mid : m;
    const std::size_t p = n - 1;
    while (start < r) {
      const std::size_t c = (start + r) / 2;
      if (!less(p - c, c))
        start = c + 1;
      else
        r = c;
    }
    const std::size_t end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) sym_merge(a, start, mid);
    if (mid < end && end < b) sym_merge(mid, end, b);
  }
};

}  // namespace

std::vector<std::size_t> go_stable_order(
    std::size_t n, const std::function<bool(std::size_t, std::size_t)>& less) {
  Perm p{std::vector<std::size_t>(n), less};
  for (std::size_t i = 0; i < n; ++i) p.at[i] = i;
  std::size_t block = 20, a = 0, b = block;
  while (b <= n) {
    p.insertion_sort(a, b);
    a = b;
    b += block;
  }
  p.insertion_sort(a, n);
  while (block < n) {
    a = 0;
    b = 2 * block;
    while (b <= n) {
      p.sym_merge(a, a + block, b);
      a = b;
      b += 2 * block;
    }
    if (a + block < n) p.sym_merge(a, a + block, n);
    block *= 2;
  }
  return p.at;
}

}  // namespace kubesim::fakeapi::internal
