// CustomResourceDefinitions over both transports, with the expectations of the core suites
// (tests/fakeapi/server_crd_test.cc, server_crd_delete_test.cc): a created CRD serves its
// resource, updates serve new versions and keep immutable fields, and deleting it removes its
// objects, then itself. The server's controllers work after the answer, so the tests wait for
// their writes through watches, never by time.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

constexpr char kCleanup[] = "customresourcecleanup.apiextensions.k8s.io";
const GroupVersionResource kWidgetsV2{"example.com", "v2", "widgets"};

// "Status/Reason" of the condition `type` of a CRD, or "".
std::string condition(const ObjectPtr& crd, const std::string& type) {
  const auto& conditions = crd->json()["status"]["conditions"];
  if (!conditions.is_array()) return "";
  for (const auto& c : conditions) {
    if (c["type"] == type) return c["status"].get<std::string>() + "/" + c["reason"].get<std::string>();
  }
  return "";
}

class CrdTest : public BothTransportsTest {
 protected:
  Result<ObjectPtr> get_crd() { return get(kCrds, "", "widgets.example.com"); }
  // Creates widgets.example.com and waits until it is Established; returns it then.
  ObjectPtr create_established_crd(const std::string& scope = "Namespaced") {
    auto created = create(kCrds, widget_crd(scope));
    if (!created) return nullptr;
    ListOptions o;
    o.resource_version = std::string(created->resource_version());
    auto w = watch(kCrds, "", o);
    for (int i = 0; w && i < 5; ++i) {
      auto e = take(*w, 1);
      if (e.empty()) break;
      if (condition(e[0].object, "Established") == "True/InitialNamesAccepted") return e[0].object;
    }
    ADD_FAILURE() << "the CRD was not established";
    return nullptr;
  }
  // The events of `w` up to and including the first DELETED one (at most `max`).
  std::vector<WatchEvent> until_deleted(WatchStream& w, std::size_t max = 10) {
    std::vector<WatchEvent> out;
    while (out.size() < max) {
      auto e = take(w, 1);
      if (e.empty()) break;
      out.push_back(e[0]);
      if (e[0].type == EventType::kDeleted) break;
    }
    return out;
  }
};

TEST_P(CrdTest, ACreatedCrdHasItsDefaultsThenItsNamesAcceptedThenIsEstablished) {
  auto created = create(kCrds, widget_crd());
  ASSERT_TRUE(created);
  const auto& status = created->json()["status"];
  EXPECT_TRUE(status["conditions"].is_null()) << status;
  EXPECT_EQ(status["acceptedNames"], (nlohmann::json{{"plural", ""}, {"kind", ""}}));
  EXPECT_EQ(status["storedVersions"], nlohmann::json::array({"v1"}));
  EXPECT_EQ(created->json()["spec"]["names"]["listKind"], "WidgetList");
  EXPECT_EQ(created->json()["spec"]["conversion"]["strategy"], "None");
  EXPECT_EQ(created->generation(), 1);
  ListOptions o;
  o.resource_version = std::string(created->resource_version());
  auto w = watch(kCrds, "", o);
  ASSERT_TRUE(w);
  auto events = take(*w, 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(condition(events[0].object, "NamesAccepted"), "True/NoConflicts");
  EXPECT_EQ(condition(events[0].object, "Established"), "False/Installing");
  EXPECT_EQ(condition(events[1].object, "Established"), "True/InitialNamesAccepted");
  auto crd = must(get_crd());
  ASSERT_TRUE(crd);
  EXPECT_EQ(crd->json()["status"]["acceptedNames"], crd->json()["spec"]["names"]);
}

TEST_P(CrdTest, ACreatedCrdServesItsResourceWithGenerationAndStatus) {
  auto before = run(c().create(ctx(), kWidgets, "default", widget("default", "w", 1), CreateOptions()));
  EXPECT_TRUE(is_not_found(status_of(before))) << status_of(before);
  ASSERT_TRUE(create_established_crd());
  auto w = create(kWidgets, widget("default", "w", 1));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->generation(), 1);
  EXPECT_EQ(w->api_version(), "example.com/v1");
  auto list = run(c().list(ctx(), kWidgets, "default", ListOptions()));
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->items.size(), 1u);
  EXPECT_EQ(list->items[0]->kind(), "Widget");
  auto bigger = must(update(kWidgets, w->edited([](nlohmann::json& j) { j["spec"]["size"] = 2; })));
  ASSERT_TRUE(bigger);
  EXPECT_EQ(bigger->generation(), 2);
  auto status = must(run(c().update_status(ctx(), kWidgets, "default",
                                           bigger->edited([](nlohmann::json& j) { j["status"] = {{"ready", true}}; }),
                                           UpdateOptions())));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->generation(), 2);
  EXPECT_EQ(status->json()["status"]["ready"], true);
}

TEST_P(CrdTest, AClusterScopedCrdServesClusterScopedObjects) {
  ASSERT_TRUE(create_established_crd("Cluster"));
  auto w = create(kWidgets, widget("", "w", 1));
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->namespace_().empty());
  EXPECT_TRUE(get(kWidgets, "", "w").ok());
  EXPECT_EQ(status_of(get(kWidgets, "default", "w")).code, 404);
}

TEST_P(CrdTest, AnInvalidCrdIsRejectedAndTheSameCrdCannotBeCreatedTwice) {
  auto bad = widget_crd()->edited([](nlohmann::json& j) {
    j["spec"]["group"] = "nodots";
    j["spec"]["scope"] = "Sideways";
  });
  auto r = run(c().create(ctx(), kCrds, "", bad, CreateOptions()));
  EXPECT_TRUE(is_invalid(status_of(r))) << status_of(r);
  EXPECT_EQ(api_->revision(), 4);
  EXPECT_TRUE(is_not_found(status_of(get_crd())));
  ASSERT_TRUE(create_established_crd());
  auto again = run(c().create(ctx(), kCrds, "", widget_crd(), CreateOptions()));
  EXPECT_TRUE(is_already_exists(status_of(again))) << status_of(again);
}

TEST_P(CrdTest, AnUpdateServesANewVersionAndEndsTheOldStoragesWatches) {
  ASSERT_TRUE(create_established_crd());
  ASSERT_TRUE(create(kWidgets, widget("default", "w", 1)));
  ListOptions now;
  now.resource_version = revision();
  auto widgets = watch(kWidgets, "", now);
  ASSERT_TRUE(widgets);
  auto crd = must(get_crd());
  ASSERT_TRUE(crd);
  auto updated = must(update(kCrds, crd->edited([](nlohmann::json& j) {
    auto& versions = j["spec"]["versions"];
    nlohmann::json v2 = versions[0];
    v2["name"] = "v2";
    versions[0]["storage"] = false;
    versions.push_back(v2);
  })));
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->generation(), 2);
  EXPECT_EQ(updated->json()["status"]["storedVersions"], nlohmann::json::array({"v1", "v2"}));
  EXPECT_TRUE(get(kWidgetsV2, "default", "w").ok());
  EXPECT_TRUE(get(kWidgets, "default", "w").ok());
  bool ended = false;
  EXPECT_TRUE(take_all(*widgets, &ended).empty());
  EXPECT_TRUE(ended);
}

TEST_P(CrdTest, AnEstablishedCrdKeepsItsImmutableFields) {
  auto crd = create_established_crd();
  ASSERT_TRUE(crd);
  const auto before = api_->revision();
  auto scope = update(kCrds, crd->edited([](nlohmann::json& j) {
    j["spec"]["scope"] = "Cluster";
    j["spec"]["names"]["kind"] = "Gadget";
  }));
  ASSERT_FALSE(scope.ok());
  EXPECT_TRUE(is_invalid(scope.status()));
  EXPECT_EQ(scope.status().message,
            "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: "
            "[spec.scope: Invalid value: \"Cluster\": field is immutable, "
            "spec.names.kind: Invalid value: \"Gadget\": field is immutable]");
  EXPECT_EQ(api_->revision(), before);
}

TEST_P(CrdTest, DeletingACrdDeletesItsObjectsFirstThenItself) {
  ASSERT_TRUE(create_established_crd());
  ASSERT_TRUE(create_namespace("team"));
  ASSERT_TRUE(create(kWidgets, widget("default", "a", 1)));
  ASSERT_TRUE(create(kWidgets, widget("team", "b", 1)));
  ListOptions now;
  now.resource_version = revision();
  auto widgets = watch(kWidgets, "", now);
  auto crds = watch(kCrds, "", now);
  ASSERT_TRUE(widgets && crds);
  auto marked = must(run(c().delete_(ctx(), kCrds, "", "widgets.example.com", DeleteOptions())));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  EXPECT_TRUE(marked->has_finalizer(kCleanup));
  EXPECT_EQ(condition(marked, "Terminating"), "True/InstanceDeletionPending");
  auto crd_events = until_deleted(*crds);
  ASSERT_FALSE(crd_events.empty());
  EXPECT_EQ(crd_events.back().type, EventType::kDeleted);
  bool ended = false;
  auto widget_events = take_all(*widgets, &ended);
  std::vector<std::string> names;
  for (const auto& e : describe(widget_events)) names.push_back(e.substr(0, e.find('@')));
  EXPECT_EQ(names, (std::vector<std::string>{"DELETED default/a", "DELETED team/b"}));
  EXPECT_TRUE(ended);
  EXPECT_TRUE(is_not_found(status_of(get_crd())));
  EXPECT_TRUE(is_not_found(status_of(run(c().list(ctx(), kWidgets, "default", ListOptions())))));
  // Created again, it serves an empty resource.
  ASSERT_TRUE(create_established_crd());
  auto list = run(c().list(ctx(), kWidgets, "", ListOptions()));
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_TRUE(list->items.empty());
}

TEST_P(CrdTest, ObjectsHeldByFinalizersKeepTheCrdTerminatingAndRefuseCreates) {
  ASSERT_TRUE(create_established_crd());
  ASSERT_TRUE(create(kWidgets, widget("default", "free", 1)));
  auto held = create(kWidgets, widget("default", "held", 1)->with_finalizers({"example.com/hold"}));
  ASSERT_TRUE(held);
  ListOptions now;
  now.resource_version = revision();
  auto widgets = watch(kWidgets, "", now);
  auto crds = watch(kCrds, "", now);
  ASSERT_TRUE(widgets && crds);
  ASSERT_TRUE(must(run(c().delete_(ctx(), kCrds, "", "widgets.example.com", DeleteOptions()))));
  // free goes; held is marked.
  auto events = take(*widgets, 2);
  std::vector<std::string> kinds;
  for (const auto& e : describe(events)) kinds.push_back(e.substr(0, e.find('@')));
  EXPECT_EQ(kinds, (std::vector<std::string>{"DELETED default/free", "MODIFIED default/held"}));
  auto marked = must(get(kWidgets, "default", "held"));
  ASSERT_TRUE(marked);
  EXPECT_TRUE(marked->deletion_timestamp().has_value());
  auto refused = run(c().create(ctx(), kWidgets, "default", widget("default", "new", 1), CreateOptions()));
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(is_forbidden(refused.status())) << refused.status();
  EXPECT_EQ(refused.status().message,
            "widgets.example.com \"new\" is forbidden: create not allowed while custom resource "
            "definition is terminating");
  EXPECT_TRUE(get_crd().ok());
  // The last object goes, and the CRD with it.
  ASSERT_TRUE(update(kWidgets, marked->with_finalizers({})).ok());
  auto crd_events = until_deleted(*crds);
  ASSERT_FALSE(crd_events.empty());
  EXPECT_EQ(crd_events.back().type, EventType::kDeleted);
  EXPECT_TRUE(is_not_found(status_of(get_crd())));
}

TEST_P(CrdTest, TheCrdsPreconditionsAreItsRegistrysOwn) {
  ASSERT_TRUE(create_established_crd());
  DeleteOptions o;
  o.preconditions.uid = "not-the-uid";
  auto r = run(c().delete_(ctx(), kCrds, "", "widgets.example.com", o));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_conflict(r.status()));
  auto crd = must(get_crd());
  ASSERT_TRUE(crd);
  EXPECT_EQ(r.status().message,
            "Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "
            "\"widgets.example.com\": precondition failed: UID in precondition: not-the-uid, UID in "
            "object meta: " + std::string(crd->uid()));
  EXPECT_FALSE(crd->deletion_timestamp().has_value());
}

INSTANTIATE_TEST_SUITE_P(Transports, CrdTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
