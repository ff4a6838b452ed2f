// The Client's CRUD, list and error paths, run over both transports against the same fake API
// server: RestClient over HTTP must give what the in-process client gives.
#include <gtest/gtest.h>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

using CrudTest = BothTransportsTest;

TEST_P(CrudTest, CreateGetUpdateConflictDeleteNotFound) {
  ObjectPtr created = create_cm("a", "1");
  ASSERT_TRUE(created);
  EXPECT_FALSE(created->uid().empty());
  EXPECT_FALSE(created->resource_version().empty());

  auto got = run(c().get(ctx(), kConfigMaps, "default", "a", GetOptions()));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got.value()->json()["data"]["k"], "1");
  EXPECT_EQ(got.value()->resource_version(), created->resource_version());

  auto updated = run(c().update(ctx(), kConfigMaps, "default",
                                created->edited([](nlohmann::json& j) { j["data"]["k"] = "2"; }),
                                UpdateOptions()));
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_NE(updated.value()->resource_version(), created->resource_version());

  auto stale = run(c().update(ctx(), kConfigMaps, "default",
                              created->edited([](nlohmann::json& j) { j["data"]["k"] = "3"; }),
                              UpdateOptions()));
  ASSERT_FALSE(stale.ok());
  EXPECT_TRUE(is_conflict(stale.status()));
  EXPECT_EQ(stale.status(), new_conflict(GroupResource("", "configmaps"), "a", kOptimisticLockErrorMsg));

  auto dup = run(c().create(ctx(), kConfigMaps, "default", cm("a"), CreateOptions()));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status(), new_already_exists(GroupResource("", "configmaps"), "a"));

  auto deleted = run(c().delete_(ctx(), kConfigMaps, "default", "a", DeleteOptions()));
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(deleted.value()->name(), "a");

  auto gone = run(c().get(ctx(), kConfigMaps, "default", "a", GetOptions()));
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status(), new_not_found(GroupResource("", "configmaps"), "a"));
  auto gone_again = run(c().delete_(ctx(), kConfigMaps, "default", "a", DeleteOptions()));
  EXPECT_TRUE(is_not_found(gone_again.status()));
}

TEST_P(CrudTest, DryRunPreconditionsAndFinalizers) {
  CreateOptions dry;
  dry.dry_run = true;
  auto would = run(c().create(ctx(), kConfigMaps, "default", cm("d"), dry));
  ASSERT_TRUE(would.ok()) << would.status();
  EXPECT_TRUE(is_not_found(run(c().get(ctx(), kConfigMaps, "default", "d", GetOptions())).status()));

  ObjectPtr obj = create_cm("f");
  DeleteOptions wrong_uid;
  wrong_uid.preconditions.uid = "not-the-uid";
  auto refused = run(c().delete_(ctx(), kConfigMaps, "default", "f", wrong_uid));
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(is_conflict(refused.status()));
  EXPECT_NE(refused.status().message.find("Precondition failed: UID in precondition: not-the-uid"),
            std::string::npos)
      << refused.status();

  auto held = run(c().update(ctx(), kConfigMaps, "default", obj->with_finalizers({"example.com/hold"}),
                             UpdateOptions()));
  ASSERT_TRUE(held.ok()) << held.status();
  DeleteOptions right_uid;
  right_uid.preconditions.uid = std::string(obj->uid());
  auto marked = run(c().delete_(ctx(), kConfigMaps, "default", "f", right_uid));
  ASSERT_TRUE(marked.ok()) << marked.status();
  EXPECT_TRUE(marked.value()->deletion_timestamp().has_value());
  auto released =
      run(c().update(ctx(), kConfigMaps, "default", marked.value()->with_finalizers({}), UpdateOptions()));
  ASSERT_TRUE(released.ok()) << released.status();
  EXPECT_TRUE(is_not_found(run(c().get(ctx(), kConfigMaps, "default", "f", GetOptions())).status()));
}

TEST_P(CrudTest, StatusSubresourceAndPatches) {
  nlohmann::json labels = {{"app", "web"}};
  nlohmann::json spec = {{"replicas", 1},
                         {"selector", {{"matchLabels", labels}}},
                         {"template",
                          {{"metadata", {{"labels", labels}}},
                           {"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}}}};
  auto dep = make_object({{"apiVersion", "apps/v1"},
                          {"kind", "Deployment"},
                          {"metadata", {{"name", "web"}, {"namespace", "default"}}},
                          {"spec", spec}});
  auto created = run(c().create(ctx(), kDeployments, "default", dep, CreateOptions()));
  ASSERT_TRUE(created.ok()) << created.status();
  auto with_status = created.value()->edited([](nlohmann::json& j) { j["status"] = {{"replicas", 3}}; });
  auto st = run(c().update_status(ctx(), kDeployments, "default", with_status, UpdateOptions()));
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st.value()->json()["status"]["replicas"], 3);
  EXPECT_EQ(st.value()->generation(), 1);

  auto merge = run(c().patch(ctx(), kDeployments, "default", "web", PatchType::kMergePatch,
                             R"({"spec":{"replicas":2}})", PatchOptions()));
  ASSERT_TRUE(merge.ok()) << merge.status();
  EXPECT_EQ(merge.value()->json()["spec"]["replicas"], 2);
  EXPECT_EQ(merge.value()->generation(), 2);
  EXPECT_EQ(merge.value()->json()["status"]["replicas"], 3);

  auto json_patch = run(c().patch(ctx(), kDeployments, "default", "web", PatchType::kJsonPatch,
                                  R"([{"op":"replace","path":"/spec/replicas","value":4}])", PatchOptions()));
  ASSERT_TRUE(json_patch.ok()) << json_patch.status();
  EXPECT_EQ(json_patch.value()->json()["spec"]["replicas"], 4);

  auto smp = run(c().patch(ctx(), kDeployments, "default", "web", PatchType::kStrategicMergePatch,
                           R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"httpd"}]}}}})",
                           PatchOptions()));
  ASSERT_TRUE(smp.ok()) << smp.status();
  EXPECT_EQ(smp.value()->json()["spec"]["template"]["spec"]["containers"][0]["image"], "httpd");

  auto missing = run(c().patch(ctx(), kDeployments, "default", "nope", PatchType::kMergePatch, "{}",
                               PatchOptions()));
  EXPECT_EQ(missing.status(), new_not_found(GroupResource("apps", "deployments"), "nope"));
}

TEST_P(CrudTest, ListsWithSelectorsAndPages) {
  for (int i = 0; i < 5; ++i) {
    create_cm("cm" + std::to_string(i), "v", {{"app", i % 2 == 0 ? "even" : "odd"}});
  }
  ListOptions even;
  even.label_selector = "app in (even)";
  auto evens = run(c().list(ctx(), kConfigMaps, "default", even));
  ASSERT_TRUE(evens.ok()) << evens.status();
  ASSERT_EQ(evens->items.size(), 3u);
  EXPECT_EQ(evens->items[0]->kind(), "ConfigMap");
  EXPECT_EQ(evens->items[0]->api_version(), "v1");
  EXPECT_FALSE(evens->resource_version.empty());

  ListOptions by_name;
  by_name.field_selector = "metadata.name=cm3";
  auto one = run(c().list(ctx(), kConfigMaps, "", by_name));
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_EQ(one->items.size(), 1u);
  EXPECT_EQ(one->items[0]->name(), "cm3");

  std::vector<std::string> names;
  ListOptions page;
  page.limit = 2;
  std::string rv;
  for (int pages = 0; pages < 10; ++pages) {
    auto r = run(c().list(ctx(), kConfigMaps, "default", page));
    ASSERT_TRUE(r.ok()) << r.status();
    if (rv.empty()) rv = r->resource_version;
    EXPECT_EQ(r->resource_version, rv);  // one snapshot
    for (const auto& item : r->items) names.emplace_back(item->name());
    if (r->continue_token.empty()) break;
    EXPECT_TRUE(r->remaining_item_count.has_value());
    page.continue_token = r->continue_token;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"cm0", "cm1", "cm2", "cm3", "cm4"}));

  ListOptions bad;
  bad.label_selector = "app in (";
  auto refused = run(c().list(ctx(), kConfigMaps, "default", bad));
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(is_bad_request(refused.status())) << refused.status();

  DeleteOptions del;
  ListOptions odd;
  odd.label_selector = "app=odd";
  auto removed = run(c().delete_collection(ctx(), kConfigMaps, "default", del, odd));
  ASSERT_TRUE(removed.ok()) << removed.status();
  auto rest = run(c().list(ctx(), kConfigMaps, "default", ListOptions()));
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest->items.size(), 3u);
}

TEST_P(CrudTest, ErrorsOfTheCoreIssue) {
  auto no_ns = run(c().create(ctx(), kConfigMaps, "nope", cm("a").get()->with_namespace("nope"),
                              CreateOptions()));
  ASSERT_FALSE(no_ns.ok());
  EXPECT_EQ(no_ns.status(), new_not_found(GroupResource("", "namespaces"), "nope"));

  auto invalid = run(c().create(ctx(), kConfigMaps, "default", cm("Not_Valid"), CreateOptions()));
  ASSERT_FALSE(invalid.ok());
  EXPECT_TRUE(is_invalid(invalid.status())) << invalid.status();
  EXPECT_EQ(invalid.status().code, 422);

  auto unknown = run(c().get(ctx(), GroupVersionResource("", "v1", "gizmos"), "default", "x", GetOptions()));
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(is_not_found(unknown.status())) << unknown.status();
}

TEST_P(CrudTest, CustomResourcesAfterTheirDefinition) {
  nlohmann::json schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  nlohmann::json version = {{"name", "v1"},
                            {"served", true},
                            {"storage", true},
                            {"subresources", {{"status", nlohmann::json::object()}}},
                            {"schema", {{"openAPIV3Schema", schema}}}};
  auto crd = make_object(
      {{"apiVersion", "apiextensions.k8s.io/v1"},
       {"kind", "CustomResourceDefinition"},
       {"metadata", {{"name", "widgets.example.com"}}},
       {"spec",
        {{"group", "example.com"},
         {"scope", "Namespaced"},
         {"names", {{"plural", "widgets"}, {"singular", "widget"}, {"kind", "Widget"}}},
         {"versions", {version}}}}});
  auto made = run(c().create(ctx(), kCrds, "", crd, CreateOptions()));
  ASSERT_TRUE(made.ok()) << made.status();
  auto w = make_object({{"apiVersion", "example.com/v1"},
                        {"kind", "Widget"},
                        {"metadata", {{"name", "w1"}, {"namespace", "default"}}},
                        {"spec", {{"size", 3}}}});
  auto created = run(c().create(ctx(), kWidgets, "default", w, CreateOptions()));
  ASSERT_TRUE(created.ok()) << created.status();
  auto all = run(c().list(ctx(), kWidgets, "", ListOptions()));
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->items.size(), 1u);
  EXPECT_EQ(all->items[0]->kind(), "Widget");
  auto ns = run(c().get(ctx(), kNamespaces, "", "default", GetOptions()));
  ASSERT_TRUE(ns.ok()) << ns.status();
}

INSTANTIATE_TEST_SUITE_P(Transports, CrudTest,
                         ::testing::Values(Transport::kInProcess, Transport::kRest), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
