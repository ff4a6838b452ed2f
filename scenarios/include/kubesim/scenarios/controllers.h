// The built-in controller types, each a real controller built with kubesim::controller's
// ControllerBuilder and run by a Manager (kubesim/controller/): the process's shared informers, a
// rate-limiting work queue and workers, as a client-go controller is written:
//
//   configmap-mirror  params {source: NS, target: NS}: for every ConfigMap in `source`, one of the
//                     same name, data and binaryData in `target`; ConfigMaps in `target` with no
//                     source are deleted.
//   widget            the Widget custom resource (example.com/v1, plural widgets, namespaced;
//                     the scenario registers it in cluster.resources): each Widget owns
//                     spec.replicas ConfigMaps (named WIDGET-0, WIDGET-1, …, with an owner
//                     reference), and its status.readyReplicas says how many exist. What a
//                     deleted Widget controlled is deleted too (the fake API server has no
//                     garbage collector).
//
// Both reconcile per key from their informers' caches (level-based), write through the replica's
// client, and treat a create that finds the object (AlreadyExists) or a delete that does not
// (NotFound) as done; any other failed write, a Conflict included, requeues the key through
// client-go's default controller rate limiter.
#ifndef KUBESIM_SCENARIOS_CONTROLLERS_H_
#define KUBESIM_SCENARIOS_CONTROLLERS_H_

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/scenarios/registry.h"

namespace kubesim::scenarios {

// Registers configmap-mirror and widget. Throws std::invalid_argument when either name is
// already registered.
void register_builtin_controllers(Registry& registry);

// The Widget resource the widget controller serves.
inline const api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};
// The label the widget controller puts on the ConfigMaps a Widget owns; its value is the Widget's
// name.
inline constexpr const char* kWidgetLabel = "example.com/widget";

// The CustomResourceDefinition of widgets.example.com (apiextensions.k8s.io/v1): namespaced, one
// served and stored version v1 with the /status subresource and an openAPIV3Schema in which
// spec.replicas is an integer ≥ 0 and status.readyReplicas an integer. Tests, the runner and the
// examples register this one, so every Widget is validated alike.
nlohmann::json widget_crd();

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_CONTROLLERS_H_
