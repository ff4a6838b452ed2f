// The decode schemas of the built-in kinds (k8s.io/api's v1 types, reduced to the fields listed).
#include "fakeapi/internal/encoding/decode_schema.h"

#include <algorithm>
#include <deque>
#include <map>

namespace kubesim::fakeapi::internal::validation {
namespace {

// Every schema, built once. Nodes live in a deque so pointers to them stay valid.
class Schemas {
 public:
  Schemas();
  const Node* root(std::string_view group, std::string_view kind) const {
    auto it = roots_.find({std::string(group), std::string(kind)});
    return it == roots_.end() ? nullptr : it->second;
  }

 private:
  const Node* leaf(Type t, std::string go_type) {
    nodes_.push_back(Node{t, std::move(go_type), "", {}, nullptr});
    return &nodes_.back();
  }
  const Node* str(std::string go_type = "string") {
    return leaf(Type::kString, std::move(go_type));
  }
  const Node* list(const Node* elem, std::string go_type) {
    nodes_.push_back(Node{Type::kList, std::move(go_type), "", {}, elem});
    return &nodes_.back();
  }
  const Node* object(std::string pkg, std::string name,
                     std::vector<std::pair<std::string, const Node*>> fields) {
    nodes_.push_back(Node{Type::kStruct, pkg + "." + name, name, sorted(std::move(fields)), nullptr});
    return &nodes_.back();
  }
  void add_root(const char* group, const char* kind,
                std::vector<std::pair<std::string, const Node*>> fields) {
    fields.insert(fields.begin(), {"metadata", object_meta_});
    nodes_.push_back(
        Node{Type::kStruct, std::string("v1.") + kind, kind, sorted(std::move(fields)), nullptr});
    roots_[{group, kind}] = &nodes_.back();
  }
  // A struct's fields in name order, as Node requires.
  static std::vector<std::pair<std::string, const Node*>> sorted(
      std::vector<std::pair<std::string, const Node*>> fields) {
    std::sort(fields.begin(), fields.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return fields;
  }
  void build_meta();
  void build_pod();
  void build_workloads();
  void build_core();

  std::deque<Node> nodes_;
  std::map<std::pair<std::string, std::string>, const Node*> roots_;
  const Node* bool_ = nullptr;
  const Node* int32_ = nullptr;
  const Node* int64_ = nullptr;
  const Node* string_map_ = nullptr;
  const Node* string_list_ = nullptr;
  const Node* int_or_string_ = nullptr;
  const Node* object_meta_ = nullptr;
  const Node* selector_ = nullptr;
  const Node* pod_template_ = nullptr;
  const Node* pod_spec_ = nullptr;
};

void Schemas::build_meta() {
  bool_ = leaf(Type::kBool, "bool");
  int32_ = leaf(Type::kInt32, "int32");
  int64_ = leaf(Type::kInt64, "int64");
  string_map_ = leaf(Type::kStringMap, "map[string]string");
  string_list_ = leaf(Type::kStringList, "[]string");
  int_or_string_ = leaf(Type::kIntOrString, "intstr.IntOrString");
  const Node* owner = object("v1", "OwnerReference",
                             {{"apiVersion", str()},
                              {"kind", str()},
                              {"name", str()},
                              {"uid", str("types.UID")},
                              {"controller", bool_},
                              {"blockOwnerDeletion", bool_}});
  object_meta_ = object("v1", "ObjectMeta",
                        {{"name", str()},
                         {"generateName", str()},
                         {"namespace", str()},
                         {"uid", str("types.UID")},
                         {"resourceVersion", str()},
                         {"generation", int64_},
                         {"deletionGracePeriodSeconds", int64_},
                         {"labels", string_map_},
                         {"annotations", string_map_},
                         {"ownerReferences", list(owner, "[]v1.OwnerReference")},
                         {"finalizers", string_list_}});
  const Node* requirement = object(
      "v1", "LabelSelectorRequirement",
      {{"key", str()}, {"operator", str("v1.LabelSelectorOperator")}, {"values", string_list_}});
  selector_ = object("v1", "LabelSelector",
                     {{"matchLabels", string_map_},
                      {"matchExpressions", list(requirement, "[]v1.LabelSelectorRequirement")}});
}

void Schemas::build_pod() {
  const Node* port = object("v1", "ContainerPort",
                            {{"name", str()},
                             {"hostPort", int32_},
                             {"containerPort", int32_},
                             {"protocol", str("v1.Protocol")},
                             {"hostIP", str()}});
  const Node* env = object("v1", "EnvVar", {{"name", str()}, {"value", str()}});
  const Node* mount =
      object("v1", "VolumeMount",
             {{"name", str()}, {"readOnly", bool_}, {"mountPath", str()}, {"subPath", str()}});
  const Node* container = object("v1", "Container",
                                 {{"name", str()},
                                  {"image", str()},
                                  {"command", string_list_},
                                  {"args", string_list_},
                                  {"workingDir", str()},
                                  {"ports", list(port, "[]v1.ContainerPort")},
                                  {"env", list(env, "[]v1.EnvVar")},
                                  {"volumeMounts", list(mount, "[]v1.VolumeMount")},
                                  {"terminationMessagePolicy", str("v1.TerminationMessagePolicy")},
                                  {"imagePullPolicy", str("v1.PullPolicy")},
                                  {"restartPolicy", str("v1.ContainerRestartPolicy")},
                                  {"stdin", bool_},
                                  {"tty", bool_}});
  const Node* containers = list(container, "[]v1.Container");
  const Node* volume = object("v1", "Volume", {{"name", str()}});
  const Node* toleration = object("v1", "Toleration",
                                  {{"key", str()},
                                   {"operator", str("v1.TolerationOperator")},
                                   {"value", str()},
                                   {"effect", str("v1.TaintEffect")},
                                   {"tolerationSeconds", int64_}});
  pod_spec_ = object("v1", "PodSpec",
                     {{"volumes", list(volume, "[]v1.Volume")},
                      {"initContainers", containers},
                      {"containers", containers},
                      {"restartPolicy", str("v1.RestartPolicy")},
                      {"terminationGracePeriodSeconds", int64_},
                      {"activeDeadlineSeconds", int64_},
                      {"dnsPolicy", str("v1.DNSPolicy")},
                      {"nodeSelector", string_map_},
                      {"serviceAccountName", str()},
                      {"nodeName", str()},
                      {"hostNetwork", bool_},
                      {"hostPID", bool_},
                      {"hostIPC", bool_},
                      {"hostname", str()},
                      {"subdomain", str()},
                      {"schedulerName", str()},
                      {"tolerations", list(toleration, "[]v1.Toleration")},
                      {"priorityClassName", str()},
                      {"priority", int32_}});
  pod_template_ =
      object("v1", "PodTemplateSpec", {{"metadata", object_meta_}, {"spec", pod_spec_}});
  add_root("", "Pod", {{"spec", pod_spec_}});
}

void Schemas::build_workloads() {
  const Node* rolling = object("v1", "RollingUpdateDeployment",
                               {{"maxUnavailable", int_or_string_}, {"maxSurge", int_or_string_}});
  const Node* strategy =
      object("v1", "DeploymentStrategy",
             {{"type", str("v1.DeploymentStrategyType")}, {"rollingUpdate", rolling}});
  add_root("apps", "Deployment",
           {{"spec", object("v1", "DeploymentSpec",
                            {{"replicas", int32_},
                             {"selector", selector_},
                             {"template", pod_template_},
                             {"strategy", strategy},
                             {"minReadySeconds", int32_},
                             {"revisionHistoryLimit", int32_},
                             {"paused", bool_},
                             {"progressDeadlineSeconds", int32_}})}});
  add_root("apps", "ReplicaSet",
           {{"spec", object("v1", "ReplicaSetSpec",
                            {{"replicas", int32_},
                             {"minReadySeconds", int32_},
                             {"selector", selector_},
                             {"template", pod_template_}})}});
  const Node* sts_rolling = object("v1", "RollingUpdateStatefulSetStrategy",
                                   {{"partition", int32_}, {"maxUnavailable", int_or_string_}});
  add_root("apps", "StatefulSet",
           {{"spec",
             object("v1", "StatefulSetSpec",
                    {{"replicas", int32_},
                     {"selector", selector_},
                     {"template", pod_template_},
                     {"serviceName", str()},
                     {"podManagementPolicy", str("v1.PodManagementPolicyType")},
                     {"updateStrategy", object("v1", "StatefulSetUpdateStrategy",
                                               {{"type", str("v1.StatefulSetUpdateStrategyType")},
                                                {"rollingUpdate", sts_rolling}})},
                     {"revisionHistoryLimit", int32_},
                     {"minReadySeconds", int32_},
                     {"ordinals", object("v1", "StatefulSetOrdinals", {{"start", int32_}})}})}});
  const Node* ds_rolling =
      object("v1", "RollingUpdateDaemonSet",
             {{"maxUnavailable", int_or_string_}, {"maxSurge", int_or_string_}});
  add_root(
      "apps", "DaemonSet",
      {{"spec", object("v1", "DaemonSetSpec",
                       {{"selector", selector_},
                        {"template", pod_template_},
                        {"updateStrategy", object("v1", "DaemonSetUpdateStrategy",
                                                  {{"type", str("v1.DaemonSetUpdateStrategyType")},
                                                   {"rollingUpdate", ds_rolling}})},
                        {"minReadySeconds", int32_},
                        {"revisionHistoryLimit", int32_}})}});
  add_root("batch", "Job",
           {{"spec", object("v1", "JobSpec",
                            {{"parallelism", int32_},
                             {"completions", int32_},
                             {"activeDeadlineSeconds", int64_},
                             {"backoffLimit", int32_},
                             {"selector", selector_},
                             {"manualSelector", bool_},
                             {"template", pod_template_},
                             {"ttlSecondsAfterFinished", int32_},
                             {"suspend", bool_}})}});
}

void Schemas::build_core() {
  add_root("", "ConfigMap",
           {{"immutable", bool_},
            {"data", string_map_},
            {"binaryData", leaf(Type::kBytesMap, "map[string][]uint8")}});
  add_root("", "Secret",
           {{"immutable", bool_},
            {"data", leaf(Type::kBytesMap, "map[string][]uint8")},
            {"stringData", string_map_},
            {"type", str("v1.SecretType")}});
  add_root(
      "", "Namespace",
      {{"spec", object("v1", "NamespaceSpec",
                       {{"finalizers", list(str("v1.FinalizerName"), "[]v1.FinalizerName")}})}});
  const Node* service_port = object("v1", "ServicePort",
                                    {{"name", str()},
                                     {"protocol", str("v1.Protocol")},
                                     {"appProtocol", str()},
                                     {"port", int32_},
                                     {"targetPort", int_or_string_},
                                     {"nodePort", int32_}});
  add_root("", "Service",
           {{"spec", object("v1", "ServiceSpec",
                            {{"ports", list(service_port, "[]v1.ServicePort")},
                             {"selector", string_map_},
                             {"clusterIP", str()},
                             {"clusterIPs", string_list_},
                             {"type", str("v1.ServiceType")},
                             {"externalIPs", string_list_},
                             {"sessionAffinity", str("v1.ServiceAffinity")},
                             {"externalName", str()},
                             {"externalTrafficPolicy", str("v1.ServiceExternalTrafficPolicy")},
                             {"internalTrafficPolicy", str("v1.ServiceInternalTrafficPolicy")}})}});
  add_root("coordination.k8s.io", "Lease",
           {{"spec", object("v1", "LeaseSpec",
                            {{"holderIdentity", str()},
                             {"leaseDurationSeconds", int32_},
                             {"leaseTransitions", int32_},
                             {"preferredHolder", str()},
                             {"strategy", str("v1.CoordinatedLeaseStrategy")}})}});
  for (const char* kind : {"Endpoints", "Event", "ServiceAccount", "Node", "PersistentVolumeClaim",
                           "ReplicationController"}) {
    add_root("", kind, {});
  }
  add_root("batch", "CronJob", {});
  add_root("apiextensions.k8s.io", "CustomResourceDefinition", {});
}

Schemas::Schemas() {
  build_meta();
  build_pod();
  build_workloads();
  build_core();
}

}  // namespace

const Node* schema_root(std::string_view group, std::string_view kind) {
  static const Schemas schemas;
  return schemas.root(group, kind);
}

}  // namespace kubesim::fakeapi::internal::validation
