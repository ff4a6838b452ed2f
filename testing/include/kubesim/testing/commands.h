// Model-based tests of controllers: rapidcheck rc::state commands over a SimCluster — the test's
// own writes (apply, patch, remove of generated objects, through the operator's hand), faults
// (a generated rule added) and time (run_for a generated duration) — with a model of the
// objects the commands wrote, checked against the cluster as they run.
//
//   RC_GTEST_PROP(WidgetModel, EveryWidgetGetsItsConfigMaps, ()) {
//     SimCluster c(ClusterOptions().seed(*rc::gen::inRange<std::uint64_t>(1, 1000)).crd(kWidgetCrd));
//     c.run_controller("widgets", widgets::setup, Replicas(2), LeaderElection("kube-system"));
//     c.record_always("one leader", AtMostOneLeader());
//     gen::FaultSpace faults;
//     faults.resources = {"widgets", "configmaps"};
//     const auto model = ClusterModel().objects(gen::custom_object(kWidgetCrd)).faults(faults);
//     rc::state::check(model, c, rc::state::gen::execOneOfWithArgs<ApplyObject, PatchObject,
//                                                                  RemoveObject, AdvanceTime, AddFault>());
//     c.faults().clear();
//     RC_ASSERT(c.run_until(AllWidgetsReady(), 5min));  // the test's own Condition
//     RC_ASSERT(c.violations().empty());
//   }
//
// (record_always, not always: a broken check is then an RC_ASSERT, which rapidcheck shrinks.)
// check_commands(model, c, 20) is the same check with shorter sequences.
//
// rapidcheck draws a sequence of commands from the model, runs them on a cluster built in the
// property (a fresh one for each case and each shrinking step), and shrinks a failing sequence
// to a short one. What each command checks as it runs (a failure is an RC_ASSERT):
//   ApplyObject  a new object of a source, or an object the model has replaced by a new one of
//                its source (same name): the server accepts it and stores what was applied.
//   PatchObject  a JSON merge patch turning an object the model has into a new one of its
//                source: accepted, and the stored object shows it.
//   RemoveObject an object the model has is deleted (or marked for deletion: a controller's
//                finalizer) and leaves the model.
//   AdvanceTime  run_for(d), d in [1 ms, max_advance]; the clock moved by d, and every object of
//                the model is still there with what the commands wrote (status aside).
//   AddFault     a rule of gen::fault_rule(faults), its window relative to the current time,
//                added to the cluster's FaultPlan (so the plan's report lists it).
// The commands write only through the operator's hand: they are not subject to faults and not
// in calls(). A controller that deletes, or changes other than the status of, the objects the
// test writes is outside the model; so are sources whose objects cannot replace each other (a
// Pod's spec is immutable) and Namespaces (removing one removes what is in it).
#ifndef KUBESIM_TESTING_COMMANDS_H_
#define KUBESIM_TESTING_COMMANDS_H_

#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "kubesim/fakeapi/faults.h"
#include "kubesim/sim/time.h"
#include "kubesim/testing/cluster.h"
#include "kubesim/testing/generators.h"

namespace kubesim::testing {

// An object the model holds: what the commands wrote (status left out) and the source it came
// from.
struct ModelObject {
  std::size_t source = 0;
  nlohmann::json object;
};

// The model: what the commands may draw from (configured once) and what they wrote (the state,
// which the commands' apply() changes).
class ClusterModel {
 public:
  ClusterModel() {}
  // A source of objects for ApplyObject and PatchObject (several may be given; one is drawn).
  ClusterModel& objects(rc::Gen<nlohmann::json> source) { sources_.push_back(std::move(source)); return *this; }
  // What AddFault's rules may aim at (default: any resource, any process).
  ClusterModel& faults(gen::FaultSpace space) { fault_space_ = std::move(space); return *this; }
  // The longest AdvanceTime (default 10 s).
  ClusterModel& max_advance(sim::Duration d) { max_advance_ = d; return *this; }

  const std::vector<rc::Gen<nlohmann::json>>& sources() const { return sources_; }
  const gen::FaultSpace& fault_space() const { return fault_space_; }
  sim::Duration max_advance() const { return max_advance_; }

  // --- State ---
  // The objects the commands wrote and did not remove, by model_key().
  std::map<std::string, ModelObject> objects_written;
  sim::Duration elapsed{};
  std::size_t faults_added = 0;

 private:
  std::vector<rc::Gen<nlohmann::json>> sources_;
  gen::FaultSpace fault_space_;
  sim::Duration max_advance_ = std::chrono::seconds(10);
};

// "apiVersion/kind/namespace/name" of an object.
std::string model_key(const nlohmann::json& object);

using ClusterCommand = rc::state::Command<ClusterModel, SimCluster>;

class ApplyObject final : public ClusterCommand {
 public:
  explicit ApplyObject(const ClusterModel& model);
  void apply(ClusterModel& model) const override;
  void run(const ClusterModel& model, SimCluster& cluster) const override;
  void show(std::ostream& os) const override;

 private:
  std::size_t source_ = 0;
  nlohmann::json object_;
};

class PatchObject final : public ClusterCommand {
 public:
  explicit PatchObject(const ClusterModel& model);  // discarded when the model has no object
  void checkPreconditions(const ClusterModel& model) const override;
  void apply(ClusterModel& model) const override;
  void run(const ClusterModel& model, SimCluster& cluster) const override;
  void show(std::ostream& os) const override;

 private:
  std::string key_;
  nlohmann::json patch_;  // RFC 7386 merge patch
};

class RemoveObject final : public ClusterCommand {
 public:
  explicit RemoveObject(const ClusterModel& model);  // discarded when the model has no object
  void checkPreconditions(const ClusterModel& model) const override;
  void apply(ClusterModel& model) const override;
  void run(const ClusterModel& model, SimCluster& cluster) const override;
  void show(std::ostream& os) const override;

 private:
  std::string key_;
};

class AdvanceTime final : public ClusterCommand {
 public:
  explicit AdvanceTime(const ClusterModel& model);
  void apply(ClusterModel& model) const override;
  void run(const ClusterModel& model, SimCluster& cluster) const override;
  void show(std::ostream& os) const override;

 private:
  sim::Duration by_{};
};

class AddFault final : public ClusterCommand {
 public:
  explicit AddFault(const ClusterModel& model);
  void apply(ClusterModel& model) const override;
  void run(const ClusterModel& model, SimCluster& cluster) const override;
  void show(std::ostream& os) const override;

 private:
  fakeapi::FaultRule rule_;  // its window relative to the time the command runs
};

// All five commands, for rc::state::check(model, cluster, cluster_commands()).
inline auto cluster_commands() {
  return rc::state::gen::execOneOfWithArgs<ApplyObject, PatchObject, RemoveObject, AdvanceTime, AddFault>();
}

// rc::state::check(model, cluster, cluster_commands()) with sequences of at most `max_commands`
// commands (rapidcheck's own check draws up to 100 at its largest size, which a cluster running
// controllers takes long to run): a longer draw is cut short, so the values the commands draw
// keep rapidcheck's sizes.
inline void check_commands(const ClusterModel& model, SimCluster& cluster, std::size_t max_commands = 20) {
  auto commands = *rc::state::gen::commands(model, cluster_commands());
  if (commands.size() > max_commands) commands.resize(max_commands);
  rc::state::runAll(commands, model, cluster);
}

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_COMMANDS_H_
