// SimCluster's insides: a cluster::Cluster (the loop, the server, the replicas' processes and
// their faults), the controller groups, the leadership each replica believes it has, the
// always() checks and the trace tail.
//
// The destructor first crashes every process and runs the Loop until every replica's coroutines
// have unwound (teardown()), then destroys the replicas (their managers, factories and clients,
// then their processes) while the fault plan, the groups and the server still exist; the server
// goes before the Loop, the Loop before the trace tail it writes to.
#ifndef KUBESIM_TESTING_INTERNAL_CLUSTER_IMPL_H_
#define KUBESIM_TESTING_INTERNAL_CLUSTER_IMPL_H_

#include <cstdint>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/cluster/cluster.h"
#include "kubesim/cluster/format.h"
#include "kubesim/cluster/trace_tail.h"
#include "kubesim/fakeapi/inprocess_client.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/informer/factory.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {

// A controller group: what run_controller was given.
struct ClusterGroup {
  std::string name;
  SetupFn setup;
  std::optional<LeaderElection> election;  // its name filled in
  std::string lock;                        // "<ns>/<name>", "" without election
  std::size_t lock_id = 0;                 // with election: in the cluster's Leadership
};

// One run of a replica's process: made by the replica's main coroutine, finished when that
// coroutine has awaited everything it started.
struct ClusterIncarnation final : cluster::Incarnation {
  std::unique_ptr<fakeapi::InProcessClient> client;
  std::unique_ptr<informer::SharedInformerFactory> factory;
  std::unique_ptr<Manager> manager;  // declared last: destroyed first
};

// A replica "<group>-<i>" of a controller group.
struct ClusterReplica final : cluster::Replica {
  ClusterGroup* group = nullptr;
  std::optional<std::size_t> term;  // the cluster's term while the current incarnation leads

  bool leading() const { return term.has_value(); }
};

// An always() check.
struct ClusterCheck {
  std::string name;
  Condition condition;
  std::size_t violation = 0;  // index in violations + 1; 0 while it never broke
  bool fail_test = true;      // always(): a break fails the test; record_always(): recorded only
  std::source_location where = std::source_location::current();  // the always() call
  bool seen = false;  // the condition's subject existed at some check
};

struct SimCluster::Impl final : cluster::Observer {
  // The process kind of a controller group's replicas (cluster_processes.cc).
  class ManagerKind final : public cluster::ProcessKind {
   public:
    explicit ManagerKind(Impl& impl) : impl_(&impl) {}
    cluster::Incarnation& begin(cluster::Replica& r) override;
    void build(cluster::Replica& r, cluster::Incarnation& inc) override;
    sim::Task<void> run(cluster::Replica* r, cluster::Incarnation* inc, sim::Context ctx) override;

   private:
    Impl* impl_;
  };

  Impl(SimCluster* self, ClusterOptions options);
  ~Impl() override;

  // Crashes every process and runs the loop until every replica has unwound.
  void teardown();
  // Writes an event to the trace.
  void trace(std::string_view process, std::string_view kind,
             const nlohmann::json& fields = nlohmann::json::object());
  // Rethrows (once) the first failure of the loop's detached work, naming the task.
  void rethrow_failure();
  ClusterReplica& replica(std::string_view name);
  // Every replica, in the order made.
  std::vector<ClusterReplica*> replicas() const;
  bool closing() const { return cluster.closing(); }
  // The fixture's side of the cluster's acts: a crashed or restarted replica's leadership ends
  // with it (its manager's own news of that comes later, when it unwinds); heals are traced.
  void crashed(cluster::Replica& r) override;
  void restarting(cluster::Replica& r, cluster::Restart cause) override;
  void healed(cluster::Replica& r) override;
  void term_started(cluster::Replica& r, std::size_t term) override;
  void term_ended(cluster::Replica& r, std::size_t term) override;

  // After a committed write or a leadership change (the cluster's invariant "SimCluster"): runs
  // the always() checks and marks the state changed for drive().
  void changed();
  // Runs the always() checks (with `calls_only`, those whose conditions read calls).
  void run_checks(bool calls_only = false);
  // From now on, after every logged call, marks calls_dirty and runs the checks that read calls
  // (the cluster's invariant "SimCluster calls", added once).
  void follow_calls();
  // Adds an always() check, or — when its condition can never be judged — records the break now.
  void add_check(ClusterCheck check);
  // At the cluster's end: each always() whose subject never existed held vacuously.
  void report_vacuous();
  // Leadership as the replica's manager reports it (ignored from a past incarnation).
  void on_leadership(ClusterReplica& replica, int incarnation, bool leading);

  // Runs the loop for up to `d`, checking `condition` now, after every loop step that committed
  // a write or changed leadership, and every 100 ms; stops at the first check whose holding is
  // `stop_when_holds`. stopped says whether it did; why is the last check's explanation.
  struct Outcome {
    bool stopped = false;
    std::optional<std::string> why;
  };
  Outcome drive(const Condition& condition, sim::Duration d, bool stop_when_holds);

  // Objects (cluster_objects.cc): one document applied; `where` prefixes a failure's message.
  api::ObjectPtr apply_one(nlohmann::json document, const std::string& where);
  std::vector<api::ObjectPtr> apply_documents(std::string_view yaml, const std::string& what);

  SimCluster* self;
  ClusterOptions options;
  cluster::TraceTail tail;
  std::unique_ptr<std::ofstream> trace_file;  // a seeded test's trace, when asked
  cluster::Cluster cluster;
  sim::Loop& loop;
  fakeapi::ApiServer& server;
  FaultPlan fault_plan;
  std::vector<std::unique_ptr<ClusterGroup>> groups;
  ManagerKind kind{*this};
  std::vector<ClusterCheck> checks;
  std::vector<Violation> violations;
  std::exception_ptr failure;  // the first failure of detached work, not yet rethrown
  bool dirty = false;          // a write or leadership change since drive() last checked
  bool calls_dirty = false;    // with follow_calls: a call since drive() last checked
  bool following_calls = false;  // follow_calls was called
  bool checking = false;       // run_checks is running (a check must not re-enter it)
};


}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_INTERNAL_CLUSTER_IMPL_H_
