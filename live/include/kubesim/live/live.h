// Live mode: a scenario run in real time against real OS processes (`kubesim run --live`).
//
// A live run serves the scenario's cluster over HTTPS on loopback (the same HttpServer as
// `kubesim serve`), gives each replica of an `exec:` process its own identity — a bearer token in
// the run's token file and a kubeconfig of its own (KUBECONFIG), its name in KUBESIM_REPLICA and
// POD_NAME (POD_NAMESPACE is "default") —
// starts the replicas as real processes and applies the timeline at real instants, counted from
// the start of the run:
//   partition   that identity's requests are answered 503 and its watches are cut for the window
//   faults      the server's fault rules; `process:` matches the replica name (its identity)
//   crash       SIGKILL to the replica's process group; it is started again after restartAfter
//   pause       SIGSTOP, then SIGCONT after the window
//   skew/drift  through libfaketime, for programs that read time through the C library; a program
//               that cannot be faked (a Go binary, a static binary) is named at start
//   apiserver restart, compact, workload: as in virtual runs (the workload is in process)
// Replica processes that are not `exec:` run in process, as in virtual runs, on the real clock.
// The checks are the virtual runs' checks, evaluated on the server's state as it changes; for an
// exec replica, leadership is what its lock's record says, as the server sees it (a term from the
// write that names the replica holder to the write that names another, the record's expiry, or
// the replica's death) — weaker than in-process electors, whose belief is known.
//
// Each run writes to OUTPUT/SCENARIO/seed-N/: tokens.csv, NAME/kubeconfig, NAME/stdout,
// NAME/stderr (appended over restarts). A replica whose command cannot be started, or that exits
// before it sends any request, ends the run with an error naming it. At the end, and on SIGINT or
// SIGTERM, every process started is killed (they also die with kubesim: PR_SET_PDEATHSIG).
#ifndef KUBESIM_LIVE_LIVE_H_
#define KUBESIM_LIVE_LIVE_H_

#include <ostream>
#include <string>
#include <vector>

#include "kubesim/runner/driver.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::live {

struct LiveOptions {
  LiveOptions() {}
  std::string output = "kubesim-live";  // the runs' folders go under it
  std::ostream* log = nullptr;          // one line per replica start, exit and kill
};

// What a live run needs that a file alone does not say: errors ("FILE:LINE:COL: …") for commands
// that cannot be found; notes for clocks that cannot be faked (the run goes on without them).
struct LiveCheck {
  std::vector<std::string> errors;
  std::vector<std::string> notes;
};
LiveCheck check_live(const scenarios::Scenario& scenario);

// The run function of live runs (a driver RunFunction): one scenario, one seed, in real time.
// Runs must not overlap (the driver's jobs = 1).
runner::RunFunction live_run_function(LiveOptions options);

}  // namespace kubesim::live

#endif  // KUBESIM_LIVE_LIVE_H_
