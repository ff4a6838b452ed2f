// rc::state commands over a SimCluster: any sequence of generated writes, faults and time leaves
// the cluster agreeing with the model; and the Widget example, under any such sequence on two
// replicas with Lease election, gives every Widget its spec.replicas ConfigMaps once the faults are
// cleared. (OwnedCountAtMost is no invariant here: a Widget scaled down controls more ConfigMaps
// than its spec.replicas until the controller deletes them.)
#include "kubesim/testing/commands.h"

#include <map>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include "kubesim/api/resources.h"
#include "kubesim/scenarios/controllers.h"
#include "tests/testing/generators/fixtures.h"
#include "widget.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;

RC_GTEST_PROP(ClusterCommands, TheClusterAgreesWithTheModel, ()) {
  SimCluster c(ClusterOptions().seed(*rc::gen::inRange<std::uint64_t>(1, 1000)).crd(gadget_crd()));
  gen::FaultSpace faults;
  faults.resources = {"configmaps", "gadgets"};
  const auto model = ClusterModel()
                         .objects(gen::config_map())
                         .objects(gen::secret())
                         .objects(gen::lease())
                         .objects(gen::custom_object(gadget_crd()))
                         .faults(faults);
  rc::state::check(model, c,
                   rc::state::gen::execOneOfWithArgs<ApplyObject, PatchObject, RemoveObject, AdvanceTime, AddFault>());
}

// The model follows the commands: what ApplyObject wrote is there, RemoveObject takes it away,
// PatchObject changes it to another object of its source, time adds up.
RC_GTEST_PROP(ClusterCommands, TheModelFollowsTheCommands, ()) {
  SimCluster c(ClusterOptions().seed(1));
  const auto model = ClusterModel().objects(gen::config_map()).max_advance(2s);
  const auto commands = *rc::gen::resize(30, rc::state::gen::commands(model, cluster_commands()));
  ClusterModel state = model;
  for (const auto& command : commands) {
    const std::map<std::string, ModelObject> before = state.objects_written;
    command->apply(state);
    std::ostringstream shown;
    command->show(shown);
    const std::string text = shown.str();
    if (text.rfind("RemoveObject ", 0) == 0) {
      RC_ASSERT(state.objects_written.size() + 1 == before.size());
    } else if (text.rfind("ApplyObject ", 0) == 0 || text.rfind("PatchObject ", 0) == 0) {
      RC_ASSERT(state.objects_written.size() >= before.size());
    }
  }
  rc::state::runAll(commands, model, c);
  RC_ASSERT(c.now().time_since_epoch() >= state.elapsed);
  RC_ASSERT(c.list(api::kConfigMaps, "default").size() >=
            state.objects_written.size());
}

TEST(ClusterCommands, ShowSaysWhatEachCommandDoes) {
  rc::check("show", [] {
    ClusterModel model = ClusterModel().objects(gen::config_map());
    model.objects_written["v1/ConfigMap/default/a"] = {0, json::parse(R"({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "a", "namespace": "default"}})")};
    const auto command = *rc::state::gen::execOneOfWithArgs<RemoveObject>()(model);
    std::ostringstream os;
    command->show(os);
    RC_ASSERT(os.str() == "RemoveObject v1/ConfigMap/default/a");
  });
}

// Every Widget controls exactly spec.replicas ConfigMaps (by its uid).
Condition EveryWidgetOwnsItsReplicas() {
  return Condition{"every Widget controls spec.replicas ConfigMaps",
                   [](const SimCluster& c) -> std::optional<std::string> {
                     std::map<std::string, std::int64_t> owned;  // by owner uid
                     for (const auto& cm : c.list(widgets::kConfigMaps)) {
                       if (const auto* owner = cm->controller_of()) ++owned[std::string(owner->uid)];
                     }
                     for (const auto& w : c.list(widgets::kWidgets)) {
                       const std::int64_t have = owned[std::string(w->uid())];
                       if (have != widgets::replicas_of(*w)) {
                         return w->key().str() + " controls " + std::to_string(have) + ", wants " +
                                std::to_string(widgets::replicas_of(*w));
                       }
                     }
                     return std::nullopt;
                   }};
}

RC_GTEST_PROP(WidgetModel, EveryWidgetGetsItsConfigMapsAfterAnyCommands, ()) {
  const json crd = scenarios::widget_crd();
  gen::SchemaOptions small;
  small.number_span = 3;  // spec.replicas in [0, 3]
  SimCluster c(ClusterOptions().seed(*rc::gen::inRange<std::uint64_t>(1, 1000)).crd(crd));
  c.run_controller("widgets", widgets::setup, Replicas(2), LeaderElection("kube-system"));
  gen::FaultSpace faults;
  faults.resources = {"widgets", "configmaps"};
  // Widgets with a spec.replicas (the generator's view of the schema; the server keeps the CRD's).
  json with_replicas = crd;
  json& schema = with_replicas["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
  schema["required"] = {"spec"};
  schema["properties"]["spec"]["required"] = {"replicas"};
  // Names of at most 63 characters, so that the ConfigMaps' names (NAME-i) stay within 253.
  const auto widgets = rc::gen::apply(
      [](json w, const std::string& name) {
        w["metadata"]["name"] = name;
        return w;
      },
      gen::custom_object(with_replicas, small), gen::dns1123_label());
  const auto model = ClusterModel().objects(widgets).faults(faults);
  check_commands(model, c, 15);
  c.faults().clear();
  RC_ASSERT(c.run_until(EveryWidgetOwnsItsReplicas(), 15min));
}

}  // namespace
}  // namespace kubesim::testing
