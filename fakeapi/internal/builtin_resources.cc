#include "fakeapi/internal/builtin_resources.h"

#include <array>

namespace kubesim::fakeapi::internal {
namespace {

using api::NameRule;
constexpr auto kSub = NameRule::kDns1123Subdomain;
constexpr auto kLabel = NameRule::kDns1123Label;
constexpr auto kSegment = NameRule::kPathSegment;
constexpr auto kAll = VerbSet::kAll;
constexpr bool kNs = true;
constexpr bool kCluster = false;

// Each row as `kubectl api-resources -o wide` shows it against kube-apiserver 1.33, with the
// registry strategy's generation handling (pkg/registry/<group>/<resource>/strategy.go), its
// name rule (ValidateObjectMeta's nameFn in pkg/apis/<group>/validation) and its field label
// conversions (pkg/apis/<group>/<version>/conversion.go).
constexpr std::array kResources = {
    // core/v1
    BuiltinResource{"", "v1", "bindings", "Binding", "binding", "", "", kNs, VerbSet::kCreate, "",
                    false, kSub, ""},
    BuiltinResource{"", "v1", "componentstatuses", "ComponentStatus", "componentstatus", "cs", "",
                    kCluster, VerbSet::kGetList, "", false, kSub, ""},
    BuiltinResource{"", "v1", "configmaps", "ConfigMap", "configmap", "cm", "", kNs, kAll, "", false,
                    kSub, ""},
    BuiltinResource{"", "v1", "endpoints", "Endpoints", "endpoints", "ep", "", kNs, kAll, "", false,
                    kSub, ""},
    BuiltinResource{"", "v1", "events", "Event", "event", "ev", "", kNs, kAll, "", false, kSub,
                    "involvedObject.kind,involvedObject.namespace,involvedObject.name,"
                    "involvedObject.uid,involvedObject.apiVersion,involvedObject.resourceVersion,"
                    "involvedObject.fieldPath,reason,reportingComponent,source,type"},
    BuiltinResource{"", "v1", "limitranges", "LimitRange", "limitrange", "limits", "", kNs, kAll, "",
                    false, kSub, ""},
    BuiltinResource{"", "v1", "namespaces", "Namespace", "namespace", "ns", "", kCluster,
                    VerbSet::kAllButCollection, "finalize,status", false, kLabel, "status.phase"},
    BuiltinResource{"", "v1", "nodes", "Node", "node", "no", "", kCluster, kAll, "proxy,status",
                    false, kSub, "spec.unschedulable"},
    BuiltinResource{"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim",
                    "persistentvolumeclaim", "pvc", "", kNs, kAll, "status", false, kSub, ""},
    BuiltinResource{"", "v1", "persistentvolumes", "PersistentVolume", "persistentvolume", "pv", "",
                    kCluster, kAll, "status", false, kSub, ""},
    BuiltinResource{"", "v1", "pods", "Pod", "pod", "po", "all", kNs, kAll,
                    "attach,binding,ephemeralcontainers,eviction,exec,log,portforward,proxy,resize,"
                    "status",
                    false, kSub,
                    "spec.nodeName,spec.restartPolicy,spec.schedulerName,spec.serviceAccountName,"
                    "spec.hostNetwork,status.phase,status.podIP,status.podIPs,"
                    "status.nominatedNodeName"},
    BuiltinResource{"", "v1", "podtemplates", "PodTemplate", "podtemplate", "", "", kNs, kAll, "",
                    true, kSub, ""},
    BuiltinResource{"", "v1", "replicationcontrollers", "ReplicationController",
                    "replicationcontroller", "rc", "all", kNs, kAll, "scale,status", true, kSub,
                    "status.replicas"},
    BuiltinResource{"", "v1", "resourcequotas", "ResourceQuota", "resourcequota", "quota", "", kNs,
                    kAll, "status", false, kSub, ""},
    BuiltinResource{"", "v1", "secrets", "Secret", "secret", "", "", kNs, kAll, "", false, kSub,
                    "type"},
    BuiltinResource{"", "v1", "serviceaccounts", "ServiceAccount", "serviceaccount", "sa", "", kNs,
                    kAll, "token", false, kSub, ""},
    BuiltinResource{"", "v1", "services", "Service", "service", "svc", "all", kNs, kAll,
                    "proxy,status", false, NameRule::kDns1035Label, ""},
    // admissionregistration.k8s.io/v1
    BuiltinResource{"admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
                    "MutatingWebhookConfiguration", "mutatingwebhookconfiguration", "",
                    "api-extensions", kCluster, kAll, "", true, kSub, ""},
    BuiltinResource{"admissionregistration.k8s.io", "v1", "validatingadmissionpolicies",
                    "ValidatingAdmissionPolicy", "validatingadmissionpolicy", "", "api-extensions",
                    kCluster, kAll, "status", true, kSub, ""},
    BuiltinResource{"admissionregistration.k8s.io", "v1", "validatingadmissionpolicybindings",
                    "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybinding", "",
                    "api-extensions", kCluster, kAll, "", true, kSub, ""},
    BuiltinResource{"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
                    "ValidatingWebhookConfiguration", "validatingwebhookconfiguration", "",
                    "api-extensions", kCluster, kAll, "", true, kSub, ""},
    // apiextensions.k8s.io/v1
    BuiltinResource{"apiextensions.k8s.io", "v1", "customresourcedefinitions",
                    "CustomResourceDefinition", "customresourcedefinition", "crd,crds",
                    "api-extensions", kCluster, kAll, "status", true, kSub, ""},
    // apiregistration.k8s.io/v1
    BuiltinResource{"apiregistration.k8s.io", "v1", "apiservices", "APIService", "apiservice", "",
                    "api-extensions", kCluster, kAll, "status", false, kSub, ""},
    // apps/v1
    BuiltinResource{"apps", "v1", "controllerrevisions", "ControllerRevision", "controllerrevision",
                    "", "", kNs, kAll, "", false, kSub, ""},
    BuiltinResource{"apps", "v1", "daemonsets", "DaemonSet", "daemonset", "ds", "all", kNs, kAll,
                    "status", true, kSub, ""},
    BuiltinResource{"apps", "v1", "deployments", "Deployment", "deployment", "deploy", "all", kNs,
                    kAll, "scale,status", true, kSub, ""},
    BuiltinResource{"apps", "v1", "replicasets", "ReplicaSet", "replicaset", "rs", "all", kNs, kAll,
                    "scale,status", true, kSub, "status.replicas"},
    // ValidateStatefulSetName is NameIsDNSLabel: the set's pods are named after it.
    BuiltinResource{"apps", "v1", "statefulsets", "StatefulSet", "statefulset", "sts", "all", kNs,
                    kAll, "scale,status", true, kLabel, ""},
    // authentication.k8s.io/v1
    BuiltinResource{"authentication.k8s.io", "v1", "selfsubjectreviews", "SelfSubjectReview",
                    "selfsubjectreview", "", "", kCluster, VerbSet::kCreate, "", false, kSub, ""},
    BuiltinResource{"authentication.k8s.io", "v1", "tokenreviews", "TokenReview", "tokenreview", "",
                    "", kCluster, VerbSet::kCreate, "", false, kSub, ""},
    // authorization.k8s.io/v1
    BuiltinResource{"authorization.k8s.io", "v1", "localsubjectaccessreviews",
                    "LocalSubjectAccessReview", "localsubjectaccessreview", "", "", kNs,
                    VerbSet::kCreate, "", false, kSub, ""},
    BuiltinResource{"authorization.k8s.io", "v1", "selfsubjectaccessreviews",
                    "SelfSubjectAccessReview", "selfsubjectaccessreview", "", "", kCluster,
                    VerbSet::kCreate, "", false, kSub, ""},
    BuiltinResource{"authorization.k8s.io", "v1", "selfsubjectrulesreviews",
                    "SelfSubjectRulesReview", "selfsubjectrulesreview", "", "", kCluster,
                    VerbSet::kCreate, "", false, kSub, ""},
    BuiltinResource{"authorization.k8s.io", "v1", "subjectaccessreviews", "SubjectAccessReview",
                    "subjectaccessreview", "", "", kCluster, VerbSet::kCreate, "", false, kSub, ""},
    // autoscaling/v2 (kube-apiserver also serves autoscaling/v1, converted from v2: not yet)
    BuiltinResource{"autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler",
                    "horizontalpodautoscaler", "hpa", "all", kNs, kAll, "status", false, kSub, ""},
    // batch/v1
    BuiltinResource{"batch", "v1", "cronjobs", "CronJob", "cronjob", "cj", "all", kNs, kAll, "status",
                    true, kSub, ""},
    BuiltinResource{"batch", "v1", "jobs", "Job", "job", "", "all", kNs, kAll, "status", true, kSub,
                    "status.successful"},
    // certificates.k8s.io/v1
    BuiltinResource{"certificates.k8s.io", "v1", "certificatesigningrequests",
                    "CertificateSigningRequest", "certificatesigningrequest", "csr", "", kCluster,
                    kAll, "approval,status", false, kSub, "spec.signerName"},
    // coordination.k8s.io/v1
    BuiltinResource{"coordination.k8s.io", "v1", "leases", "Lease", "lease", "", "", kNs, kAll, "",
                    false, kSub, ""},
    // discovery.k8s.io/v1
    BuiltinResource{"discovery.k8s.io", "v1", "endpointslices", "EndpointSlice", "endpointslice", "",
                    "", kNs, kAll, "", true, kSub, ""},
    // events.k8s.io/v1
    BuiltinResource{"events.k8s.io", "v1", "events", "Event", "event", "ev", "", kNs, kAll, "", false,
                    kSub, ""},
    // flowcontrol.apiserver.k8s.io/v1
    BuiltinResource{"flowcontrol.apiserver.k8s.io", "v1", "flowschemas", "FlowSchema", "flowschema",
                    "", "", kCluster, kAll, "status", true, kSub, ""},
    BuiltinResource{"flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations",
                    "PriorityLevelConfiguration", "prioritylevelconfiguration", "", "", kCluster, kAll,
                    "status", true, kSub, ""},
    // networking.k8s.io/v1
    BuiltinResource{"networking.k8s.io", "v1", "ingressclasses", "IngressClass", "ingressclass", "",
                    "", kCluster, kAll, "", true, kSub, ""},
    BuiltinResource{"networking.k8s.io", "v1", "ingresses", "Ingress", "ingress", "ing", "", kNs, kAll,
                    "status", true, kSub, ""},
    BuiltinResource{"networking.k8s.io", "v1", "ipaddresses", "IPAddress", "ipaddress", "ip", "",
                    kCluster, kAll, "", false, kSub, ""},
    BuiltinResource{"networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", "networkpolicy",
                    "netpol", "", kNs, kAll, "", true, kSub, ""},
    BuiltinResource{"networking.k8s.io", "v1", "servicecidrs", "ServiceCIDR", "servicecidr", "", "",
                    kCluster, kAll, "status", false, kSub, ""},
    // node.k8s.io/v1
    BuiltinResource{"node.k8s.io", "v1", "runtimeclasses", "RuntimeClass", "runtimeclass", "", "",
                    kCluster, kAll, "", false, kSub, ""},
    // policy/v1
    // ValidatePodDisruptionBudget checks no name rule beyond a usable path segment.
    BuiltinResource{"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget",
                    "poddisruptionbudget", "pdb", "", kNs, kAll, "status", true, kSegment, ""},
    // rbac.authorization.k8s.io/v1: ValidateRBACName is a path segment name.
    BuiltinResource{"rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding",
                    "clusterrolebinding", "", "", kCluster, kAll, "", false, kSegment, ""},
    BuiltinResource{"rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", "clusterrole",
                    "", "", kCluster, kAll, "", false, kSegment, ""},
    BuiltinResource{"rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", "rolebinding",
                    "", "", kNs, kAll, "", false, kSegment, ""},
    BuiltinResource{"rbac.authorization.k8s.io", "v1", "roles", "Role", "role", "", "", kNs, kAll, "",
                    false, kSegment, ""},
    // scheduling.k8s.io/v1
    BuiltinResource{"scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", "priorityclass",
                    "pc", "", kCluster, kAll, "", false, kSub, ""},
    // storage.k8s.io/v1
    BuiltinResource{"storage.k8s.io", "v1", "csidrivers", "CSIDriver", "csidriver", "", "", kCluster,
                    kAll, "", false, kSub, ""},
    BuiltinResource{"storage.k8s.io", "v1", "csinodes", "CSINode", "csinode", "", "", kCluster, kAll,
                    "", false, kSub, ""},
    BuiltinResource{"storage.k8s.io", "v1", "csistoragecapacities", "CSIStorageCapacity",
                    "csistoragecapacity", "", "", kNs, kAll, "", false, kSub, ""},
    BuiltinResource{"storage.k8s.io", "v1", "storageclasses", "StorageClass", "storageclass", "sc", "",
                    kCluster, kAll, "", false, kSub, ""},
    BuiltinResource{"storage.k8s.io", "v1", "volumeattachments", "VolumeAttachment",
                    "volumeattachment", "", "", kCluster, kAll, "status", false, kSub, ""},
};

constexpr std::string_view kProxyVerbs = "create delete get patch update";
constexpr std::string_view kConnectVerbs = "create get";
constexpr std::string_view kReadWrite = "get patch update";

constexpr std::array kSubresources = {
    BuiltinSubresource{"status", "", "", "", kReadWrite},
    BuiltinSubresource{"scale", "autoscaling", "v1", "Scale", kReadWrite},
    BuiltinSubresource{"finalize", "", "", "", "update"},
    BuiltinSubresource{"approval", "", "", "", kReadWrite},
    BuiltinSubresource{"ephemeralcontainers", "", "", "", kReadWrite},
    BuiltinSubresource{"resize", "", "", "", kReadWrite},
    BuiltinSubresource{"log", "", "", "", "get"},
    BuiltinSubresource{"binding", "", "v1", "Binding", "create"},
    BuiltinSubresource{"eviction", "policy", "v1", "Eviction", "create"},
    BuiltinSubresource{"token", "authentication.k8s.io", "v1", "TokenRequest", "create"},
    BuiltinSubresource{"attach", "", "v1", "PodAttachOptions", kConnectVerbs},
    BuiltinSubresource{"exec", "", "v1", "PodExecOptions", kConnectVerbs},
    BuiltinSubresource{"portforward", "", "v1", "PodPortForwardOptions", kConnectVerbs},
};

constexpr std::array kProxies = {
    BuiltinSubresource{"proxy", "", "v1", "PodProxyOptions", kProxyVerbs},
    BuiltinSubresource{"proxy", "", "v1", "NodeProxyOptions", kProxyVerbs},
    BuiltinSubresource{"proxy", "", "v1", "ServiceProxyOptions", kProxyVerbs},
};

}  // namespace

std::span<const BuiltinResource> builtin_resources() { return kResources; }

const BuiltinSubresource* builtin_subresource(std::string_view name, std::string_view parent_kind) {
  if (name == "proxy") {
    for (const auto& p : kProxies) {
      if (p.kind.substr(0, parent_kind.size()) == parent_kind) return &p;
    }
    return nullptr;
  }
  for (const auto& s : kSubresources) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace kubesim::fakeapi::internal
