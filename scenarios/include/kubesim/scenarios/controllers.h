// The built-in controller types, each a real controller on the process's shared informers, a
// rate-limiting work queue and workers, as a client-go controller is written:
//
//   configmap-mirror  params {source: NS, target: NS}: for every ConfigMap in `source`, one of the
//                     same name and data in `target`; ConfigMaps in `target` with no source are
//                     deleted.
//   widget            the Widget custom resource (example.com/v1, plural widgets, namespaced;
//                     the scenario registers it in cluster.resources): each Widget owns
//                     spec.replicas ConfigMaps (named WIDGET-0, WIDGET-1, …, with an owner
//                     reference), and its status.readyReplicas says how many exist.
#ifndef KUBESIM_SCENARIOS_CONTROLLERS_H_
#define KUBESIM_SCENARIOS_CONTROLLERS_H_

#include "kubesim/scenarios/registry.h"

namespace kubesim::scenarios {

// Registers configmap-mirror and widget.
void register_builtin_controllers(Registry& registry);

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_CONTROLLERS_H_
