// The Widget controller, written with kubesim::controller's ControllerBuilder as a controller
// author writes one: each example.com/v1 Widget owns spec.replicas ConfigMaps in its namespace,
// named NAME-0 … NAME-(replicas-1), each labelled example.com/widget=NAME and carrying a controller
// owner reference to the Widget; any other ConfigMap it controls is deleted. Its
// status.readyReplicas, the number of those ConfigMaps in the cache, is written through /status.
//
//   SimCluster c(ClusterOptions().crd_file("testdata/widgets.crd.yaml"));
//   c.run_controller("widgets", widgets::setup, Replicas(2), LeaderElection("kube-system"));
//
// The reconcile is level-based, from the manager's caches, and guarded by Expectations (as the
// ReplicaSet controller is): after writing it waits for its cache to show its own creates and
// deletes before it acts on that Widget again. The fake API server has no garbage collector, so
// the controller deletes what a Widget that is gone controlled, and ConfigMaps controlled by an
// earlier Widget of the same name (another uid). A ConfigMap of one of the names that some other
// owner controls, or none, is left alone and not counted.
//
// widgets_stale::setup is the same controller with a planted stale-cache bug (widget_stale.cc):
// ReplicaSet-like, it makes the missing ConfigMaps with generateName and no Expectations, so a
// reconcile on a cache that has not yet seen its own creates makes more.
#ifndef KUBESIM_EXAMPLES_WIDGET_WIDGET_H_
#define KUBESIM_EXAMPLES_WIDGET_WIDGET_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/result.h"
#include "kubesim/sim/task.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/manager.h"

namespace widgets {

inline const kubesim::api::GroupVersionResource kWidgets{"example.com", "v1", "widgets"};
using kubesim::api::kConfigMaps;
// The label on a Widget's ConfigMaps; its value is kubesim::controller::label_value(the Widget's
// name): the name itself when it fits a label value's 63 characters, else a shortened form.
inline constexpr const char* kWidgetLabel = "example.com/widget";

// Registers the Widget controller ("widgets": for_ Widgets, owns ConfigMaps, 2 workers).
void setup(kubesim::controller::Manager& manager);

// --- what both versions share ---

// spec.replicas, 0 when missing or negative.
std::int64_t replicas_of(const kubesim::api::Object& widget);
// The cached ConfigMaps of `ns` that a Widget named `name` controls, whatever its uid.
std::vector<kubesim::api::ObjectPtr> controlled_by(const kubesim::controller::ReconcileContext& rc, std::string_view ns,
                                                   std::string_view name);
// A ConfigMap controlled by `widget`, labelled; named `name`, or `generate_name` when name is "".
kubesim::api::ObjectPtr owned_config_map(const kubesim::api::Object& widget, std::string_view name,
                                         std::string_view generate_name = {});
// Deletes `config_map` (on the condition it is still that uid); NotFound counts as done.
kubesim::sim::Task<kubesim::api::Result<void>> remove(kubesim::controller::ReconcileContext rc,
                                                       kubesim::api::ObjectPtr config_map);
// Writes status.readyReplicas = `ready` through /status when the cached Widget shows another
// value, over its resourceVersion (a Widget changed since is a Conflict).
kubesim::sim::Task<kubesim::api::Result<void>> write_ready(kubesim::controller::ReconcileContext rc,
                                                            kubesim::api::ObjectPtr widget, std::int64_t ready);

}  // namespace widgets

namespace widgets_stale {

// The Widget controller with the planted stale-cache bug (see above), also named "widgets".
void setup(kubesim::controller::Manager& manager);

}  // namespace widgets_stale

#endif  // KUBESIM_EXAMPLES_WIDGET_WIDGET_H_
