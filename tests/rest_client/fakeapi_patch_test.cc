// patch over both transports, with the expectations of the core suite
// (tests/fakeapi/server_patch_test.cc): JSON merge patch, JSON patch, strategic merge patch by
// merge key, no-op patches, optimistic concurrency in the patch, custom resources.
// Not reachable through api::Client: a patch of the /status subresource (Client has no
// patch_status), so ServerPatchTest.PatchThroughStatusWritesTheStatusOnly has no twin here.
#include <gtest/gtest.h>

#include <map>

#include "tests/rest_client/both_transports.h"

namespace kubesim::api::rest::testing {
namespace {

class PatchTest : public BothTransportsTest {
 protected:
  Result<ObjectPtr> patch(const GroupVersionResource& gvr, const std::string& name, PatchType type,
                          const std::string& body, PatchOptions options = PatchOptions()) {
    return run(c().patch(ctx(), gvr, "default", name, type, body, options));
  }
  ObjectPtr create_data(const std::string& name, nlohmann::json data) {
    return create(kConfigMaps, cm(name)->edited([&](nlohmann::json& j) { j["data"] = data; }));
  }
};

TEST_P(PatchTest, MergePatchChangesOnlyWhatItNamesAndNullRemoves) {
  create_data("a", {{"k", "1"}, {"keep", "x"}});
  auto r = must(patch(kConfigMaps, "a", PatchType::kMergePatch, R"({"data":{"k":"2","new":"n"}})"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->json()["data"], (nlohmann::json{{"k", "2"}, {"keep", "x"}, {"new", "n"}}));
  EXPECT_EQ(r->resource_version(), "6");
  auto removed = must(patch(kConfigMaps, "a", PatchType::kMergePatch, R"({"data":{"new":null}})"));
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->json()["data"], (nlohmann::json{{"k", "2"}, {"keep", "x"}}));
}

TEST_P(PatchTest, JsonPatchAndStrategicMergePatchOfAConfigMap) {
  create_data("a", {{"k", "1"}});
  auto json_patched =
      must(patch(kConfigMaps, "a", PatchType::kJsonPatch, R"([{"op":"replace","path":"/data/k","value":"2"}])"));
  ASSERT_TRUE(json_patched);
  EXPECT_EQ(json_patched->json()["data"]["k"], "2");
  auto tested = must(patch(kConfigMaps, "a", PatchType::kJsonPatch,
                           R"([{"op":"test","path":"/data/k","value":"2"},{"op":"add","path":"/data/t","value":"y"}])"));
  ASSERT_TRUE(tested);
  EXPECT_EQ(tested->json()["data"]["t"], "y");
  auto smp = must(patch(kConfigMaps, "a", PatchType::kStrategicMergePatch, R"({"metadata":{"labels":{"l":"v"}}})"));
  ASSERT_TRUE(smp);
  EXPECT_EQ(smp->label("l"), "v");
  EXPECT_EQ(smp->resource_version(), "8");
}

TEST_P(PatchTest, AFailingJsonPatchTestIsInvalidAndChangesNothing) {
  create_data("a", {{"k", "1"}});
  auto r = patch(kConfigMaps, "a", PatchType::kJsonPatch,
                 R"([{"op":"test","path":"/data/k","value":"x"},{"op":"replace","path":"/data/k","value":"y"}])");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(is_invalid(r.status())) << r.status();
  EXPECT_EQ(r.status().code, 422);
  EXPECT_EQ(api_->revision(), 5);
  EXPECT_EQ(must(get_cm("a"))->json()["data"]["k"], "1");
}

TEST_P(PatchTest, APatchThatChangesNothingIsNotAWrite) {
  auto a = create_data("a", {{"k", "1"}});
  auto r = must(patch(kConfigMaps, "a", PatchType::kMergePatch, R"({"data":{"k":"1"}})"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->resource_version(), a->resource_version());
  EXPECT_EQ(api_->revision(), 5);
}

TEST_P(PatchTest, APatchCarryingAStaleResourceVersionIsAConflict) {
  create_data("a", {{"k", "1"}});
  auto fresh = must(patch(kConfigMaps, "a", PatchType::kMergePatch,
                          R"({"metadata":{"resourceVersion":"5"},"data":{"k":"2"}})"));
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->json()["data"]["k"], "2");
  auto stale = patch(kConfigMaps, "a", PatchType::kMergePatch, R"({"metadata":{"resourceVersion":"5"},"data":{"k":"3"}})");
  ASSERT_FALSE(stale.ok());
  EXPECT_TRUE(is_conflict(stale.status())) << stale.status();
  EXPECT_EQ(must(get_cm("a"))->json()["data"]["k"], "2");
}

TEST_P(PatchTest, PatchOfAMissingObjectIsNotFound) {
  auto r = patch(kConfigMaps, "ghost", PatchType::kMergePatch, R"({"data":{"k":"1"}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status(), new_not_found(GroupResource("", "configmaps"), "ghost"));
}

TEST_P(PatchTest, DryRunPatchWritesNothing) {
  create_data("a", {{"k", "1"}});
  PatchOptions dry;
  dry.dry_run = true;
  auto r = must(patch(kConfigMaps, "a", PatchType::kMergePatch, R"({"data":{"k":"2"}})", dry));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->json()["data"]["k"], "2");
  EXPECT_EQ(api_->revision(), 5);
  EXPECT_EQ(must(get_cm("a"))->json()["data"]["k"], "1");
}

TEST_P(PatchTest, StrategicMergePatchMergesContainersByNameAndMergePatchReplacesTheList) {
  ASSERT_TRUE(create(kDeployments, deployment("default", "web", 1)));
  auto added = must(patch(kDeployments, "web", PatchType::kStrategicMergePatch,
                          R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}}})"));
  ASSERT_TRUE(added);
  // The merged list puts the patch's items first (the core suite checks only the size): compare
  // by the merge key, not by position.
  const auto images = [](const ObjectPtr& d) {
    std::map<std::string, std::string> out;
    for (const auto& c : d->json()["spec"]["template"]["spec"]["containers"]) out[c["name"].get<std::string>()] = c["image"].get<std::string>();
    return out;
  };
  EXPECT_EQ(images(added), (std::map<std::string, std::string>{{"main", "nginx"}, {"sidecar", "envoy"}}));
  EXPECT_EQ(added->generation(), 2);
  // The same merge key again changes that container in place.
  auto changed = must(patch(kDeployments, "web", PatchType::kStrategicMergePatch,
                            R"({"spec":{"template":{"spec":{"containers":[{"name":"main","image":"httpd"}]}}}})"));
  ASSERT_TRUE(changed);
  EXPECT_EQ(images(changed), (std::map<std::string, std::string>{{"main", "httpd"}, {"sidecar", "envoy"}}));
  auto replaced = must(patch(kDeployments, "web", PatchType::kMergePatch,
                             R"({"spec":{"template":{"spec":{"containers":[{"name":"only","image":"busybox"}]}}}})"));
  ASSERT_TRUE(replaced);
  EXPECT_EQ(replaced->json()["spec"]["template"]["spec"]["containers"].size(), 1u);
}

TEST_P(PatchTest, StatusInAMainResourcePatchIsIgnored) {
  auto d = create(kDeployments, deployment("default", "web", 1));
  ASSERT_TRUE(d);
  auto r = must(patch(kDeployments, "web", PatchType::kMergePatch, R"({"status":{"replicas":2}})"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->json()["status"], nlohmann::json::object());
  EXPECT_EQ(r->resource_version(), d->resource_version());
}

TEST_P(PatchTest, CustomResourcesRefuseStrategicMergePatches) {
  ASSERT_TRUE(create(kCrds, widget_crd()));
  ASSERT_TRUE(create(kWidgets, widget("default", "w", 1)));
  auto smp = patch(kWidgets, "w", PatchType::kStrategicMergePatch, R"({"spec":{"size":2}})");
  ASSERT_FALSE(smp.ok());
  EXPECT_EQ(smp.status().code, 415);
  EXPECT_TRUE(is_unsupported_media_type(smp.status())) << smp.status();
  auto merge = must(patch(kWidgets, "w", PatchType::kMergePatch, R"({"spec":{"size":2}})"));
  ASSERT_TRUE(merge);
  EXPECT_EQ(merge->json()["spec"]["size"], 2);
  EXPECT_EQ(merge->generation(), 2);
}

INSTANTIATE_TEST_SUITE_P(Transports, PatchTest, both_transports(), transport_name);

}  // namespace
}  // namespace kubesim::api::rest::testing
