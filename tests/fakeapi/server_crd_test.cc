// ApiServer: CustomResourceDefinitions — creation (defaults, names accepted, Established), the
// resource they serve, updates (new versions, storage moves, immutable fields) and name conflicts
// within a group.
#include "kubesim/fakeapi/server.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/fakeapi/fixtures.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;

// The condition `type` of a CRD as "Status/Reason", or "" when it has none.
std::string condition(const api::ObjectPtr& crd, const std::string& type) {
  const auto& conditions = crd->json()["status"]["conditions"];
  if (!conditions.is_array()) return "";
  for (const auto& c : conditions) {
    if (c["type"] == type) return c["status"].get<std::string>() + "/" + c["reason"].get<std::string>();
  }
  return "";
}

// widgets.example.com with a second version v2, which is the storage version.
api::ObjectPtr with_v2_storage(const api::ObjectPtr& crd) {
  return crd->edited([](nlohmann::json& j) {
    auto& versions = j["spec"]["versions"];
    nlohmann::json v2 = versions[0];
    v2["name"] = "v2";
    versions[0]["storage"] = false;
    versions.push_back(v2);
  });
}

class ServerCrdTest : public ServerTest {
 protected:
  api::ObjectPtr get_crd(const std::string& name = "widgets.example.com") {
    return must(server_.get(kCrds, "", name, api::GetOptions()));
  }
};

TEST_F(ServerCrdTest, ACreatedCrdHasItsNamesAcceptedThenIsEstablished) {
  auto crds = watch_from_now(kCrds);
  auto created = must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));  // 5
  ASSERT_TRUE(created);
  // The create's answer is what PrepareForCreate stored: defaults, no conditions yet.
  const auto& status = created->json()["status"];
  EXPECT_TRUE(status["conditions"].is_null()) << status;
  EXPECT_EQ(status["acceptedNames"], (nlohmann::json{{"plural", ""}, {"kind", ""}}));
  EXPECT_EQ(status["storedVersions"], nlohmann::json::array({"v1"}));
  EXPECT_EQ(created->json()["spec"]["names"]["listKind"], "WidgetList");
  EXPECT_EQ(created->json()["spec"]["conversion"]["strategy"], "None");
  EXPECT_EQ(created->generation(), 1);
  settle(loop_);
  // The naming controller, then the establishing controller.
  ASSERT_EQ(describe(crds->events()),
            (std::vector<std::string>{"ADDED widgets.example.com@5", "MODIFIED widgets.example.com@6",
                                      "MODIFIED widgets.example.com@7"}));
  const auto& named = crds->events()[1].object;
  EXPECT_EQ(condition(named, "NamesAccepted"), "True/NoConflicts");
  EXPECT_EQ(condition(named, "Established"), "False/Installing");
  EXPECT_EQ(named->json()["status"]["acceptedNames"]["kind"], "Widget");
  auto crd = get_crd();
  ASSERT_TRUE(crd);
  EXPECT_EQ(condition(crd, "NamesAccepted"), "True/NoConflicts");
  EXPECT_EQ(condition(crd, "Established"), "True/InitialNamesAccepted");
  EXPECT_EQ(crd->json()["status"]["acceptedNames"], crd->json()["spec"]["names"]);
  EXPECT_EQ(crd->generation(), 1);
}

TEST_F(ServerCrdTest, ACreatedCrdServesItsResource) {
  auto before = server_.create(kWidgets, "default", widget("default", "w", 1), api::CreateOptions());
  ASSERT_FALSE(before.ok());
  EXPECT_TRUE(api::is_not_found(before.status()));

  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  const ResourceInfo* info = server_.registry().find(kWidgets);
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->namespaced);
  EXPECT_TRUE(info->has_status);
  EXPECT_EQ(info->kind, "Widget");
  EXPECT_EQ(info->list_kind, "WidgetList");

  auto w = must(server_.create(kWidgets, "default", widget("default", "w", 1), api::CreateOptions()));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->generation(), 1);
  EXPECT_EQ(w->json()["apiVersion"], "example.com/v1");
  auto list = server_.list(kWidgets, "default", api::ListOptions());
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->items.size(), 1u);
  EXPECT_EQ(list->items[0]->name(), "w");
  // Custom resources count every change outside metadata and status as a generation change.
  auto bigger = must(server_.update(kWidgets, "default",
                                    w->edited([](nlohmann::json& j) { j["spec"]["size"] = 2; }),
                                    api::UpdateOptions()));
  ASSERT_TRUE(bigger);
  EXPECT_EQ(bigger->generation(), 2);
  auto status = must(server_.update(kWidgets, "default",
                                    bigger->edited([](nlohmann::json& j) { j["status"] = {{"ready", true}}; }),
                                    api::UpdateOptions(), api::Subresource::kStatus));
  ASSERT_TRUE(status);
  EXPECT_EQ(status->generation(), 2);
  EXPECT_EQ(status->json()["status"]["ready"], true);
}

TEST_F(ServerCrdTest, AClusterScopedCrdServesClusterScopedObjects) {
  must(server_.create(kCrds, "", widget_crd("Cluster"), api::CreateOptions()));
  auto w = must(server_.create(kWidgets, "", widget("", "w", 1), api::CreateOptions()));
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->namespace_().empty());
  EXPECT_TRUE(server_.get(kWidgets, "", "w", api::GetOptions()).ok());
  EXPECT_EQ(status_of(server_.get(kWidgets, "default", "w", api::GetOptions())).code, 404);
}

TEST_F(ServerCrdTest, AnInvalidCrdIsRejectedAndServesNothing) {
  auto bad = widget_crd()->edited([](nlohmann::json& j) {
    j["spec"]["group"] = "nodots";
    j["spec"]["scope"] = "Sideways";
  });
  auto r = server_.create(kCrds, "", bad, api::CreateOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_invalid(r.status())) << r.status();
  EXPECT_EQ(server_.revision(), 4);
  EXPECT_TRUE(api::is_not_found(status_of(server_.get(kCrds, "", "widgets.example.com", api::GetOptions()))));
}

TEST_F(ServerCrdTest, TheSameCrdCannotBeCreatedTwice) {
  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  auto again = server_.create(kCrds, "", widget_crd(), api::CreateOptions());
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(api::is_already_exists(again.status()));
}

TEST_F(ServerCrdTest, AnUpdateServesANewVersionAndMovesStorage) {
  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  must(server_.create(kWidgets, "default", widget("default", "w", 1), api::CreateOptions()));
  auto widgets = watch_from_now(kWidgets);
  const api::GroupVersionResource v2{"example.com", "v2", "widgets"};
  EXPECT_EQ(server_.registry().find(v2), nullptr);
  auto updated = must(server_.update(kCrds, "", with_v2_storage(get_crd()), api::UpdateOptions()));
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->generation(), 2);
  EXPECT_EQ(updated->json()["status"]["storedVersions"], nlohmann::json::array({"v1", "v2"}));
  const ResourceInfo* info = server_.registry().find(v2);
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->storage);
  EXPECT_FALSE(server_.registry().find(kWidgets)->storage);
  // Both versions serve the same objects; the old storage's watches ended.
  EXPECT_TRUE(server_.get(v2, "default", "w", api::GetOptions()).ok());
  EXPECT_TRUE(server_.get(kWidgets, "default", "w", api::GetOptions()).ok());
  settle(loop_);
  EXPECT_TRUE(widgets->ended());
  // An update that changes nothing the server serves leaves the watches alone.
  auto again = watch_from_now(kWidgets);
  must(server_.update(kCrds, "", get_crd()->with_labels({{"team", "a"}}), api::UpdateOptions()));
  settle(loop_);
  EXPECT_FALSE(again->ended());
}

TEST_F(ServerCrdTest, AnEstablishedCrdKeepsItsScopeKindGroupPluralAndStoredVersions) {
  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  auto crd = get_crd();
  const Revision before = server_.revision();
  auto scope = server_.update(kCrds, "", crd->edited([](nlohmann::json& j) {
    j["spec"]["scope"] = "Cluster";
    j["spec"]["names"]["kind"] = "Gadget";
  }), api::UpdateOptions());
  ASSERT_FALSE(scope.ok());
  EXPECT_EQ(scope.status().message,
            "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: "
            "[spec.scope: Invalid value: \"Cluster\": field is immutable, "
            "spec.names.kind: Invalid value: \"Gadget\": field is immutable]");
  auto group = server_.update(kCrds, "", crd->edited([](nlohmann::json& j) {
    j["spec"]["group"] = "other.com";
  }), api::UpdateOptions());
  ASSERT_FALSE(group.ok());
  EXPECT_TRUE(api::is_invalid(group.status()));
  EXPECT_NE(group.status().message.find("spec.group: Invalid value: \"other.com\": field is immutable"),
            std::string::npos) << group.status();
  // v1 was stored: it may not leave spec.versions.
  auto v2_only = with_v2_storage(crd)->edited([](nlohmann::json& j) {
    j["spec"]["versions"].erase(0);
  });
  auto dropped = server_.update(kCrds, "", v2_only, api::UpdateOptions());
  ASSERT_FALSE(dropped.ok());
  EXPECT_NE(dropped.status().message.find(
                "status.storedVersions[0]: Invalid value: \"v1\": missing from spec.versions; v1 was "
                "previously a storage version"),
            std::string::npos) << dropped.status();
  EXPECT_EQ(server_.revision(), before);
  EXPECT_NE(server_.registry().find(kWidgets), nullptr);
}

TEST_F(ServerCrdTest, ANewShortNameIsAcceptedAndServed) {
  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  must(server_.update(kCrds, "", get_crd()->edited([](nlohmann::json& j) {
    j["spec"]["names"]["shortNames"] = {"wd"};
  }), api::UpdateOptions()));
  auto crd = get_crd();
  EXPECT_EQ(crd->json()["status"]["acceptedNames"]["shortNames"], nlohmann::json::array({"wd"}));
  const ResourceInfo* info = server_.registry().find(kWidgets);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->short_names, std::vector<std::string>{"wd"});
}

TEST_F(ServerCrdTest, AKindTakenInTheGroupIsNotAcceptedUntilItIsFree) {
  must(server_.create(kCrds, "", widget_crd(), api::CreateOptions()));
  const api::GroupVersionResource gadgets{"example.com", "v1", "gadgets"};
  auto gadget_crd = widget_crd()->edited([](nlohmann::json& j) {
    j["metadata"]["name"] = "gadgets.example.com";
    j["spec"]["names"] = {{"plural", "gadgets"}, {"kind", "Widget"}, {"singular", "gadget"},
                             {"listKind", "GadgetList"}};
  });
  must(server_.create(kCrds, "", gadget_crd, api::CreateOptions()));
  auto crd = get_crd("gadgets.example.com");
  ASSERT_TRUE(crd);
  EXPECT_EQ(condition(crd, "NamesAccepted"), "False/KindConflict");
  EXPECT_EQ(condition(crd, "Established"), "False/NotAccepted");
  EXPECT_EQ(crd->json()["status"]["acceptedNames"]["plural"], "gadgets");
  EXPECT_EQ(crd->json()["status"]["acceptedNames"]["kind"], "");
  EXPECT_EQ(server_.registry().find(gadgets), nullptr);
  EXPECT_TRUE(api::is_not_found(status_of(server_.list(gadgets, "default", api::ListOptions()))));
  // Once widgets.example.com is gone, the kind is free.
  must(server_.delete_(kCrds, "", "widgets.example.com", api::DeleteOptions()));
  settle(loop_);
  crd = get_crd("gadgets.example.com");
  EXPECT_EQ(condition(crd, "NamesAccepted"), "True/NoConflicts");
  EXPECT_EQ(condition(crd, "Established"), "True/InitialNamesAccepted");
  ASSERT_NE(server_.registry().find(gadgets), nullptr);
  EXPECT_EQ(server_.registry().find(gadgets)->kind, "Widget");
}

}  // namespace
}  // namespace kubesim::fakeapi
