// Cluster: one simulated cluster — the virtual-time Loop, the fake API server, and the processes
// that talk to it (each a sim::Process with its clock and its own network link), with the
// faults a test or a scenario applies to them and a teardown in a safe order. The fixture
// (kubesim/testing/cluster.h) and the scenario runner are both built on it.
//
//   cluster::Cluster c({.loop = {.seed = 7}});
//   for (cluster::Replica* r : c.add_group("manager", 2, 1ms, 4ms, my_kind)) c.start(*r);
//   c.crash(*c.find("manager-0"), 5s);  // down now, restarted 5 s later
//   c.loop().run_for(1min);
//   c.teardown();
//
// A group is a set of replicas "<name>-0", "<name>-1", … of one ProcessKind: what runs in each
// incarnation of their processes (a Manager filled by a setup function, a scenario's electors and
// controllers, a real program in live mode). The cluster's main begins the incarnation, traces
// "replica.start", has the kind build it and run it, and marks it finished once everything it
// started has ended; teardown() waits for that. A process may also run a main of the caller's
// (add_replica, then Process::start), which must do the same. Callers may derive their own
// Replica and Incarnation types to hold what they need.
//
// Deferred acts follow one rule: a restart scheduled by crash(r, after) or exit() happens only if
// the cluster is not closing and the replica is still in the incarnation (and the state) it was
// in when the act was scheduled, so a later restart or crash always wins over an older timer.
// The Observer hears of each act at fixed points, to trace it or draw it; the Cluster writes no
// trace lines of its own beyond what sim::Process writes and the leader.start/leader.end lines of
// the terms it is told of.
//
// Leadership: whoever runs a leader election in a process tells the cluster when a term starts
// and ends (start_term, end_term); the cluster keeps the record (Leadership), traces the term,
// tells the Observer, and checks the invariants on those locks. Invariants (invariant.h) are also
// checked after every committed write they depend on.
#ifndef KUBESIM_CLUSTER_CLUSTER_H_
#define KUBESIM_CLUSTER_CLUSTER_H_

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/cluster/calls.h"
#include "kubesim/cluster/invariant.h"
#include "kubesim/cluster/leadership.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/network_link.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/time.h"

namespace kubesim::cluster {

struct Options {
  sim::LoopOptions loop;
  fakeapi::ServerOptions server;
};

class ProcessKind;

// One run of a replica's process, from its main's start until everything that run started has
// ended (`finished`, set by the main). Derive from it to keep what the run made.
struct Incarnation {
  Incarnation() = default;
  Incarnation(const Incarnation&) = delete;
  Incarnation& operator=(const Incarnation&) = delete;
  virtual ~Incarnation() = default;

  int number = 0;  // the process's incarnation (0 for the first run)
  bool finished = false;
};

// A process of the cluster. Derive from it to keep per-process state; the cluster owns it.
struct Replica {
  Replica() = default;
  Replica(const Replica&) = delete;
  Replica& operator=(const Replica&) = delete;
  virtual ~Replica() = default;

  std::size_t index = 0;  // in the order added
  std::string name;
  std::unique_ptr<sim::Process> process;
  std::shared_ptr<sim::NetworkLink> link;
  // The last is the current one; declared after `process` so that they go first.
  std::vector<std::unique_ptr<Incarnation>> incarnations;
  sim::Time partitioned_until{};  // the end of the latest partition
  ProcessKind* kind = nullptr;    // in a group: what runs in it

  // Drops the finished incarnations and begins a new one, numbered as the process's current
  // incarnation: call it first thing in the process's main.
  template <class T = Incarnation, class... Args>
  T& begin_incarnation(Args&&... args) {
    std::erase_if(incarnations, [](const std::unique_ptr<Incarnation>& inc) { return inc->finished; });
    auto made = std::make_unique<T>(std::forward<Args>(args)...);
    made->number = process->incarnation();
    T& out = *made;
    incarnations.push_back(std::move(made));
    return out;
  }
  // True when every incarnation has finished.
  bool unwound() const;
};

// What runs in each incarnation of a group's replicas.
class ProcessKind {
 public:
  virtual ~ProcessKind() = default;
  // Begins the incarnation: r.begin_incarnation<T>(…) with the kind's own Incarnation type.
  virtual Incarnation& begin(Replica& r) = 0;
  // Makes what the incarnation runs (clients, informers, controllers); an exception fails the
  // start, and nothing of it was started.
  virtual void build(Replica& r, Incarnation& inc) = 0;
  // Runs it until `ctx` is done and everything it started has ended.
  virtual sim::Task<void> run(Replica* r, Incarnation* inc, sim::Context ctx) = 0;
};

struct Group {
  std::string name;
  ProcessKind* kind = nullptr;
  std::vector<Replica*> replicas;  // in index order
};

// What restarted a process.
enum class Restart {
  kAfterCrash,  // crash(r, after): `after` later
  kAfterExit,   // exit(): its main gave up on its own (a lost leader election), or its program ended
  kByCall,      // restart()
};

// Hears of the cluster's acts at fixed points. Every hook is optional.
class Observer {
 public:
  virtual ~Observer() = default;
  // After crash() crashed the process (its contexts are already done).
  virtual void crashed(Replica&) {}
  // Around a restart: before the old incarnation is crashed, and after the new one started.
  virtual void restarting(Replica&, Restart) {}
  virtual void restarted(Replica&, Restart) {}
  // After a partition ended and the link healed.
  virtual void healed(Replica&) {}
  // After a term was recorded and traced, before the invariants on its locks are checked.
  virtual void term_started(Replica&, std::size_t /*term*/) {}
  virtual void term_ended(Replica&, std::size_t /*term*/) {}
};

struct TeardownOptions {
  int slices = 3000;  // how many times the loop may run a slice for everything to unwind
  sim::Duration slice = std::chrono::milliseconds(100);
};

class Cluster {
 public:
  explicit Cluster(Options options = {});
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;
  // Destroys the replicas (their incarnations first), then the server, then the Loop. Call
  // teardown() before, or nothing may still run.
  ~Cluster();

  sim::Loop& loop() { return loop_; }
  const sim::Loop& loop() const { return loop_; }
  fakeapi::ApiServer& server() { return server_; }
  const fakeapi::ApiServer& server() const { return server_; }
  // Set by teardown(): nothing the cluster scheduled acts any more, and callers' deferred work
  // should check it too.
  bool closing() const { return closing_; }
  // Not owned; null for none.
  void set_observer(Observer* observer) { observer_ = observer; }
  // Writes an event to the Loop's trace when it is on.
  void trace(std::string_view process, std::string_view kind,
             const nlohmann::json& fields = nlohmann::json::object());

  // Adds a process named `name` (not started) with its own link of latency base + a uniform draw
  // in [0, extra). R derives from Replica; `args` go to its constructor.
  template <class R = Replica, class... Args>
  R& add_replica(std::string name, sim::Duration base, sim::Duration extra, Args&&... args) {
    auto made = std::make_unique<R>(std::forward<Args>(args)...);
    R& out = *made;
    adopt(made.release(), std::move(name), base, extra);
    return out;
  }
  // Adds a group of `replicas` processes "<name>-<i>" of `kind` (not started), each with its own
  // link; R derives from Replica. `kind` must outlive the cluster's Loop runs.
  template <class R = Replica>
  std::vector<R*> add_group(std::string name, int replicas, sim::Duration base, sim::Duration extra,
                            ProcessKind& kind) {
    std::vector<R*> out;
    Group group{name, &kind, {}};
    for (int i = 0; i < replicas; ++i) {
      R& r = add_replica<R>(name + "-" + std::to_string(i), base, extra);
      r.kind = &kind;
      out.push_back(&r);
      group.replicas.push_back(&r);
    }
    groups_.push_back(std::move(group));
    return out;
  }
  // Starts a replica of a group: its process runs the cluster's main (see above) now and after
  // every restart.
  void start(Replica& r);
  Replica* find(std::string_view name) const;
  const Group* find_group(std::string_view name) const;
  const std::vector<std::unique_ptr<Replica>>& replicas() const { return replicas_; }
  const std::vector<Group>& groups() const { return groups_; }
  // Every call that went through the server's front door, as the recorder logged it (live).
  CallLog calls() const { return CallLog(server_.recorder()); }

  // --- Faults ---
  // Kills the process now (a no-op when it is down); with `restart_after`, restarts it that much
  // later unless it was restarted (or is closing) by then. `cause` is what the Observer hears of
  // that restart: kAfterExit when the process ended on its own and is brought back after a delay
  // (a real program that exited, in live mode).
  void crash(Replica& r, std::optional<sim::Duration> restart_after = std::nullopt,
             Restart cause = Restart::kAfterCrash);
  // Starts a new incarnation now, crashing the current one first if it is alive.
  void restart(Replica& r);
  // The process's main gave up in incarnation `incarnation` (a lost leader election): restarts
  // it once the Loop next runs, if it is still up and in that incarnation.
  void exit(Replica& r, int incarnation);
  // Cuts the process's link for `d` (extending a partition under way); true when the link was
  // whole until now. The link heals at the end of the latest partition.
  bool partition(Replica& r, sim::Duration d);
  // Freezes the process for `d` (sim::Process::pause); false, doing nothing, when it is down.
  bool pause(Replica& r, sim::Duration d);
  // The process's clock: a step of its wall reading, an offset from true time, a rate (> 0).
  void step_clock(Replica& r, sim::Duration by);
  void set_clock_offset(Replica& r, sim::Duration offset);
  void set_clock_rate(Replica& r, double rate);
  void set_latency(Replica& r, sim::Duration base, sim::Duration extra);

  // --- Leadership and invariants ---
  Leadership& leadership() { return leadership_; }
  const Leadership& leadership() const { return leadership_; }
  // `r` believes it leads `locks` (Leadership ids) from now: the term is recorded, traced as
  // "leader.start" with `fields` under r's name, told to the Observer, then the invariants on
  // those locks are checked. Returns the term's id.
  std::size_t start_term(Replica& r, const std::vector<std::size_t>& locks,
                         const nlohmann::json& fields = nlohmann::json::object());
  // The term ends now: recorded, traced as "leader.end" with `fields`, told, checked. A term
  // that already ended is left alone.
  void end_term(std::size_t term, const nlohmann::json& fields = nlohmann::json::object());
  // True while the term lasts.
  bool term_open(std::size_t term) const;
  // Checked from now on, after the writes, terms and calls it depends on (invariant.h).
  void add_invariant(Invariant invariant);

  // --- The end ---
  // Closes the cluster: disables the trace, crashes every process and heals every link, then
  // runs the Loop in slices until every replica has unwound and `also_unwound` (when given)
  // holds. True when they did; otherwise some coroutine never ended and the objects it may still
  // touch must not be destroyed. Failures the Loop reports meanwhile are ignored.
  bool teardown(TeardownOptions options = {}, const std::function<bool()>& also_unwound = {});
  // Every replica has unwound.
  bool unwound() const;
  // After teardown(): destroys every replica now and lets the Loop run for `settle` (not at all
  // when zero), so that deliveries still due to them end while the server they read exists.
  void destroy_replicas(sim::Duration settle = std::chrono::seconds(1));

 private:
  void adopt(Replica* replica, std::string name, sim::Duration base, sim::Duration extra);
  void restart_now(Replica& r, Restart cause);
  void check_write(const fakeapi::CommittedWrite& write);
  void check_call(const fakeapi::RecordedCall& call);
  static sim::Task<void> replica_main(Cluster* cluster, Replica* r, sim::Context ctx);
  void check_locks(const std::vector<std::size_t>& locks);

  sim::Loop loop_;
  fakeapi::ApiServer server_;
  Observer* observer_ = nullptr;
  Leadership leadership_;
  std::vector<Replica*> term_replicas_;  // per term id
  std::vector<bool> term_ended_;          // per term id
  std::vector<Invariant> invariants_;
  std::vector<Group> groups_;
  bool listening_ = false;  // the write listener is installed
  bool listening_calls_ = false;  // the recorder's listener is installed (an invariant on calls)
  std::vector<std::unique_ptr<Replica>> replicas_;  // declared last: destroyed first
  bool closing_ = false;
};

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_CLUSTER_H_
