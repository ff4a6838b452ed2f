// Schema validation of custom resources never throws or crashes, whatever schema and object it is
// given (keywords of the wrong JSON type included), and ratcheting only ever drops errors: an
// update reports a subset of what a create of the same object reports.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "fakeapi/internal/crd/schema_validation.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

const std::vector<std::string> kSchemaKeys = {"a", "b", "name", "spec", "status", "kind", "x.y"};

json random_scalar() {
  switch (*rc::gen::inRange(0, 7)) {
    case 0:
      return nullptr;
    case 1:
      return *rc::gen::arbitrary<bool>();
    case 2:
      return *rc::gen::inRange<std::int64_t>(-3, 5);
    case 3:
      return *rc::gen::element(1.5, 3.0, -0.5, 1e300, 3000000000.0);
    case 4:
      return *rc::gen::element<std::string>("", "a", "abc", "2024-02-29", "10.0.0.1",
                                            "a@example.com", "\xff", std::string(40, 'x'));
    default:
      return *rc::gen::elementOf(kSchemaKeys);
  }
}

json random_json_value(int depth) {
  const int choice = *rc::gen::inRange(0, depth > 0 ? 9 : 7);
  if (choice < 7) return random_scalar();
  const int n = *rc::gen::inRange(0, 4);
  if (choice == 7) {
    json arr = json::array();
    for (int i = 0; i < n; ++i) {
      arr.push_back(*rc::gen::arbitrary<bool>() ? json{{"a", random_scalar()}}
                                                : random_json_value(depth - 1));
    }
    return arr;
  }
  json obj = json::object();
  for (int i = 0; i < n; ++i) obj[*rc::gen::elementOf(kSchemaKeys)] = random_json_value(depth - 1);
  return obj;
}

// A schema of random keywords, some with values of the wrong JSON type.
json random_schema(int depth) {
  json s = json::object();
  auto maybe = [] { return *rc::gen::inRange(0, 4) == 0; };
  if (maybe()) {
    s["type"] =
        *rc::gen::element<json>("object", "array", "string", "integer", "number", "boolean", "", 5);
  }
  if (maybe()) s["nullable"] = *rc::gen::arbitrary<bool>();
  if (maybe()) s["x-kubernetes-int-or-string"] = true;
  if (maybe()) {
    s["format"] = *rc::gen::element<json>("date", "date-time", "int32", "int64", "float", "uuid",
                                          "email", "hostname", "uri", "cidr", "bogus", 7);
  }
  if (maybe())
    s["enum"] =
        *rc::gen::arbitrary<bool>() ? json::array({random_scalar(), random_scalar()}) : json("x");
  for (const char* k : {"minimum", "maximum", "multipleOf"}) {
    if (maybe()) s[k] = *rc::gen::element<json>(0, 1, -1, 2.5, 0.5, 1e300, "x");
  }
  for (const char* k : {"exclusiveMinimum", "exclusiveMaximum", "uniqueItems"}) {
    if (maybe()) s[k] = *rc::gen::arbitrary<bool>();
  }
  for (const char* k :
       {"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}) {
    if (maybe()) s[k] = *rc::gen::element<json>(0, 1, 3, -1, "x", 1.5);
  }
  if (maybe())
    s["pattern"] = *rc::gen::element<json>("^[a-z]+$", "(", "(?i)A", "[0-9]", "(a)\\1", 3);
  if (maybe())
    s["required"] = *rc::gen::element<json>(json::array({"a", "name"}), json::array({1}), "a");
  if (maybe()) {
    s["x-kubernetes-list-type"] = *rc::gen::element<json>("map", "set", "atomic");
    s["x-kubernetes-list-map-keys"] =
        *rc::gen::element<json>(json::array({"a"}), json::array({1}), json::array());
  }
  if (depth == 0) return s;
  if (maybe() || maybe()) {
    json props = json::object();
    const int n = *rc::gen::inRange(0, 4);
    for (int i = 0; i < n; ++i) props[*rc::gen::elementOf(kSchemaKeys)] = random_schema(depth - 1);
    s["properties"] = props;
  }
  if (maybe())
    s["additionalProperties"] =
        *rc::gen::arbitrary<bool>() ? json(false) : random_schema(depth - 1);
  if (maybe())
    s["items"] =
        *rc::gen::arbitrary<bool>() ? random_schema(depth - 1) : json::array({json::object()});
  for (const char* k : {"anyOf", "oneOf", "allOf"}) {
    if (maybe()) s[k] = json::array({random_schema(depth - 1), random_schema(depth - 1)});
  }
  if (maybe()) s["not"] = random_schema(depth - 1);
  return s;
}

std::vector<std::string> causes(const internal::validation::FieldErrors& errs) {
  std::vector<std::string> out;
  for (const api::StatusCause& c : errs.causes()) out.push_back(c.field + ": " + c.message);
  return out;
}

RC_GTEST_PROP(SchemaValidationProperty, NeverThrowsAndRatchetingOnlyDropsErrors, ()) {
  const json schema = random_schema(2);
  const json now = random_json_value(3);
  json old = now;
  if (*rc::gen::arbitrary<bool>()) old = random_json_value(3);
  internal::validation::FieldErrors created;
  internal::validation::FieldErrors updated;
  internal::validate_custom_resource(schema, now, nullptr, created);
  internal::validate_custom_resource(schema, now, &old, updated);
  const std::vector<std::string> all = causes(created);
  const std::set<std::string> reported(all.begin(), all.end());
  for (const std::string& c : causes(updated)) RC_ASSERT(reported.count(c) == 1u);
  RC_ASSERT(updated.size() <= created.size());
  // The /status check of the same values, with the schema as a root's status.
  internal::validation::FieldErrors status;
  internal::validate_custom_resource_status({{"properties", {{"status", schema}}}}, now, &old,
                                            status);
}

}  // namespace
}  // namespace kubesim::fakeapi
