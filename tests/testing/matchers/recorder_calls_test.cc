// Call patterns against a real server's recorder: requests served through in-process clients on
// simulated processes, each recorded with its caller, subresource and answer; a CallLog is a
// live view of that log.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/process.h"
#include "kubesim/testing/calls.h"

namespace kubesim::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

class RecorderCallsTest : public ::testing::Test {
 protected:
  RecorderCallsTest() {
    widgets0_.set_link(std::make_shared<sim::NetworkLink>(loop_, 5ms));
    widgets1_.set_link(std::make_shared<sim::NetworkLink>(loop_, 5ms));
  }

  api::Result<api::ObjectPtr> create_config_map(fakeapi::InProcessClient& client, const std::string& name) {
    auto object = api::make_object({{"apiVersion", "v1"},
                                    {"kind", "ConfigMap"},
                                    {"metadata", {{"name", name}, {"namespace", "default"}}}});
    return loop_.run_until_complete(client.create(sim::Context(), api::kConfigMaps, "default", object, {}));
  }
  api::Result<api::ObjectPtr> get_config_map(fakeapi::InProcessClient& client, const std::string& name) {
    return loop_.run_until_complete(client.get(sim::Context(), api::kConfigMaps, "default", name, {}));
  }
  api::Result<api::ObjectPtr> patch_deployment(fakeapi::InProcessClient& client, const json& patch,
                                               api::Subresource subresource) {
    const api::PatchOptions options;
    return loop_.run_until_complete(client.patch(sim::Context(), api::kDeployments, "default", "d",
                                                 api::PatchType::kMergePatch, patch.dump(), options,
                                                 subresource));
  }

  sim::Loop loop_;
  fakeapi::ApiServer server_{loop_};
  sim::Process widgets0_{loop_, "widgets-0"};
  sim::Process widgets1_{loop_, "widgets-1"};
  fakeapi::InProcessClient client0_{server_, widgets0_};
  fakeapi::InProcessClient client1_{server_, widgets1_};
};

TEST_F(RecorderCallsTest, PatternsPickTheServedRequests) {
  json deployment = {{"apiVersion", "apps/v1"},
                     {"kind", "Deployment"},
                     {"metadata", {{"name", "d"}, {"namespace", "default"}}},
                     {"spec",
                      {{"replicas", 1},
                       {"selector", {{"matchLabels", {{"app", "d"}}}}},
                       {"template",
                        {{"metadata", {{"labels", {{"app", "d"}}}}},
                         {"spec", {{"containers", {{{"name", "main"}, {"image", "nginx"}}}}}}}}}}};
  // The test's own hand on the server is not a call.
  ASSERT_TRUE(server_.create(api::kDeployments, "default", api::make_object(deployment), {}).ok());
  const CallLog log(server_.recorder());
  EXPECT_EQ(log.size(), 0u);

  ASSERT_TRUE(create_config_map(client0_, "a").ok());
  EXPECT_TRUE(api::is_not_found(get_config_map(client0_, "gone").status()));
  ASSERT_TRUE(patch_deployment(client1_, {{"status", {{"replicas", 1}}}}, api::Subresource::kStatus).ok());
  ASSERT_TRUE(patch_deployment(client0_, {{"spec", {{"replicas", 2}}}}, api::Subresource::kNone).ok());
  EXPECT_TRUE(api::is_already_exists(create_config_map(client1_, "a").status()));

  EXPECT_EQ(log.size(), 5u);  // a live view
  EXPECT_EQ(log.count(Create(api::kConfigMaps)), 2u);
  EXPECT_EQ(log.count(Create(api::kConfigMaps).ok()), 1u);
  EXPECT_EQ(log.count(Create(api::kConfigMaps).failed().by("widgets-1")), 1u);
  EXPECT_EQ(log.count(Get(api::kConfigMaps).named("gone").failed()), 1u);
  EXPECT_EQ(log.count(Patch(api::kDeployments)), 2u);
  EXPECT_EQ(log.count(Patch(api::kDeployments).status()), 1u);
  EXPECT_EQ(log.count(Patch(api::kDeployments).status().by("widgets-0")), 0u);
  EXPECT_EQ(log.count(Writes(api::kDeployments).in("default")), 2u);
  EXPECT_EQ(log.count(AnyCall().by("widgets-1")), 2u);
  EXPECT_EQ(log.count(AnyCall().in("kube-system")), 0u);
  EXPECT_THAT(log, CallCount(Create(api::kConfigMaps).by("widgets-0").ok(), 1));
  EXPECT_THAT(log, CallCount(AnyCall(api::kDeployments), ::testing::Ge(2u)));

  // Answered as they leave the server, half a round trip after they were sent.
  EXPECT_EQ(log.format(),
            "0.005s widgets-0 create configmaps default/a → 201\n"
            "0.015s widgets-0 get configmaps default/gone → 404 NotFound\n"
            "0.025s widgets-1 patch deployments.apps/status default/d → 200\n"
            "0.035s widgets-0 patch deployments.apps default/d → 200\n"
            "0.045s widgets-1 create configmaps default/a → 409 AlreadyExists");
}

}  // namespace
}  // namespace kubesim::testing
