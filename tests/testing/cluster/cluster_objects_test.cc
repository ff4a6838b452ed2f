// SimCluster's objects: apply_yaml / apply (CRDs served at once, create or replace), crd_file, and
// get / list / patch / remove through the server's synchronous methods; every refusal's message.
#include "kubesim/testing/cluster.h"

#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/scenarios/controllers.h"

namespace kubesim::testing {
namespace {

const api::GroupVersionResource kGadgets{"example.com", "v1", "gadgets"};

constexpr char kGadgetCrd[] = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
)";

std::string crd_then_objects() {
  return std::string(kGadgetCrd) + R"(---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g1}
spec: {size: 3}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c1, namespace: kube-system}
data: {a: "1"}
)";
}

// The message of the std::runtime_error `fn` throws ("" when it throws none).
template <class Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ClusterObjectsTest, ApplyYamlAppliesACrdAndThenItsObjects) {
  SimCluster c;
  const auto applied = c.apply_yaml(crd_then_objects());
  ASSERT_EQ(applied.size(), 3u);
  EXPECT_EQ(applied[0]->name(), "gadgets.example.com");
  auto gadget = c.get(kGadgets, "default", "g1");
  ASSERT_TRUE(gadget.ok()) << gadget.status().message;
  EXPECT_EQ(gadget.value()->value_at("spec.size"), 3);
  EXPECT_EQ(gadget.value()->namespace_(), "default");
  auto cm = c.get(api::kConfigMaps, "kube-system", "c1");
  ASSERT_TRUE(cm.ok());
  EXPECT_EQ(cm.value()->value_at("data.a"), "1");
}

TEST(ClusterObjectsTest, ApplyReplacesAnExistingObjectWhateverItsVersion) {
  SimCluster c;
  c.apply({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}, {"data", {{"a", "1"}}}});
  ASSERT_TRUE(c.patch(api::kConfigMaps, "default", "c", {{"data", {{"b", "2"}}}}).ok());
  const auto replaced =
      c.apply({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}, {"data", {{"a", "9"}}}});
  EXPECT_EQ(replaced->value_at("data"), nlohmann::json({{"a", "9"}}));
  EXPECT_EQ(c.list(api::kConfigMaps, "default").size(), 1u);
}

struct ApplyErrorCase {
  const char* name;
  std::string yaml;
  std::string message;
};

class ApplyYamlErrorTest : public ::testing::TestWithParam<ApplyErrorCase> {};

TEST_P(ApplyYamlErrorTest, ThrowsTheServersMessageNamingTheDocument) {
  SimCluster c;
  EXPECT_EQ(error_of([&] { c.apply_yaml(GetParam().yaml); }), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ApplyYamlErrorTest,
    ::testing::Values(
        ApplyErrorCase{"UnknownKind", "apiVersion: v1\nkind: Gizmo\nmetadata: {name: x}\n",
                       "apply_yaml: document 1 of 1 (Gizmo x): the server does not serve apiVersion \"v1\", kind "
                       "\"Gizmo\""},
        ApplyErrorCase{"CustomKindBeforeItsCrd", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n",
                       "apply_yaml: document 1 of 1 (Gadget g): the server does not serve apiVersion "
                       "\"example.com/v1\", kind \"Gadget\""},
        ApplyErrorCase{"MissingNamespace",
                       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: nope}\n",
                       "apply_yaml: document 1 of 1 (ConfigMap nope/c): namespaces \"nope\" not found"},
        ApplyErrorCase{"InvalidName", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n",
                       "apply_yaml: document 1 of 1 (ConfigMap Bad_Name): ConfigMap \"Bad_Name\" is invalid: "
                       "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of "
                       "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
                       "character (e.g. 'example.com', regex used for validation is "
                       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
        ApplyErrorCase{"NoKind", "apiVersion: v1\nmetadata: {name: c}\n",
                       "apply_yaml: document 1 of 1 (object c): the document has no kind"},
        ApplyErrorCase{"NoApiVersion", "kind: ConfigMap\nmetadata: {name: c}\n",
                       "apply_yaml: document 1 of 1 (ConfigMap c): the document has no apiVersion"},
        ApplyErrorCase{"BadYaml", "a: [1, 2\n",
                       "apply_yaml: error converting YAML to JSON: yaml: line 2, column 1: end of sequence flow not "
                       "found"},
        ApplyErrorCase{"SecondOfThree",
                       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
                       "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: gone}\n---\n"
                       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
                       "apply_yaml: document 2 of 3 (Secret gone/s): namespaces \"gone\" not found"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ClusterObjectsTest, ApplyYamlStopsAtTheFirstRefusedDocumentKeepingTheOnesBefore) {
  SimCluster c;
  EXPECT_THROW(c.apply_yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
                            "apiVersion: v1\nkind: Gizmo\nmetadata: {name: x}\n---\n"
                            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"),
               std::runtime_error);
  EXPECT_TRUE(c.get(api::kConfigMaps, "default", "a").ok());
  EXPECT_TRUE(api::is_not_found(c.get(api::kConfigMaps, "default", "b").status()));
}

TEST(ClusterObjectsTest, ApplyNamesItsObject) {
  SimCluster c;
  EXPECT_EQ(error_of([&] { c.apply({{"apiVersion", "v1"}, {"kind", "Gizmo"}, {"metadata", {{"name", "x"}}}}); }),
            "apply (Gizmo x): the server does not serve apiVersion \"v1\", kind \"Gizmo\"");
}

TEST(ClusterObjectsTest, CrdFileServesItsResourcesAtOnce) {
  const std::string path = ::testing::TempDir() + "cluster_objects_test.crd.yaml";
  std::ofstream(path) << kGadgetCrd;
  SimCluster c(ClusterOptions().crd_file(path));
  c.apply_yaml("{apiVersion: example.com/v1, kind: Gadget, metadata: {name: g}}");
  EXPECT_EQ(c.list(kGadgets).size(), 1u);
}

TEST(ClusterObjectsTest, CrdFileThatCannotBeReadThrows) {
  SimCluster c;
  EXPECT_EQ(error_of([&] { c.crd_file("/nonexistent/widgets.crd.yaml"); }),
            "crd_file: cannot read \"/nonexistent/widgets.crd.yaml\"");
  EXPECT_EQ(error_of([] { SimCluster bad(ClusterOptions().crd_file("/nonexistent/x.yaml")); }),
            "crd_file: cannot read \"/nonexistent/x.yaml\"");
}

TEST(ClusterObjectsTest, OptionsCrdIsServedAtOnce) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  c.apply_yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1}, spec: {replicas: 2}}");
  EXPECT_EQ(c.list(scenarios::kWidgets, "default").size(), 1u);
}

TEST(ClusterObjectsTest, ApplyIgnoresTheStatusOfAKindWithAStatusSubresource) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  const char* widget =
      "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1}, spec: {replicas: 2}, "
      "status: {readyReplicas: 2}}";
  EXPECT_TRUE(c.apply_yaml(widget)[0]->value_at("status.readyReplicas").is_null());
  EXPECT_TRUE(c.apply_yaml(widget)[0]->value_at("status.readyReplicas").is_null());
}

TEST(ClusterObjectsTest, ListIsInKeyOrderAndRefusesAnUnservedResource) {
  SimCluster c;
  c.apply_yaml(
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n---\n"
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n---\n"
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: z, namespace: kube-public}}\n");
  std::vector<std::string> keys;
  for (const auto& o : c.list(api::kConfigMaps)) keys.push_back(o->key().str());
  EXPECT_EQ(keys, (std::vector<std::string>{"default/a", "default/b", "kube-public/z"}));
  EXPECT_EQ(c.list(api::kConfigMaps, "default").size(), 2u);
  // A resource the server does not serve is a mistake of the test, not "no objects".
  try {
    c.list(kGadgets);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "SimCluster::list: the API server does not serve gadgets.example.com/v1 (a typo, or a "
                           "CustomResourceDefinition not installed?)");
  }
}

TEST(ClusterObjectsTest, PatchMergesIntoTheObjectOrItsStatus) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  c.apply_yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1}, spec: {replicas: 2}}");
  auto status = c.patch(scenarios::kWidgets, "default", "w1", {{"status", {{"readyReplicas", 2}}}}, "status");
  ASSERT_TRUE(status.ok()) << status.status().message;
  EXPECT_EQ(status.value()->value_at("status.readyReplicas"), 2);
  // On the main resource a status change is ignored, as kube-apiserver ignores it.
  auto main = c.patch(scenarios::kWidgets, "default", "w1",
                      {{"spec", {{"replicas", 3}}}, {"status", {{"readyReplicas", 0}}}});
  ASSERT_TRUE(main.ok());
  EXPECT_EQ(main.value()->value_at("spec.replicas"), 3);
  EXPECT_EQ(main.value()->value_at("status.readyReplicas"), 2);
  EXPECT_TRUE(api::is_not_found(c.patch(scenarios::kWidgets, "default", "nope", {{"spec", {}}}).status()));
}

TEST(ClusterObjectsTest, PatchYamlTakesTheMergePatchAsText) {
  SimCluster c(ClusterOptions().crd(scenarios::widget_crd()));
  c.apply_yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1}, spec: {replicas: 2}}");
  auto patched = c.patch_yaml(scenarios::kWidgets, "default", "w1", "{spec: {replicas: 1}}");
  ASSERT_TRUE(patched.ok()) << patched.status().message;
  EXPECT_EQ(patched.value()->value_at("spec.replicas"), 1);
  auto status = c.patch_yaml(scenarios::kWidgets, "default", "w1", "status:\n  readyReplicas: 1\n", "status");
  ASSERT_TRUE(status.ok()) << status.status().message;
  EXPECT_EQ(status.value()->value_at("status.readyReplicas"), 1);
  const std::string version(status.value()->resource_version());

  // Text that is not a YAML object is a 400 and changes nothing.
  for (const char* bad : {"{spec: {replicas: 1}", "[1, 2]", "3", ""}) {
    auto refused = c.patch_yaml(scenarios::kWidgets, "default", "w1", bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.status().code, 400) << bad << ": " << refused.status().message;
  }
  EXPECT_EQ(c.get(scenarios::kWidgets, "default", "w1").value()->resource_version(), version);
}

TEST(ClusterObjectsTest, RemoveDeletesAndGetSaysNotFound) {
  SimCluster c;
  c.apply_yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}");
  ASSERT_TRUE(c.remove(api::kConfigMaps, "default", "a").ok());
  const auto got = c.get(api::kConfigMaps, "default", "a");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message, "configmaps \"a\" not found");
  EXPECT_TRUE(api::is_not_found(c.remove(api::kConfigMaps, "default", "a").status()));
}

}  // namespace
}  // namespace kubesim::testing
