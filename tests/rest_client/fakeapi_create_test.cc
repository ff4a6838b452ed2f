// create and get over both transports, with the expectations of the core suite
// (tests/fakeapi/server_crud_test.cc): system fields, generateName, AlreadyExists, the namespace
// rules, dry run, NotFound and reads at a resourceVersion.
#include <gtest/gtest.h>

#include <regex>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

using CreateTest = BothTransportsTest;

const std::regex kUuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
const std::string kGeneratedSuffix = "[bcdfghjklmnpqrstvwxz2456789]{5}";

TEST_P(CreateTest, CreateFillsTheSystemFieldsAndIgnoresTheClientsOnes) {
  auto input = cm("a", "v")->edited([](nlohmann::json& j) {
    j["metadata"]["uid"] = "client-chosen";
    j["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
    j["metadata"]["generation"] = 7;
  });
  auto created = must(run(c().create(ctx(), kConfigMaps, "default", input, CreateOptions())));
  ASSERT_TRUE(created);
  EXPECT_EQ(created->key().str(), "default/a");
  EXPECT_EQ(created->resource_version(), "5");
  EXPECT_TRUE(std::regex_match(std::string(created->uid()), kUuid)) << created->uid();
  EXPECT_FALSE(created->creation_timestamp().empty());
  EXPECT_NE(created->creation_timestamp(), "2000-01-01T00:00:00Z");
  EXPECT_FALSE(created->json()["metadata"].contains("generation"));  // ConfigMaps do not track it
  EXPECT_EQ(must(get_cm("a"))->json(), created->json());
  auto second = create_cm("b");
  ASSERT_TRUE(second);
  EXPECT_NE(second->uid(), created->uid());
  EXPECT_EQ(second->resource_version(), "6");
}

TEST_P(CreateTest, KindsWithAStatusSubresourceStartAtGenerationOneWithoutTheClientsStatus) {
  auto input = deployment("default", "web", 1)->edited([](nlohmann::json& j) { j["status"] = {{"replicas", 9}}; });
  auto d = create(kDeployments, input);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->generation(), 1);
  EXPECT_EQ(d->api_version(), "apps/v1");
  EXPECT_EQ(d->kind(), "Deployment");
  EXPECT_EQ(d->json()["status"], nlohmann::json::object());  // the Go type's empty status
}

TEST_P(CreateTest, StrictFieldValidationRefusesUnknownFieldsTheDefaultDropsThem) {
  auto typo = cm("t", "v")->edited([](nlohmann::json& j) { j["dta"] = {{"k", "w"}}; });
  CreateOptions strict;
  strict.field_validation = FieldValidation::kStrict;
  auto refused = run(c().create(ctx(), kConfigMaps, "default", typo, strict));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 400);
  EXPECT_EQ(refused.status().message,
            "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
            "unknown field \"dta\"");
  auto created = must(run(c().create(ctx(), kConfigMaps, "default", typo, CreateOptions())));
  ASSERT_TRUE(created);
  EXPECT_FALSE(created->json().contains("dta"));
}

TEST_P(CreateTest, GenerateNameAppendsFiveRandomCharacters) {
  auto input = make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"generateName", "job-"}}}});
  auto a = must(run(c().create(ctx(), kConfigMaps, "default", input, CreateOptions())));
  auto b = must(run(c().create(ctx(), kConfigMaps, "default", input, CreateOptions())));
  ASSERT_TRUE(a && b);
  const std::regex form("job-" + kGeneratedSuffix);
  EXPECT_TRUE(std::regex_match(std::string(a->name()), form)) << a->name();
  EXPECT_TRUE(std::regex_match(std::string(b->name()), form)) << b->name();
  EXPECT_NE(a->name(), b->name());
  EXPECT_EQ(a->generate_name(), "job-");
  EXPECT_TRUE(get_cm(std::string(a->name())).ok());
}

TEST_P(CreateTest, TheGeneratedNameIsValidatedAndItsPrefixIsCutTo58) {
  const std::string long_prefix(60, 'p');
  auto long_input =
      make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"generateName", long_prefix}}}});
  auto ok = must(run(c().create(ctx(), kConfigMaps, "default", long_input, CreateOptions())));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->name().size(), 63u);
  EXPECT_EQ(ok->name().substr(0, 58), long_prefix.substr(0, 58));
  auto bad_input = make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"generateName", "Bad-"}}}});
  auto bad = run(c().create(ctx(), kConfigMaps, "default", bad_input, CreateOptions()));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(is_invalid(bad.status())) << bad.status();
  EXPECT_EQ(bad.status().code, 422);
  ASSERT_TRUE(bad.status().details.has_value());
  EXPECT_TRUE(std::regex_match(bad.status().details->name, std::regex("Bad-" + kGeneratedSuffix))) << bad.status();
  bool name_cause = false;
  for (const auto& cause : bad.status().details->causes) name_cause |= cause.field == "metadata.name";
  EXPECT_TRUE(name_cause) << bad.status();
}

TEST_P(CreateTest, AnExistingNameIsAlreadyExistsAndChangesNothing) {
  auto first = create_cm("a", "1");
  auto again = run(c().create(ctx(), kConfigMaps, "default", cm("a", "2"), CreateOptions()));
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(is_already_exists(again.status()));
  EXPECT_EQ(again.status(), new_already_exists(GroupResource("", "configmaps"), "a"));
  EXPECT_EQ(api_->revision(), 5);
  EXPECT_EQ(must(get_cm("a"))->json(), first->json());
}

TEST_P(CreateTest, CreatingOverAnObjectBeingDeletedSaysSo) {
  ASSERT_TRUE(create(kConfigMaps, cm("a")->with_finalizers({"example.com/hold"})));
  ASSERT_TRUE(must(delete_cm("a")));
  auto again = run(c().create(ctx(), kConfigMaps, "default", cm("a"), CreateOptions()));
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(is_already_exists(again.status()));
  EXPECT_EQ(again.status().message, "object is being deleted: configmaps \"a\" already exists");
}

TEST_P(CreateTest, AResourceVersionOnCreateIsRefusedUnlessDryRunOrZero) {
  auto r = run(c().create(ctx(), kConfigMaps, "default", cm("a")->with_resource_version("3"), CreateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 500);
  EXPECT_EQ(r.status().reason, StatusReason::kUnknown);
  EXPECT_EQ(r.status().message, "resourceVersion should not be set on objects to be created");
  EXPECT_EQ(api_->revision(), 4);
  CreateOptions dry;
  dry.dry_run = true;
  EXPECT_TRUE(run(c().create(ctx(), kConfigMaps, "default", cm("a")->with_resource_version("3"), dry)).ok());
  EXPECT_EQ(api_->revision(), 4);
  EXPECT_TRUE(run(c().create(ctx(), kConfigMaps, "default", cm("a")->with_resource_version("0"), CreateOptions())).ok());
}

TEST_P(CreateTest, TheSameNameInAnotherNamespaceIsAnotherObject) {
  ASSERT_TRUE(create_namespace("other"));
  create_cm("a", "default");
  auto other = create_cm("a", "other", nlohmann::json::object(), "other");
  ASSERT_TRUE(other);
  EXPECT_EQ(must(get_cm("a"))->json()["data"]["k"], "default");
  EXPECT_EQ(must(get(kConfigMaps, "other", "a"))->json()["data"]["k"], "other");
}

TEST_P(CreateTest, TheNamespaceMustExist) {
  auto r = run(c().create(ctx(), kConfigMaps, "nowhere", cm("a", "v", nlohmann::json::object(), "nowhere"),
                          CreateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_not_found(r.status()));
  EXPECT_EQ(r.status().message, "namespaces \"nowhere\" not found");
  EXPECT_EQ(api_->revision(), 4);
}

TEST_P(CreateTest, CreatingInATerminatingNamespaceIsForbidden) {
  ASSERT_TRUE(create_namespace("doomed"));
  ASSERT_TRUE(create(kConfigMaps, cm("held", "v", nlohmann::json::object(), "doomed")->with_finalizers({"example.com/hold"})));
  ASSERT_TRUE(must(run(c().delete_(ctx(), kNamespaces, "", "doomed", DeleteOptions()))));
  const auto before = api_->revision();
  auto r = run(c().create(ctx(), kConfigMaps, "doomed", cm("late", "v", nlohmann::json::object(), "doomed"),
                          CreateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_forbidden(r.status()));
  EXPECT_EQ(r.status().code, 403);
  EXPECT_EQ(r.status().message,
            "configmaps \"late\" is forbidden: unable to create new content in namespace doomed "
            "because it is being terminated");
  EXPECT_EQ(api_->revision(), before);
}

TEST_P(CreateTest, DryRunCreateWritesNothing) {
  CreateOptions dry;
  dry.dry_run = true;
  auto r = must(run(c().create(ctx(), kConfigMaps, "default", cm("a"), dry)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name(), "a");
  EXPECT_EQ(api_->revision(), 4);
  EXPECT_TRUE(is_not_found(status_of(get_cm("a"))));
}

TEST_P(CreateTest, GetOfAMissingObjectIsNotFoundWithDetails) {
  auto r = get_cm("missing");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_not_found(r.status()));
  EXPECT_EQ(r.status(), new_not_found(GroupResource("", "configmaps"), "missing"));
  ASSERT_TRUE(r.status().details.has_value());
  EXPECT_EQ(r.status().details->kind, "configmaps");
  EXPECT_EQ(r.status().details->name, "missing");
}

TEST_P(CreateTest, GetAtAResourceVersionServesTheLatestNotOlderThanIt) {
  auto a = create_cm("a", "1");
  auto v2 = must(update_cm(a->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; })));
  ASSERT_TRUE(v2);
  for (const std::string rv : {"5", "0", "6", ""}) {
    GetOptions at;
    at.resource_version = rv;
    auto r = must(get(kConfigMaps, "default", "a", at));
    ASSERT_TRUE(r) << rv;
    EXPECT_EQ(r->resource_version(), "6") << rv;
    EXPECT_EQ(r->json()["data"]["k"], "2") << rv;
  }
}

TEST_P(CreateTest, ClusterScopedObjectsAreReadWithoutANamespace) {
  auto ns = must(get(kNamespaces, "", "default"));
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->json()["status"]["phase"], "Active");
  auto in_ns = get(kNamespaces, "default", "default");
  ASSERT_FALSE(in_ns.ok());
  EXPECT_TRUE(is_not_found(in_ns.status())) << in_ns.status();
}

INSTANTIATE_TEST_SUITE_P(Transports, CreateTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
