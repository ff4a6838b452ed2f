// ApiServer defaults built-in kinds as kube-apiserver does, on create, update and patch, before
// validation: what a client reads back is the defaulted object, and an update or patch that drops
// a defaulted field gets it back.
#include "kubesim/fakeapi/server.h"

#include <string>

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;
using testutil::deployment;

class ServerDefaultingTest : public ::testing::Test {
 protected:
  api::ObjectPtr must(api::Result<api::ObjectPtr> r) {
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r.value() : nullptr;
  }
  api::ObjectPtr create(const api::GroupVersionResource& gvr, json object) {
    return must(server_.create(gvr, "default", api::make_object(std::move(object)), api::CreateOptions()));
  }
  api::ObjectPtr get(const api::GroupVersionResource& gvr, const std::string& name) {
    return must(server_.get(gvr, "default", name, api::GetOptions()));
  }

  sim::Loop loop_;
  ApiServer server_{loop_};
};

json pod(const std::string& name) {
  json p = json::parse(R"({"apiVersion": "v1", "kind": "Pod",
      "spec": {"containers": [{"name": "c", "image": "nginx"}]}})");
  p["metadata"]["name"] = name;
  return p;
}

TEST_F(ServerDefaultingTest, CreatedPodReadsBackDefaulted) {
  create(api::kPods, pod("p"));
  const json& spec = get(api::kPods, "p")->json()["spec"];
  EXPECT_EQ(spec["restartPolicy"], "Always");
  EXPECT_EQ(spec["dnsPolicy"], "ClusterFirst");
  EXPECT_EQ(spec["terminationGracePeriodSeconds"], 30);
  EXPECT_EQ(spec["schedulerName"], "default-scheduler");
  EXPECT_EQ(spec["enableServiceLinks"], true);
  EXPECT_EQ(spec["securityContext"], json::object());
  EXPECT_EQ(spec["containers"][0]["imagePullPolicy"], "Always");
  EXPECT_EQ(spec["containers"][0]["terminationMessagePolicy"], "File");
}

TEST_F(ServerDefaultingTest, CreatedDeploymentReadsBackDefaulted) {
  create(api::kDeployments, deployment("default", "d", 2)->to_json());
  const json& spec = get(api::kDeployments, "d")->json()["spec"];
  EXPECT_EQ(spec["replicas"], 2);
  EXPECT_EQ(spec["strategy"], json({{"type", "RollingUpdate"},
                                    {"rollingUpdate", {{"maxUnavailable", "25%"}, {"maxSurge", "25%"}}}}));
  EXPECT_EQ(spec["revisionHistoryLimit"], 10);
  EXPECT_EQ(spec["progressDeadlineSeconds"], 600);
  EXPECT_EQ(spec["template"]["spec"]["restartPolicy"], "Always");
  EXPECT_FALSE(spec["template"]["spec"].contains("enableServiceLinks"));  // SetDefaults_Pod only
}

TEST_F(ServerDefaultingTest, CreatedServiceReadsBackDefaulted) {
  create(api::kServices, json::parse(R"({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
      "spec": {"selector": {"app": "a"}, "ports": [{"port": 80}]}})"));
  const json& spec = get(api::kServices, "s")->json()["spec"];
  EXPECT_EQ(spec["type"], "ClusterIP");
  EXPECT_EQ(spec["sessionAffinity"], "None");
  EXPECT_EQ(spec["internalTrafficPolicy"], "Cluster");
  EXPECT_EQ(spec["ports"][0], json({{"port", 80}, {"protocol", "TCP"}, {"targetPort", 80}}));
}

TEST_F(ServerDefaultingTest, CreatedJobReadsBackDefaultedAndValidatesAsDefaulted) {
  const json job = json::parse(R"({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
      "spec": {"completionMode": "Indexed", "template": {"metadata": {"labels": {"app": "j"}},
        "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}})");
  create(api::kJobs, job);
  const api::ObjectPtr got = get(api::kJobs, "j");
  const json& spec = got->json()["spec"];
  EXPECT_EQ(spec["completions"], 1);  // an Indexed Job needs completions: the default gives it
  EXPECT_EQ(spec["parallelism"], 1);
  EXPECT_EQ(spec["backoffLimit"], 6);
  EXPECT_EQ(spec["suspend"], false);
  EXPECT_EQ(spec["podReplacementPolicy"], "TerminatingOrFailed");
  EXPECT_EQ(got->json()["metadata"]["labels"], json({{"app", "j"}}));
}

TEST_F(ServerDefaultingTest, UpdateThatDropsADefaultedFieldGetsItBack) {
  const api::ObjectPtr created = create(api::kDeployments, deployment("default", "d", 1)->to_json());
  const api::ObjectPtr dropped = created->edited([](json& j) {
    j["spec"].erase("strategy");
    j["spec"].erase("revisionHistoryLimit");
    j["spec"]["template"]["spec"].erase("dnsPolicy");
  });
  const api::ObjectPtr updated =
      must(server_.update(api::kDeployments, "default", dropped, api::UpdateOptions()));
  ASSERT_TRUE(updated);
  // Nothing changed once defaulted: no write, no new generation.
  EXPECT_EQ(updated->resource_version(), created->resource_version());
  EXPECT_EQ(updated->json()["spec"]["strategy"]["type"], "RollingUpdate");
  EXPECT_EQ(updated->json()["spec"]["revisionHistoryLimit"], 10);
  EXPECT_EQ(updated->json()["spec"]["template"]["spec"]["dnsPolicy"], "ClusterFirst");
}

TEST_F(ServerDefaultingTest, PatchThatDropsADefaultedFieldGetsItBack) {
  create(api::kPods, pod("p"));
  const api::ObjectPtr before = get(api::kPods, "p");
  const api::ObjectPtr patched = must(server_.patch(
      api::kPods, "default", "p", api::PatchType::kMergePatch,
      R"({"metadata":{"labels":{"x":"y"}},"spec":{"dnsPolicy":null,"schedulerName":null}})",
      api::PatchOptions()));
  ASSERT_TRUE(patched);
  EXPECT_EQ(patched->json()["spec"]["dnsPolicy"], "ClusterFirst");
  EXPECT_EQ(patched->json()["spec"]["schedulerName"], "default-scheduler");
  EXPECT_EQ(patched->json()["spec"], before->json()["spec"]);
  EXPECT_EQ(patched->json()["metadata"]["labels"]["x"], "y");
}

TEST_F(ServerDefaultingTest, UpdateOfAPodAsStoredIsNoChange) {
  // Pod updates may change little; an update built from the defaulted object is accepted.
  const api::ObjectPtr created = create(api::kPods, pod("p"));
  const api::ObjectPtr same = created->edited([](json& j) { j["spec"].erase("schedulerName"); });
  const api::ObjectPtr updated = must(server_.update(api::kPods, "default", same, api::UpdateOptions()));
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->resource_version(), created->resource_version());
}

TEST_F(ServerDefaultingTest, ConfigMapsAreStoredAsSent) {
  const api::ObjectPtr created = create(
      api::kConfigMaps, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}}}});
  EXPECT_FALSE(created->json().contains("data"));
}

TEST_F(ServerDefaultingTest, DryRunCreateIsDefaultedToo) {
  api::CreateOptions options;
  options.dry_run = true;
  const api::ObjectPtr dry = must(server_.create(api::kPods, "default", api::make_object(pod("p")), options));
  ASSERT_TRUE(dry);
  EXPECT_EQ(dry->json()["spec"]["restartPolicy"], "Always");
}

}  // namespace
}  // namespace kubesim::fakeapi
