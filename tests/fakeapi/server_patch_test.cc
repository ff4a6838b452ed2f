// ApiServer::patch: JSON merge patch, JSON patch and strategic merge patch on stored objects, with
// optimistic concurrency, finalizers and the /status subresource.
#include <gtest/gtest.h>

#include <string>

#include "kubesim/fakeapi/server.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using namespace testutil;

class ServerPatchTest : public ::testing::Test {
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
  api::ObjectPtr with_data(const api::ObjectPtr& obj, const std::string& key,
                           const std::string& value) {
    return obj->edited([&](nlohmann::json& j) { j["data"][key] = value; });
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
};

TEST_F(ServerPatchTest, MergePatchChangesOnlyWhatItNames) {
  create_cm("a", {{"k", "1"}, {"keep", "x"}});
  auto r = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                              R"({"data":{"k":"2","new":"n"}})", api::PatchOptions()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->json()["data"], (nlohmann::json{{"k", "2"}, {"keep", "x"}, {"new", "n"}}));
  EXPECT_EQ(r->resource_version(), "6");
  auto removed = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                                    R"({"data":{"new":null}})", api::PatchOptions()));
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->json()["data"], (nlohmann::json{{"k", "2"}, {"keep", "x"}}));
}

TEST_F(ServerPatchTest, JsonPatchAndStrategicMergePatchWork) {
  create_cm("a", {{"k", "1"}});
  auto json_patched = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kJsonPatch,
                                         R"([{"op":"replace","path":"/data/k","value":"2"}])",
                                         api::PatchOptions()));
  ASSERT_TRUE(json_patched);
  EXPECT_EQ(data_of(json_patched, "k"), "2");
  auto smp = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kStrategicMergePatch,
                                R"({"metadata":{"labels":{"l":"v"}}})", api::PatchOptions()));
  ASSERT_TRUE(smp);
  EXPECT_EQ(smp->label("l"), "v");
  EXPECT_EQ(smp->resource_version(), "7");
}

TEST_F(ServerPatchTest, APatchThatChangesNothingIsNotAWrite) {
  auto a = create_cm("a", {{"k", "1"}});
  auto r = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                              R"({"data":{"k":"1"}})", api::PatchOptions()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->resource_version(), a->resource_version());
  EXPECT_EQ(server_.revision(), 5);
}

TEST_F(ServerPatchTest, APatchCarryingAStaleResourceVersionIsAConflict) {
  create_cm("a", {{"k", "1"}});
  auto fresh = must(server_.patch(kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                                  R"({"metadata":{"resourceVersion":"5"},"data":{"k":"2"}})",
                                  api::PatchOptions()));
  ASSERT_TRUE(fresh);
  EXPECT_EQ(data_of(fresh, "k"), "2");
  auto stale = server_.patch(kConfigMaps, "default", "a", api::PatchType::kMergePatch,
                             R"({"metadata":{"resourceVersion":"5"},"data":{"k":"3"}})",
                             api::PatchOptions());
  ASSERT_FALSE(stale.ok());
  EXPECT_TRUE(api::is_conflict(stale.status()));
  EXPECT_EQ(data_of(get_cm("a"), "k"), "2");
}

TEST_F(ServerPatchTest, PatchOfAMissingObjectIsNotFound) {
  auto r = server_.patch(kConfigMaps, "default", "ghost", api::PatchType::kMergePatch,
                         R"({"data":{"k":"1"}})", api::PatchOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(api::is_not_found(r.status()));
}

TEST_F(ServerPatchTest, PatchThroughStatusWritesTheStatusOnly) {
  must(server_.create(kDeployments, "default", deployment("default", "web", 1),
                      api::CreateOptions()));
  auto r =
      must(server_.patch(kDeployments, "default", "web", api::PatchType::kMergePatch,
                         R"({"spec":{"replicas":7},"status":{"replicas":2}})", api::PatchOptions(), api::Subresource::kStatus));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->json()["status"]["replicas"], 2);
  EXPECT_EQ(r->json()["spec"]["replicas"], 1);
  EXPECT_EQ(r->generation(), 1);
}

TEST_F(ServerPatchTest, CustomResourcesRefuseStrategicMergePatches) {
  ASSERT_TRUE(server_.create(kCrds, "", widget_crd(), api::CreateOptions()).ok());
  ASSERT_TRUE(
      server_.create(kWidgets, "default", widget("default", "w", 1), api::CreateOptions()).ok());
  const Revision before = server_.revision();
  auto smp = server_.patch(kWidgets, "default", "w", api::PatchType::kStrategicMergePatch,
                           R"({"spec":{"size":2}})", api::PatchOptions());
  ASSERT_FALSE(smp.ok());
  EXPECT_EQ(smp.status().code, 415);
  EXPECT_TRUE(api::is_unsupported_media_type(smp.status()));
  EXPECT_EQ(server_.revision(), before);
  auto merge = must(server_.patch(kWidgets, "default", "w", api::PatchType::kMergePatch,
                                  R"({"spec":{"size":2}})", api::PatchOptions()));
  ASSERT_TRUE(merge);
  EXPECT_EQ(merge->json()["spec"]["size"], 2);
  EXPECT_EQ(merge->generation(), 2);
}

TEST_F(ServerPatchTest, StrategicMergePatchMergesListsByTheirMergeKey) {
  ASSERT_TRUE(
      server_.create(kDeployments, "default", deployment("default", "web", 1), api::CreateOptions())
          .ok());
  auto r = must(server_.patch(
      kDeployments, "default", "web", api::PatchType::kStrategicMergePatch,
      R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}}})",
      api::PatchOptions()));
  ASSERT_TRUE(r);
  const auto& containers = r->json()["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 2u);
  EXPECT_EQ(r->generation(), 2);
  // A merge patch of the same body replaces the list.
  auto replaced = must(server_.patch(
      kDeployments, "default", "web", api::PatchType::kMergePatch,
      R"({"spec":{"template":{"spec":{"containers":[{"name":"only","image":"busybox"}]}}}})",
      api::PatchOptions()));
  ASSERT_TRUE(replaced);
  EXPECT_EQ(replaced->json()["spec"]["template"]["spec"]["containers"].size(), 1u);
}

}  // namespace
}  // namespace kubesim::fakeapi
