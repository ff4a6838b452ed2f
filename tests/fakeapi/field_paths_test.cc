// lookup_field: what a kind's schema says of a field path — built-in kinds from their Go type
// tables, custom resources from their openAPIV3Schema, metadata from ObjectMeta.
#include "kubesim/fakeapi/field_paths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/registry.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using Verdict = FieldLookup::Verdict;

const ResourceInfo& served(const api::GroupVersionResource& gvr) {
  static const Registry registry;
  const ResourceInfo* info = registry.find(gvr);
  EXPECT_NE(info, nullptr) << gvr.resource;
  return *info;
}

TEST(FieldPathsTest, BuiltInKindsAnswerFromTheirGoTypes) {
  const ResourceInfo& deployments = served(api::kDeployments);
  EXPECT_EQ(lookup_field(deployments, "spec.replicas").verdict, Verdict::kKnown);
  EXPECT_EQ(lookup_field(deployments, "spec.replicas").type, FieldType::kInteger);
  EXPECT_EQ(lookup_field(deployments, "status.readyReplicas").type, FieldType::kInteger);
  EXPECT_EQ(lookup_field(deployments, "spec.template.spec.containers").type, FieldType::kList);
  EXPECT_EQ(lookup_field(deployments, "spec.paused").type, FieldType::kBoolean);
  EXPECT_EQ(lookup_field(deployments, "spec.strategy.rollingUpdate.maxSurge").type, FieldType::kAny);
  EXPECT_EQ(lookup_field(deployments, "kind").type, FieldType::kString);
  EXPECT_EQ(lookup_field(deployments, "metadata.labels.app").type, FieldType::kString);
  EXPECT_EQ(lookup_field(deployments, "metadata.creationTimestamp").type, FieldType::kString);

  const FieldLookup typo = lookup_field(deployments, "spec.replica");
  EXPECT_EQ(typo.verdict, Verdict::kUnknown);
  EXPECT_EQ(typo.problem.rfind("Deployment's spec has no field \"replica\"; its fields: ", 0), 0u) << typo.problem;
  EXPECT_NE(typo.problem.find("replicas"), std::string::npos);
  EXPECT_EQ(lookup_field(deployments, "spec.template.spec.containers.image").problem,
            "Deployment's spec.template.spec.containers has no field \"image\" (spec.template.spec.containers "
            "is a list: a path cannot step into its elements)");
  EXPECT_EQ(lookup_field(deployments, "spec.replicas.x").problem,
            "Deployment's spec.replicas has no field \"x\" (spec.replicas is an integer)");
  EXPECT_EQ(lookup_field(deployments, "metadata.lables.app").problem.rfind(
                "Deployment's metadata has no field \"lables\"; its fields: ", 0),
            0u);
}

TEST(FieldPathsTest, MapsTakeAnyKey) {
  const ResourceInfo& config_maps = served(api::kConfigMaps);
  EXPECT_EQ(lookup_field(config_maps, "data").type, FieldType::kMap);
  EXPECT_EQ(lookup_field(config_maps, "data.anything").type, FieldType::kString);
  EXPECT_EQ(lookup_field(config_maps, "data.k.deeper").problem, "ConfigMap's data.k has no field \"deeper\" (data.k is a string)");
  const FieldLookup top = lookup_field(config_maps, "dta.k");
  EXPECT_EQ(top.problem, "ConfigMap has no field \"dta\"; its fields: apiVersion, binaryData, data, immutable, kind, metadata");
}

TEST(FieldPathsTest, CustomResourcesAnswerFromTheirSchema) {
  Registry registry;
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"spec",
         {{"type", "object"},
          {"properties",
           {{"replicas", {{"type", "integer"}}},
            {"port", {{"x-kubernetes-int-or-string", true}}},
            {"labels", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
            {"extra", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}},
        {"status", {{"type", "object"}, {"properties", {{"ready", {{"type", "integer"}}}}}}}}}};
  auto infos = registry.parse_crd(testutil::widget_crd_with_schema(schema)->json());
  ASSERT_TRUE(infos.ok()) << infos.status().message;
  const ResourceInfo& widgets = infos.value().front();
  EXPECT_EQ(lookup_field(widgets, "spec.replicas").type, FieldType::kInteger);
  EXPECT_EQ(lookup_field(widgets, "spec.port").type, FieldType::kAny);
  EXPECT_EQ(lookup_field(widgets, "spec.labels.any").type, FieldType::kString);
  EXPECT_EQ(lookup_field(widgets, "spec.extra.whatever.below").verdict, Verdict::kUnchecked);
  EXPECT_EQ(lookup_field(widgets, "metadata.name").type, FieldType::kString);
  EXPECT_EQ(lookup_field(widgets, "spec.replica").problem,
            "Widget's spec has no field \"replica\"; its fields: extra, labels, port, replicas");
  EXPECT_EQ(lookup_field(widgets, "spec.replicas.x").problem, "Widget's spec.replicas has no field \"x\" (spec.replicas is an integer)");
  EXPECT_EQ(lookup_field(widgets, "sepc").problem,
            "Widget has no field \"sepc\"; its fields: apiVersion, kind, metadata, spec, status");

  // Without a schema nothing can be said (but of metadata).
  ResourceInfo open = widgets;
  open.schema = json();
  EXPECT_EQ(lookup_field(open, "spec.anything").verdict, Verdict::kUnchecked);
  EXPECT_EQ(lookup_field(open, "metadata.nmae").verdict, Verdict::kUnknown);
}

}  // namespace
}  // namespace kubesim::fakeapi
