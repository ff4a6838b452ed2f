// Manager: a controller manager of one process, as controller-runtime's manager.Manager — the
// controllers a setup function built with ControllerBuilder (builder.h), run together, at once
// or under Lease leader election; the same setup function fills a Manager in a SimCluster test
// (kubesim::testing), in a scenario file's controller type (kubesim/scenarios/controller_type.h)
// and in a benchmark.
//
//   kubesim::controller::Manager mgr({process, client, informers}, options);
//   widgets::setup(mgr);                    // ControllerBuilder(mgr)...reconcile(fn)
//   co_await mgr.start(ctx);                // informers, election, controllers
//
// A Manager runs on one process's loop and is not thread-safe. It does not own what ManagerEnv
// names; everything there outlives it.
#ifndef KUBESIM_CONTROLLER_MANAGER_H_
#define KUBESIM_CONTROLLER_MANAGER_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/client.h"
#include "kubesim/api/gvk.h"
#include "kubesim/controller/expectations.h"
#include "kubesim/informer/factory.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/time.h"
#include "kubesim/workqueue/metrics.h"

namespace kubesim::controller {

class ControllerState;

// Leader election for a Manager: a Lease lock (coordination.k8s.io/v1) `name` in `ns`, the
// replica's process name as identity, client-go's default timings.
struct LeaderElection {
  LeaderElection() {}
  explicit LeaderElection(std::string ns_, std::string name_ = {}) : ns(std::move(ns_)), name(std::move(name_)) {}
  std::string ns = "kube-system";
  std::string name;  // "" = the controller group's name (SimCluster::run_controller)
  sim::Duration lease_duration = std::chrono::seconds(15);
  sim::Duration renew_deadline = std::chrono::seconds(10);
  sim::Duration retry_period = std::chrono::seconds(2);
  bool release_on_cancel = false;
};

// What a Manager runs in: everything outlives the Manager.
struct ManagerEnv {
  sim::Process& process;
  api::Client& client;
  // The process's shared informer factory. Controllers take their informers from it when they
  // are built; whoever owns the factory starts it (Manager::start does, SimCluster and the
  // scenario runner do).
  informer::SharedInformerFactory& informers;
};

struct ManagerOptions {
  ManagerOptions() {}
  std::optional<LeaderElection> leader_election;  // none: controllers run at once
  // Told when this manager starts (true) and stops (false) leading; for SimCluster's leader().
  std::function<void(bool leading)> on_leadership;
  // When set, each controller's work queue reports client-go's queue metrics under the
  // controller's name (the unfinished-work gauges are not refreshed: no timers are added, so a
  // run with metrics schedules exactly what a run without them does). Outlives the Manager.
  workqueue::MetricsProvider* metrics = nullptr;
};

// A controller manager of one process (controller-runtime's manager.Manager): the controllers a
// setup function built, run together.
class Manager {
 public:
  // Throws std::invalid_argument when options.leader_election has an empty name.
  explicit Manager(ManagerEnv env, ManagerOptions options = {});
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;
  ~Manager();

  sim::Process& process() const { return env_.process; }
  api::Client& client() const { return env_.client; }
  informer::SharedInformerFactory& informers() const { return env_.informers; }
  const ManagerOptions& options() const { return options_; }

  // Makes (or shares) the informer of `resource` before the manager runs, for a reconcile that
  // reads a resource it does not watch.
  void informer(const api::GroupVersionResource& resource);

  // Runs every controller until `ctx` is done (waiting for their caches first) and returns once
  // every worker has stopped. The caller has started the informer factory. May be called again,
  // on a fresh context, after it returned (a new leadership term).
  sim::Task<void> run(sim::Context ctx);
  // manager.Start: starts the informer factory, then with leader_election campaigns and runs the
  // controllers while leading (returning when leadership is lost, as kube-controller-manager
  // exits), without it runs them at once; returns when `ctx` is done. Shuts the factory down
  // before returning.
  sim::Task<void> start(sim::Context ctx);

  // Items waiting in all controllers' queues. Informational.
  std::size_t queue_depth() const;
  std::vector<std::string> controller_names() const;
  // The named controller's Expectations; throws std::out_of_range for an unknown name.
  Expectations& expectations(std::string_view controller);

  // Used by ControllerBuilder.
  void add(std::unique_ptr<ControllerState> controller);

 private:
  friend class ControllerState;

  ManagerEnv env_;
  ManagerOptions options_;
  std::vector<std::unique_ptr<ControllerState>> controllers_;
  // The resources informer() was asked for, in that order, without repeats.
  std::vector<api::GroupVersionResource> informers_taken_;
};

// How a Manager is filled: the function a controller author writes once and hands to
// SimCluster::run_controller, to controller_type() for scenario files, and to a benchmark.
using SetupFn = std::function<void(Manager& manager)>;

}  // namespace kubesim::controller

#endif  // KUBESIM_CONTROLLER_MANAGER_H_
