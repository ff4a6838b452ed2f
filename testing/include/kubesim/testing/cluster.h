// SimCluster: a whole fake cluster for one test — the virtual-time loop, the fake API server, and
// controller processes (replicas with their own clocks, network links, API clients and informer
// factories) — built in a line and torn down safely whatever the test did.
//
//   SimCluster c(ClusterOptions().seed(seed()).crd_file("testdata/widgets.crd.yaml"));
//   c.run_controller("widgets", widgets::setup, Replicas(2), LeaderElection("kube-system"));
//   c.apply_yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1}, spec: {replicas: 2}}");
//   ASSERT_THAT(c, Eventually(AllReady(kWidgets, "status.readyReplicas", "spec.replicas"), 2min));
//
// Time is virtual: nothing runs between statements; run_for/run_until and the assertions of
// conditions.h drive the loop. Everything is drawn from the seed, so a seed replays a test exactly
// (the trace hash proves it; SeededTest compares it).
//
// The test's own reads and writes (apply, get, list, patch, remove) are the operator's hand on
// the store: synchronous, not recorded as calls, not subject to faults; the writes do reach the
// controllers' watches and the always() checks. Objects are given as YAML or JSON; a
// multi-document YAML applies each document in order (CRDs first become served at once).
// apply() creates, or replaces an existing object keeping its resourceVersion (so it always
// wins); an object the server refuses throws std::runtime_error with the server's message.
// apply_yaml stops at the first refused document, naming it ("apply_yaml: document 2 of 3
// (Widget default/w1): …"): the documents before it stay applied, the ones after it are not
// tried. Like kube-apiserver, apply ignores the status of a kind with a /status subresource;
// patch(…, "status") writes it.
//
// Replicas of a controller group are processes named "<group>-0", "<group>-1", …: each runs a
// Manager (kubesim/controller/manager.h) filled by the setup function, a fresh one for every
// incarnation (after a crash or a lost leadership, as a restarted pod). With LeaderElection only
// the leader's controllers run; a replica whose leadership ends exits and restarts at once, as
// kube-controller-manager does.
#ifndef KUBESIM_TESTING_CLUSTER_H_
#define KUBESIM_TESTING_CLUSTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/api/result.h"
#include "kubesim/controller/builder.h"
#include "kubesim/controller/expectations.h"
#include "kubesim/controller/manager.h"
#include "kubesim/fakeapi/server_options.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/time.h"
#include "kubesim/testing/calls.h"
#include "kubesim/testing/conditions.h"
#include "kubesim/testing/fault_plan.h"

namespace kubesim::fakeapi {
class ApiServer;  // kubesim/fakeapi/server.h
}  // namespace kubesim::fakeapi
namespace kubesim::sim {
class Loop;  // kubesim/sim/loop.h
}  // namespace kubesim::sim
namespace kubesim::cluster {
class Cluster;  // kubesim/cluster/cluster.h
}  // namespace kubesim::cluster

namespace kubesim::testing {

using namespace std::chrono_literals;

// The controller side (kubesim::controller) under the fixture library's names, so that a test
// written `using namespace kubesim::testing;` reads ControllerBuilder, Manager and the rest.
using controller::ControllerBuilder;
using controller::Expectations;
using controller::LeaderElection;
using controller::Manager;
using controller::ManagerEnv;
using controller::ManagerOptions;
using controller::MapFn;
using controller::owner_reference;
using controller::ReconcileContext;
using controller::ReconcileFn;
using controller::ReconcileRequest;
using controller::ReconcileResult;
using controller::SetupFn;

struct Replicas {
  explicit Replicas(int n_) : n(n_) {}
  int n = 1;
};

class ClusterOptions {
 public:
  ClusterOptions() {}
  ClusterOptions& seed(std::uint64_t seed) { seed_ = seed; return *this; }
  // CustomResourceDefinitions (YAML/JSON files, several documents allowed) created at start.
  ClusterOptions& crd_file(std::string path) { crd_files_.push_back(std::move(path)); return *this; }
  ClusterOptions& crd(const nlohmann::json& crd);
  // Network latency of every process's link: base + a uniform draw in [0, extra).
  ClusterOptions& latency(sim::Duration base, sim::Duration extra = {}) { latency_base_ = base; latency_extra_ = extra; return *this; }
  // Same-instant work in an order drawn from the seed (finds order-dependent bugs).
  ClusterOptions& shuffle(bool on = true) { shuffle_ = on; return *this; }
  ClusterOptions& server(fakeapi::ServerOptions options) { server_ = std::move(options); return *this; }
  // Write the whole trace (JSON lines) here as the run goes.
  ClusterOptions& trace_to(std::ostream* sink) { trace_sink_ = sink; return *this; }
  // How many trace events and calls a failure message shows (default 20).
  ClusterOptions& failure_tail(std::size_t n) { failure_tail_ = n; return *this; }
  // Strict (the default): a check that held vacuously fails the test — an always() whose
  // condition's subject (Condition::present) never existed while the cluster ran, an Eventually
  // that held at its first check at t=0 while its subject did not exist. Off, they only trace
  // "check.vacuous".
  ClusterOptions& strict(bool on) { strict_ = on; return *this; }

  std::uint64_t seed() const { return seed_; }
  const std::vector<std::string>& crd_files() const { return crd_files_; }
  const std::vector<std::string>& crds() const { return crds_; }  // as JSON text
  sim::Duration latency_base() const { return latency_base_; }
  sim::Duration latency_extra() const { return latency_extra_; }
  bool shuffle() const { return shuffle_; }
  const fakeapi::ServerOptions& server() const { return server_; }
  std::ostream* trace_sink() const { return trace_sink_; }
  std::size_t failure_tail() const { return failure_tail_; }
  bool strict() const { return strict_; }

 private:
  std::uint64_t seed_ = 1;
  std::vector<std::string> crd_files_;
  std::vector<std::string> crds_;
  sim::Duration latency_base_ = std::chrono::milliseconds(1);
  sim::Duration latency_extra_ = std::chrono::milliseconds(4);
  bool shuffle_ = false;
  fakeapi::ServerOptions server_;
  std::ostream* trace_sink_ = nullptr;
  std::size_t failure_tail_ = 20;
  bool strict_ = true;
};

// A broken always() check: the first time it did not hold.
struct Violation {
  std::string check;   // the name given to always()
  std::string why;     // the condition's explanation
  sim::Time at{};
  std::string context;  // failure_context() at that moment
  std::size_t checks_failed = 1;  // how many checks found it broken, this first one included
};

class SimCluster {
 public:
  explicit SimCluster(ClusterOptions options = {});
  SimCluster(const SimCluster&) = delete;
  SimCluster& operator=(const SimCluster&) = delete;
  // Crashes every process and lets every coroutine unwind before anything is destroyed.
  ~SimCluster();

  std::uint64_t seed() const;
  sim::Loop& loop();
  fakeapi::ApiServer& server();
  const fakeapi::ApiServer& server() const;
  sim::Time now() const;
  // The trace hash so far (proves two runs identical).
  std::string trace_hash() const;
  // The simulated cluster underneath (kubesim/cluster/cluster.h): its processes, leadership
  // record and invariants, for what the fixture does not wrap. The fixture's own calls keep it
  // consistent; acting on it directly bypasses the fixture's bookkeeping (its checks, its report).
  cluster::Cluster& cluster();
  const cluster::Cluster& cluster() const;

  // --- Objects (the operator's hand; see above) ---
  std::vector<api::ObjectPtr> apply_yaml(std::string_view yaml);
  api::ObjectPtr apply(nlohmann::json object);
  void crd_file(const std::string& path);
  api::Result<api::ObjectPtr> get(const api::GroupVersionResource& resource, std::string_view ns,
                                  std::string_view name) const;
  // Objects of `resource` in `ns` ("" = all namespaces), in key order. Throws
  // std::invalid_argument naming the resource when the server does not serve it (a typo would
  // otherwise read as "no objects").
  std::vector<api::ObjectPtr> list(const api::GroupVersionResource& resource, std::string_view ns = {}) const;
  // A JSON merge patch (RFC 7386); `subresource` "status" patches /status.
  api::Result<api::ObjectPtr> patch(const api::GroupVersionResource& resource, std::string_view ns,
                                    std::string_view name, const nlohmann::json& merge_patch,
                                    std::string_view subresource = {});
  // The same with the merge patch as YAML or JSON text ("{spec: {replicas: 1}}"); text that is
  // not a YAML or JSON object is a 400 BadRequest naming what is wrong, and changes nothing.
  api::Result<api::ObjectPtr> patch_yaml(const api::GroupVersionResource& resource, std::string_view ns,
                                         std::string_view name, std::string_view merge_patch,
                                         std::string_view subresource = {});
  api::Result<api::ObjectPtr> remove(const api::GroupVersionResource& resource, std::string_view ns,
                                     std::string_view name);

  // --- Controllers and processes ---
  // Starts `replicas` processes running `setup`'s controllers; returns their names. Throws
  // std::invalid_argument for an empty or already used group name or replicas < 1.
  std::vector<std::string> run_controller(std::string group, SetupFn setup, Replicas replicas = Replicas(1),
                                          std::optional<LeaderElection> election = std::nullopt);
  // The replica leading `lock` ("" = the only lock there is) now, or nullopt.
  std::optional<std::string> leader(std::string_view lock = {}) const;
  // Every replica leading `lock` now ("" = any lock), in the order made; two or more for one lock
  // is a split brain (AtMostOneLeader).
  std::vector<std::string> leaders(std::string_view lock = {}) const;
  // The Lease locks of the controller groups under election ("<ns>/<name>"), in the order made.
  std::vector<std::string> locks() const;
  // Every process name, in the order made.
  std::vector<std::string> processes() const;
  // These throw std::invalid_argument naming an unknown process.
  sim::Process& process(std::string_view name);
  // Kills the process now; restarts it after `restart_after` when given, unless it was restarted
  // (and maybe crashed again) in the meantime.
  void crash(std::string_view process, std::optional<sim::Duration> restart_after = std::nullopt);
  void restart(std::string_view process);
  // Its requests fail (after the client's partition timeout) and its watches are cut, for `d`.
  void partition(std::string_view process, sim::Duration d);
  // Freezes the process for `d` (a long GC pause, SIGSTOP): none of its coroutines run. A process
  // that is down is not paused.
  void pause(std::string_view process, sim::Duration d);
  // Its clock's wall reading is offset by `skew`; its clocks run at `rate` (1.0 = true time).
  void skew(std::string_view process, sim::Duration skew);
  void drift(std::string_view process, double rate);
  // Latency of one process's link (every process's: ClusterOptions::latency).
  void latency(std::string_view process, sim::Duration base, sim::Duration extra = {});

  // --- Time ---
  void run_for(sim::Duration d);
  // Runs until `condition` holds (checked after every step of the loop that committed a write
  // or changed leadership, and every 100 ms) or `within` passes; true when it holds, and the
  // clock stays where it stopped. A failure of the controllers' coroutines (an exception out of
  // a setup function or a reconcile) is rethrown from here and from run_for, naming the task.
  bool run_until(const Condition& condition, sim::Duration within);

  // --- Checks, faults, calls ---
  // Checks `condition` now, after every committed write and every leadership change (and every
  // call, for a condition that reads calls: CallsAtMost, CallsPerSecond), until the cluster is
  // destroyed. The first time it does not hold the test fails (a non-fatal failure
  // at the line that called always()) with the check's name, why, the seed, the virtual time and
  // the failure context; later breaks of the same check are counted, not reported again.
  void always(std::string name, Condition condition,
              std::source_location where = std::source_location::current());
  // The same, the check named by the condition's description.
  void always(Condition condition, std::source_location where = std::source_location::current());
  // The same check, but a break is only recorded in violations(), never a test failure: for a
  // test that expects a planted bug to be found (EXPECT_FALSE(c.violations().empty())).
  void record_always(std::string name, Condition condition);
  const std::vector<Violation>& violations() const;
  FaultPlan& faults();
  CallLog calls() const;
  // "seed 7, t=12.345s" and the last trace events and calls, for failure messages.
  std::string failure_context() const;
  // ClusterOptions::strict: vacuous checks fail the test.
  bool strict() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

void PrintTo(const SimCluster& cluster, std::ostream* os);  // "SimCluster(seed 7, t=12.345s)"

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_CLUSTER_H_
