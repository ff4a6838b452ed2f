// The planted-bug corpus: controllers that each carry one realistic bug of a known class, and
// beside each the correct version of the same code. Every controller is one piece of code with a
// Variant: kBuggy has the bug, kFixed is what its author should have written; they differ only
// where the bug is. main.cc registers each as the scenario controller types NAME (buggy) and
// NAME-fixed, and scenarios/NAME.yaml and repro/NAME.yaml run them (README.md has the table).
//
// Every controller here works on ConfigMaps (and one custom resource, example.com/v1 Pool), in
// namespaces fixed by its own header comment, so that a scenario needs no params; the types
// refuse params. None of them is meant for use: they are the measure of `kubesim explore`.
#ifndef KUBESIM_EXAMPLES_BUGGY_BUGGY_H_
#define KUBESIM_EXAMPLES_BUGGY_BUGGY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/resources.h"
#include "kubesim/api/result.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/manager.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/task.h"

namespace buggy {

enum class Variant { kBuggy, kFixed };

using kubesim::api::ObjectPtr;
using kubesim::controller::ReconcileContext;
using kubesim::controller::ReconcileRequest;
using kubesim::controller::ReconcileResult;
using kubesim::sim::Task;

using kubesim::api::kConfigMaps;

// data[key] of a ConfigMap, "" when absent.
std::string data_of(const kubesim::api::Object& config_map, std::string_view key);

// A ConfigMap in `ns`: named `name`, or by the server from `generate_name` when name is "".
kubesim::api::ObjectPtr config_map(std::string_view ns, std::string_view name, nlohmann::json data,
                                   std::map<std::string, std::string> labels = {},
                                   std::string_view generate_name = {});

// Creates `object` in its namespace; the server's answer as is.
kubesim::sim::Task<kubesim::api::Result<kubesim::api::ObjectPtr>> create(kubesim::sim::Context ctx,
                                                                         kubesim::api::Client* client,
                                                                         kubesim::api::GroupVersionResource resource,
                                                                         kubesim::api::ObjectPtr object);
// Updates `object` over its resourceVersion (a changed object is a Conflict).
kubesim::sim::Task<kubesim::api::Result<kubesim::api::ObjectPtr>> update(kubesim::sim::Context ctx,
                                                                         kubesim::api::Client* client,
                                                                         kubesim::api::GroupVersionResource resource,
                                                                         kubesim::api::ObjectPtr object);
// Deletes `object` on the condition that it is still that uid; NotFound counts as done.
kubesim::sim::Task<bool> remove(kubesim::sim::Context ctx, kubesim::api::Client* client,
                                kubesim::api::GroupVersionResource resource, kubesim::api::ObjectPtr object);

// Makes one replica's controller of a variant.
using MakeFn = std::function<std::unique_ptr<kubesim::scenarios::Controller>(kubesim::scenarios::ControllerEnv env,
                                                                            Variant variant)>;
// What a pair of types is described as: what the controller does, and its bug in a few words.
struct Description {
  std::string what;
  std::string bug;
};
// Registers `name` (kBuggy) and `name`-fixed (kFixed); neither takes params.
void register_pair(kubesim::scenarios::Registry& registry, const std::string& name, const Description& about,
                   MakeFn make);
// The same for a controller built with kubesim::controller's ControllerBuilder.
using SetupFn = std::function<void(kubesim::controller::Manager& manager, Variant variant)>;
void register_pair_setup(kubesim::scenarios::Registry& registry, const std::string& name,
                         const Description& about, SetupFn setup);

// The same for a controller built with ControllerBuilder on ConfigMap events alone, named `name`:
// `map` says which key an event queues, `reconcile` is handed the variant.
using VariantReconcileFn = Task<ReconcileResult> (*)(Variant variant, ReconcileContext rc, ReconcileRequest request);
void register_config_map_pair(kubesim::scenarios::Registry& registry, const std::string& name,
                              const Description& about, kubesim::controller::MapFn map, VariantReconcileFn reconcile);

// Each controller file registers its pair (and any helper type its scenarios need).
void register_stale_read(kubesim::scenarios::Registry& registry);
void register_unobserved(kubesim::scenarios::Registry& registry);
void register_non_idempotent(kubesim::scenarios::Registry& registry);
void register_replicators(kubesim::scenarios::Registry& registry);  // missing-forget, tombstone, hot-retry
void register_lost_lease(kubesim::scenarios::Registry& registry);
void register_name_not_uid(kubesim::scenarios::Registry& registry);
void register_drop_on_conflict(kubesim::scenarios::Registry& registry);
void register_bundles(kubesim::scenarios::Registry& registry);  // unsynced-start

// Every type of the corpus.
void register_all(kubesim::scenarios::Registry& registry);

}  // namespace buggy

#endif  // KUBESIM_EXAMPLES_BUGGY_BUGGY_H_
