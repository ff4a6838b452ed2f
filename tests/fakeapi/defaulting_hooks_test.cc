// The named hooks of the defaulting rules (fakeapi/internal/defaulting/hooks.h), each against the
// SetDefaults_* function it ports.
#include "fakeapi/internal/defaulting/hooks.h"

#include <gtest/gtest.h>

namespace kubesim::fakeapi::defaulting::hooks {
namespace {

using nlohmann::json;

TEST(DefaultingHooks, ImageTagAsParseImageNameFindsIt) {
  const std::pair<const char*, const char*> cases[] = {
      {"nginx", "latest"},
      {"nginx:latest", "latest"},
      {"nginx:1.25", "1.25"},
      {"library/nginx", "latest"},
      {"registry.local:5000/team/app", "latest"},
      {"registry.local:5000/team/app:v2", "v2"},
      {"localhost/app:latest", "latest"},
      {"app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", ""},
      {"app:1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "1"},
      {"", ""},
      {"Nginx", ""},       // repository names are lower case: does not parse
      {"nginx:", ""},      // empty tag
  };
  for (const auto& [image, tag] : cases) EXPECT_EQ(image_tag(image), tag) << image;
}

TEST(DefaultingHooks, ContainerPullPolicyFollowsTheTag) {
  json latest = {{"image", "nginx"}};
  container_pull_policy(latest);
  EXPECT_EQ(latest["imagePullPolicy"], "Always");
  json pinned = {{"image", "nginx:1.25"}};
  container_pull_policy(pinned);
  EXPECT_EQ(pinned["imagePullPolicy"], "IfNotPresent");
  json bad = {{"image", "Not An Image"}};
  container_pull_policy(bad);
  EXPECT_EQ(bad["imagePullPolicy"], "IfNotPresent");
  json set = {{"image", "nginx"}, {"imagePullPolicy", "Never"}};
  container_pull_policy(set);
  EXPECT_EQ(set["imagePullPolicy"], "Never");
}

TEST(DefaultingHooks, VolumeWithoutSourceGetsEmptyDir) {
  json none = {{"name", "v"}};
  volume_empty_dir(none);
  EXPECT_EQ(none, json({{"name", "v"}, {"emptyDir", json::object()}}));
  json null_source = {{"name", "v"}, {"secret", nullptr}};
  volume_empty_dir(null_source);
  EXPECT_TRUE(null_source.contains("emptyDir"));
  json secret = {{"name", "v"}, {"secret", {{"secretName", "s"}}}};
  volume_empty_dir(secret);
  EXPECT_FALSE(secret.contains("emptyDir"));
}

TEST(DefaultingHooks, ServiceSessionAffinityConfig) {
  json none = {{"spec", {{"sessionAffinity", "None"}, {"sessionAffinityConfig", {{"clientIP", json::object()}}}}}};
  service_session_affinity_config(none);
  EXPECT_FALSE(none["spec"].contains("sessionAffinityConfig"));
  json client = {{"spec", {{"sessionAffinity", "ClientIP"}, {"sessionAffinityConfig", {{"clientIP", json::object()}}}}}};
  service_session_affinity_config(client);
  EXPECT_EQ(client["spec"]["sessionAffinityConfig"], json({{"clientIP", {{"timeoutSeconds", 10800}}}}));
  json kept = {{"spec", {{"sessionAffinity", "ClientIP"}, {"sessionAffinityConfig", {{"clientIP", {{"timeoutSeconds", 60}}}}}}}};
  service_session_affinity_config(kept);
  EXPECT_EQ(kept["spec"]["sessionAffinityConfig"]["clientIP"]["timeoutSeconds"], 60);
}

TEST(DefaultingHooks, ServicePortsTargetTheirPort) {
  json svc = {{"spec", {{"ports", {{{"port", 80}}, {{"port", 81}, {"targetPort", ""}},
                                    {{"port", 82}, {"targetPort", "web"}, {"protocol", "SCTP"}}}}}}};
  service_ports(svc);
  EXPECT_EQ(svc["spec"]["ports"][0], json({{"port", 80}, {"targetPort", 80}, {"protocol", "TCP"}}));
  EXPECT_EQ(svc["spec"]["ports"][1]["targetPort"], 81);
  EXPECT_EQ(svc["spec"]["ports"][2], json({{"port", 82}, {"targetPort", "web"}, {"protocol", "SCTP"}}));
}

TEST(DefaultingHooks, ExternalTrafficPolicyForExternallyAccessibleServices) {
  for (const auto& [spec, expected] : std::vector<std::pair<json, bool>>{
           {{{"type", "NodePort"}}, true},
           {{{"type", "LoadBalancer"}}, true},
           {{{"type", "ClusterIP"}, {"externalIPs", {"1.2.3.4"}}}, true},
           {{{"type", "ClusterIP"}}, false},
           {{{"type", "ExternalName"}}, false}}) {
    json svc = {{"spec", spec}};
    service_external_traffic_policy(svc);
    EXPECT_EQ(svc["spec"].contains("externalTrafficPolicy"), expected) << spec;
  }
}

TEST(DefaultingHooks, LoadBalancerIngressIpMode) {
  json svc = {{"spec", {{"type", "LoadBalancer"}}},
              {"status", {{"loadBalancer", {{"ingress", {{{"ip", "1.2.3.4"}}, {{"hostname", "h"}}}}}}}}};
  service_ingress_ip_mode(svc);
  EXPECT_EQ(svc["status"]["loadBalancer"]["ingress"][0]["ipMode"], "VIP");
  EXPECT_FALSE(svc["status"]["loadBalancer"]["ingress"][1].contains("ipMode"));
}

TEST(DefaultingHooks, PodRequestsCopiedFromLimits) {
  json pod = {{"spec", {{"containers", {{{"resources", {{"limits", {{"cpu", "1"}, {"memory", "1Gi"}}},
                                                         {"requests", {{"cpu", "100m"}}}}}}}},
                        {"initContainers", {{{"resources", {{"limits", {{"cpu", "2"}}}}}}}}}}};
  pod_requests_from_limits(pod);
  EXPECT_EQ(pod["spec"]["containers"][0]["resources"]["requests"], json({{"cpu", "100m"}, {"memory", "1Gi"}}));
  EXPECT_EQ(pod["spec"]["initContainers"][0]["resources"]["requests"], json({{"cpu", "2"}}));
}

TEST(DefaultingHooks, HostNetworkPortsDefaultToContainerPorts) {
  json pod = {{"spec", {{"hostNetwork", true},
                        {"containers", {{{"ports", {{{"containerPort", 80}}, {{"containerPort", 81}, {"hostPort", 9}}}}}}}}}};
  pod_host_network_ports(pod);
  EXPECT_EQ(pod["spec"]["containers"][0]["ports"][0]["hostPort"], 80);
  EXPECT_EQ(pod["spec"]["containers"][0]["ports"][1]["hostPort"], 9);
  json off = {{"spec", {{"containers", {{{"ports", {{{"containerPort", 80}}}}}}}}}};
  pod_host_network_ports(off);
  EXPECT_FALSE(off["spec"]["containers"][0]["ports"][0].contains("hostPort"));
}

TEST(DefaultingHooks, ServiceAccountNamesMirror) {
  json legacy = {{"serviceAccount", "a"}};
  pod_spec_service_account(legacy);
  EXPECT_EQ(legacy, json({{"serviceAccount", "a"}, {"serviceAccountName", "a"}}));
  json both = {{"serviceAccount", "a"}, {"serviceAccountName", "b"}};
  pod_spec_service_account(both);
  EXPECT_EQ(both["serviceAccount"], "b");
  json neither = json::object();
  pod_spec_service_account(neither);
  EXPECT_EQ(neither, json::object());
}

TEST(DefaultingHooks, NamespaceNameLabelOnlyWhenNamed) {
  json named = {{"metadata", {{"name", "team"}}}};
  namespace_name_label(named);
  EXPECT_EQ(named["metadata"]["labels"], json({{"kubernetes.io/metadata.name", "team"}}));
  json generated = {{"metadata", {{"generateName", "team-"}}}};
  namespace_name_label(generated);
  EXPECT_FALSE(generated["metadata"].contains("labels"));
}

TEST(DefaultingHooks, NodeAllocatableOnlyWhenUnset) {
  json status = {{"capacity", {{"cpu", "4"}}}, {"allocatable", {{"cpu", "3"}}}};
  node_allocatable(status);
  EXPECT_EQ(status["allocatable"]["cpu"], "3");
}

TEST(DefaultingHooks, LimitRangeItemOnlyForContainers) {
  json pod_item = {{"type", "Pod"}, {"max", {{"cpu", "2"}}}};
  limit_range_item(pod_item);
  EXPECT_FALSE(pod_item.contains("default"));
  json item = {{"type", "Container"}, {"max", {{"cpu", "2"}}}, {"default", {{"memory", "1Gi"}}},
               {"min", {{"cpu", "100m"}}}};
  limit_range_item(item);
  EXPECT_EQ(item["default"], json({{"cpu", "2"}, {"memory", "1Gi"}}));
  EXPECT_EQ(item["defaultRequest"], json({{"cpu", "2"}, {"memory", "1Gi"}}));
}

TEST(DefaultingHooks, JobCompletionsAndParallelism) {
  json neither = {{"spec", json::object()}};
  job_completions_parallelism(neither);
  EXPECT_EQ(neither["spec"], json({{"completions", 1}, {"parallelism", 1}}));
  json completions = {{"spec", {{"completions", 5}}}};
  job_completions_parallelism(completions);
  EXPECT_EQ(completions["spec"], json({{"completions", 5}, {"parallelism", 1}}));
  json parallelism = {{"spec", {{"parallelism", 0}}}};
  job_completions_parallelism(parallelism);
  EXPECT_EQ(parallelism["spec"], json({{"parallelism", 0}}));
}

TEST(DefaultingHooks, TemplateLabelsOnlyForAnUnlabelledObject) {
  json job = {{"metadata", {{"labels", {{"own", "x"}}}}},
              {"spec", {{"template", {{"metadata", {{"labels", {{"app", "j"}}}}}}}}}};
  job_labels_from_template(job);
  EXPECT_EQ(job["metadata"]["labels"], json({{"own", "x"}}));
  json rc = {{"spec", {{"selector", {{"s", "1"}}}, {"template", {{"metadata", {{"labels", {{"app", "r"}}}}}}}}}};
  replication_controller_labels(rc);
  EXPECT_EQ(rc["spec"]["selector"], json({{"s", "1"}}));
  EXPECT_EQ(rc["metadata"]["labels"], json({{"app", "r"}}));
}

TEST(DefaultingHooks, HpaBehaviorFillsBothDirections) {
  json hpa = {{"spec", {{"behavior", {{"scaleUp", {{"selectPolicy", "Disabled"}}}}}}}};
  hpa_behavior(hpa);
  const json& up = hpa["spec"]["behavior"]["scaleUp"];
  EXPECT_EQ(up["selectPolicy"], "Disabled");
  EXPECT_EQ(up["stabilizationWindowSeconds"], 0);
  EXPECT_EQ(up["policies"].size(), 2u);
  const json& down = hpa["spec"]["behavior"]["scaleDown"];
  EXPECT_FALSE(down.contains("stabilizationWindowSeconds"));
  EXPECT_EQ(down["policies"][0]["type"], "Percent");
  json without = {{"spec", json::object()}};
  hpa_behavior(without);
  EXPECT_FALSE(without["spec"].contains("behavior"));
}

}  // namespace
}  // namespace kubesim::fakeapi::defaulting::hooks
