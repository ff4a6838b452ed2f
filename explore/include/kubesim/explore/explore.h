// explore: search a scenario for a failing run, and shrink the first one found to a minimal
// scenario file (`kubesim explore`, docs/explore.md).
//
// A reference run per explored seed learns each replica's write points; candidates perturb the
// scenario at those points — crash a replica right after its k-th write (crash), coalesce its
// watch events (coalesce), restart it against a lagging view (stale; replicas whose process lists
// at resourceVersion 0, `watchList: false`), random faults within a budget (random), errors
// that recur on one object it writes (recur), a deletion it learns only by re-listing (relist),
// or its first list and watch of one resource failing or slow, at start or after a restart
// (start) — each written into the scenario file as ordinary timeline entries, with its seed
// pinned. A candidate fails when it breaks one of the scenario's checks, or when its end
// state differs from the unperturbed run of the same seed (the differential; `explore:` in the
// file says what to ignore). The first failing candidate, in candidate order, is shrunk and
// written as OUT/NAME.min.yaml, which fails with `PROGRAM run OUT/NAME.min.yaml` by itself; the
// same file without the explorer's entries passes every check on the seeds explored, so that it
// is a regression test (it passes once the bug is fixed).
//
// Deterministic: the candidates, the one found and the file written depend only on the scenario
// file, the registry and the budget in runs — not on jobs, nor on the machine (a budget in time
// stops earlier on a slower machine, never elsewhere).
#ifndef KUBESIM_EXPLORE_EXPLORE_H_
#define KUBESIM_EXPLORE_EXPLORE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kubesim/runner/driver.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/time.h"

namespace kubesim::explore {

struct ExploreOptions {
  std::size_t budget_runs = 1000;  // perturbed runs at most
  std::optional<std::chrono::duration<double>> budget_time;  // wall time at most, when set
  int jobs = 1;                    // runs at once, on this many threads
  std::optional<int> seeds;        // explore only the file's first N seeds
  std::string out_dir = ".";       // where NAME.min.yaml goes
  std::string program = "kubesim";  // for the replay command
  runner::RunFunction run;                 // run_seed when empty
  std::size_t shrink_runs = 300;   // shrink candidates tried at most (each may run every seed once more)
  // Called after each batch of runs: runs done, of the budget, and whether one failed.
  std::function<void(std::size_t done, std::size_t budget, bool found)> on_progress;
};

// One row of the table: a perturbation family and what it tried.
struct FamilyTally {
  std::string family;     // "crash", "coalesce", "stale", "random", "recur", "relist", "start"
  std::size_t points = 0;  // distinct points (or faults) tried
  std::size_t runs = 0;
  std::size_t failures = 0;
  std::string note;       // why the family was not tried, when it was not
};

struct ExploreFinding {
  std::uint64_t seed = 0;
  std::string family;        // "" when the unperturbed run itself fails
  std::string perturbation;  // the candidate's timeline entries, one line
  std::string check;         // the check broken (the written one for a differential failure)
  std::string detail;        // what broke it (for the differential: the first differences)
  sim::Time at{};            // when it broke
  std::size_t runs_to_find = 0;    // runs up to it, reference runs included, in candidate order
  double seconds_to_find = 0;
  std::size_t shrink_runs = 0;      // runs the shrink made: candidates, and their files without the explorer's entries
  std::string shrink_error;        // the shrinker failed: the file is the candidate as found
  std::size_t entries_before = 0;  // scenario_entries of the candidate
  std::size_t entries = 0;         // of the shrunk file
  std::string min_file;            // OUT/NAME.min.yaml
  bool replays = false;            // `run` on min_file fails the same way
  double replay_seconds = 0;
  std::string replay_command;      // PROGRAM run OUT/NAME.min.yaml
};

struct ExploreReport {
  std::string scenario;  // its name
  std::vector<std::uint64_t> seeds;
  std::size_t reference_runs = 0;
  std::size_t runs = 0;  // perturbed runs judged, in candidate order (not counting shrinking)
  double seconds = 0;
  bool time_ran_out = false;
  std::vector<FamilyTally> families;
  std::optional<ExploreFinding> found;
  std::vector<std::string> errors;  // bad input: nothing ran
};

// Explores the scenario file at `path`.
ExploreReport explore(const std::string& path, const scenarios::Registry& registry,
                      const ExploreOptions& options);

// The report as people read it (stdout): what was found, then the table.
void print_explore_report(const ExploreReport& report, std::ostream& out);

}  // namespace kubesim::explore

#endif  // KUBESIM_EXPLORE_EXPLORE_H_
