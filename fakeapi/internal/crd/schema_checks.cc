// kube-openapi's value validators (pkg/validation/validate: type.go, validator.go, values.go) and
// the message texts of pkg/validation/errors/schema.go.
#include "fakeapi/internal/crd/schema_checks.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "fakeapi/internal/crd/schema_formats.h"
#include "fakeapi/internal/encoding/go_compat.h"
#include "fakeapi/internal/validation/field_errors.h"

namespace kubesim::fakeapi::internal::schema_checks {
namespace {

const std::string kIn = " in body";

std::optional<double> number_keyword(const Json& s, const char* name) {
  const Json* v = keyword(s, name);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

std::optional<std::int64_t> int_keyword(const Json& s, const char* name) {
  const Json* v = keyword(s, name);
  return v == nullptr ? std::nullopt : validation::as_int(*v);
}

bool flag(const Json& s, const char* name) {
  const Json* v = keyword(s, name);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

bool contains(const std::vector<std::string>& types, std::string_view t) {
  for (const std::string& x : types) {
    if (x == t) return true;
  }
  return false;
}

std::string join(const std::vector<std::string>& types) {
  std::string out;
  for (const std::string& t : types) out += (out.empty() ? "" : ",") + t;
  return out;
}

// swag's IsFloat64AJSONInteger: within ±(2^53-1) and an integer up to a relative 1e-9.
bool json_integer(double f) {
  constexpr double kMax = 9007199254740991.0;
  if (!std::isfinite(f) || f < -kMax || f > kMax) return false;
  const double rounded = std::round(f);
  if (f == rounded) return true;
  if (rounded == 0) return false;
  return std::abs(f - rounded) < 1e-9 * std::abs(rounded);
}

// Go's int64(f): truncation, and the minimum for what does not fit (as amd64 converts).
std::int64_t go_int64(double f) {
  if (std::isnan(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0) {
    return std::numeric_limits<std::int64_t>::min();
  }
  return static_cast<std::int64_t>(f);
}

std::string format_v(double f) { return go_format_v(Json(f)); }

// Go's string(rune(v)).
std::string rune_string(std::int64_t v) {
  if (v < 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return "\xEF\xBF\xBD";
  const auto c = static_cast<std::uint32_t>(v);
  std::string out;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return out;
}

std::size_t rune_count(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    std::uint32_t r = 0;
    const std::size_t size = decode_utf8(s, i, r);
    i += size == 0 ? 1 : size;
  }
  return n;
}

// The text IsValueValidAgainstRange parses: an integer in decimal, a float as strconv's 'f'.
std::string range_text(const Json& v) {
  if (go_type(v) == GoType::kInt64) return std::to_string(v.get<std::int64_t>());
  std::array<char, 400> buf{};
  const auto res =
      std::to_chars(buf.data(), buf.data() + buf.size(), v.get<double>(), std::chars_format::fixed);
  return std::string(buf.data(), res.ptr);
}

// strconv.ParseInt(text, 10, bits) succeeds.
bool fits_int(std::string_view t, int bits) {
  bool neg = false;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty()) return false;
  std::uint64_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
    v = v * 10 + d;
  }
  const std::uint64_t limit = std::uint64_t{1} << (bits - 1);
  return neg ? v <= limit : v < limit;
}

// IsValueValidAgainstRange: whether `v` fits the type and format numberValidator checks by.
std::optional<std::string> range_error(const Json& v, const Node& n, std::string_view what,
                                       const std::string& path) {
  bool bad = false;
  if (n.number_type == "integer") {
    bad = !fits_int(range_text(v), n.number_format == "int32" ? 32 : 64);
  } else if (n.number_format == "float") {
    bad = std::abs(v.get<double>()) >= 3.4028235677973366e38;
  }
  if (!bad) return std::nullopt;
  std::string msg = std::string(what) + " value must be of type " + n.number_type;
  msg += n.number_format.empty() ? " (default format)" : " with format " + n.number_format;
  return msg + " in " + path;
}

SchemaError with_value(SchemaError e, const Json& value) {
  e.value = value;
  return e;
}

// MultipleOfNativeType: an integer by the factor as an integer, anything else as floats.
void multiple_of(const std::string& path, const Json& data, double factor, bool native, Result& r) {
  if (native && go_type(data) == GoType::kInt64) {
    const std::int64_t f = go_int64(factor);
    const std::int64_t d = data.get<std::int64_t>();
    if (f <= 0) {
      r.add(with_value(error(Code::kOther, path,
                             "factor MultipleOf declared for " + path +
                                 " must be positive: " + std::to_string(f)),
                       Json(f)));
    } else if (d / f * f != d) {
      r.add(with_value(
          error(Code::kOther, path, path + kIn + " should be a multiple of " + std::to_string(f)),
          data));
    }
    return;
  }
  const double d = data.get<double>();
  if (factor <= 0) {
    r.add(with_value(
        error(Code::kOther, path,
              "factor MultipleOf declared for " + path + " must be positive: " + format_v(factor)),
        Json(factor)));
  } else if (!json_integer(factor < 1 ? 1 / factor * d : d / factor)) {
    r.add(with_value(
        error(Code::kOther, path, path + kIn + " should be a multiple of " + format_v(factor)),
        data));
  }
}

// Maximum/MaximumNativeType (`upper`) and Minimum/MinimumNativeType: an integer against the
// bound cut to an integer, anything else as floats.
void bound(const std::string& path, const Json& data, double limit, bool exclusive, bool upper,
           bool native, Result& r) {
  bool beyond = false;
  std::string shown;
  if (native && go_type(data) == GoType::kInt64) {
    const std::int64_t d = data.get<std::int64_t>();
    const std::int64_t l = go_int64(limit);
    beyond = upper ? (exclusive ? d >= l : d > l) : (exclusive ? d <= l : d < l);
    shown = std::to_string(l);
  } else {
    const double d = data.get<double>();
    beyond = upper ? (exclusive ? d >= limit : d > limit) : (exclusive ? d <= limit : d < limit);
    shown = format_v(limit);
  }
  if (!beyond) return;
  const std::string relation =
      upper ? (exclusive ? " should be less than " : " should be less than or equal to ")
            : (exclusive ? " should be greater than " : " should be greater than or equal to ");
  r.add(with_value(error(Code::kOther, path, path + kIn + relation + shown), data));
}

}  // namespace

void Result::add(SchemaError e) {
  if (!messages_.insert(e.message).second) return;
  errors.push_back(std::move(e));
}

void Result::merge(Result&& other) {
  for (SchemaError& e : other.errors) add(std::move(e));
  matches += other.matches;
}

void Result::drop_errors() {
  errors.clear();
  messages_.clear();
}

SchemaError error(Code code, std::string name, std::string message) {
  SchemaError e;
  e.code = code;
  e.name = std::move(name);
  e.message = std::move(message);
  return e;
}

SchemaError plain(std::string message) { return error(Code::kPlain, "", std::move(message)); }

const Json* keyword(const Json& s, const char* name) {
  if (!s.is_object()) return nullptr;
  const auto it = s.find(name);
  return it == s.end() ? nullptr : &*it;
}

std::string print(const Json& value) {
  if (value.is_string()) return validation::quote(value.get_ref<const std::string&>());
  if (value.is_number() || value.is_boolean()) return go_format_v(value);
  return validation::go_json(value);
}

Node::Node(const Json& schema) : s(schema) {
  if (const Json* t = keyword(s, "type");
      t != nullptr && t->is_string() && !t->get_ref<const std::string&>().empty()) {
    types.push_back(t->get<std::string>());
  }
  if (flag(s, "x-kubernetes-int-or-string")) types = {"integer", "string"};
  nullable = flag(s, "nullable");
  if (const Json* f = keyword(s, "format"); f != nullptr && f->is_string()) {
    format = effective_format(types, f->get<std::string>());
  }
  if (types.size() == 1 && (types[0] == "integer" || types[0] == "number")) {
    number_type = types[0];
    number_format = format;
  }
}

Result ValueChecks::type(const Node& n, const Json& data, const std::string& path) {
  auto invalid = [&path](const std::string& type, const std::string& found) {
    Result r;
    r.add(
        with_value(error(Code::kInvalidType, path,
                         path + kIn + " must be of type " + type + ": " + validation::quote(found)),
                   Json(found)));
    return r;
  };
  Result ok;
  ok.matches = 1;
  if (data.is_null()) {
    if (!n.types.empty() && !contains(n.types, "null") && !n.nullable)
      return invalid(join(n.types), "null");
    return ok;
  }
  // The JSON type and format kube-openapi infers from the decoded Go value.
  const GoType kind = go_type(data);
  std::string type;
  std::string format;
  switch (kind) {
    case GoType::kBool:
      type = "boolean";
      break;
    case GoType::kString:
      type = "string";
      break;
    case GoType::kInt64:
      type = "integer";
      format = "int64";
      break;
    case GoType::kFloat64:
      type = "number";
      format = "float64";
      break;
    case GoType::kSlice:
      type = "array";
      break;
    default:
      type = "object";
      break;
  }
  const bool float_int =
      kind == GoType::kFloat64 && json_integer(data.get<double>()) && contains(n.types, "integer");
  const bool int_float = kind == GoType::kInt64 && contains(n.types, "number");
  const bool loose = kind == GoType::kString || kind == GoType::kSlice;
  if (!loose && !n.format.empty() &&
      !(contains(n.types, type) || format == n.format || float_int || int_float)) {
    return invalid(n.format, format);
  }
  if (!contains(n.types, "number") && !contains(n.types, "integer") && !n.format.empty() && loose)
    return ok;
  if (!(contains(n.types, type) || float_int || int_float)) return invalid(join(n.types), type);
  return ok;
}

Result ValueChecks::string(const Node& n, const Json& data, const std::string& path) {
  const std::string& text = data.get_ref<const std::string&>();
  Result r;
  const std::size_t runes = rune_count(text);
  if (const auto max = int_keyword(n.s, "maxLength");
      max && static_cast<std::int64_t>(runes) > *max) {
    SchemaError e =
        error(Code::kTooLong, path,
              path + kIn + " should be at most " + std::to_string(*max) + " chars long");
    e.valid = *max;
    r.add(with_value(std::move(e), data));
    return r;
  }
  if (const auto min = int_keyword(n.s, "minLength");
      min && static_cast<std::int64_t>(runes) < *min) {
    r.add(with_value(
        error(Code::kOther, path,
              path + kIn + " should be at least " + std::to_string(*min) + " chars long"),
        data));
    return r;
  }
  const Json* pattern = keyword(n.s, "pattern");
  if (pattern == nullptr || !pattern->is_string() || pattern->get_ref<const std::string&>().empty())
    return r;
  const std::regex* re = regex(pattern->get<std::string>());
  bool matches = true;
  if (re != nullptr) {
    try {
      matches = std::regex_search(text, *re);
    } catch (const std::regex_error&) {
      // Too complex to run: the value is not checked, as for a pattern that does not compile.
    }
  }
  if (!matches) {
    r.add(with_value(error(Code::kOther, path,
                           path + kIn + " should match '" + pattern->get<std::string>() + "'"),
                     data));
  }
  return r;
}

Result ValueChecks::format(const Node& n, const Json& data, const std::string& path) {
  Result r;
  const std::string& text = data.get_ref<const std::string&>();
  if (!string_format_valid(n.format, text)) {
    r.add(with_value(
        error(Code::kInvalidType, path,
              path + kIn + " must be of type " + n.format + ": " + validation::quote(text)),
        data));
  }
  return r;
}

Result ValueChecks::number(const Node& n, const Json& data, const std::string& path) {
  Result r;
  Result multiple;
  Result minimum;
  Result maximum;
  if (auto e = range_error(data, n, "Checked", path)) r.add(plain(*e));
  if (const auto factor = number_keyword(n.s, "multipleOf")) {
    const auto e = range_error(Json(*factor), n, "MultipleOf", path);
    if (e) multiple.add(plain(*e));
    multiple_of(path, data, *factor, !e, multiple);
  }
  if (const auto max = number_keyword(n.s, "maximum")) {
    const auto e = range_error(Json(*max), n, "Maximum boundary", path);
    if (e) maximum.add(plain(*e));
    bound(path, data, *max, flag(n.s, "exclusiveMaximum"), true, !e, maximum);
  }
  if (const auto min = number_keyword(n.s, "minimum")) {
    const auto e = range_error(Json(*min), n, "Minimum boundary", path);
    if (e) minimum.add(plain(*e));
    bound(path, data, *min, flag(n.s, "exclusiveMinimum"), false, !e, minimum);
  }
  r.merge(std::move(multiple));
  r.merge(std::move(minimum));
  r.merge(std::move(maximum));
  ++r.matches;
  return r;
}

namespace {

// Whether `data` equals the enum value `allowed` once converted to its Go type, as reflect's
// Convert does: integers and floats into each other (floats truncated), an integer into a string
// as the rune it codes.
bool enum_matches(const Json& data, const Json& allowed) {
  if (data.is_null() || allowed.is_null()) return false;
  const GoType d = go_type(data);
  switch (go_type(allowed)) {
    case GoType::kInt64:
      if (d == GoType::kInt64) return data.get<std::int64_t>() == allowed.get<std::int64_t>();
      return d == GoType::kFloat64 && go_int64(data.get<double>()) == allowed.get<std::int64_t>();
    case GoType::kFloat64:
      return (d == GoType::kInt64 || d == GoType::kFloat64) &&
             data.get<double>() == allowed.get<double>();
    case GoType::kString:
      if (d == GoType::kInt64)
        return rune_string(data.get<std::int64_t>()) == allowed.get_ref<const std::string&>();
      return d == GoType::kString && data == allowed;
    default:
      return go_equal(data, allowed);
  }
}

}  // namespace

Result ValueChecks::enumeration(const Node& n, const Json& data, const std::string& path) {
  Result r;
  const Json* allowed = keyword(n.s, "enum");
  if (allowed == nullptr || !allowed->is_array() || allowed->empty()) return r;
  for (const Json& v : *allowed) {
    if (enum_matches(data, v)) return r;
  }
  SchemaError e =
      error(Code::kEnum, path, path + kIn + " should be one of " + go_format_v(*allowed));
  e.value = data;
  e.values = *allowed;
  r.add(std::move(e));
  return r;
}

namespace {

// minItems/maxItems or minProperties/maxProperties: `size` members, counted as `noun`.
void count_limits(const Json& s, std::size_t members, const std::string& path,
                  const char* min_keyword, const char* max_keyword, const std::string& noun,
                  Code too_many, Result& r) {
  const auto size = static_cast<std::int64_t>(members);
  if (const auto min = int_keyword(s, min_keyword); min && size < *min) {
    r.add(
        with_value(error(Code::kOther, path,
                         path + kIn + " should have at least " + std::to_string(*min) + " " + noun),
                   Json(size)));
  }
  if (const auto max = int_keyword(s, max_keyword); max && size > *max) {
    SchemaError e = error(too_many, path,
                          path + kIn + " should have at most " + std::to_string(*max) + " " + noun);
    e.valid = *max;
    r.add(with_value(std::move(e), Json(size)));
  }
}

}  // namespace

void ValueChecks::list_limits(const Json& s, const Json& data, const std::string& path, Result& r) {
  count_limits(s, data.size(), path, "minItems", "maxItems", "items", Code::kMaxItems, r);
  if (flag(s, "uniqueItems")) {
    for (std::size_t i = 1; i < data.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (go_equal(data[i], data[j])) {
          r.add(error(Code::kOther, path, path + kIn + " shouldn't contain duplicates"));
          return;
        }
      }
    }
  }
}

void ValueChecks::property_limits(const Json& s, const Json& data, const std::string& path,
                                  Result& r) {
  count_limits(s, data.size(), path, "minProperties", "maxProperties", "properties",
               Code::kTooManyProperties, r);
}

const std::regex* ValueChecks::regex(const std::string& pattern) {
  const auto found = regexes_.find(pattern);
  if (found != regexes_.end()) return found->second.get();
  std::string body = pattern;
  auto flags = std::regex_constants::ECMAScript;
  if (body.rfind("(?i)", 0) == 0) {
    body.erase(0, 4);
    flags |= std::regex_constants::icase;
  }
#if defined(__GLIBCXX__)
  // libstdc++'s breadth-first matcher: no recursion as deep as the text, which long strings
  // would overflow the stack with.
  flags |= std::regex_constants::__polynomial;
#endif
  std::unique_ptr<std::regex> re;
  try {
    re = std::make_unique<std::regex>(body, flags);
  } catch (const std::regex_error&) {
    // Not ECMAScript (an RE2-only construct, or invalid): not checked.
  }
  return regexes_.emplace(pattern, std::move(re)).first->second.get();
}

}  // namespace kubesim::fakeapi::internal::schema_checks
