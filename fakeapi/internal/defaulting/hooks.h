// The steps of the defaulting rules (rules.yaml) that are not "absent → constant", each a port
// of the named part of a SetDefaults_* function of kubernetes/kubernetes pkg/apis/<group>/v1*/
// defaults.go (release 1.33). Each takes the JSON object of the Go type its rule is keyed by and
// edits it in place; members of the wrong JSON type are left alone (validation reports them).
#ifndef KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_HOOKS_H_
#define KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_HOOKS_H_

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::defaulting::hooks {

using Json = nlohmann::json;

// Whether `j` is unset as a SetDefaults_* function tests a member: null (absent), Go's zero value
// ("", 0, false), or an empty list or map (len() == 0).
bool go_zero(const Json& j);

// The tag parsers.ParseImageName finds in an image reference: "latest" when it has neither tag
// nor digest, "" when it has only a digest or does not parse.
std::string image_tag(std::string_view image);

// core/v1 SetDefaults_Container (and SetDefaults_EphemeralContainer): imagePullPolicy Always for
// an image tagged (or defaulting to) "latest", else IfNotPresent.
void container_pull_policy(Json& container);
// core/v1 SetDefaults_ReplicationController: the template's labels become the selector and the
// object's labels, each when empty.
void replication_controller_labels(Json& rc);
// core/v1 SetDefaults_Volume: a volume with no source gets an empty emptyDir.
void volume_empty_dir(Json& volume);
// core/v1 SetDefaults_Service: sessionAffinityConfig dropped for None; for ClientIP, a config
// without timeoutSeconds becomes {clientIP: {timeoutSeconds: 10800}}.
void service_session_affinity_config(Json& service);
// core/v1 SetDefaults_Service: each port's protocol TCP, and a targetPort of 0 or "" (or none)
// becomes the port.
void service_ports(Json& service);
// core/v1 SetDefaults_Service: externalTrafficPolicy Cluster for an externally accessible
// Service (service.ExternallyAccessible: LoadBalancer, NodePort, or ClusterIP with externalIPs).
void service_external_traffic_policy(Json& service);
// core/v1 SetDefaults_Service: a LoadBalancer's status ingress with an ip gets ipMode VIP.
void service_ingress_ip_mode(Json& service);
// core/v1 SetDefaults_Pod: containers' and init containers' requests from their limits, for the
// resources that have no request.
void pod_requests_from_limits(Json& pod);
// core/v1 SetDefaults_Pod (defaultHostNetworkPorts): with hostNetwork, a container or init
// container port's hostPort defaults to its containerPort.
void pod_host_network_ports(Json& pod);
// core/v1 Convert_v1_PodSpec_To_core_PodSpec and Convert_core_PodSpec_To_v1_PodSpec: the
// deprecated serviceAccount fills an empty serviceAccountName, then mirrors it.
void pod_spec_service_account(Json& spec);
// core/v1 SetDefaults_Namespace: label kubernetes.io/metadata.name with the name, when named.
void namespace_name_label(Json& ns);
// core/v1 SetDefaults_NodeStatus: allocatable is capacity when only capacity is set.
void node_allocatable(Json& status);
// core/v1 SetDefaults_LimitRangeItem: for type Container, default from max, defaultRequest from
// default, then from min, resource by resource.
void limit_range_item(Json& item);
// batch/v1 SetDefaults_Job: completions and parallelism 1 when both are unset; parallelism 1.
void job_completions_parallelism(Json& job);
// batch/v1 SetDefaults_Job: the template's labels become the Job's when it has none.
void job_labels_from_template(Json& job);
// autoscaling/v2 SetDefaults_HorizontalPodAutoscalerBehavior: a set behavior gets full scaleUp
// and scaleDown rules, the defaults filling what it leaves unset.
void hpa_behavior(Json& hpa);

}  // namespace kubesim::fakeapi::defaulting::hooks

#endif  // KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_HOOKS_H_
