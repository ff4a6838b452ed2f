// ApiServer: deleting a CustomResourceDefinition — the cleanup finalizer and Terminating
// condition, the deletion of its objects, objects held by finalizers, creates refused meanwhile,
// and the CRD's own preconditions.
#include "kubesim/fakeapi/server.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using namespace std::chrono_literals;
using namespace testutil;

constexpr char kCleanup[] = "customresourcecleanup.apiextensions.k8s.io";

// "Status/Reason" of the Terminating condition, or "".
std::string terminating(const api::ObjectPtr& crd) {
  const auto& conditions = crd->json()["status"]["conditions"];
  if (!conditions.is_array()) return "";
  for (const auto& c : conditions) {
    if (c["type"] == "Terminating") return c["status"].get<std::string>() + "/" + c["reason"].get<std::string>();
  }
  return "";
}

class ServerCrdDeleteTest : public ServerTest {
 protected:
  void SetUp() override {
    must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));  // 5, named 6, established 7
    must(server_.create(kNamespaces, "", namespace_object("team"), api::CreateOptions()));  // 8
  }
  api::Result<api::ObjectPtr> delete_crd(api::DeleteOptions options = {}) {
    return server_.delete_(kCrds, "", "widgets.example.com", options);
  }
  api::Result<api::ObjectPtr> get_crd() {
    return server_.get(kCrds, "", "widgets.example.com", api::GetOptions());
  }
};

TEST_F(ServerCrdDeleteTest, TheObjectsGoFirstThenTheCrd) {
  must(server_.create(kWidgets, "default", widget("default", "a", 1), api::CreateOptions()));  // 9
  must(server_.create(kWidgets, "team", widget("team", "b", 1), api::CreateOptions()));        // 10
  auto widgets = watch_from_now(kWidgets);
  auto crds = watch_from_now(kCrds);
  loop_.run_until(sim::Time{} + 2s);
  auto marked = must(delete_crd());
  ASSERT_TRUE(marked);
  // The answer: the first request only marks the CRD.
  EXPECT_EQ(marked->deletion_timestamp(), "2025-01-01T00:00:02Z");
  EXPECT_TRUE(marked->has_finalizer(kCleanup));
  EXPECT_EQ(terminating(marked), "True/InstanceDeletionPending");
  EXPECT_FALSE(marked->deletion_grace_period_seconds().has_value());
  EXPECT_EQ(marked->generation(), 1);
  EXPECT_EQ(marked->resource_version(), "11");
  settle(loop_);
  EXPECT_EQ(describe(crds->events()),
            (std::vector<std::string>{"MODIFIED widgets.example.com@11", "MODIFIED widgets.example.com@12",
                                      "DELETED widgets.example.com@15"}));
  EXPECT_EQ(terminating(crds->events()[1].object), "True/InstanceDeletionInProgress");
  // The objects, namespace by namespace, then the end of the stream: nothing is served.
  EXPECT_EQ(describe(widgets->events()),
            (std::vector<std::string>{"DELETED default/a@13", "DELETED team/b@14"}));
  EXPECT_TRUE(widgets->ended());
  EXPECT_FALSE(crds->ended());
  EXPECT_EQ(server_.registry().find(kWidgets), nullptr);
  EXPECT_TRUE(api::is_not_found(status_of(get_crd())));
  EXPECT_TRUE(api::is_not_found(status_of(server_.list(kWidgets, "default", api::ListOptions()))));
  // Created again, it serves an empty resource.
  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  auto list = server_.list(kWidgets, "", api::ListOptions());
  ASSERT_TRUE(list.ok());
  EXPECT_TRUE(list->items.empty());
}

TEST_F(ServerCrdDeleteTest, ObjectsHeldByFinalizersKeepTheCrdTerminating) {
  must(server_.create(kWidgets, "default", widget("default", "free", 1), api::CreateOptions()));
  must(server_.create(kWidgets, "default", widget("default", "held", 1)->with_finalizers({"example.com/hold"}),
                      api::CreateOptions()));
  must(delete_crd());
  settle(loop_);
  auto crd = must(get_crd());
  ASSERT_TRUE(crd);
  EXPECT_EQ(terminating(crd), "True/InstanceDeletionInProgress");
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kWidgets, "default", "free", api::GetOptions()))));
  auto held = must(server_.get(kWidgets, "default", "held", api::GetOptions()));
  ASSERT_TRUE(held);
  EXPECT_TRUE(held->deletion_timestamp().has_value());
  // New objects are forbidden while the CRD terminates; the others are still served.
  const Revision before = server_.revision();
  auto refused = server_.create(kWidgets, "default", widget("default", "new", 1), api::CreateOptions());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code, 403);
  EXPECT_EQ(refused.status().message,
            "widgets.example.com \"new\" is forbidden: create not allowed while custom resource "
            "definition is terminating");
  EXPECT_EQ(server_.revision(), before);
  EXPECT_TRUE(server_.list(kWidgets, "", api::ListOptions()).ok());
  // A minute later the finalizer says what it waits for.
  loop_.run_for(61s);
  EXPECT_EQ(terminating(must(get_crd())), "True/InstanceDeletionCheck");
  // The last object goes, and the CRD with it.
  must(server_.update(kWidgets, "default", held->with_finalizers({}), api::UpdateOptions()));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kWidgets, "default", "held", api::GetOptions()))));
  EXPECT_TRUE(api::is_not_found(status_of(get_crd())));
  EXPECT_EQ(server_.registry().find(kWidgets), nullptr);
}

TEST_F(ServerCrdDeleteTest, DeletingAgainOrDryRunChangesNothing) {
  must(server_.create(kWidgets, "default", widget("default", "held", 1)->with_finalizers({"example.com/hold"}),
                      api::CreateOptions()));
  api::DeleteOptions dry;
  dry.dry_run = true;
  auto preview = must(delete_crd(dry));
  ASSERT_TRUE(preview);
  EXPECT_TRUE(preview->has_finalizer(kCleanup));
  EXPECT_FALSE(must(get_crd())->deletion_timestamp().has_value());
  must(delete_crd());
  const Revision after_first = server_.revision();
  auto again = must(delete_crd());
  ASSERT_TRUE(again);
  EXPECT_EQ(server_.revision(), after_first);
  EXPECT_EQ(again->finalizers(), std::vector<std::string_view>{kCleanup});
}

TEST_F(ServerCrdDeleteTest, PreconditionsAreTheCrdRegistrysOwn) {
  api::DeleteOptions options;
  options.preconditions.uid = "not-the-uid";
  auto r = delete_crd(options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_conflict(r.status()));
  auto crd = must(get_crd());
  EXPECT_EQ(r.status().message,
            "Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "
            "\"widgets.example.com\": precondition failed: UID in precondition: not-the-uid, UID in "
            "object meta: " + std::string(crd->uid()));
  EXPECT_FALSE(crd->deletion_timestamp().has_value());
}

TEST_F(ServerCrdDeleteTest, DeletingANamespaceDeletesItsCustomObjects) {
  must(server_.create(kWidgets, "team", widget("team", "w", 1), api::CreateOptions()));
  must(server_.delete_(kNamespaces, "", "team", api::DeleteOptions()));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kWidgets, "team", "w", api::GetOptions()))));
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kNamespaces, "", "team", api::GetOptions()))));
  EXPECT_TRUE(get_crd().ok());
}

}  // namespace
}  // namespace kubesim::fakeapi
