// SimCluster's insides: the loop, the server, the controller groups and their replicas, the
// leadership record, the always() checks and the trace tail.
//
// Member order is destruction order in reverse: replicas (their managers, factories and clients,
// then their processes) go before the fault plan and the server, the server before the Loop, the
// Loop before the trace tail it writes to. The destructor first crashes every process and runs
// the Loop until every replica's coroutines have unwound (teardown()), so that nothing destroyed
// is still used by a suspended coroutine.
#ifndef KUBESIM_TESTING_INTERNAL_CLUSTER_IMPL_H_
#define KUBESIM_TESTING_INTERNAL_CLUSTER_IMPL_H_

#include <cstdint>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cluster_trace.h"
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
};

// One run of a replica's process: made by the replica's main coroutine, finished when that
// coroutine has awaited everything it started.
struct ClusterIncarnation {
  int number = 0;
  std::unique_ptr<fakeapi::InProcessClient> client;
  std::unique_ptr<informer::SharedInformerFactory> factory;
  std::unique_ptr<Manager> manager;  // declared last: destroyed first
  bool finished = false;
};

struct ClusterReplica {
  std::string name;  // "<group>-<i>"
  ClusterGroup* group = nullptr;
  std::unique_ptr<sim::Process> process;
  std::shared_ptr<sim::NetworkLink> link;
  std::vector<std::unique_ptr<ClusterIncarnation>> incarnations;  // after `process`: destroyed first
  bool leading = false;            // the current incarnation leads group->lock
  sim::Time partitioned_until{};   // the end of the latest partition
};

// An always() check.
struct ClusterCheck {
  std::string name;
  Condition condition;
  std::size_t violation = 0;  // index in violations + 1; 0 while it never broke
  bool fail_test = true;      // always(): a break fails the test; record_always(): recorded only
};

struct SimCluster::Impl {
  Impl(SimCluster* self, ClusterOptions options);
  ~Impl();

  // Crashes every process and runs the loop until every replica has unwound.
  void teardown();
  // Writes an event to the trace.
  void trace(std::string_view process, std::string_view kind,
             const nlohmann::json& fields = nlohmann::json::object());
  // Rethrows (once) the first failure of the loop's detached work, naming the task.
  void rethrow_failure();
  ClusterReplica& replica(std::string_view name);

  // After a committed write or a leadership change: runs the always() checks and marks the
  // state changed for drive().
  void changed();
  void run_checks();
  // Leadership as the replica's manager reports it (ignored from a past incarnation).
  void on_leadership(ClusterReplica& replica, int incarnation, bool leading);
  void start_replica(ClusterReplica& replica);
  // The main coroutine of a replica's process (cluster_processes.cc).
  static sim::Task<void> replica_main(Impl* impl, ClusterReplica* r, sim::Context ctx);
  // Restarts the replica's process after its manager returned on its own (leadership lost),
  // unless it was crashed or restarted since.
  void restart_after_exit(ClusterReplica& replica, int incarnation);

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
  internal::TraceTail tail;
  std::ostream tail_stream;
  std::unique_ptr<std::ofstream> trace_file;  // a seeded test's trace, when asked
  sim::Loop loop;
  fakeapi::ApiServer server;
  FaultPlan fault_plan;
  std::vector<std::unique_ptr<ClusterGroup>> groups;
  std::vector<std::unique_ptr<ClusterReplica>> replicas;  // in the order made
  std::vector<ClusterCheck> checks;
  std::vector<Violation> violations;
  std::uint64_t write_listener = 0;
  std::exception_ptr failure;  // the first failure of detached work, not yet rethrown
  bool dirty = false;          // a write or leadership change since drive() last checked
  bool checking = false;       // run_checks is running (a check must not re-enter it)
  bool closing = false;        // teardown started: nothing scheduled acts any more
};

// "12.345s"
std::string format_time(sim::Time t);
// "2min", "30s", "100ms", "1.5s"
std::string format_duration(sim::Duration d);

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_INTERNAL_CLUSTER_IMPL_H_
