// Objects from kubesim::testing::gen are accepted by a real fakeapi::ApiServer: built-in kinds,
// objects of a CRD's schema (which the server validates them against), and workloads of creates,
// updates and deletes run in order.
#include "kubesim/testing/generators.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/api/yaml.h"
#include "kubesim/fakeapi/server.h"
#include "tests/testing/generators/fixtures.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;

RC_GTEST_PROP(GeneratorObjects, BuiltinObjectsAreCreated, ()) {
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  const json object = *rc::gen::oneOf(gen::builtin_object(), gen::namespace_());
  RC_ASSERT(create(server, object) == std::string());
}

RC_GTEST_PROP(GeneratorObjects, ObjectsInAGeneratedNamespaceAreCreated, ()) {
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  const json ns = *gen::namespace_();
  RC_ASSERT(create(server, ns) == std::string());
  RC_ASSERT(create(server, *gen::builtin_object(ns["metadata"]["name"])) == std::string());
}

RC_GTEST_PROP(GeneratorObjects, CustomObjectsAreValidForTheirSchema, ()) {
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  const json crd = gadget_crd();
  RC_ASSERT(create(server, crd) == std::string());
  const json gadget = *gen::custom_object(crd);
  RC_ASSERT(create(server, gadget) == std::string());
}

RC_GTEST_PROP(GeneratorObjects, ClusterScopedCustomObjectsHaveNoNamespace, ()) {
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  json crd = gadget_crd();
  crd["spec"]["scope"] = "Cluster";
  RC_ASSERT(create(server, crd) == std::string());
  const json gadget = *gen::custom_object(crd);
  RC_ASSERT(!gadget["metadata"].contains("namespace"));
  RC_ASSERT(create(server, gadget) == std::string());
}

TEST(GeneratorObjects, CustomObjectsLeaveOutTheStatusOfAStatusSubresource) {
  rc::check("no status", [] { RC_ASSERT(!(*gen::custom_object(gadget_crd())).contains("status")); });
}

RC_GTEST_PROP(GeneratorWorkloads, StepsRunInOrderAreAccepted, ()) {
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  const auto steps = *gen::workload(rc::gen::oneOf(gen::config_map(), gen::lease()));
  for (const gen::WorkloadStep& step : steps) {
    RC_ASSERT(run_step(server, step) == std::string());
  }
}

TEST(GeneratorWorkloads, UpdatesAndDeletesOnlyFollowACreate) {
  rc::check("in order", [] {
    std::set<std::string> live;
    for (const gen::WorkloadStep& step : *gen::workload(gen::config_map(), 2, 20)) {
      const std::string name = step.object["metadata"]["name"];
      RC_ASSERT(name.rfind("configmap-", 0) == 0u);
      if (step.op == gen::WorkloadStep::Op::kCreate) {
        RC_ASSERT(live.insert(name).second);
      } else {
        RC_ASSERT(live.contains(name));
        if (step.op == gen::WorkloadStep::Op::kDelete) live.erase(name);
      }
    }
  });
}

struct Unsupported {
  const char* schema;  // YAML
  const char* message;
};

class GeneratorSchemaErrors : public ::testing::TestWithParam<Unsupported> {};

TEST_P(GeneratorSchemaErrors, NameWhatCannotBeGenerated) {
  const json schema = api::yaml_to_json(GetParam().schema).value();
  try {
    (void)gen::schema_value(schema, {}, "spec");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), GetParam().message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, GeneratorSchemaErrors,
    ::testing::Values(
        Unsupported{"{type: string, pattern: '^a'}", "gen::schema_value: spec: pattern is not supported"},
        Unsupported{"{type: object, properties: {a: {type: object, properties: {b: {anyOf: []}}}}}",
                    "gen::schema_value: spec.a.b: anyOf is not supported"},
        Unsupported{"{type: string, format: uuid}", "gen::schema_value: spec: format \"uuid\" is not supported"},
        Unsupported{"{type: array}", "gen::schema_value: spec: array without items"},
        Unsupported{"{type: array, items: {type: map}}", "gen::schema_value: spec[*]: type \"map\" is not supported"},
        Unsupported{"{type: integer, minimum: 5, maximum: 3}", "gen::schema_value: spec: empty range [5, 3]"},
        Unsupported{"{type: integer, minimum: 1, maximum: 4, multipleOf: 5}",
                    "gen::schema_value: spec: no multiple of 5 in range"},
        Unsupported{"{type: string, minLength: 4, maxLength: 2}", "gen::schema_value: spec: maxLength below minLength"},
        Unsupported{"{enum: []}", "gen::schema_value: spec: empty enum"},
        Unsupported{"{type: object, x-kubernetes-embedded-resource: true}",
                    "gen::schema_value: spec: x-kubernetes-embedded-resource is not supported"}));

TEST(GeneratorSchemaErrors, ACrdWithoutServedVersionsOrNoCrdIsRefused) {
  json crd = gadget_crd();
  for (json& v : crd["spec"]["versions"]) v["served"] = false, v["storage"] = false;
  EXPECT_THROW(
      {
        try {
          (void)gen::custom_object(crd);
        } catch (const std::invalid_argument& e) {
          EXPECT_STREQ(e.what(), "gen::custom_object: the CRD has no served version");
          throw;
        }
      },
      std::invalid_argument);
  try {
    (void)gen::custom_object(json{{"kind", "ConfigMap"}});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "gen::custom_object: not a CRD");
  }
}

}  // namespace
}  // namespace kubesim::testing
