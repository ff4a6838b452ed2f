// Custom resources against their CRD's OpenAPI v3 schema (internal/crd/schema_validation.h): each
// keyword with kube-apiserver's field errors and messages, the order and merging of errors,
// anyOf/oneOf/allOf/not, the /status check and ratcheting on updates.
#include "fakeapi/internal/crd/schema_validation.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/api/status.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using Errors = std::vector<std::string>;

// A root schema whose spec has `props`, and whatever else `spec_extra` adds to spec's schema.
json spec_schema(const json& props, const json& spec_extra = json::object()) {
  json spec = {{"type", "object"}, {"properties", props}};
  spec.update(spec_extra);
  return {{"type", "object"}, {"properties", {{"spec", spec}}}};
}

// "<field>: <body>" of each cause, as the 422's message lists them.
Errors errors_of(const json& schema, const json& obj, const json* old = nullptr) {
  internal::validation::FieldErrors errs;
  internal::validate_custom_resource(schema, obj, old, errs);
  Errors out;
  for (const api::StatusCause& c : errs.causes()) out.push_back(c.field + ": " + c.message);
  return out;
}

std::vector<std::string> types_of(const json& schema, const json& obj) {
  internal::validation::FieldErrors errs;
  internal::validate_custom_resource(schema, obj, nullptr, errs);
  std::vector<std::string> out;
  for (const api::StatusCause& c : errs.causes()) out.push_back(c.type);
  return out;
}

json with(json base, const json& extra) {
  base.update(extra);
  return base;
}

json spec_of(const json& spec) {
  return {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"spec", spec}};
}

struct Case {
  const char* name;
  json props;
  json spec;
  Errors want;
};

class KeywordTest : public ::testing::TestWithParam<Case> {};

TEST_P(KeywordTest, GivesKubeApiServersFieldErrors) {
  const Case& c = GetParam();
  EXPECT_EQ(errors_of(spec_schema(c.props), spec_of(c.spec)), c.want) << c.name;
}

const json kReplicas = {{"replicas", {{"type", "integer"}}}};

INSTANTIATE_TEST_SUITE_P(
    Types, KeywordTest,
    ::testing::Values(
        Case{"string for integer",
             kReplicas,
             {{"replicas", "three"}},
             {"spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type "
              "integer: \"string\""}},
        Case{"whole float for integer", kReplicas, {{"replicas", 3.0}}, {}},
        Case{"fraction for integer",
             kReplicas,
             {{"replicas", 1.5}},
             {"spec.replicas: Invalid value: \"number\": spec.replicas in body must be of type "
              "integer: \"number\"",
              "<nil>: Invalid value: \"\": Checked value must be of type integer (default format) "
              "in spec.replicas"}},
        Case{"integer for number", {{"ratio", {{"type", "number"}}}}, {{"ratio", 3}}, {}},
        Case{"object for string",
             {{"name", {{"type", "string"}}}},
             {{"name", {{"a", 1}}}},
             {"spec.name: Invalid value: \"object\": spec.name in body must be of type string: "
              "\"object\""}},
        Case{"null for string",
             {{"name", {{"type", "string"}}}},
             {{"name", nullptr}},
             {"spec.name: Invalid value: \"null\": spec.name in body must be of type string: "
              "\"null\""}},
        Case{"null for nullable",
             {{"name", {{"type", "string"}, {"nullable", true}}}},
             {{"name", nullptr}},
             {}},
        Case{"int-or-string",
             {{"port", {{"x-kubernetes-int-or-string", true}}}},
             {{"port", true}},
             {"spec.port: Invalid value: \"boolean\": spec.port in body must be of type "
              "integer,string: \"boolean\""}},
        Case{"int-or-string takes both",
             {{"a", {{"x-kubernetes-int-or-string", true}}},
              {"b", {{"x-kubernetes-int-or-string", true}}}},
             {{"a", 80}, {"b", "http"}},
             {}},
        Case{"boolean for an int32",
             {{"count", {{"type", "integer"}, {"format", "int32"}}}},
             {{"count", true}},
             {"spec.count: Invalid value: \"\": spec.count in body must be of type int32: \"\""}},
        Case{"int32 range",
             {{"count", {{"type", "integer"}, {"format", "int32"}}}},
             {{"count", 3000000000}},
             {"<nil>: Invalid value: \"\": Checked value must be of type integer with format int32 "
              "in spec.count"}},
        Case{"integer for a string format",
             {{"when", {{"type", "string"}, {"format", "date"}}}},
             {{"when", 5}},
             {"spec.when: Invalid value: \"int64\": spec.when in body must be of type date: "
              "\"int64\""}}));

INSTANTIATE_TEST_SUITE_P(
    Values, KeywordTest,
    ::testing::Values(
        Case{"enum",
             {{"mode", {{"type", "string"}, {"enum", json::array({"auto", "manual"})}}}},
             {{"mode", "fast"}},
             {"spec.mode: Unsupported value: \"fast\": supported values: \"auto\", \"manual\""}},
        Case{"integer enum",
             {{"level", {{"type", "integer"}, {"enum", {1, 2}}}}},
             {{"level", 3}},
             {"spec.level: Unsupported value: 3: supported values: \"1\", \"2\""}},
        Case{"whole float in an integer enum",
             {{"level", {{"type", "integer"}, {"enum", {1, 2}}}}},
             {{"level", 2.0}},
             {}},
        Case{"minimum",
             {{"replicas", {{"type", "integer"}, {"minimum", 1}}}},
             {{"replicas", 0}},
             {"spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or "
              "equal to 1"}},
        Case{"exclusive maximum",
             {{"replicas", {{"type", "integer"}, {"maximum", 10}, {"exclusiveMaximum", true}}}},
             {{"replicas", 10}},
             {"spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10"}},
        Case{"float maximum",
             {{"ratio", {{"type", "number"}, {"maximum", 1}}}},
             {{"ratio", 1.5}},
             {"spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than or equal "
              "to 1"}},
        Case{"exclusive minimum",
             {{"ratio", {{"type", "number"}, {"minimum", 0.5}, {"exclusiveMinimum", true}}}},
             {{"ratio", 0.5}},
             {"spec.ratio: Invalid value: 0.5: spec.ratio in body should be greater than 0.5"}},
        Case{"multipleOf",
             {{"replicas", {{"type", "integer"}, {"multipleOf", 2}}}},
             {{"replicas", 7}},
             {"spec.replicas: Invalid value: 7: spec.replicas in body should be a multiple of 2"}},
        Case{"float multipleOf",
             {{"step", {{"type", "number"}, {"multipleOf", 0.5}}}},
             {{"step", 1.25}},
             {"spec.step: Invalid value: 1.25: spec.step in body should be a multiple of 0.5"}},
        Case{"minLength",
             {{"name", {{"type", "string"}, {"minLength", 3}}}},
             {{"name", "ab"}},
             {"spec.name: Invalid value: \"ab\": spec.name in body should be at least 3 chars "
              "long"}},
        Case{"maxLength",
             {{"name", {{"type", "string"}, {"maxLength", 3}}}},
             {{"name", "abcd"}},
             {"spec.name: Too long: may not be more than 3 bytes"}},
        Case{"maxLength counts runes",
             {{"name", {{"type", "string"}, {"maxLength", 3}}}},
             {{"name", "\xc3\xa9\xc3\xa9\xc3\xa9"}},
             {}},
        Case{"maxLength before pattern",
             {{"name", {{"type", "string"}, {"maxLength", 3}, {"pattern", "^[a-z]+$"}}}},
             {{"name", "ABCDE"}},
             {"spec.name: Too long: may not be more than 3 bytes"}},
        Case{"pattern",
             {{"name", {{"type", "string"}, {"pattern", "^[a-zA-Z0-9_]*$"}}}},
             {{"name", "foo_123!"}},
             {"spec.name: Invalid value: \"foo_123!\": spec.name in body should match "
              "'^[a-zA-Z0-9_]*$'"}},
        Case{"pattern searches",
             {{"name", {{"type", "string"}, {"pattern", "[0-9]"}}}},
             {{"name", "abc1def"}},
             {}},
        Case{"case-insensitive pattern",
             {{"name", {{"type", "string"}, {"pattern", "(?i)^abc$"}}}},
             {{"name", "ABC"}},
             {}},
        Case{"pattern that does not compile",
             {{"name", {{"type", "string"}, {"pattern", "(["}}}},
             {{"name", "anything"}},
             {}},
        Case{"format",
             {{"when", {{"type", "string"}, {"format", "date-time"}}}},
             {{"when", "yesterday"}},
             {"spec.when: Invalid value: \"yesterday\": spec.when in body must be of type "
              "date-time: \"yesterday\""}},
        Case{"valid format",
             {{"when", {{"type", "string"}, {"format", "date-time"}}}},
             {{"when", "2024-02-29T10:00:00Z"}},
             {}},
        Case{"unsupported format",
             {{"colour", {{"type", "string"}, {"format", "color"}}}},
             {{"colour", "anything"}},
             {}}));

const json kItems = {{"type", "array"}, {"items", {{"type", "string"}}}};

INSTANTIATE_TEST_SUITE_P(
    Containers, KeywordTest,
    ::testing::Values(
        Case{
            "items",
            {{"ports",
              {{"type", "array"},
               {"items",
                {{"type", "object"}, {"properties", {{"port", {{"type", "integer"}}}}}}}}}},
            {{"ports", json::array({{{"port", 1}}, {{"port", "http"}}})}},
            {"spec.ports[1].port: Invalid value: \"string\": spec.ports[1].port in body must be of "
             "type integer: \"string\""}},
        Case{"minItems",
             {{"items", with(kItems, {{"minItems", 1}})}},
             {{"items", json::array()}},
             {"spec.items: Invalid value: 0: spec.items in body should have at least 1 items"}},
        Case{"maxItems",
             {{"items", with(kItems, {{"maxItems", 2}})}},
             {{"items", {"a", "b", "c"}}},
             {"spec.items: Too many: 3: must have at most 2 items"}},
        Case{"uniqueItems",
             {{"items", with(kItems, {{"uniqueItems", true}})}},
             {{"items", {"a", "b", "a"}}},
             {"spec.items: Invalid value: \"\": spec.items in body shouldn't contain duplicates"}},
        Case{"additionalProperties",
             {{"labels", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}}},
             {{"labels", {{"a", 1}, {"b", "x"}}}},
             {"spec.labels.a: Invalid value: \"integer\": spec.labels.a in body must be of type "
              "string: \"integer\""}},
        Case{"additionalProperties false",
             {{"empty", {{"type", "object"}, {"additionalProperties", false}}}},
             {{"empty", {{"k", 1}}}},
             {"spec.empty: Invalid value: \"k\": spec.empty.k in body is a forbidden property"}},
        Case{"maxProperties",
             {{"labels",
               {{"type", "object"},
                {"maxProperties", 1},
                {"additionalProperties", {{"type", "string"}}}}}},
             {{"labels", {{"a", "1"}, {"b", "2"}}}},
             {"spec.labels: Too many: 2: must have at most 1 item"}},
        Case{"minProperties",
             {{"labels", {{"type", "object"}, {"minProperties", 1}}}},
             {{"labels", json::object()}},
             {"spec.labels: Invalid value: 0: spec.labels in body should have at least 1 "
              "properties"}},
        Case{"required",
             {{"inner", {{"type", "object"}, {"required", json::array({"name", "size"})}}}},
             {{"inner", {{"size", 1}}}},
             {"spec.inner.name: Required value"}}));

TEST(SchemaValidationTest, CauseTypesAreKubeApiServers) {
  const json schema = spec_schema({{"replicas", {{"type", "integer"}}},
                                   {"mode", {{"type", "string"}, {"enum", {"a"}}}},
                                   {"name", {{"type", "string"}, {"maxLength", 1}}},
                                   {"items", with(kItems, {{"maxItems", 0}})},
                                   {"ratio", {{"type", "number"}, {"minimum", 2}}}},
                                  {{"required", {"need"}}});
  const json obj =
      spec_of({{"replicas", "x"}, {"mode", "b"}, {"name", "long"}, {"items", {"a"}}, {"ratio", 1}});
  // Properties in key order, then the required ones.
  EXPECT_EQ(types_of(schema, obj),
            (std::vector<std::string>{"FieldValueTooMany", "FieldValueNotSupported",
                                      "FieldValueTooLong", "FieldValueInvalid",
                                      "FieldValueTypeInvalid", "FieldValueRequired"}));
}

TEST(SchemaValidationTest, RootRequiredAndTheStatusMessageListingTheCauses) {
  const json schema = {
      {"type", "object"}, {"required", {"spec"}}, {"properties", {{"spec", {{"type", "object"}}}}}};
  EXPECT_EQ(errors_of(schema, {{"kind", "Widget"}}), (Errors{"spec: Required value"}));
  internal::validation::FieldErrors errs;
  internal::validate_custom_resource(spec_schema(kReplicas), spec_of({{"replicas", "three"}}),
                                     nullptr, errs);
  const api::Status s =
      internal::validation::invalid_status({"example.com", "Widget"}, "w", errs.take());
  EXPECT_EQ(s.code, 422);
  EXPECT_EQ(s.message,
            "Widget.example.com \"w\" is invalid: spec.replicas: Invalid value: \"string\": "
            "spec.replicas in body must be of type integer: \"string\"");
}

TEST(SchemaValidationTest, MetadataIsCheckedByTheSchemaItDeclares) {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"metadata",
                          {{"type", "object"},
                           {"properties", {{"name", {{"type", "string"}, {"maxLength", 5}}}}}}}}}};
  EXPECT_EQ(errors_of(schema, {{"metadata", {{"name", "too-long"}}}}),
            (Errors{"metadata.name: Too long: may not be more than 5 bytes"}));
  EXPECT_TRUE(errors_of(spec_schema(kReplicas), {{"metadata", {{"name", 5}}}}).empty());
}

TEST(SchemaValidationTest, NoSchemaValidatesNothing) {
  EXPECT_TRUE(errors_of(json(), spec_of({{"replicas", "three"}})).empty());
}

const json kAnyAB = {{"anyOf", {{{"required", {"a"}}}, {{"required", {"b"}}}}}};

TEST(SchemaValidationTest, AnyOfReportsItsBestFailureUnderTheNilPath) {
  EXPECT_EQ(
      errors_of(spec_schema(json::object(), kAnyAB), spec_of(json::object())),
      (Errors{"<nil>: Invalid value: \"\": \"spec\" must validate at least one schema (anyOf)",
              "spec.a: Required value"}));
  EXPECT_TRUE(errors_of(spec_schema(json::object(), kAnyAB), spec_of({{"b", 1}})).empty());
}

TEST(SchemaValidationTest, AnyOfPrefersTheAlternativeThatMatchedMore) {
  // Both alternatives fail; the second applies more validators (its type), so its failure is
  // the one reported.
  const json props = {
      {"v", {{"anyOf", {{{"minLength", 10}}, {{"type", "string"}, {"maxLength", 2}}}}}}};
  EXPECT_EQ(
      errors_of(spec_schema(props), spec_of({{"v", "long"}})),
      (Errors{"<nil>: Invalid value: \"\": \"spec.v\" must validate at least one schema (anyOf)",
              "spec.v: Too long: may not be more than 2 bytes"}));
}

TEST(SchemaValidationTest, OneOfAllOfAndNot) {
  const json one = {{"oneOf", {{{"required", {"a"}}}, {{"required", {"b"}}}}}};
  EXPECT_EQ(errors_of(spec_schema(json::object(), one), spec_of({{"a", 1}, {"b", 2}})),
            (Errors{"<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema "
                    "(oneOf). Found 2 valid alternatives"}));
  EXPECT_EQ(errors_of(spec_schema(json::object(), one), spec_of(json::object())),
            (Errors{"<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema "
                    "(oneOf). Found none valid",
                    "spec.a: Required value"}));
  EXPECT_TRUE(errors_of(spec_schema(json::object(), one), spec_of({{"b", 2}})).empty());
  const json all = {{"allOf", {{{"required", {"a"}}}, {{"required", {"b"}}}}}};
  EXPECT_EQ(errors_of(spec_schema(json::object(), all), spec_of({{"a", 1}})),
            (Errors{"spec.b: Required value",
                    "<nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf)"}));
  EXPECT_EQ(errors_of(spec_schema(json::object(), all), spec_of(json::object())),
            (Errors{"spec.a: Required value", "spec.b: Required value",
                    "<nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf). "
                    "None validated"}));
  const json no = {{"not", {{"required", {"legacy"}}}}};
  EXPECT_EQ(errors_of(spec_schema(json::object(), no), spec_of({{"legacy", true}})),
            (Errors{"<nil>: Invalid value: \"\": \"spec\" must not validate the schema (not)"}));
}

TEST(SchemaValidationTest, AMessageFoundTwiceIsReportedOnce) {
  const json props = {{"x", {{"type", "integer"}, {"allOf", {{{"type", "integer"}}}}}}};
  EXPECT_EQ(errors_of(spec_schema(props), spec_of({{"x", "a"}})),
            (Errors{"spec.x: Invalid value: \"string\": spec.x in body must be of type integer: "
                    "\"string\"",
                    "<nil>: Invalid value: \"\": \"spec.x\" must validate all the schemas (allOf). "
                    "None validated"}));
}

TEST(SchemaValidationTest, StatusIsNamedUnderStatusAndItsMessagesRelativeToIt) {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"status",
                          {{"type", "object"},
                           {"properties", {{"replicas", {{"type", "integer"}}}}},
                           {"anyOf", {{{"required", {"replicas"}}}}}}}}}};
  internal::validation::FieldErrors errs;
  internal::validate_custom_resource_status(schema, {{"replicas", "x"}}, nullptr, errs);
  Errors got;
  for (const api::StatusCause& c : errs.causes()) got.push_back(c.field + ": " + c.message);
  EXPECT_EQ(got, (Errors{"status.replicas: Invalid value: \"string\": replicas in body must be of "
                         "type integer: \"string\""}));
  internal::validation::FieldErrors none;
  internal::validate_custom_resource_status(schema, json::object(), nullptr, none);
  ASSERT_EQ(none.size(), 2u);
  EXPECT_EQ(none.causes()[0].field, "status");
  EXPECT_EQ(none.causes()[0].message,
            "Invalid value: \"\": \"\" must validate at least one schema (anyOf)");
  EXPECT_EQ(none.causes()[1].field, "status.replicas");
}

// --- Ratcheting -------------------------------------------------------------------------------

const json kRatchetSchema = spec_schema(
    {{"replicas", {{"type", "integer"}, {"minimum", 1}}},
     {"name", {{"type", "string"}}},
     {"labels", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
     {"ports",
      {{"type", "array"},
       {"x-kubernetes-list-type", "map"},
       {"x-kubernetes-list-map-keys", {"name"}},
       {"items",
        {{"type", "object"},
         {"properties",
          {{"name", {{"type", "string"}}}, {"port", {{"type", "integer"}, {"minimum", 1}}}}}}}}},
     {"hosts",
      {{"type", "array"},
       {"items",
        {{"type", "object"}, {"properties", {{"port", {{"type", "integer"}, {"minimum", 1}}}}}}}}}},
    {{"required", {"name"}}});

TEST(SchemaRatchetingTest, AnUnchangedInvalidValueIsNotReported) {
  const json old = spec_of({{"replicas", 0}, {"name", "a"}});
  const json now = spec_of({{"replicas", 0}, {"name", "b"}});
  EXPECT_TRUE(errors_of(kRatchetSchema, now, &old).empty());
  // Without the stored object (a create) it is.
  EXPECT_EQ(errors_of(kRatchetSchema, now),
            (Errors{"spec.replicas: Invalid value: 0: spec.replicas in body should be greater than "
                    "or equal to 1"}));
  // A changed value is reported, even if the stored one was invalid too.
  const json worse = spec_of({{"replicas", -1}, {"name", "a"}});
  EXPECT_EQ(
      errors_of(kRatchetSchema, worse, &old),
      (Errors{"spec.replicas: Invalid value: -1: spec.replicas in body should be greater than "
              "or equal to 1"}));
}

TEST(SchemaRatchetingTest, MapListItemsCorrespondByTheirKeys) {
  const json old =
      spec_of({{"name", "a"}, {"ports", json::array({{{"name", "http"}, {"port", 0}}})}});
  const json moved = spec_of(
      {{"name", "a"},
       {"ports", json::array({{{"name", "grpc"}, {"port", 5}}, {{"name", "http"}, {"port", 0}}})}});
  EXPECT_TRUE(errors_of(kRatchetSchema, moved, &old).empty());
  const json renamed =
      spec_of({{"name", "a"}, {"ports", json::array({{{"name", "web"}, {"port", 0}}})}});
  EXPECT_EQ(errors_of(kRatchetSchema, renamed, &old),
            (Errors{"spec.ports[0].port: Invalid value: 0: spec.ports[0].port in body should be "
                    "greater than or equal to 1"}));
}

TEST(SchemaRatchetingTest, OtherListsRatchetOnlyWhenTheWholeListIsUnchanged) {
  const json old = spec_of({{"name", "a"}, {"hosts", json::array({{{"port", 0}}})}});
  const json same = spec_of({{"name", "b"}, {"hosts", json::array({{{"port", 0}}})}});
  EXPECT_TRUE(errors_of(kRatchetSchema, same, &old).empty());
  const json grown =
      spec_of({{"name", "a"}, {"hosts", json::array({{{"port", 0}}, {{"port", 2}}})}});
  EXPECT_EQ(errors_of(kRatchetSchema, grown, &old),
            (Errors{"spec.hosts[0].port: Invalid value: 0: spec.hosts[0].port in body should be "
                    "greater than or equal to 1"}));
}

TEST(SchemaRatchetingTest, MapMembersCorrespondByKeyAndTheParentsOwnErrorsRatchetWithIt) {
  const json old = spec_of({{"labels", {{"a", 1}}}});
  const json now = spec_of({{"labels", {{"a", 1}, {"b", "x"}}}});
  // labels.a is unchanged; spec changed, so its missing name is reported.
  EXPECT_EQ(errors_of(kRatchetSchema, now, &old), (Errors{"spec.name: Required value"}));
  const json same_spec = {{"apiVersion", "example.com/v1"},
                          {"kind", "Widget"},
                          {"spec", {{"labels", {{"a", 1}}}}},
                          {"status", {{"x", 1}}}};
  const json old_spec = {
      {"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"spec", {{"labels", {{"a", 1}}}}}};
  EXPECT_TRUE(errors_of(kRatchetSchema, same_spec, &old_spec).empty());
}

TEST(SchemaRatchetingTest, ApiVersionAndKindAtTheRootAreAlwaysValidated) {
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"kind", {{"type", "string"}, {"maxLength", 3}}},
        {"spec", {{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}}}}}};
  const json old = {{"kind", "Widget"}, {"spec", {{"n", 1}}}};
  const json now = {{"kind", "Widget"}, {"spec", {{"n", 2}}}};
  EXPECT_EQ(errors_of(schema, now, &old), (Errors{"kind: Too long: may not be more than 3 bytes"}));
}

TEST(SchemaRatchetingTest, StatusRatchetsAgainstTheStoredStatus) {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"status",
                          {{"type", "object"},
                           {"properties",
                            {{"ready", {{"type", "integer"}, {"minimum", 1}}},
                             {"phase", {{"type", "string"}}}}}}}}}};
  const json old_status = {{"ready", 0}, {"phase", "A"}};
  internal::validation::FieldErrors kept;
  internal::validate_custom_resource_status(schema, {{"ready", 0}, {"phase", "B"}}, &old_status,
                                            kept);
  EXPECT_TRUE(kept.empty());
  const json none;
  internal::validation::FieldErrors fresh;
  internal::validate_custom_resource_status(schema, {{"ready", 0}}, &none, fresh);
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_EQ(fresh.causes()[0].field, "status.ready");
}

}  // namespace
}  // namespace kubesim::fakeapi
