// A controller with a planted bug, and its fixed version, for the explorer's end-to-end tests.
//
// For each ConfigMap in namespace src without a "child" annotation, `child-maker` creates a
// ConfigMap in dst and then annotates the source with the child's name: two writes. The buggy
// type names the child by generateName, so a crash between the two writes leaves the source
// unannotated, and the restarted replica creates a second child (a non-idempotent create). The
// fixed type, `child-maker-fixed`, names the child after its source and takes AlreadyExists as
// done, so the retry finds the first child.
#ifndef KUBESIM_TESTS_SCENARIOS_EXPLORE_CHILD_MAKER_H_
#define KUBESIM_TESTS_SCENARIOS_EXPLORE_CHILD_MAKER_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/api/resources.h"
#include "kubesim/api/status.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/manager.h"
#include "kubesim/scenarios/controller_type.h"
#include "kubesim/scenarios/registry.h"

namespace kubesim::explore::testing {

inline sim::Task<controller::ReconcileResult> make_child(bool fixed, controller::ReconcileContext rc,
                                                         controller::ReconcileRequest request) {
  using controller::ReconcileResult;
  api::ObjectPtr source = rc.get(api::kConfigMaps, "src", request.name);
  if (source == nullptr) co_return ReconcileResult::done();
  if (source->annotation("child")) co_return ReconcileResult::done();
  nlohmann::json child = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"data", {{"of", request.name}}}};
  child["metadata"]["namespace"] = "dst";
  if (fixed) {
    child["metadata"]["name"] = request.name + "-child";
  } else {
    child["metadata"]["generateName"] = request.name + "-";
  }
  auto created = co_await rc.client().create(rc.ctx(), api::kConfigMaps, "dst", api::make_object(std::move(child)),
                                             api::CreateOptions());
  std::string name = request.name + "-child";
  if (created.ok()) {
    name = std::string(created.value()->name());
  } else if (!fixed || !api::is_already_exists(created.status())) {
    co_return ReconcileResult::requeue();
  }
  api::ObjectPtr annotated = source->edited([&](nlohmann::json& j) { j["metadata"]["annotations"]["child"] = name; });
  auto updated = co_await rc.client().update(rc.ctx(), api::kConfigMaps, "src", std::move(annotated),
                                             api::UpdateOptions());
  co_return updated.ok() ? ReconcileResult::done() : ReconcileResult::requeue();
}

inline std::unique_ptr<scenarios::Controller> make_child_maker(scenarios::ControllerEnv env, bool fixed) {
  return manager_controller(env, [fixed](controller::Manager& manager) {
    controller::ControllerBuilder(manager)
        .named(fixed ? "child-maker-fixed" : "child-maker")
        .watches(api::kConfigMaps,
                 [](const api::Object& object) -> std::vector<controller::ReconcileRequest> {
                   if (object.namespace_() != "src") return {};
                   return {controller::ReconcileRequest{"", std::string(object.name())}};
                 })
        .reconcile([fixed](controller::ReconcileContext rc, controller::ReconcileRequest request) {
          return make_child(fixed, std::move(rc), std::move(request));
        });
  });
}

inline void register_child_makers(scenarios::Registry& registry) {
  registry.register_controller("child-maker", [](scenarios::ControllerEnv env) { return make_child_maker(env, false); });
  registry.register_controller("child-maker-fixed", [](scenarios::ControllerEnv env) { return make_child_maker(env, true); });
}

// The built-in types and both child makers, made once.
// A scenario of `type` on one replica, ctl-0: a source ConfigMap every 5 s for 20 s.
// `process_keys` are more keys of the process (indented four spaces), `tail` more top-level keys.
inline std::string child_maker_scenario(const std::string& type, const std::string& process_keys = "",
                                        const std::string& tail = "") {
  return "name: " + type + "\n" +
         "duration: 1m\n"
         "seeds: 2\n"
         "network: {latency: 5ms}\n"
         "cluster:\n"
         "  objects:\n"
         "    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}\n"
         "    - {apiVersion: v1, kind: Namespace, metadata: {name: dst}}\n"
         "processes:\n"
         "  - name: ctl\n" +
         process_keys +
         "    run:\n"
         "      - controller: {type: " + type + "}\n"
         "workload:\n"
         "  - every: 5s\n"
         "    until: 20s\n"
         "    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: s-, namespace: src}, data: {k: v}}}\n" +
         tail;
}

inline const scenarios::Registry& child_maker_registry() {
  static const scenarios::Registry r = [] {
    scenarios::Registry out = scenarios::Registry::with_builtins();
    register_child_makers(out);
    return out;
  }();
  return r;
}

}  // namespace kubesim::explore::testing

#endif  // KUBESIM_TESTS_SCENARIOS_EXPLORE_CHILD_MAKER_H_
