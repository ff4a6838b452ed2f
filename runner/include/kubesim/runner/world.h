// World: everything one run of a scenario builds on its own Loop — the API server, the replicas
// of every process (each a sim::Process with its clock and network link, and per incarnation a
// fresh client, informer factories, electors and controllers), the workload process, the
// leadership record, the checks and the timeline picture.
//
// The loop, the server and the processes (replicas and the workload) are a cluster::Cluster's,
// which applies the timeline's process faults and tears everything down in a safe order.
//
// Life of a World: construct (loop, server, trace), setup() (the cluster's resources and objects
// at t=0, the replicas, the checks, the timeline), start() (every process), run_until() the
// scenario's end, finish the checks, then teardown(): every process is crashed and the Loop
// runs until every coroutine the run started has unwound, so that the World's members can be
// destroyed in reverse order (clients, factories and processes before the server, the server
// before the Loop). After teardown nothing the run scheduled acts any more (`closing`).
#ifndef KUBESIM_RUNNER_WORLD_H_
#define KUBESIM_RUNNER_WORLD_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/cluster/cluster.h"
#include "kubesim/cluster/leadership.h"
#include "kubesim/election/leader_elector.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/factory.h"
#include "kubesim/runner/picture.h"
#include "kubesim/runner/result.h"
#include "kubesim/runner/runner.h"
#include "kubesim/runner/workload.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/sim/wait_group.h"
#include "kubesim/sim/wait_list.h"
#include "kubesim/workqueue/metrics.h"

namespace kubesim::runner {

class Checker;
class RunFilter;
struct World;
struct Replica;

// The client an informer factory is given: forwards every call to the replica's client and
// remembers the resources the factory's informers list or watch, so that informersConverged
// finds informers that controllers asked for too.
class FactoryClient final : public api::Client {
 public:
  explicit FactoryClient(api::Client& inner) : inner_(&inner) {}
  const std::vector<api::GroupVersionResource>& resources() const { return resources_; }

  sim::Task<api::Response> send(sim::Context ctx, api::Request request) override;

 private:
  void saw(const api::GroupVersionResource& resource);

  api::Client* inner_;
  std::vector<api::GroupVersionResource> resources_;  // in the order first seen
};

// One informer factory of an incarnation: all namespaces, or one namespace.
struct InformerFactory {
  std::string ns;  // "" for all namespaces
  std::unique_ptr<FactoryClient> client;
  std::unique_ptr<informer::SharedInformerFactory> factory;
  std::vector<api::GroupVersionResource> declared;  // the `informer:` entries it serves
  // declared, then the resources its informers asked the server for.
  std::vector<api::GroupVersionResource> resources() const;
};

// One leadership term of one elector: linked to the leading context, it ends the term the
// instant that context is done (synchronously, before any coroutine resumes).
struct LeaderTerm final : sim::WaitNode {
  World* world = nullptr;
  Replica* replica = nullptr;
  std::size_t id = 0;  // the cluster's term
  void fire() override;
};

// What one run of a replica's process (one incarnation) made. Everything here outlives the
// incarnation's coroutines: the replica's main coroutine waits for all of them before it sets
// `finished`.
struct Incarnation final : cluster::Incarnation {
  explicit Incarnation(sim::Loop& loop) : group(loop), leading(loop) {}

  std::unique_ptr<fakeapi::InProcessClient> client;
  std::vector<InformerFactory> factories;  // [0] all namespaces, then one per namespace
  std::vector<std::unique_ptr<election::LeaderElector>> electors;  // per Replica::electors
  std::vector<std::unique_ptr<scenarios::Controller>> controllers;  // per Replica::controllers
  std::vector<int> running;  // per controller: its runs under way
  std::vector<std::unique_ptr<LeaderTerm>> terms;
  sim::TaskGroup group;    // electors, and controllers that run from the start
  sim::WaitGroup leading;  // the leading tasks still running

  InformerFactory& factory_for(std::string_view ns);
};

// A process's picture lane state: its open spans.
struct ProcessLane {
  std::size_t partition_span = Picture::kNoSpan;
  std::size_t down_span = Picture::kNoSpan;
  std::size_t pause_span = Picture::kNoSpan;
};

// A replica of a scenario process ("manager-0"); its index is in World::replicas too (the
// workload, the cluster's last process, comes after every replica).
struct Replica final : cluster::Replica {
  // Its incarnations go first: their controllers report to `work_metrics`.
  ~Replica() override { incarnations.clear(); }

  const scenarios::ProcessSpec* spec = nullptr;
  std::vector<const scenarios::ElectorSpec*> electors;        // in file order
  std::vector<std::vector<std::size_t>> lock_ids;  // per elector: its Leadership lock ids
  std::vector<const scenarios::ControllerSpec*> controllers;  // in file order
  // When the run captures: where its controllers' queues report (RunCapture::work).
  std::unique_ptr<workqueue::MetricsProvider> work_metrics;
  ProcessLane lane;

  Incarnation* current() const {
    return incarnations.empty() ? nullptr : static_cast<Incarnation*>(incarnations.back().get());
  }
  bool has_controllers() const { return !controllers.empty(); }
};

// The extra process that runs the workload.
struct Workload final : cluster::Replica {
  explicit Workload(sim::Loop& loop) : group(loop) {}
  std::unique_ptr<fakeapi::InProcessClient> client;
  std::vector<std::int64_t> counts;  // per entry: actions so far ({{n}} of the last)
  std::vector<EntryWrites> writes;   // per entry: its actions by outcome
  // Per entry: a create's object as text with {{n}} in it (empty: built as a tree each time).
  std::vector<std::string> create_texts;
  std::vector<std::unique_ptr<PickIndex>> picks;  // one per resource and namespace picked from
  std::vector<PickIndex*> entry_picks;            // per entry: its index (null for a create)
  sim::TaskGroup group;              // entries and their actions
  ProcessLane lane;
};

// A fault rule limited by `count`, whose picture span ends where the rule ran out.
struct CountedFault {
  std::size_t span = 0;  // the Picture span
  std::string rule;      // the rule's id
  std::int64_t count = 0;
  sim::Time until{};     // its window's end (or the run's)
};

struct World final : cluster::Observer {
  World(const scenarios::Scenario& scenario, const scenarios::Registry& registry,
        const RunOptions& options, std::ostream* trace_sink);
  // Live mode (kubesim/live/live.h): the loop follows the real clock (`loop` in kReal
  // mode), and each replica of an `exec:` process is a stand-in sim::Process of `exec_kind`
  // (which starts the real program and kills it when the stand-in crashes).
  World(const scenarios::Scenario& scenario, const scenarios::Registry& registry,
        const RunOptions& options, std::ostream* trace_sink, const sim::LoopOptions& loop);
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World() override;

  // Creates the cluster's resources and objects, the replicas, the workload, the checks and the
  // timeline. Throws std::runtime_error naming what failed.
  void setup();
  // Starts every process and the checks.
  void start();
  // Drives the Loop to `deadline` (Loop::run_until). With the picture on, samples the queue
  // depths at each whole second of the run on the way, once all the work of that instant has
  // run, and schedules nothing for it: the Loop runs exactly what it would have run unobserved.
  void run_until(sim::Time deadline);
  // Crashes everything and lets the Loop unwind it; true when every coroutine of the run
  // finished (the World may then be destroyed).
  bool teardown();

  // Writes an event to the trace (when it is on).
  void trace(std::string_view process, std::string_view kind,
             const nlohmann::json& fields = nlohmann::json::object());
  // A replica, or the workload process ("workload"), by name.
  sim::Process* find_process(std::string_view name);
  Replica* find_replica(std::string_view name);
  // The lane state of the process `name` (a replica or the workload), or null.
  ProcessLane* find_lane(std::string_view name);

  // Leadership (run_replica.cc).
  void leader_started(LeaderTerm& term, std::size_t elector);
  void leader_ended(LeaderTerm& term);
  // The timeline's side of the cluster's acts: trace lines, the picture, the checks
  // (run_timeline.cc).
  void restarting(cluster::Replica& r, cluster::Restart cause) override;
  void restarted(cluster::Replica& r, cluster::Restart cause) override;
  void healed(cluster::Replica& r) override;
  // A term's lock lanes on the picture (run_replica.cc).
  void term_started(cluster::Replica& r, std::size_t term) override;
  void term_ended(cluster::Replica& r, std::size_t term) override;
  // Set by teardown: nothing scheduled acts any more.
  bool closing() const { return cluster.closing(); }
  // The picture's timeline once the run stopped at `stopped`: a fault rule limited by `count`
  // drawn until its last injection when it ran out, else to its window's end.
  Timeline finish_picture(sim::Time stopped);

  const scenarios::Scenario& scenario;
  const scenarios::Registry& registry;
  const RunOptions& options;
  cluster::Cluster cluster;  // declared first: its processes outlive everything below
  sim::Loop& loop;
  fakeapi::ApiServer& server;
  sim::Time end{};
  cluster::Leadership& leadership;  // the cluster's
  Picture picture;
  std::vector<CountedFault> counted_faults;  // the picture's spans of count-limited fault rules
  std::unique_ptr<Checker> checker;
  std::shared_ptr<RunFilter> filter;
  std::vector<Replica*> replicas;  // in file order; the cluster's
  Workload* workload = nullptr;    // the cluster's; set when the scenario has a workload
  // The kind of every replica of a process that runs actors (electors, controllers, informers).
  std::unique_ptr<cluster::ProcessKind> actors;
  // Live mode: the kind of every replica of an `exec:` process; unset, such a process is refused.
  cluster::ProcessKind* exec_kind = nullptr;

 private:
  void make_cluster();
  void make_replicas();
  void make_lanes();
  void sample_queues();

  std::optional<sim::Time> next_sample_;  // the picture's next queue-depth sample
  std::vector<std::vector<std::size_t>> term_spans_;  // per cluster term: its picture spans
};

sim::LoopOptions loop_options(const scenarios::Scenario& scenario, std::uint64_t seed);
fakeapi::ServerOptions server_options(const scenarios::ClusterSpec& cluster);

// The first thing of a scenario's `cluster:` the server refuses — a CustomResourceDefinition made
// from `resources`, or one of `objects` — where it is in the file, and the server's answer
// ("cluster.objects[1] (ConfigMap default/a): …").
struct ClusterRefusal {
  scenarios::Mark mark;
  std::string message;
};
// Creates the cluster's CRDs and objects on `server`, in order, up to the first refusal.
std::optional<ClusterRefusal> create_cluster(fakeapi::ApiServer& server, const scenarios::ClusterSpec& cluster);
// The same on a fresh server of its own — what a run would meet at its start, known at load —
// and then every check that could never see what it names: a match or noMatch of a kind the
// server does not serve, a field (a match's keys, an object check's path) that the kind's schema
// does not have (kubesim/fakeapi/field_paths.h). Empty when there is nothing to refuse.
std::vector<ClusterRefusal> dry_run_cluster(const scenarios::Scenario& scenario);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_WORLD_H_
