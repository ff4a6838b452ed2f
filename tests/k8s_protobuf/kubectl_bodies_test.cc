// Bodies captured from the real kubectl: for each `kubectl create <kind>` command, kubectl 1.33
// sent protobuf (data/<name>.pb) and kubectl 1.31 sent JSON (data/<name>.json) for the same
// command. Decoding the protobuf must give the JSON: both releases write the zero
// creationTimestamp as null.
#include "kubesim/fakeapi/http/protobuf_body.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace kubesim::fakeapi::http {
namespace {

using nlohmann::json;

std::filesystem::path data_dir() { return std::filesystem::path(__FILE__).parent_path() / "data"; }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Capture {
  const char* name;
  api::GroupVersionKind path_kind;  // what the request's path serves
};

class KubectlBodiesTest : public ::testing::TestWithParam<Capture> {};

TEST_P(KubectlBodiesTest, DecodesToWhatJsonClientsSend) {
  const Capture& c = GetParam();
  const std::string body = read_file(data_dir() / (std::string(c.name) + ".pb"));
  ASSERT_FALSE(body.empty()) << "missing fixture " << c.name;
  const json expected = json::parse(read_file(data_dir() / (std::string(c.name) + ".json")));

  auto decoded = decode_protobuf_body(body, c.path_kind);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded.value(), expected) << "diff: " << json::diff(expected, decoded.value()).dump();
}

const api::GroupVersionKind core(const char* kind) { return {"", "v1", kind}; }

INSTANTIATE_TEST_SUITE_P(
    Kubectl133, KubectlBodiesTest,
    ::testing::Values(
        Capture{"namespace", core("Namespace")},
        Capture{"configmap_literals", core("ConfigMap")},
        Capture{"configmap_files", core("ConfigMap")},
        Capture{"secret_generic", core("Secret")},
        Capture{"secret_basic_auth", core("Secret")},
        Capture{"secret_docker_registry", core("Secret")},
        Capture{"secret_tls", core("Secret")},
        Capture{"serviceaccount", core("ServiceAccount")},
        Capture{"service_clusterip", core("Service")},
        Capture{"service_nodeport", core("Service")},
        Capture{"service_loadbalancer", core("Service")},
        Capture{"service_externalname", core("Service")},
        Capture{"quota", core("ResourceQuota")},
        Capture{"deployment_port", {"apps", "v1", "Deployment"}},
        Capture{"deployment_two_images", {"apps", "v1", "Deployment"}},
        Capture{"deployment_command", {"apps", "v1", "Deployment"}},
        Capture{"job", {"batch", "v1", "Job"}},
        Capture{"job_from_cronjob", {"batch", "v1", "Job"}},
        Capture{"cronjob", {"batch", "v1", "CronJob"}},
        Capture{"role", {"rbac.authorization.k8s.io", "v1", "Role"}},
        Capture{"clusterrole_nonresource", {"rbac.authorization.k8s.io", "v1", "ClusterRole"}},
        Capture{"clusterrole_aggregation", {"rbac.authorization.k8s.io", "v1", "ClusterRole"}},
        Capture{"rolebinding", {"rbac.authorization.k8s.io", "v1", "RoleBinding"}},
        Capture{"clusterrolebinding", {"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"}},
        Capture{"priorityclass", {"scheduling.k8s.io", "v1", "PriorityClass"}},
        Capture{"pdb_min_available", {"policy", "v1", "PodDisruptionBudget"}},
        Capture{"pdb_max_unavailable", {"policy", "v1", "PodDisruptionBudget"}},
        Capture{"ingress", {"networking.k8s.io", "v1", "Ingress"}}),
    [](const ::testing::TestParamInfo<Capture>& info) { return std::string(info.param.name); });

// The same bodies with no kind from the path: the envelope alone decides.
TEST(KubectlBodies, EnvelopeAloneNamesTheKind) {
  const std::string body = read_file(data_dir() / "deployment_port.pb");
  auto decoded = decode_protobuf_body(body, {});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded.value()["kind"], "Deployment");
  EXPECT_EQ(decoded.value()["apiVersion"], "apps/v1");
  EXPECT_EQ(decoded.value()["spec"]["replicas"], 3);
}

}  // namespace
}  // namespace kubesim::fakeapi::http
