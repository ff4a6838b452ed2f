// delete and delete_collection over both transports, with the expectations of the core suite
// (tests/fakeapi/server_delete_test.cc): the deletion's resourceVersion, preconditions,
// finalizers and deletionTimestamp, dry run, propagation policies and selectors.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class DeleteTest : public BothTransportsTest {
 protected:
  ObjectPtr create_held(const std::string& name, nlohmann::json labels = nlohmann::json::object(),
                        std::vector<std::string> finalizers = {"example.com/hold"}) {
    return create(kConfigMaps, cm(name, "v", std::move(labels))->with_finalizers(finalizers));
  }
  WatchPtr watch_from_now() {
    ListOptions o;
    o.resource_version = revision();
    return watch(kConfigMaps, "default", o);
  }
};

TEST_P(DeleteTest, DeleteReturnsTheObjectAtTheDeletionsResourceVersion) {
  auto a = create_cm("a");
  auto w = watch_from_now();
  auto deleted = must(delete_cm("a"));
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->resource_version(), "6");
  EXPECT_EQ(deleted->uid(), a->uid());
  EXPECT_EQ(api_->revision(), 6);
  EXPECT_TRUE(is_not_found(status_of(get_cm("a"))));
  EXPECT_EQ(describe(take(*w, 1)), (std::vector<std::string>{"DELETED default/a@6"}));
}

TEST_P(DeleteTest, DeleteOfAMissingObjectIsNotFound) {
  auto r = delete_cm("ghost");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(), new_not_found(GroupResource("", "configmaps"), "ghost"));
  EXPECT_EQ(api_->revision(), 4);
}

TEST_P(DeleteTest, AUidPreconditionThatDoesNotHoldIsAConflict) {
  auto a = create_cm("a");
  DeleteOptions o;
  o.preconditions.uid = "not-the-uid";
  auto r = delete_cm("a", o);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_conflict(r.status()));
  EXPECT_EQ(r.status().message,
            "Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid object, Code: "
            "4, Key: /registry/configmaps/default/a, ResourceVersion: 0, AdditionalErrorMsg: "
            "Precondition failed: UID in precondition: not-the-uid, UID in object meta: " +
                std::string(a->uid()));
  EXPECT_EQ(api_->revision(), 5);
  o.preconditions.uid = std::string(a->uid());
  EXPECT_TRUE(delete_cm("a", o).ok());
}

TEST_P(DeleteTest, AResourceVersionPreconditionThatDoesNotHoldIsAConflict) {
  auto a = create_cm("a");
  DeleteOptions o;
  o.preconditions.resource_version = "4";
  auto r = delete_cm("a", o);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_conflict(r.status())) << r.status();
  EXPECT_EQ(api_->revision(), 5);
  o.preconditions.resource_version = std::string(a->resource_version());
  EXPECT_TRUE(delete_cm("a", o).ok());
  EXPECT_TRUE(is_not_found(status_of(get_cm("a"))));
}

TEST_P(DeleteTest, FinalizersTurnDeleteIntoADeletionTimestampUntilTheLastIsRemoved) {
  create_held("a", nlohmann::json::object(), {"example.com/hold", "example.com/other"});
  auto w = watch_from_now();
  auto marked = must(delete_cm("a"));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(marked->deletion_grace_period_seconds(), 0);
  EXPECT_EQ(marked->resource_version(), "6");
  EXPECT_EQ(must(get_cm("a"))->json(), marked->json());
  auto again = must(delete_cm("a"));  // changes nothing
  ASSERT_TRUE(again);
  EXPECT_EQ(again->resource_version(), "6");
  EXPECT_EQ(api_->revision(), 6);
  auto one_left = must(update_cm(marked->with_finalizers({"example.com/other"})));
  ASSERT_TRUE(one_left);
  EXPECT_EQ(one_left->resource_version(), "7");
  EXPECT_TRUE(get_cm("a").ok());
  // Removing the last one completes the deletion; the caller gets the object it sent.
  auto last = must(update_cm(one_left->with_finalizers({})));
  ASSERT_TRUE(last);
  EXPECT_EQ(last->resource_version(), "7");
  EXPECT_TRUE(last->finalizers().empty());
  EXPECT_TRUE(is_not_found(status_of(get_cm("a"))));
  EXPECT_EQ(api_->revision(), 8);
  auto events = take(*w, 3);
  EXPECT_EQ(describe(events),
            (std::vector<std::string>{"MODIFIED default/a@6", "MODIFIED default/a@7", "DELETED default/a@8"}));
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[2].object->finalizers(), std::vector<std::string_view>{"example.com/other"});
}

TEST_P(DeleteTest, APatchRemovingTheLastFinalizerCompletesTheDeletion) {
  create_held("a");
  ASSERT_TRUE(must(delete_cm("a")));
  auto r = run(c().patch(ctx(), kConfigMaps, "default", "a", PatchType::kMergePatch,
                         R"({"metadata":{"finalizers":null}})", PatchOptions()));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(is_not_found(status_of(get_cm("a"))));
  EXPECT_EQ(api_->revision(), 7);
}

TEST_P(DeleteTest, RemovingFinalizersFromALiveObjectDoesNotDeleteIt) {
  auto a = create_held("a");
  auto r = must(update_cm(a->with_finalizers({})));
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->deletion_timestamp().has_value());
  EXPECT_TRUE(get_cm("a").ok());
}

TEST_P(DeleteTest, UpdatesCannotClearTheDeletionTimestamp) {
  create_held("a");
  auto marked = must(delete_cm("a"));
  ASSERT_TRUE(marked);
  auto cleared = marked->with_deletion_timestamp(std::nullopt)->edited([](nlohmann::json& j) { j["data"]["k"] = "x"; });
  auto r = update_cm(cleared);
  if (r.ok()) {
    EXPECT_EQ(r.value()->deletion_timestamp(), marked->deletion_timestamp());
  } else {
    EXPECT_TRUE(is_invalid(r.status())) << r.status();
  }
  EXPECT_EQ(must(get_cm("a"))->deletion_timestamp(), marked->deletion_timestamp());
}

TEST_P(DeleteTest, MarkingForDeletionBumpsTheGenerationOfKindsThatTrackIt) {
  ASSERT_TRUE(create(kDeployments, deployment("default", "web", 1)->with_finalizers({"example.com/hold"})));
  auto marked = must(run(c().delete_(ctx(), kDeployments, "default", "web", DeleteOptions())));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(marked->generation(), 2);
  auto again = must(run(c().delete_(ctx(), kDeployments, "default", "web", DeleteOptions())));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->generation(), 2);
}

TEST_P(DeleteTest, DryRunDeleteWritesNothing) {
  create_cm("a");
  create_held("held");
  DeleteOptions dry;
  dry.dry_run = true;
  EXPECT_TRUE(delete_cm("a", dry).ok());
  auto marked = must(delete_cm("held", dry));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(api_->revision(), 6);
  EXPECT_TRUE(get_cm("a").ok());
  EXPECT_FALSE(must(get_cm("held"))->deletion_timestamp().has_value());
}

TEST_P(DeleteTest, EveryPropagationPolicyIsAcceptedAndRecordedInTheTrace) {
  std::ostringstream trace;
  loop_.trace().enable(&trace);
  const std::vector<std::pair<PropagationPolicy, std::string>> policies = {
      {PropagationPolicy::kForeground, "Foreground"},
      {PropagationPolicy::kBackground, "Background"},
      {PropagationPolicy::kOrphan, "Orphan"}};
  for (const auto& [policy, text] : policies) {
    create_cm("a");
    DeleteOptions o;
    o.propagation_policy = policy;
    o.grace_period_seconds = 0;
    EXPECT_TRUE(delete_cm("a", o).ok()) << text;
    EXPECT_NE(trace.str().find("\"policy\":\"" + text + "\""), std::string::npos) << text << "\n" << trace.str();
  }
  loop_.trace().disable();
}

TEST_P(DeleteTest, DeleteCollectionDeletesWhatTheLabelSelectorSelects) {
  create_cm("a", "v", {{"app", "x"}});
  create_cm("b", "v", {{"app", "y"}});
  create_held("c", {{"app", "x"}});
  auto w = watch_from_now();
  ListOptions selector;
  selector.label_selector = "app=x";
  auto r = run(c().delete_collection(ctx(), kConfigMaps, "default", DeleteOptions(), selector));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(is_not_found(status_of(get_cm("a"))));
  EXPECT_TRUE(get_cm("b").ok());
  EXPECT_TRUE(must(get_cm("c"))->deletion_timestamp().has_value());
  EXPECT_EQ(describe(take(*w, 2)), (std::vector<std::string>{"DELETED default/a@8", "MODIFIED default/c@9"}));
}

TEST_P(DeleteTest, DeleteCollectionByFieldSelectorAndDryRun) {
  create_cm("a");
  create_cm("b");
  ListOptions by_name;
  by_name.field_selector = "metadata.name=b";
  DeleteOptions dry;
  dry.dry_run = true;
  ASSERT_TRUE(run(c().delete_collection(ctx(), kConfigMaps, "default", dry, by_name)).ok());
  EXPECT_EQ(api_->revision(), 6);
  ASSERT_TRUE(run(c().delete_collection(ctx(), kConfigMaps, "default", DeleteOptions(), by_name)).ok());
  EXPECT_TRUE(get_cm("a").ok());
  EXPECT_TRUE(is_not_found(status_of(get_cm("b"))));
}

TEST_P(DeleteTest, DeleteCollectionWithABadSelectorChangesNothing) {
  create_cm("a");
  ListOptions selector;
  selector.label_selector = "app in (";
  auto r = run(c().delete_collection(ctx(), kConfigMaps, "default", DeleteOptions(), selector));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_bad_request(r.status())) << r.status();
  EXPECT_EQ(api_->revision(), 5);
}

INSTANTIATE_TEST_SUITE_P(Transports, DeleteTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
