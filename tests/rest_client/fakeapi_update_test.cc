// update and update_status over both transports, with the expectations of the core suite
// (tests/fakeapi/server_crud_test.cc): optimistic concurrency, unconditional updates, the uid
// precondition, no-op writes, system fields, generation and the status subresource.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class UpdateTest : public BothTransportsTest {
 protected:
  static ObjectPtr with_data(const ObjectPtr& obj, const std::string& value) {
    return obj->edited([&](nlohmann::json& j) { j["data"]["k"] = value; });
  }
};

TEST_P(UpdateTest, UpdateWithTheCurrentResourceVersionWrites) {
  auto a = create_cm("a", "1");
  auto updated = must(update_cm(with_data(a, "2")));
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->resource_version(), "6");
  EXPECT_EQ(updated->json()["data"]["k"], "2");
  EXPECT_EQ(updated->uid(), a->uid());
  EXPECT_EQ(updated->creation_timestamp(), a->creation_timestamp());
  EXPECT_EQ(must(get_cm("a"))->json(), updated->json());
}

TEST_P(UpdateTest, AStaleOrFutureResourceVersionIsAConflictAndChangesNothing) {
  auto a = create_cm("a", "1");
  auto v2 = must(update_cm(with_data(a, "2")));
  ASSERT_TRUE(v2);
  for (const std::string rv : {"5", "1000"}) {
    auto stale = update_cm(with_data(a, "3")->with_resource_version(rv));
    ASSERT_FALSE(stale.ok()) << rv;
    EXPECT_TRUE(is_conflict(stale.status())) << rv;
    EXPECT_EQ(stale.status(), new_conflict(GroupResource("", "configmaps"), "a", kOptimisticLockErrorMsg));
  }
  EXPECT_EQ(api_->revision(), 6);
  EXPECT_EQ(must(get_cm("a"))->json(), v2->json());
}

TEST_P(UpdateTest, AStaleUpdateIsAConflictEvenWhenItsBodyIsInvalid) {
  auto a = create_cm("a", "1");
  ASSERT_TRUE(must(update_cm(with_data(a, "2"))));
  auto stale = update_cm(a->with_labels({{"-bad", "v"}}));
  EXPECT_TRUE(is_conflict(status_of(stale))) << status_of(stale);
  auto fresh = update_cm(must(get_cm("a"))->with_labels({{"-bad", "v"}}));
  EXPECT_TRUE(is_invalid(status_of(fresh))) << status_of(fresh);
  EXPECT_EQ(status_of(fresh).code, 422);
}

TEST_P(UpdateTest, AnotherUidFailsTheUidPreconditionAndNoUidKeepsTheStoredOne) {
  auto a = create_cm("a", "1");
  const std::string other = "6d1a5c7e-0000-4000-8000-000000000000";
  auto r = update_cm(with_data(a, "2")->with_uid(other));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_conflict(r.status())) << r.status();
  EXPECT_NE(r.status().message.find("Precondition failed: UID in precondition: " + other), std::string::npos)
      << r.status();
  EXPECT_EQ(api_->revision(), 5);
  auto kept = must(update_cm(with_data(a, "2")->with_uid("")));
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->uid(), a->uid());
}

TEST_P(UpdateTest, AnEmptyResourceVersionIsUnconditional) {
  auto a = create_cm("a", "1");
  ASSERT_TRUE(must(update_cm(with_data(a, "2"))));
  auto blind = must(update_cm(with_data(a, "3")->with_resource_version("")));
  ASSERT_TRUE(blind);
  EXPECT_EQ(blind->json()["data"]["k"], "3");
  EXPECT_EQ(blind->resource_version(), "7");
}

TEST_P(UpdateTest, UpdateOfAMissingObjectIsNotFound) {
  auto r = update_cm(cm("ghost"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(), new_not_found(GroupResource("", "configmaps"), "ghost"));
  EXPECT_EQ(api_->revision(), 4);
}

TEST_P(UpdateTest, ANoOpUpdateIsNotAWriteAndMakesNoEvent) {
  auto a = create_cm("a", "1");
  ListOptions from;
  from.resource_version = std::string(a->resource_version());
  auto w = watch(kConfigMaps, "default", from);
  ASSERT_TRUE(w);
  auto same = must(update_cm(a));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->resource_version(), a->resource_version());
  EXPECT_EQ(must(update_cm(a->with_resource_version("")))->resource_version(), "5");
  EXPECT_EQ(api_->revision(), 5);
  // The next event is the marker's: the no-ops sent none.
  create_cm("marker");
  EXPECT_EQ(describe(take(*w, 1)), (std::vector<std::string>{"ADDED default/marker@6"}));
}

TEST_P(UpdateTest, UpdateKeepsTheSystemFieldsTheClientCannotSet) {
  auto a = create_cm("a");
  auto r = must(update_cm(a->edited([](nlohmann::json& j) {
    j["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
    j["data"]["k"] = "changed";
  })));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->creation_timestamp(), a->creation_timestamp());
  EXPECT_EQ(r->uid(), a->uid());
}

TEST_P(UpdateTest, GenerationBumpsOnlyWhenTheSpecChanges) {
  auto d = create(kDeployments, deployment("default", "web", 1));
  ASSERT_TRUE(d);
  auto labelled = must(update(kDeployments, d->with_labels({{"tier", "front"}})));
  ASSERT_TRUE(labelled);
  EXPECT_EQ(labelled->generation(), 1);
  EXPECT_NE(labelled->resource_version(), d->resource_version());
  auto scaled = must(update(kDeployments, labelled->edited([](nlohmann::json& j) { j["spec"]["replicas"] = 3; })));
  ASSERT_TRUE(scaled);
  EXPECT_EQ(scaled->generation(), 2);
  auto forged = must(update(kDeployments, scaled->edited([](nlohmann::json& j) {
    j["metadata"]["generation"] = 40;
    j["spec"]["replicas"] = 4;
  })));
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->generation(), 3);
}

TEST_P(UpdateTest, StatusIsIgnoredOnTheMainResourceAndWrittenThroughUpdateStatus) {
  auto d = create(kDeployments, deployment("default", "web", 1));
  ASSERT_TRUE(d);
  auto with_status = d->edited([](nlohmann::json& j) { j["status"] = {{"replicas", 1}}; });
  auto main = must(update(kDeployments, with_status));
  ASSERT_TRUE(main);
  EXPECT_EQ(main->resource_version(), d->resource_version());
  EXPECT_EQ(main->json()["status"], nlohmann::json::object());
  auto both = with_status->edited([](nlohmann::json& j) { j["spec"]["replicas"] = 5; });
  auto status = must(run(c().update_status(ctx(), kDeployments, "default", both, UpdateOptions())));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->json()["status"]["replicas"], 1);
  EXPECT_EQ(status->json()["spec"]["replicas"], 1);
  EXPECT_EQ(status->generation(), 1);
  EXPECT_EQ(status->resource_version(), "6");
  auto stale = run(c().update_status(ctx(), kDeployments, "default", both, UpdateOptions()));
  EXPECT_TRUE(is_conflict(status_of(stale))) << status_of(stale);
}

TEST_P(UpdateTest, UpdateStatusOfAKindWithoutStatusIsNotFound) {
  auto a = create_cm("a");
  auto r = run(c().update_status(ctx(), kConfigMaps, "default", with_data(a, "x"), UpdateOptions()));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_not_found(r.status())) << r.status();
  EXPECT_EQ(r.status().code, 404);
  EXPECT_EQ(api_->revision(), 5);
}

TEST_P(UpdateTest, DryRunUpdateWritesNothing) {
  auto a = create_cm("a", "1");
  UpdateOptions dry;
  dry.dry_run = true;
  auto r = must(run(c().update(ctx(), kConfigMaps, "default", with_data(a, "2"), dry)));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->json()["data"]["k"], "2");
  EXPECT_EQ(api_->revision(), 5);
  EXPECT_EQ(must(get_cm("a"))->json()["data"]["k"], "1");
}

INSTANTIATE_TEST_SUITE_P(Transports, UpdateTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
