// ApiServer: delete and delete_collection — preconditions, finalizers, the events they make.
#include "kubesim/fakeapi/server.h"

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;

class ServerDeleteTest : public ::testing::Test {
 protected:
  api::ObjectPtr must(api::Result<api::ObjectPtr> r) {
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  api::ObjectPtr create_cm(const std::string& name, const StringMap& labels = {},
                           std::vector<std::string> finalizers = {}) {
    auto obj = config_map("default", name, {{"k", "v"}}, labels);
    if (!finalizers.empty()) obj = obj->with_finalizers(finalizers);
    return must(server_.create(kConfigMaps, "default", obj, api::CreateOptions()));
  }
  api::Result<api::ObjectPtr> get_cm(const std::string& name) {
    return server_.get(kConfigMaps, "default", name, api::GetOptions());
  }
  api::Result<api::ObjectPtr> delete_cm(const std::string& name, api::DeleteOptions options = {}) {
    return server_.delete_(kConfigMaps, "default", name, options);
  }
  // A watch of default's configmaps from the current revision.
  std::unique_ptr<EventLog> watch_cms() {
    api::ListOptions options;
    options.resource_version = std::to_string(server_.revision());
    auto w = server_.watch(kConfigMaps, "default", options);
    EXPECT_TRUE(w.ok());
    return std::make_unique<EventLog>(loop_, std::move(w.value()));
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
};

TEST_F(ServerDeleteTest, DeleteRemovesTheObjectAndReturnsItWithTheDeletionsResourceVersion) {
  auto a = create_cm("a");
  auto log = watch_cms();
  auto deleted = must(delete_cm("a"));
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->resource_version(), "6");
  EXPECT_EQ(deleted->uid(), a->uid());
  EXPECT_EQ(server_.revision(), 6);
  EXPECT_TRUE(api::is_not_found(status_of(get_cm("a"))));
  settle(loop_);
  EXPECT_EQ(describe(log->events()), (std::vector<std::string>{"DELETED default/a@6"}));
}

TEST_F(ServerDeleteTest, DeleteOfAMissingObjectIsNotFound) {
  auto r = delete_cm("ghost");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_not_found(r.status()));
  EXPECT_EQ(server_.revision(), 4);
}

TEST_F(ServerDeleteTest, AUidPreconditionThatDoesNotHoldIsAConflict) {
  auto a = create_cm("a");
  api::DeleteOptions options;
  options.preconditions.uid = "not-the-uid";
  auto r = delete_cm("a", options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_conflict(r.status()));
  EXPECT_EQ(r.status().message,
            "Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid object, Code: "
            "4, Key: /registry/configmaps/default/a, ResourceVersion: 0, AdditionalErrorMsg: "
            "Precondition failed: UID in precondition: not-the-uid, UID in object meta: " +
                std::string(a->uid()));
  EXPECT_EQ(server_.revision(), 5);
  EXPECT_TRUE(get_cm("a").ok());
  options.preconditions.uid = std::string(a->uid());
  EXPECT_TRUE(delete_cm("a", options).ok());
}

TEST_F(ServerDeleteTest, AResourceVersionPreconditionThatDoesNotHoldIsAConflict) {
  auto a = create_cm("a");
  api::DeleteOptions options;
  options.preconditions.resource_version = "4";
  auto r = delete_cm("a", options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_conflict(r.status()));
  EXPECT_EQ(server_.revision(), 5);
  options.preconditions.resource_version = std::string(a->resource_version());
  EXPECT_TRUE(delete_cm("a", options).ok());
  EXPECT_TRUE(api::is_not_found(status_of(get_cm("a"))));
}

TEST_F(ServerDeleteTest, FinalizersTurnDeleteIntoADeletionTimestamp) {
  loop_.run_until(sim::Time{} + 3s);
  create_cm("a", {}, {"example.com/hold", "example.com/other"});
  auto log = watch_cms();
  auto marked = must(delete_cm("a"));
  ASSERT_TRUE(marked);
  EXPECT_EQ(marked->deletion_timestamp(), "2025-01-01T00:00:03Z");
  EXPECT_EQ(marked->deletion_grace_period_seconds(), 0);
  EXPECT_EQ(marked->resource_version(), "6");
  EXPECT_EQ(must(get_cm("a"))->json(), marked->json());
  // Deleting again changes nothing.
  auto again = must(delete_cm("a"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->resource_version(), "6");
  EXPECT_EQ(server_.revision(), 6);
  // Removing one finalizer is an ordinary update.
  auto one_left = must(server_.update(kConfigMaps, "default", marked->with_finalizers({"example.com/other"}),
                                      api::UpdateOptions()));
  ASSERT_TRUE(one_left);
  EXPECT_EQ(one_left->resource_version(), "7");
  EXPECT_TRUE(get_cm("a").ok());
  // Removing the last one completes the deletion instead of writing the update (the store's
  // ShouldDeleteDuringUpdate): one DELETED carrying the last stored state, and the caller gets
  // the object it sent.
  auto last = must(server_.update(kConfigMaps, "default", one_left->with_finalizers({}), api::UpdateOptions()));
  ASSERT_TRUE(last);
  EXPECT_EQ(last->resource_version(), "7");
  EXPECT_TRUE(last->finalizers().empty());
  EXPECT_TRUE(api::is_not_found(status_of(get_cm("a"))));
  EXPECT_EQ(server_.revision(), 8);
  settle(loop_);
  EXPECT_EQ(describe(log->events()),
            (std::vector<std::string>{"MODIFIED default/a@6", "MODIFIED default/a@7",
                                      "DELETED default/a@8"}));
  EXPECT_EQ((*log)[2].object->finalizers(), std::vector<std::string_view>{"example.com/other"});
}

TEST_F(ServerDeleteTest, APatchRemovingTheLastFinalizerCompletesTheDeletion) {
  create_cm("a", {}, {"example.com/hold"});
  must(delete_cm("a"));
  auto r = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                              R"({"metadata":{"finalizers":null}})", api::PatchOptions()));
  ASSERT_TRUE(r);
  EXPECT_TRUE(api::is_not_found(status_of(get_cm("a"))));
  EXPECT_EQ(server_.revision(), 7);
}

TEST_F(ServerDeleteTest, RemovingFinalizersFromALiveObjectDoesNotDeleteIt) {
  auto a = create_cm("a", {}, {"example.com/hold"});
  auto r = must(server_.update(kConfigMaps, "default", a->with_finalizers({}), api::UpdateOptions()));
  ASSERT_TRUE(r);
  EXPECT_TRUE(get_cm("a").ok());
  EXPECT_FALSE(r->deletion_timestamp().has_value());
}

TEST_F(ServerDeleteTest, UpdatesCannotClearTheDeletionTimestamp) {
  create_cm("a", {}, {"example.com/hold"});
  auto marked = must(delete_cm("a"));
  auto cleared = marked->with_deletion_timestamp(std::nullopt)->edited(
      [](nlohmann::json& j) { j["data"]["k"] = "changed"; });
  auto r = server_.update(kConfigMaps, "default", cleared, api::UpdateOptions());
  if (r.ok()) {
    EXPECT_EQ(r.value()->deletion_timestamp(), marked->deletion_timestamp());
  } else {
    EXPECT_TRUE(api::is_invalid(r.status())) << r.status();
  }
  EXPECT_EQ(must(get_cm("a"))->deletion_timestamp(), marked->deletion_timestamp());
}

TEST_F(ServerDeleteTest, MarkingForDeletionBumpsTheGenerationOfKindsThatTrackIt) {
  auto d = deployment("default", "web", 1)->with_finalizers({"example.com/hold"});
  must(server_.create(kDeployments, "default", d, api::CreateOptions()));
  auto marked = must(server_.delete_(kDeployments, "default", "web", api::DeleteOptions()));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(marked->generation(), 2);
  // A second delete does not bump it again.
  auto again = must(server_.delete_(kDeployments, "default", "web", api::DeleteOptions()));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->generation(), 2);
}

TEST_F(ServerDeleteTest, DryRunDeleteWritesNothing) {
  create_cm("a");
  create_cm("held", {}, {"example.com/hold"});
  api::DeleteOptions dry;
  dry.dry_run = true;
  EXPECT_TRUE(delete_cm("a", dry).ok());
  auto marked = must(delete_cm("held", dry));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_EQ(server_.revision(), 6);
  EXPECT_TRUE(get_cm("a").ok());
  EXPECT_FALSE(must(get_cm("held"))->deletion_timestamp().has_value());
}

TEST_F(ServerDeleteTest, PropagationPolicyIsRecordedInTheTrace) {
  std::ostringstream trace;
  loop_.trace().enable(&trace);
  create_cm("a");
  api::DeleteOptions options;
  options.propagation_policy = api::PropagationPolicy::kForeground;
  EXPECT_TRUE(delete_cm("a", options).ok());
  EXPECT_NE(trace.str().find("\"policy\":\"Foreground\""), std::string::npos) << trace.str();
}

TEST_F(ServerDeleteTest, DeleteCollectionDeletesWhatTheSelectorSelects) {
  create_cm("a", {{"app", "x"}});
  create_cm("b", {{"app", "y"}});
  create_cm("c", {{"app", "x"}}, {"example.com/hold"});
  auto log = watch_cms();
  api::ListOptions selector;
  selector.label_selector = "app=x";
  auto r = server_.delete_collection(kConfigMaps, "default", api::DeleteOptions(), selector);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(api::is_not_found(status_of(get_cm("a"))));
  EXPECT_TRUE(get_cm("b").ok());
  EXPECT_TRUE(must(get_cm("c"))->deletion_timestamp().has_value());
  settle(loop_);
  EXPECT_EQ(describe(log->events()),
            (std::vector<std::string>{"DELETED default/a@8", "MODIFIED default/c@9"}));
}

TEST_F(ServerDeleteTest, DeleteCollectionWithABadSelectorChangesNothing) {
  create_cm("a");
  api::ListOptions selector;
  selector.label_selector = "app in (";
  auto r = server_.delete_collection(kConfigMaps, "default", api::DeleteOptions(), selector);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_bad_request(r.status()));
  EXPECT_EQ(server_.revision(), 5);
}

}  // namespace
}  // namespace kubesim::fakeapi
