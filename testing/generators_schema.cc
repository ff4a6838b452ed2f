// Generators of objects of a CustomResourceDefinition's openAPIV3Schema
// (kubesim/testing/generators.h).
//
// The generator of a schema is built eagerly, child generators first, so that a schema this cannot
// satisfy is refused when the generator is made, naming the path, never halfway through a test.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include <rapidcheck.h>

#include "kubesim/testing/generators.h"
#include "testing/internal/generators.h"

namespace kubesim::testing::gen {
namespace {

using nlohmann::json;

[[noreturn]] void unsupported(const std::string& path, const std::string& what) {
  throw std::invalid_argument("gen::schema_value: " + (path.empty() ? std::string("<root>") : path) + ": " + what);
}

std::string child(const std::string& path, const std::string& name) { return path.empty() ? name : path + "." + name; }

std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A whole number in [lo, hi], shrinking toward the one nearest 0.
rc::Gen<std::int64_t> whole_in(std::int64_t lo, std::int64_t hi) {
  if (lo >= 0) return rc::gen::inRange(lo, hi + 1);
  if (hi <= 0) return rc::gen::map(rc::gen::inRange(-hi, -lo + 1), [](std::int64_t v) { return -v; });
  const auto negative = rc::gen::map(rc::gen::inRange<std::int64_t>(1, -lo + 1), [](std::int64_t v) { return -v; });
  return internal::one_of<std::int64_t>({{1, rc::gen::inRange<std::int64_t>(0, hi + 1)}, {1, negative}});
}

// [minimum, maximum] of a schema, exclusive bounds made inclusive by `step`; a missing bound is
// `span` away from the other one (or from 0).
std::pair<double, double> range_of(const json& s, double span, double step, const std::string& path) {
  std::optional<double> lo, hi;
  if (s.contains("minimum")) lo = s["minimum"].get<double>() + (s.value("exclusiveMinimum", false) ? step : 0);
  if (s.contains("maximum")) hi = s["maximum"].get<double>() - (s.value("exclusiveMaximum", false) ? step : 0);
  double low = lo ? *lo : (hi ? std::min(*hi, 0.0) - span : -span);
  double high = hi ? *hi : std::max(low, 0.0) + span;
  const double limit = s.value("format", "") == "int32" ? 2147483647.0 : 9.0e15;  // int64: exact in a double
  low = std::max(low, -limit - 1);
  high = std::min(high, limit);
  if (low > high) unsupported(path, "empty range [" + shortest(low) + ", " + shortest(high) + "]");
  return {low, high};
}

class SchemaGen {
 public:
  explicit SchemaGen(SchemaOptions options) : o_(options) {}

  rc::Gen<json> value(const json& s, const std::string& path, int depth) const {
    if (!s.is_object()) unsupported(path, "not a schema object");
    for (const char* k : {"pattern", "oneOf", "anyOf", "allOf", "not"}) {
      if (s.contains(k)) unsupported(path, std::string(k) + " is not supported");
    }
    if (s.value("x-kubernetes-embedded-resource", false)) {
      unsupported(path, "x-kubernetes-embedded-resource is not supported");
    }
    if (s.contains("enum")) {
      if (!s["enum"].is_array() || s["enum"].empty()) unsupported(path, "empty enum");
      return internal::pick(std::vector<json>(s["enum"].begin(), s["enum"].end()));
    }
    if (s.value("x-kubernetes-int-or-string", false)) {
      const auto number = rc::gen::map(whole_in(0, o_.number_span), [](std::int64_t v) { return json(v); });
      const auto text = rc::gen::map(dns1123_label(), [](const std::string& v) { return json(v); });
      return internal::one_of<json>({{1, number}, {1, text}});
    }
    const std::string type = s.value("type", "");
    if (type == "object" || (type.empty() && s.value("x-kubernetes-preserve-unknown-fields", false))) {
      return object(s, path, depth);
    }
    if (type == "array") return array(s, path, depth);
    if (type == "string") return string(s, path);
    if (type == "integer") return integer(s, path);
    if (type == "number") return number(s, path);
    if (type == "boolean") return rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return json(b); });
    unsupported(path, "type \"" + type + "\" is not supported");
  }

 private:
  struct Property {
    std::string name;
    bool required = false;
    rc::Gen<json> value;
  };

  rc::Gen<json> object(const json& s, const std::string& path, int depth) const {
    std::set<std::string> required;
    for (const auto& r : s.value("required", json::array())) required.insert(r.get<std::string>());
    std::vector<Property> props;
    const json properties = s.value("properties", json::object());
    for (const auto& [name, sub] : properties.items()) {
      const bool must = required.contains(name);
      if (must || depth < o_.max_depth) props.push_back({name, must, value(sub, child(path, name), depth + 1)});
    }
    std::optional<rc::Gen<json>> extra;
    const json additional = s.value("additionalProperties", json());
    if (additional.is_object() && depth < o_.max_depth) extra = value(additional, child(path, "*"), depth + 1);
    const auto min_extra = s.value("minProperties", std::size_t{0});
    const auto max_extra =
        std::min(s.value("maxProperties", min_extra + o_.max_properties), min_extra + o_.max_properties);
    if (min_extra > 0 && !extra) unsupported(path, "minProperties without additionalProperties is not supported");
    return rc::gen::exec([props = std::move(props), extra, min_extra, max_extra] {
      json out = json::object();
      for (const Property& p : props) {
        if (p.required || *rc::gen::arbitrary<bool>()) out[p.name] = *p.value;
      }
      if (extra) {
        const auto n = *rc::gen::inRange(min_extra, max_extra + 1);
        // Distinct keys: what follows the last '-' is the key's own number.
        for (std::size_t i = 0; i < n; ++i) out[*dns1123_label() + "-" + std::to_string(i)] = **extra;
      }
      return out;
    });
  }

  rc::Gen<json> array(const json& s, const std::string& path, int depth) const {
    if (!s.contains("items")) unsupported(path, "array without items");
    const auto items = value(s["items"], path + "[*]", depth + 1);
    const auto min_items = s.value("minItems", std::size_t{0});
    const auto max_items = std::min(s.value("maxItems", min_items + o_.max_items), min_items + o_.max_items);
    if (max_items < min_items) unsupported(path, "maxItems below minItems");
    // Lists whose items must differ: whole items (set, uniqueItems) or their map keys.
    const bool unique = s.value("uniqueItems", false) || s.value("x-kubernetes-list-type", "") == "set";
    const json map_keys = s.value("x-kubernetes-list-type", "") == "map"
                              ? s.value("x-kubernetes-list-map-keys", json::array())
                              : json::array();
    auto identity = [unique, map_keys](const json& item) {
      if (!map_keys.empty()) {
        json k = json::array();
        for (const auto& key : map_keys) k.push_back(item.value(key.get<std::string>(), json()));
        return k;
      }
      return unique ? item : json();
    };
    const bool distinct = unique || !map_keys.empty();
    const auto list = rc::gen::mapcat(rc::gen::inRange(min_items, max_items + 1), [items](std::size_t n) {
      return rc::gen::container<std::vector<json>>(n, items);
    });
    const auto deduplicated = rc::gen::map(list, [identity, distinct](const std::vector<json>& v) {
      json out = json::array();
      std::set<json> seen;
      for (const json& item : v) {
        if (!distinct || seen.insert(identity(item)).second) out.push_back(item);
      }
      return out;
    });
    return rc::gen::suchThat(deduplicated, [min_items](const json& v) { return v.size() >= min_items; });
  }

  rc::Gen<json> string(const json& s, const std::string& path) const {
    const std::string format = s.value("format", "");
    if (format == "date-time" || format == "date") {
      return rc::gen::apply(
          [format](int y, int mo, int d, int h, int mi) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, mo, d);
            std::string out = buf;
            if (format == "date") return json(out);
            std::snprintf(buf, sizeof buf, "T%02d:%02d:00Z", h, mi);
            return json(out + buf);
          },
          rc::gen::inRange(2000, 2040), rc::gen::inRange(1, 13), rc::gen::inRange(1, 29), rc::gen::inRange(0, 24),
          rc::gen::inRange(0, 60));
    }
    if (!format.empty()) unsupported(path, "format \"" + format + "\" is not supported");
    const auto min_length = s.value("minLength", std::size_t{0});
    const auto max_length =
        std::min(s.value("maxLength", min_length + o_.max_string_length), min_length + o_.max_string_length);
    if (max_length < min_length) unsupported(path, "maxLength below minLength");
    const auto text = rc::gen::mapcat(rc::gen::inRange(min_length, max_length + 1), [](std::size_t n) {
      return rc::gen::container<std::string>(n, rc::gen::inRange<char>(' ', '~' + 1));
    });
    return rc::gen::map(text, [](const std::string& v) { return json(v); });
  }

  rc::Gen<json> integer(const json& s, const std::string& path) const {
    const auto [lo, hi] = range_of(s, static_cast<double>(o_.number_span), 1, path);
    const auto first = static_cast<std::int64_t>(std::ceil(lo));
    const auto last = static_cast<std::int64_t>(std::floor(hi));
    if (first > last) unsupported(path, "no integer in range");
    const auto step = s.contains("multipleOf") ? s["multipleOf"].get<std::int64_t>() : std::int64_t{1};
    if (step <= 0) unsupported(path, "multipleOf must be a positive integer");
    const std::int64_t k_lo = (first >= 0 ? first + step - 1 : first) / step;
    const std::int64_t k_hi = (last >= 0 ? last : last - step + 1) / step;
    if (k_lo > k_hi) unsupported(path, "no multiple of " + std::to_string(step) + " in range");
    return rc::gen::map(whole_in(k_lo, k_hi), [step](std::int64_t k) { return json(k * step); });
  }

  rc::Gen<json> number(const json& s, const std::string& path) const {
    if (s.contains("multipleOf")) unsupported(path, "multipleOf on a number is not supported");
    constexpr int kSteps = 16;
    const bool exclusive_min = s.value("exclusiveMinimum", false), exclusive_max = s.value("exclusiveMaximum", false);
    const auto [lo, hi] = range_of(s, static_cast<double>(o_.number_span), 0, path);
    if (lo == hi && (exclusive_min || exclusive_max)) unsupported(path, "empty range");
    // Sixteenths of the range: exact in binary, so a bound given is never crossed by rounding.
    return rc::gen::map(rc::gen::inRange(exclusive_min ? 1 : 0, exclusive_max ? kSteps : kSteps + 1),
                        [lo, hi](int q) { return json(lo + (hi - lo) * q / kSteps); });
  }

  SchemaOptions o_;
};

// The version objects are stored at (else the first served one).
const json& storage_version(const json& crd) {
  const json& versions = crd.at("spec").at("versions");
  for (const json& v : versions) {
    if (v.value("storage", false)) return v;
  }
  for (const json& v : versions) {
    if (v.value("served", false)) return v;
  }
  throw std::invalid_argument("gen::custom_object: the CRD has no served version");
}

}  // namespace

rc::Gen<json> schema_value(const json& schema, SchemaOptions options, std::string path) {
  return SchemaGen(options).value(schema, path, 0);
}

rc::Gen<json> custom_object(const json& crd, SchemaOptions options, std::string ns) {
  if (!crd.is_object() || !crd.contains("spec")) throw std::invalid_argument("gen::custom_object: not a CRD");
  const json& spec = crd["spec"];
  const json& version = storage_version(crd);
  const std::string api_version = spec.at("group").get<std::string>() + "/" + version.at("name").get<std::string>();
  const std::string kind = spec.at("names").at("kind").get<std::string>();
  if (spec.value("scope", "Namespaced") != "Namespaced") ns.clear();
  json schema = version.value("schema", json::object()).value("openAPIV3Schema", json{{"type", "object"}});
  // The root's apiVersion, kind and metadata are the generator's; the status of a kind with a
  // /status subresource is what apply ignores.
  std::vector<std::string> own = {"apiVersion", "kind", "metadata"};
  if (version.value("subresources", json::object()).contains("status")) own.push_back("status");
  for (const std::string& k : own) {
    if (schema.contains("properties")) schema["properties"].erase(k);
    if (schema.contains("required")) {
      auto& r = schema["required"];
      r.erase(std::remove(r.begin(), r.end(), json(k)), r.end());
    }
  }
  const auto body = schema_value(schema, options);
  return rc::gen::exec([body, api_version, kind, ns] {
    json o = *body;
    o["apiVersion"] = api_version;
    o["kind"] = kind;
    o["metadata"] = {{"name", *dns1123_subdomain()}};
    if (!ns.empty()) o["metadata"]["namespace"] = ns;
    const Labels l = *labels(2);
    if (!l.empty()) o["metadata"]["labels"] = l;
    return o;
  });
}

}  // namespace kubesim::testing::gen
