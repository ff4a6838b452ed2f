#include "fakeapi/internal/validation/field_errors.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <set>

#include "kubesim/api/go_strings.h"
#include "kubesim/api/validation.h"
#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

const Json kNull;

// The body of field.Invalid and field.TypeInvalid, which print alike.
std::string invalid_body(std::string_view value, std::string_view detail) {
  std::string body = "Invalid value: " + std::string(value);
  if (!detail.empty()) body += ": " + std::string(detail);
  return body;
}

// The body of field.NotSupported: the value, then the supported values quoted.
template <class Values>
std::string unsupported_body(std::string_view value, const Values& supported) {
  std::string body = "Unsupported value: " + std::string(value);
  if (supported.size() > 0) {
    body += ": supported values: ";
    bool first = true;
    for (std::string_view s : supported) {
      if (!first) body += ", ";
      first = false;
      body += quote(s);
    }
  }
  return body;
}

// A float as encoding/json writes it: shortest digits, fixed notation from 1e-6 to 1e21, else
// exponent notation without a leading zero in a negative exponent ("1e-7", "1e+21").
void append_go_float(double f, std::string& out) {
  const double mag = std::fabs(f);
  const bool exponent = mag != 0 && (mag < 1e-6 || mag >= 1e21);
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, f,
                                 exponent ? std::chars_format::scientific : std::chars_format::fixed);
  std::string text(buf, res.ptr);
  const std::size_t n = text.size();
  if (exponent && n >= 4 && text[n - 4] == 'e' && text[n - 3] == '-' && text[n - 2] == '0') {
    text.erase(n - 2, 1);
  }
  out += text;
}

// A string as encoding/json writes it: '<', '>' and '&' escaped too.
void append_go_string(std::string_view s, std::string& out) {
  const std::string text = nlohmann::json(s).dump(-1, ' ', false,
                                                  nlohmann::json::error_handler_t::replace);
  for (char c : text) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
}

template <class J>
void append_go_json(const J& value, std::string& out) {
  switch (value.type()) {
    case J::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ',';
        first = false;
        append_go_string(it.key(), out);
        out += ':';
        append_go_json(*it, out);
      }
      out += '}';
      return;
    }
    case J::value_t::array:
      out += '[';
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (i > 0) out += ',';
        append_go_json(value[i], out);
      }
      out += ']';
      return;
    case J::value_t::string:
      append_go_string(value.template get_ref<const std::string&>(), out);
      return;
    case J::value_t::number_float:
      append_go_float(value.template get<double>(), out);
      return;
    default:
      out += value.dump();
      return;
  }
}

template <class J>
std::string dump_go(const J& value) {
  std::string out;
  append_go_json(value, out);
  return out;
}

}  // namespace

const Json& member(const Json& j, std::string_view key) {
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string string_member(const Json& j, std::string_view key) {
  const Json& v = member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::optional<std::int64_t> as_int(const Json& j) {
  if (j.is_number_integer() && !j.is_number_unsigned()) return j.get<std::int64_t>();
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return static_cast<std::int64_t>(u);
    }
  }
  return std::nullopt;
}

bool non_empty(const Json& j) { return (j.is_object() || j.is_array()) && !j.empty(); }

Json canonical(const Json& j) {
  if (j.is_object()) {
    Json out = Json::object();
    for (const auto& [k, v] : j.items()) {
      Json c = canonical(v);
      if (c.is_null() || ((c.is_array() || c.is_object()) && c.empty())) continue;
      out[k] = std::move(c);
    }
    return out;
  }
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& v : j) out.push_back(canonical(v));
    return out;
  }
  return j;
}

bool semantically_equal(const Json& a, const Json& b) {
  Json ca = canonical(a);
  Json cb = canonical(b);
  const bool a_empty = ca.is_null() || ((ca.is_object() || ca.is_array()) && ca.empty());
  const bool b_empty = cb.is_null() || ((cb.is_object() || cb.is_array()) && cb.empty());
  if (a_empty || b_empty) return a_empty == b_empty;
  return ca == cb;
}

std::string child(std::string_view path, std::string_view name) {
  std::string out(path);
  if (!out.empty()) out += '.';
  out += name;
  return out;
}

std::string index(std::string_view path, std::size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

std::string key(std::string_view path, std::string_view k) {
  return std::string(path) + "[" + std::string(k) + "]";
}

std::string quote(std::string_view s) { return api::go_quote(s); }

std::string render_int(std::int64_t v) { return std::to_string(v); }

std::string render(const Json& value) {
  if (value.is_string()) return quote(value.get_ref<const std::string&>());
  if (value.is_null()) return "null";
  if (value.is_number_float()) return go_format_v(value);
  return go_json(value);
}

std::string go_json(const Json& value) { return dump_go(value); }
std::string go_json(const nlohmann::ordered_json& value) { return dump_go(value); }

std::string go_string_slice(const std::vector<std::string>& values) {
  std::string out = "[]string{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += quote(values[i]);
  }
  return out + "}";
}

void FieldErrors::add(std::string_view type, std::string path, std::string body) {
  causes_.push_back(api::StatusCause{std::string(type), std::move(body), std::move(path)});
}

void FieldErrors::append(FieldErrors&& other) {
  for (api::StatusCause& c : other.causes_) causes_.push_back(std::move(c));
  other.causes_.clear();
}

void FieldErrors::required(std::string path, std::string_view detail) {
  std::string body = "Required value";
  if (!detail.empty()) body += ": " + std::string(detail);
  add(api::kCauseTypeFieldValueRequired, std::move(path), std::move(body));
}

void FieldErrors::forbidden(std::string path, std::string_view detail) {
  std::string body = "Forbidden";
  if (!detail.empty()) body += ": " + std::string(detail);
  add(api::kCauseTypeForbidden, std::move(path), std::move(body));
}

void FieldErrors::invalid(std::string path, std::string_view value, std::string_view detail) {
  add(api::kCauseTypeFieldValueInvalid, std::move(path), invalid_body(value, detail));
}

void FieldErrors::not_supported(std::string path, std::string_view value,
                                std::initializer_list<std::string_view> supported) {
  add(api::kCauseTypeFieldValueNotSupported, std::move(path), unsupported_body(value, supported));
}

void FieldErrors::not_supported(std::string path, std::string_view value,
                                const std::vector<std::string>& supported) {
  add(api::kCauseTypeFieldValueNotSupported, std::move(path), unsupported_body(value, supported));
}

void FieldErrors::type_invalid(std::string path, std::string_view value, std::string_view detail) {
  add(api::kCauseTypeFieldValueTypeInvalid, std::move(path), invalid_body(value, detail));
}

void FieldErrors::duplicate(std::string path, std::string_view value) {
  add(api::kCauseTypeFieldValueDuplicate, std::move(path),
      "Duplicate value: " + std::string(value));
}

void FieldErrors::not_found(std::string path, std::string_view value) {
  add(api::kCauseTypeFieldValueNotFound, std::move(path), "Not found: " + std::string(value));
}

void FieldErrors::too_long(std::string path, std::int64_t max_bytes) {
  std::string body = "Too long: may not be more than " + std::to_string(max_bytes) +
                     (max_bytes == 1 ? " byte" : " bytes");
  add(api::kCauseTypeTooLong, std::move(path), std::move(body));
}

void FieldErrors::too_many(std::string path, std::int64_t actual, std::int64_t max) {
  std::string body = "Too many";
  if (actual >= 0) body += ": " + std::to_string(actual);
  if (max >= 0) {
    body += ": must have at most " + std::to_string(max) + (max == 1 ? " item" : " items");
  } else {
    body += ": has too many items";
  }
  add(api::kCauseTypeTooMany, std::move(path), std::move(body));
}

api::Status invalid_status(const api::GroupKind& kind, std::string_view name,
                           std::vector<api::StatusCause> causes) {
  return api::new_invalid(kind, name, std::move(causes));
}

}  // namespace kubesim::fakeapi::internal::validation
