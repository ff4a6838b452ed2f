#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/validation.h"
#include "tests/fakeapi/validation_test_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace validation_testing;  // NOLINT: test helpers

struct MetaCase {
  const char* name;
  Json metadata;        // merged into the ConfigMap's metadata; null members are removed
  std::string message;  // "" when valid
};

Json config_map_with(const Json& patch) {
  Json cm = config_map();
  cm["metadata"].merge_patch(patch);
  return cm;
}

TEST(ValidationMetaTest, CreateChecksObjectMeta) {
  const std::string invalid = "ConfigMap \"cm\" is invalid: ";
  const std::string owner_required =
      "[metadata.ownerReferences[0].apiVersion: Required value: must not be empty, "
      "metadata.ownerReferences[0].kind: Required value: must not be empty, "
      "metadata.ownerReferences[0].name: Required value: must not be empty, "
      "metadata.ownerReferences[0].uid: Required value: must not be empty]";
  const std::vector<MetaCase> cases = {
      {"valid", Json::object(), ""},
      {"no name",
       {{"name", nullptr}},
       "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is "
       "required"},
      {"generateName only", {{"name", nullptr}, {"generateName", "cm-"}}, ""},
      {"bad generateName",
       {{"name", nullptr}, {"generateName", "Cm-"}},
       "ConfigMap \"\" is invalid: metadata.generateName: Invalid value: \"Cm-\": " +
           kSubdomainMsg},
      {"bad name",
       {{"name", "Bad_Name"}},
       "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " +
           kSubdomainMsg},
      {"long name",
       {{"name", std::string(254, 'a')}},
       "ConfigMap \"" + std::string(254, 'a') + "\" is invalid: metadata.name: Invalid value: \"" +
           std::string(254, 'a') + "\": must be no more than 253 characters"},
      {"label key",
       {{"labels", {{"a b", "x"}}}},
       invalid + "metadata.labels: Invalid value: \"a b\": " + kNamePartMsg},
      {"label value",
       {{"labels", {{"app", "-x"}}}},
       invalid + "metadata.labels: Invalid value: \"-x\": " + kLabelValueMsg},
      {"long label value",
       {{"labels", {{"app", std::string(64, 'v')}}}},
       invalid + "metadata.labels: Invalid value: \"" + std::string(64, 'v') +
           "\": must be no more than 63 bytes"},
      {"annotation key case-insensitive", {{"annotations", {{"Example.com/Key", "v"}}}}, ""},
      {"annotation key",
       {{"annotations", {{"-bad", "v"}}}},
       invalid + "metadata.annotations: Invalid value: \"-bad\": " + kNamePartMsg},
      {"annotations too large",
       {{"annotations", {{"k", std::string(262144, 'x')}}}},
       invalid + "metadata.annotations: Too long: may not be more than 262144 bytes"},
      {"qualified finalizer", {{"finalizers", {"example.com/cleanup", "kubernetes"}}}, ""},
      {"unqualified finalizer",
       {{"finalizers", {"example.com/cleanup", "custom"}}},
       invalid + "metadata.finalizers[1]: Invalid value: \"custom\": name is neither a standard "
                 "finalizer name nor "
                 "is it fully qualified"},
      {"conflicting finalizers",
       {{"finalizers", {"orphan", "foregroundDeletion"}}},
       invalid + "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: "
                 "finalizer orphan and "
                 "foregroundDeletion cannot be both set"},
      {"empty owner reference",
       {{"ownerReferences", Json::array({Json::object()})}},
       invalid + owner_required},
      {"owner apiVersion",
       {{"ownerReferences",
         {{{"apiVersion", "a/b/c"}, {"kind", "A"}, {"name", "a"}, {"uid", "1"}}}}},
       invalid + "metadata.ownerReferences[0].apiVersion: Invalid value: \"a/b/c\": must be "
                 "<group>/<version> or "
                 "<version>"},
      {"event owner",
       {{"ownerReferences",
         {{{"apiVersion", "v1"}, {"kind", "Event"}, {"name", "e"}, {"uid", "u"}}}}},
       invalid + "metadata.ownerReferences[0]: Invalid value: "
                 "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\","
                 "\"uid\":\"u\"}: /v1, Kind=Event is disallowed from being an owner"},
      {"two controllers",
       {{"ownerReferences",
         {{{"apiVersion", "v1"}, {"kind", "A"}, {"name", "a"}, {"uid", "1"}, {"controller", true}},
          {{"apiVersion", "apps/v1"},
           {"kind", "B"},
           {"name", "b"},
           {"uid", "2"},
           {"controller", true},
           {"blockOwnerDeletion", true}}}}},
       invalid + "metadata.ownerReferences: Invalid value: "
                 "[{\"apiVersion\":\"v1\",\"kind\":\"A\",\"name\":\"a\",\"uid\":"
                 "\"1\",\"controller\":true},{\"apiVersion\":\"apps/"
                 "v1\",\"kind\":\"B\",\"name\":\"b\",\"uid\":\"2\","
                 "\"controller\":true,\"blockOwnerDeletion\":true}]: Only one reference can have "
                 "Controller set to "
                 "true. Found \"true\" in references for A/a and B/b"},
      {"negative generation",
       {{"generation", -1}},
       invalid + "metadata.generation: Invalid value: -1: must be greater than or equal to 0"},
      {"several errors",
       {{"name", "Bad"}, {"labels", {{"app", "-x"}}}},
       "ConfigMap \"Bad\" is invalid: [metadata.name: Invalid value: \"Bad\": " + kSubdomainMsg +
           ", metadata.labels: Invalid value: \"-x\": " + kLabelValueMsg + "]"},
  };
  for (const MetaCase& c : cases) {
    SCOPED_TRACE(c.name);
    auto s = validate_create(builtin("configmaps"), config_map_with(c.metadata), "default");
    if (c.message.empty()) {
      EXPECT_TRUE(is_valid(s));
    } else {
      EXPECT_TRUE(is_status(s, 422, c.message));
    }
  }
}

TEST(ValidationMetaTest, InvalidStatusCarriesCausesAndDetails) {
  auto s =
      validate_create(builtin("configmaps"),
                      config_map_with({{"name", "Bad"}, {"labels", {{"app", "-x"}}}}), "default");
  ASSERT_TRUE(s.has_value());
  ASSERT_TRUE(s->details.has_value());
  EXPECT_EQ(s->details->name, "Bad");
  EXPECT_EQ(s->details->kind, "ConfigMap");
  EXPECT_EQ(s->details->group, "");
  ASSERT_EQ(s->details->causes.size(), 2u);
  EXPECT_EQ(s->details->causes[0],
            (api::StatusCause{"FieldValueInvalid", "Invalid value: \"Bad\": " + kSubdomainMsg,
                              "metadata.name"}));
  EXPECT_EQ(s->details->causes[1].field, "metadata.labels");
  EXPECT_TRUE(api::is_invalid(*s));
}

TEST(ValidationMetaTest, NameRulesFollowTheKind) {
  const Json ns = {{"metadata", {{"name", "a.b"}}}};
  EXPECT_TRUE(is_status(validate_create(builtin("namespaces"), ns, ""), 422,
                        "Namespace \"a.b\" is invalid: metadata.name: Invalid value: \"a.b\": must "
                        "not contain dots"));
  const Json svc = {{"metadata", {{"name", "1abc"}}}, {"spec", {{"ports", {{{"port", 80}}}}}}};
  EXPECT_TRUE(is_status(
      validate_create(builtin("services"), svc, "default"), 422,
      "Service \"1abc\" is invalid: metadata.name: Invalid value: \"1abc\": a DNS-1035 label must "
      "consist of lower case alphanumeric characters or '-', start with an alphabetic character, "
      "and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
      "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"));
  Json sts = deployment("StatefulSet", "web.v1");
  EXPECT_TRUE(is_status(
      validate_create(builtin("statefulsets", "apps"), sts, "default"), 422,
      "StatefulSet.apps \"web.v1\" is invalid: metadata.name: Invalid value: \"web.v1\": must not "
      "contain dots"));
  // Leases use apimachinery's metadata rules: no standard-finalizer requirement.
  const Json lease = {{"metadata", {{"name", "l"}, {"finalizers", {"custom"}}}}};
  EXPECT_TRUE(
      is_valid(validate_create(builtin("leases", "coordination.k8s.io"), lease, "default")));
}

TEST(ValidationMetaTest, UpdateKeepsIdentityImmutable) {
  Json old = config_map_with({{"uid", "u1"}, {"creationTimestamp", "2024-01-01T00:00:00Z"}});
  const ResourceInfo& cm = builtin("configmaps");
  Json now = old;
  now["metadata"]["uid"] = "u2";
  EXPECT_TRUE(is_status(
      validate_update(cm, old, now, "default", "cm", false), 422,
      "ConfigMap \"cm\" is invalid: metadata.uid: Invalid value: \"u2\": field is immutable"));
  now["metadata"].erase("uid");
  now["metadata"]["creationTimestamp"] = "2024-01-01T00:00:00+00:00";
  EXPECT_TRUE(is_valid(validate_update(cm, old, now, "default", "cm", false)));
  now["metadata"]["deletionTimestamp"] = "2024-01-02T00:00:00Z";
  EXPECT_TRUE(is_status(validate_update(cm, old, now, "default", "cm", false), 422,
                        "ConfigMap \"cm\" is invalid: metadata.deletionTimestamp: Invalid value: "
                        "\"2024-01-02T00:00:00Z\": field is immutable"));
}

TEST(ValidationMetaTest, NoNewFinalizersWhileDeleting) {
  Json old =
      config_map_with({{"deletionTimestamp", "2024-01-01T00:00:00Z"}, {"finalizers", {"a.io/x"}}});
  Json now = old;
  now["metadata"]["finalizers"] = {"b.io/y", "a.io/x", "a.io/w"};
  EXPECT_TRUE(is_status(
      validate_update(builtin("configmaps"), old, now, "default", "cm", false), 422,
      "ConfigMap \"cm\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added "
      "if "
      "the object is being deleted, found new finalizers []string{\"a.io/w\", \"b.io/y\"}"));
  now["metadata"]["finalizers"] = Json::array();
  EXPECT_TRUE(is_valid(validate_update(builtin("configmaps"), old, now, "default", "cm", false)));
}

TEST(ValidationMetaTest, ConfigMapUpdateReportsMetadataTwice) {
  // ValidateConfigMapUpdate runs ValidateObjectMetaUpdate and then ValidateConfigMap: the causes
  // repeat, the message lists the error once.
  Json now = config_map_with({{"labels", {{"app", "-x"}}}});
  auto s = validate_update(builtin("configmaps"), config_map(), now, "default", "cm", false);
  EXPECT_TRUE(is_status(
      s, 422,
      "ConfigMap \"cm\" is invalid: metadata.labels: Invalid value: \"-x\": " + kLabelValueMsg));
  ASSERT_TRUE(s && s->details);
  EXPECT_EQ(s->details->causes.size(), 2u);
}

TEST(ValidationMetaTest, StatusUpdatesCheckIdentityOnly) {
  const ResourceInfo& pods = builtin("pods");
  Json old = pod();
  old["metadata"]["uid"] = "u1";
  Json now = old;
  now["metadata"]["labels"] = {{"app", "-x"}};  // the /status write ignores metadata
  now["status"] = {{"phase", "Running"}};
  EXPECT_TRUE(is_valid(validate_update(pods, old, now, "default", "p", true)));
  now["metadata"]["uid"] = "u2";
  EXPECT_TRUE(
      is_status(validate_update(pods, old, now, "default", "p", true), 422,
                "Pod \"p\" is invalid: metadata.uid: Invalid value: \"u2\": field is immutable"));
}

}  // namespace
}  // namespace kubesim::fakeapi
