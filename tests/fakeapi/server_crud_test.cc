// ApiServer: create, get, update, update_status and patch, with kube-apiserver's semantics.
#include "kubesim/fakeapi/server.h"

#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;

class ServerCrudTest : public ::testing::Test {
 protected:
  api::ObjectPtr must(api::Result<api::ObjectPtr> r) {
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  api::ObjectPtr create_cm(const std::string& name, const StringMap& data = {}) {
    return must(server_.create(kConfigMaps, "default", config_map("default", name, data),
                               api::CreateOptions()));
  }
  api::ObjectPtr get_cm(const std::string& name) {
    return must(server_.get(kConfigMaps, "default", name, api::GetOptions()));
  }
  api::Result<api::ObjectPtr> update(const api::ObjectPtr& obj, bool status = false) {
    return server_.update(obj->gvk().kind == "Deployment" ? kDeployments : kConfigMaps,
                          std::string(obj->namespace_()), obj, api::UpdateOptions(),
                          status ? api::Subresource::kStatus : api::Subresource::kNone);
  }
  api::ObjectPtr with_data(const api::ObjectPtr& obj, const std::string& key, const std::string& value) {
    return obj->edited([&](nlohmann::json& j) { j["data"][key] = value; });
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
};

TEST_F(ServerCrudTest, TheInitialNamespacesExist) {
  auto list = server_.list(kNamespaces, "", api::ListOptions());
  ASSERT_TRUE(list.ok());
  std::vector<std::string> names;
  for (const auto& ns : list->items) names.emplace_back(ns->name());
  EXPECT_EQ(names, (std::vector<std::string>{"default", "kube-node-lease", "kube-public", "kube-system"}));
  EXPECT_EQ(server_.revision(), 4);
  EXPECT_EQ(list->items[0]->json()["status"]["phase"], "Active");
  EXPECT_EQ(list->items[0]->json()["spec"]["finalizers"], nlohmann::json::array({"kubernetes"}));
}

TEST_F(ServerCrudTest, CreateFillsUidCreationTimestampAndResourceVersion) {
  loop_.run_until(sim::Time{} + 7s);
  auto input = config_map("default", "a", {{"k", "v"}})->edited([](nlohmann::json& j) {
    j["metadata"]["uid"] = "client-chosen";
    j["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
    j["metadata"]["generation"] = 7;
  });
  auto created = must(server_.create(kConfigMaps, "default", input, api::CreateOptions()));
  ASSERT_TRUE(created);
  EXPECT_EQ(created->name(), "a");
  EXPECT_EQ(created->namespace_(), "default");
  EXPECT_EQ(created->resource_version(), "5");
  EXPECT_EQ(server_.revision(), 5);
  EXPECT_TRUE(std::regex_match(std::string(created->uid()),
                               std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << created->uid();
  EXPECT_EQ(created->creation_timestamp(), "2025-01-01T00:00:07Z");
  // ConfigMaps do not track generation.
  EXPECT_FALSE(created->json()["metadata"].contains("generation"));
  EXPECT_EQ(data_of(created, "k"), "v");
  EXPECT_EQ(get_cm("a")->json(), created->json());

  auto second = create_cm("b");
  EXPECT_NE(second->uid(), created->uid());
  EXPECT_EQ(second->resource_version(), "6");
}

TEST_F(ServerCrudTest, CreateSetsGenerationOneForKindsThatTrackIt) {
  auto d = must(server_.create(kDeployments, "default", deployment("default", "web", 1), api::CreateOptions()));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->generation(), 1);
  EXPECT_EQ(d->json()["apiVersion"], "apps/v1");
  EXPECT_EQ(d->json()["kind"], "Deployment");
}

TEST_F(ServerCrudTest, CreateIgnoresTheClientsStatusForKindsWithAStatusSubresource) {
  auto input = deployment("default", "web", 1)->edited([](nlohmann::json& j) { j["status"] = {{"replicas", 9}}; });
  auto d = must(server_.create(kDeployments, "default", input, api::CreateOptions()));
  ASSERT_TRUE(d);
  // The Go type's status struct is always there, empty at first.
  EXPECT_EQ(d->json()["status"], nlohmann::json::object());
}

TEST_F(ServerCrudTest, GenerateNameAppendsFiveRandomCharacters) {
  auto input = api::make_object(
      {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"generateName", "job-"}}}});
  auto a = must(server_.create(kConfigMaps, "default", input, api::CreateOptions()));
  auto b = must(server_.create(kConfigMaps, "default", input, api::CreateOptions()));
  ASSERT_TRUE(a && b);
  const std::regex form("job-[bcdfghjklmnpqrstvwxz2456789]{5}");
  EXPECT_TRUE(std::regex_match(std::string(a->name()), form)) << a->name();
  EXPECT_TRUE(std::regex_match(std::string(b->name()), form)) << b->name();
  EXPECT_NE(a->name(), b->name());
  EXPECT_EQ(a->generate_name(), "job-");
}

TEST_F(ServerCrudTest, TheGeneratedNameIsMadeBeforeValidationAndItsPrefixIsCutTo58) {
  // A 60-character prefix: kube-apiserver keeps 58 of it, so the name has 63 and is valid.
  const std::string long_prefix(60, 'p');
  auto ok = must(server_.create(
      kConfigMaps, "default",
      api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"generateName", long_prefix}}}}),
      api::CreateOptions()));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->name().size(), 63u);
  EXPECT_EQ(ok->name().substr(0, 58), long_prefix.substr(0, 58));
  // An invalid prefix: validation sees the generated name, so it is named in the error.
  auto bad = server_.create(
      kConfigMaps, "default",
      api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"generateName", "Bad-"}}}}),
      api::CreateOptions());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code, 422);
  ASSERT_TRUE(bad.status().details.has_value());
  EXPECT_TRUE(std::regex_match(bad.status().details->name, std::regex("Bad-[bcdfghjklmnpqrstvwxz2456789]{5}")))
      << bad.status();
  bool name_cause = false;
  for (const auto& cause : bad.status().details->causes) name_cause |= cause.field == "metadata.name";
  EXPECT_TRUE(name_cause) << bad.status();
}

TEST_F(ServerCrudTest, StatefulSetsAreNamedWithDnsLabels) {
  const ResourceInfo* sets = server_.registry().find({"apps", "v1", "statefulsets"});
  ASSERT_NE(sets, nullptr);
  EXPECT_EQ(sets->name_rule, api::NameRule::kDns1123Label);
}

TEST_F(ServerCrudTest, CreatingAnExistingNameIsAlreadyExists) {
  auto first = create_cm("a", {{"k", "1"}});
  auto again = server_.create(kConfigMaps, "default", config_map("default", "a", {{"k", "2"}}),
                              api::CreateOptions());
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(api::is_already_exists(again.status()));
  EXPECT_EQ(again.status().code, 409);
  EXPECT_EQ(again.status().message, "configmaps \"a\" already exists");
  EXPECT_EQ(server_.revision(), 5);
  EXPECT_EQ(get_cm("a")->json(), first->json());
}

TEST_F(ServerCrudTest, CreatingOverAnObjectBeingDeletedSaysSo) {
  must(server_.create(kConfigMaps, "default", config_map("default", "a")->with_finalizers({"example.com/hold"}),
                      api::CreateOptions()));
  must(server_.delete_(kConfigMaps, "default", "a", api::DeleteOptions()));
  auto again = server_.create(kConfigMaps, "default", config_map("default", "a"), api::CreateOptions());
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(api::is_already_exists(again.status()));
  EXPECT_EQ(again.status().message, "object is being deleted: configmaps \"a\" already exists");
}

TEST_F(ServerCrudTest, CreateWithAResourceVersionIsRefused) {
  auto r = server_.create(kConfigMaps, "default", config_map("default", "a")->with_resource_version("3"),
                          api::CreateOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 500);
  EXPECT_EQ(r.status().reason, api::StatusReason::kUnknown);
  EXPECT_EQ(r.status().message, "resourceVersion should not be set on objects to be created");
  EXPECT_EQ(server_.revision(), 4);
  // A dry run does not reach storage, and "0" is no resourceVersion at all.
  api::CreateOptions dry;
  dry.dry_run = true;
  EXPECT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "a")->with_resource_version("3"), dry).ok());
  EXPECT_TRUE(server_.create(kConfigMaps, "default", config_map("default", "a")->with_resource_version("0"),
                             api::CreateOptions())
                  .ok());
}

TEST_F(ServerCrudTest, TheSameNameInAnotherNamespaceIsAnotherObject) {
  must(server_.create(kNamespaces, "", namespace_object("other"), api::CreateOptions()));
  create_cm("a", {{"k", "default"}});
  auto other = must(server_.create(kConfigMaps, "other", config_map("other", "a", {{"k", "other"}}),
                                   api::CreateOptions()));
  EXPECT_EQ(data_of(get_cm("a"), "k"), "default");
  EXPECT_EQ(data_of(other, "k"), "other");
}

TEST_F(ServerCrudTest, TheNamespaceMustExist) {
  auto r = server_.create(kConfigMaps, "nowhere", config_map("nowhere", "a"), api::CreateOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_not_found(r.status()));
  EXPECT_EQ(r.status().message, "namespaces \"nowhere\" not found");
  EXPECT_EQ(server_.revision(), 4);
}

TEST_F(ServerCrudTest, CreatingInATerminatingNamespaceIsForbidden) {
  must(server_.create(kNamespaces, "", namespace_object("doomed"), api::CreateOptions()));
  auto held = config_map("doomed", "held")->with_finalizers({"example.com/hold"});
  must(server_.create(kConfigMaps, "doomed", held, api::CreateOptions()));
  must(server_.delete_(kNamespaces, "", "doomed", api::DeleteOptions()));
  const Revision before = server_.revision();
  auto r = server_.create(kConfigMaps, "doomed", config_map("doomed", "late"), api::CreateOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_forbidden(r.status()));
  EXPECT_EQ(r.status().code, 403);
  EXPECT_EQ(r.status().message,
            "configmaps \"late\" is forbidden: unable to create new content in namespace doomed "
            "because it is being terminated");
  EXPECT_EQ(server_.revision(), before);
}

TEST_F(ServerCrudTest, DryRunCreateWritesNothing) {
  api::CreateOptions dry;
  dry.dry_run = true;
  auto r = must(server_.create(kConfigMaps, "default", config_map("default", "a"), dry));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name(), "a");
  EXPECT_EQ(server_.revision(), 4);
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kConfigMaps, "default", "a", api::GetOptions()))));
}

TEST_F(ServerCrudTest, GetMissingIsNotFound) {
  auto r = server_.get(kConfigMaps, "default", "missing", api::GetOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_not_found(r.status()));
  EXPECT_EQ(r.status().message, "configmaps \"missing\" not found");
  ASSERT_TRUE(r.status().details.has_value());
  EXPECT_EQ(r.status().details->kind, "configmaps");
  EXPECT_EQ(r.status().details->name, "missing");
}

TEST_F(ServerCrudTest, GetWithAResourceVersionServesTheLatestNotOlderThanIt) {
  create_cm("a", {{"k", "1"}});
  auto v2 = must(update(with_data(get_cm("a"), "k", "2")));
  api::GetOptions at_five;
  at_five.resource_version = "5";
  auto r = must(server_.get(kConfigMaps, "default", "a", at_five));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->resource_version(), v2->resource_version());
  api::GetOptions any;
  any.resource_version = "0";
  EXPECT_EQ(must(server_.get(kConfigMaps, "default", "a", any))->resource_version(), "6");
}

TEST_F(ServerCrudTest, GetWithAFutureResourceVersionIsTooLarge) {
  create_cm("a");
  api::GetOptions future;
  future.resource_version = "99";
  auto r = server_.get(kConfigMaps, "default", "a", future);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_timeout(r.status()));
  EXPECT_EQ(r.status().code, 504);
  ASSERT_TRUE(r.status().details.has_value());
  ASSERT_EQ(r.status().details->causes.size(), 1u);
  EXPECT_EQ(r.status().details->causes[0].type, "ResourceVersionTooLarge");
}

TEST_F(ServerCrudTest, UpdateWithTheCurrentResourceVersionWrites) {
  auto a = create_cm("a", {{"k", "1"}});
  auto updated = must(update(with_data(a, "k", "2")));
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->resource_version(), "6");
  EXPECT_EQ(data_of(updated, "k"), "2");
  EXPECT_EQ(updated->uid(), a->uid());
  EXPECT_EQ(updated->creation_timestamp(), a->creation_timestamp());
  EXPECT_EQ(get_cm("a")->json(), updated->json());
}

TEST_F(ServerCrudTest, UpdateWithAStaleResourceVersionIsAConflict) {
  auto a = create_cm("a", {{"k", "1"}});
  auto v2 = must(update(with_data(a, "k", "2")));
  auto stale = update(with_data(a, "k", "3"));
  ASSERT_FALSE(stale.ok());
  EXPECT_TRUE(api::is_conflict(stale.status()));
  EXPECT_EQ(stale.status().message,
            "Operation cannot be fulfilled on configmaps \"a\": the object has been modified; please "
            "apply your changes to the latest version and try again");
  EXPECT_EQ(server_.revision(), 6);
  EXPECT_EQ(get_cm("a")->json(), v2->json());
  // A resourceVersion from the future is as stale as one from the past.
  auto future = update(with_data(a, "k", "3")->with_resource_version("1000"));
  EXPECT_TRUE(api::is_conflict(status_of(future)));
}

TEST_F(ServerCrudTest, AStaleUpdateIsAConflictEvenWhenItsBodyIsInvalid) {
  auto a = create_cm("a", {{"k", "1"}});
  must(update(with_data(a, "k", "2")));
  // kube-apiserver compares resourceVersions before it validates the new object.
  auto r = update(a->with_labels({{"-bad", "v"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_conflict(r.status())) << r.status();
  // A fresh one gets the validation error.
  auto fresh = update(get_cm("a")->with_labels({{"-bad", "v"}}));
  ASSERT_FALSE(fresh.ok());
  EXPECT_TRUE(api::is_invalid(fresh.status())) << fresh.status();
}

TEST_F(ServerCrudTest, UpdateWithAnotherUidFailsItsUidPrecondition) {
  auto a = create_cm("a", {{"k", "1"}});
  auto r = update(with_data(a, "k", "2")->with_uid("6d1a5c7e-0000-4000-8000-000000000000"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_conflict(r.status())) << r.status();
  EXPECT_NE(r.status().message.find("Precondition failed: UID in precondition: 6d1a5c7e-0000-4000-8000-000000000000"),
            std::string::npos)
      << r.status();
  EXPECT_EQ(server_.revision(), 5);
  // Without a uid the stored one is kept.
  auto kept = must(update(with_data(a, "k", "2")->with_uid("")));
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->uid(), a->uid());
}

TEST_F(ServerCrudTest, UpdateWithoutAResourceVersionIsUnconditional) {
  auto a = create_cm("a", {{"k", "1"}});
  must(update(with_data(a, "k", "2")));
  auto blind = must(update(with_data(a, "k", "3")->with_resource_version("")));
  ASSERT_TRUE(blind);
  EXPECT_EQ(data_of(blind, "k"), "3");
  EXPECT_EQ(blind->resource_version(), "7");
}

TEST_F(ServerCrudTest, UpdateOfAMissingObjectIsNotFound) {
  auto r = update(config_map("default", "ghost", {{"k", "v"}}));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_not_found(r.status()));
  EXPECT_EQ(server_.revision(), 4);
}

TEST_F(ServerCrudTest, ANoOpUpdateIsNotAWrite) {
  auto a = create_cm("a", {{"k", "1"}});
  api::ListOptions from_now;
  from_now.resource_version = std::string(a->resource_version());
  auto watch = server_.watch(kConfigMaps, "default", from_now);
  ASSERT_TRUE(watch.ok());
  EventLog log(loop_, std::move(watch.value()));
  auto same = must(update(a));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->resource_version(), a->resource_version());
  EXPECT_EQ(server_.revision(), 5);
  // Unconditional no-op as well.
  EXPECT_EQ(must(update(a->with_resource_version("")))->resource_version(), "5");
  settle(loop_);
  EXPECT_EQ(log.size(), 0u);
}

TEST_F(ServerCrudTest, UpdateKeepsSystemFieldsTheClientCannotSet) {
  auto a = create_cm("a");
  auto tampered = a->edited([](nlohmann::json& j) {
    j["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
    j["data"] = {{"k", "v"}};
  });
  auto r = must(update(tampered));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->creation_timestamp(), a->creation_timestamp());
  EXPECT_EQ(r->uid(), a->uid());
}

TEST_F(ServerCrudTest, GenerationBumpsOnlyWhenTheSpecChanges) {
  auto d = must(server_.create(kDeployments, "default", deployment("default", "web", 1), api::CreateOptions()));
  ASSERT_TRUE(d);
  auto labelled = must(update(d->with_labels({{"tier", "front"}})));
  ASSERT_TRUE(labelled);
  EXPECT_EQ(labelled->generation(), 1);
  EXPECT_NE(labelled->resource_version(), d->resource_version());
  auto scaled = must(update(labelled->edited([](nlohmann::json& j) { j["spec"]["replicas"] = 3; })));
  ASSERT_TRUE(scaled);
  EXPECT_EQ(scaled->generation(), 2);
  // A client cannot set generation itself.
  auto forged = must(update(scaled->edited([](nlohmann::json& j) {
    j["metadata"]["generation"] = 40;
    j["spec"]["replicas"] = 4;
  })));
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->generation(), 3);
}

TEST_F(ServerCrudTest, StatusIsIgnoredOnTheMainResourceAndWrittenThroughTheSubresource) {
  auto d = must(server_.create(kDeployments, "default", deployment("default", "web", 1), api::CreateOptions()));
  ASSERT_TRUE(d);
  auto with_status = d->edited([](nlohmann::json& j) { j["status"] = {{"replicas", 1}}; });
  // Through the main resource, a status-only change is no change at all.
  auto main = must(update(with_status));
  ASSERT_TRUE(main);
  EXPECT_EQ(main->resource_version(), d->resource_version());
  EXPECT_EQ(main->json()["status"], nlohmann::json::object());
  // Through /status it is written; spec changes in the same body are ignored there.
  auto both = with_status->edited([](nlohmann::json& j) { j["spec"]["replicas"] = 5; });
  auto status = must(update(both, /*status=*/true));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->json()["status"]["replicas"], 1);
  EXPECT_EQ(status->json()["spec"]["replicas"], 1);
  EXPECT_EQ(status->generation(), 1);
  EXPECT_EQ(status->resource_version(), "6");
  // Optimistic concurrency applies to /status too.
  auto stale = update(both, /*status=*/true);
  EXPECT_TRUE(api::is_conflict(status_of(stale)));
}

TEST_F(ServerCrudTest, UpdateStatusOfAKindWithoutStatusIsNotFound) {
  auto a = create_cm("a");
  auto r = update(with_data(a, "k", "v"), /*status=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code, 404);
  EXPECT_EQ(server_.revision(), 5);
}

TEST_F(ServerCrudTest, DryRunUpdateWritesNothing) {
  auto a = create_cm("a", {{"k", "1"}});
  api::UpdateOptions dry;
  dry.dry_run = true;
  auto r = must(server_.update(kConfigMaps, "default", with_data(a, "k", "2"), dry));
  ASSERT_TRUE(r);
  EXPECT_EQ(data_of(r, "k"), "2");
  EXPECT_EQ(server_.revision(), 5);
  EXPECT_EQ(data_of(get_cm("a"), "k"), "1");
}

}  // namespace
}  // namespace kubesim::fakeapi

namespace kubesim::fakeapi {
namespace {

// Empty omitempty ObjectMeta fields are not stored, as kube-apiserver's typed round trip drops
// them: a create keeps none, and an update that only adds or empties them writes nothing.
TEST(ServerMetadataTest, EmptyOptionalMetadataIsNotStored) {
  using namespace testutil;
  sim::Loop loop;
  ApiServer server(loop);
  auto created = server.create(kConfigMaps, "default",
                               config_map("default", "a", {{"k", "v"}})->edited([](nlohmann::json& j) {
                                 j["metadata"]["labels"] = nlohmann::json::object();
                                 j["metadata"]["annotations"] = nullptr;
                                 j["metadata"]["finalizers"] = nlohmann::json::array({"example.com/keep"});
                                 j["metadata"]["ownerReferences"] = nlohmann::json::array();
                               }),
                               api::CreateOptions());
  ASSERT_TRUE(created.ok()) << created.status();
  const nlohmann::json& meta = created.value()->json()["metadata"];
  EXPECT_FALSE(meta.contains("labels"));
  EXPECT_FALSE(meta.contains("annotations"));
  EXPECT_FALSE(meta.contains("ownerReferences"));
  EXPECT_EQ(meta["finalizers"], nlohmann::json::array({"example.com/keep"}));

  // Emptying the finalizers is a write that stores no list.
  auto emptied = server.update(kConfigMaps, "default",
                               created.value()->edited([](nlohmann::json& j) {
                                 j["metadata"]["finalizers"] = nlohmann::json::array();
                               }),
                               api::UpdateOptions());
  ASSERT_TRUE(emptied.ok()) << emptied.status();
  EXPECT_NE(emptied.value()->resource_version(), created.value()->resource_version());
  EXPECT_FALSE(emptied.value()->json()["metadata"].contains("finalizers"));
  // Adding empty labels, or sending the empty list again, changes nothing: no write.
  const std::int64_t before = server.revision();
  auto same = server.update(kConfigMaps, "default",
                            emptied.value()->edited([](nlohmann::json& j) {
                              j["metadata"]["labels"] = nlohmann::json::object();
                              j["metadata"]["finalizers"] = nlohmann::json::array();
                            }),
                            api::UpdateOptions());
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(server.revision(), before);
  EXPECT_EQ(same.value()->resource_version(), emptied.value()->resource_version());
}

}  // namespace
}  // namespace kubesim::fakeapi
