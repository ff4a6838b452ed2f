// Checker: runs a scenario's checks over the run and records each broken one once, at the first
// virtual instant it broke.
//
//   always        evaluated at the start, after every committed write it depends on, every
//                 leadership change it depends on, every logged call (a calls budget) and
//                 every timeline event;
//   eventually    the same triggers while its window [after, after+within] is open, plus a
//                 probe every 100 ms of virtual time in it (informer caches change without
//                 writes); holds once it held at one of those instants, breaks at the window's
//                 end otherwise;
//   consistently  the same triggers and probes over [after, after+for]; breaks at the first
//                 instant it does not hold;
//   finally       once, at the end.
// A check that held without testing anything is vacuous (runner/result.h): an always,
// consistently or finally whose subject (conditions.h: the objects or the lock it is about) never
// existed in its window, an eventually that held at its first evaluation while its subject did
// not exist. Subjects are looked up when a window opens and followed through the server's
// committed writes, so a run pays a lookup per check, not one per write. A calls budget's own
// cluster::CallBudget takes every call the recorder logs from the start of the run, whatever
// its kind, and its subject is a call of its process on its resource (CallBudget::subject).
// The cluster checks them after writes and terms (each run is a cluster invariant with the
// condition's dependencies); the runner calls on_event after each timeline event.
// A break is traced ("check.break"), marked on the picture and, the first time, reported to the
// first-failure hook (the runner freezes the trace tail there).
#ifndef KUBESIM_RUNNER_CHECKS_H_
#define KUBESIM_RUNNER_CHECKS_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "kubesim/cluster/call_budget.h"
#include "kubesim/cluster/invariant.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/runner/conditions.h"
#include "kubesim/runner/result.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/time.h"

namespace kubesim::runner {

struct World;

inline constexpr sim::Duration kProbeInterval = std::chrono::milliseconds(100);

class Checker {
 public:
  explicit Checker(World& world);
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  // Called before the first break is recorded.
  void set_first_failure_hook(std::function<void()> hook) { first_failure_ = std::move(hook); }

  // At t=0, once the processes are started: evaluates `always`, schedules the windows.
  void begin();
  // After a timeline event: evaluates every check whose window is open.
  void on_event();
  // At the end of the run: windows still open are judged now, then `finally`.
  void finish();

  // Records a break that is no check's own (a refused workload write: runner/workload.h) as
  // the checks' breaks are: traced, marked on the picture, reported to the first-failure hook.
  void fail(Failure failure);

  const std::vector<Failure>& failures() const { return failures_; }
  std::vector<Failure> take_failures() { return std::move(failures_); }
  // After finish: the checks that held vacuously, in file order (empty when strict: then they
  // are failures).
  std::vector<Vacuous> take_vacuous() { return std::move(vacuous_); }

 private:
  struct Run {
    const scenarios::Check* check = nullptr;
    Dependencies deps;
    sim::Time from{}, to{};
    bool open = false;
    bool done = false;  // broke, held (eventually), or its window closed
    bool broke = false;
    std::string last_detail;
    Subject subject;
    bool saw = false;          // an object of the subject existed in the window
    int evaluations = 0;
    std::string vacuous_why;   // an eventually that held at once, by absence
    std::optional<cluster::CallBudget> budget;  // a calls budget's, fed every logged call
  };

  void open_window(std::size_t i);
  void probe(std::size_t i);
  void close_window(std::size_t i);
  void evaluate(std::size_t i);
  // `write`: the committed write this evaluation follows, if any.
  void evaluate(std::size_t i, const fakeapi::CommittedWrite* write);
  void fail(Run& run, std::string detail, sim::Time at);
  void record(Failure failure, const std::string& lane);
  // The cluster's invariant for run i, checked after the writes and terms it depends on.
  void on_trigger(std::size_t i, const cluster::Trigger& trigger);
  bool informers_lag_cached(const fakeapi::CommittedWrite& write);
  bool live(const Run& run) const { return run.open && !run.done; }
  // The subject's objects exist now: the window has seen them.
  void look(Run& run);
  void on_write(const fakeapi::CommittedWrite& write);
  // A call the recorder logged: taken by the budget of run i, and seen if its subject's.
  void on_call(Run& run, const fakeapi::RecordedCall& call);
  // Why run's condition does not hold now, or nullopt.
  std::optional<std::string> judge(Run& run, const fakeapi::CommittedWrite* write);
  // Why run i held vacuously, or "" (at the end of the run).
  std::string vacuity(const Run& run, sim::Time now);

  World* world_;
  std::vector<Run> runs_;
  // informers_lag of the write with this revision (one answer per write for every check).
  std::optional<std::pair<fakeapi::Revision, bool>> lag_;
  std::vector<Failure> failures_;
  std::vector<Vacuous> vacuous_;
  std::function<void()> first_failure_;
};

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_CHECKS_H_
