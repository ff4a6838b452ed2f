// The well-known resources, defined once: the built-in GroupVersionResources kubesim serves and
// its components use (api::kConfigMaps, api::kLeases, …), named by their plural resource name.
#ifndef KUBESIM_API_RESOURCES_H_
#define KUBESIM_API_RESOURCES_H_

#include "kubesim/api/gvk.h"

namespace kubesim::api {

// core/v1
inline const GroupVersionResource kNamespaces{"", "v1", "namespaces"};
inline const GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
inline const GroupVersionResource kSecrets{"", "v1", "secrets"};
inline const GroupVersionResource kPods{"", "v1", "pods"};
inline const GroupVersionResource kServices{"", "v1", "services"};
inline const GroupVersionResource kEndpoints{"", "v1", "endpoints"};
inline const GroupVersionResource kEvents{"", "v1", "events"};
inline const GroupVersionResource kNodes{"", "v1", "nodes"};
inline const GroupVersionResource kServiceAccounts{"", "v1", "serviceaccounts"};
// apps/v1
inline const GroupVersionResource kDeployments{"apps", "v1", "deployments"};
inline const GroupVersionResource kReplicaSets{"apps", "v1", "replicasets"};
inline const GroupVersionResource kStatefulSets{"apps", "v1", "statefulsets"};
inline const GroupVersionResource kDaemonSets{"apps", "v1", "daemonsets"};
// batch/v1
inline const GroupVersionResource kJobs{"batch", "v1", "jobs"};
inline const GroupVersionResource kCronJobs{"batch", "v1", "cronjobs"};
// coordination.k8s.io/v1
inline const GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases"};
// apiextensions.k8s.io/v1
inline const GroupVersionResource kCustomResourceDefinitions{"apiextensions.k8s.io", "v1",
                                                            "customresourcedefinitions"};

}  // namespace kubesim::api

#endif  // KUBESIM_API_RESOURCES_H_
