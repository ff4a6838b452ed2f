// The verdict of each scenario and the text `kubesim run` and `kubesim merge` print on stdout:
// one line per scenario, the first failing seed of each failing scenario, and the closing line
// "N passed, M failed".
//
//   PASS leader-failover (20 seeds)
//   PASS drift-beyond-lease: found atMostOneLeader in 7 of 20 seeds
//   FAIL mirror-under-faults: 3 of 20 seeds broke checks
//     scenario mirror-under-faults (library/mirror.yaml), seed 4
//     broke library/mirror.yaml:40:7: {after: 5m, within: 1m, informersConverged: true}
//     at 6m0s of virtual time
//       …the values that broke it…
//     last trace lines before it:
//       …
//     replay: kubesim run library/mirror.yaml --seed 4
//   2 passed, 1 failed
//
// A mustFind scenario whose shard found nothing is UNDECIDED in that shard: only the merged
// shards can say whether some seed found it.
#ifndef KUBESIM_REPORT_SUMMARY_H_
#define KUBESIM_REPORT_SUMMARY_H_

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kubesim/runner/run_set.h"

namespace kubesim::report {

enum class Verdict {
  kPass,
  kFail,
  kUndecided,  // a mustFind scenario that found nothing in one shard of several
  kNotRun,     // no seed of the scenario fell in this shard
};

Verdict verdict(const runner::ScenarioRun& run, const runner::Shard& shard);

// The seed a failing scenario is explained by: the first that failed (seed_failed); nullopt when
// none did (a passing scenario, or a mustFind scenario that found nothing).
std::optional<std::size_t> first_failing_seed(const runner::ScenarioResult& result);

// The first failure that counts against the seed (for a mustFind scenario, the first of a check
// it does not list), or null.
const runner::Failure* counting_failure(const runner::ScenarioResult& result,
                                        const runner::SeedResult& seed);

// The checks that held vacuously in some seed (SeedResult::vacuous), one per check in file
// order: the first seed's record of it and in how many seeds it was vacuous.
struct VacuousCheck {
  const runner::Vacuous* first = nullptr;
  std::size_t seeds = 0;
};
std::vector<VacuousCheck> vacuous_checks(const runner::ScenarioResult& result);

// The scenario's line ("PASS name (20 seeds)", …), without a newline; a scenario with vacuous
// checks or a workload says so ("PASS name (20 seeds, 1 check vacuous, workload: 400 written)").
std::string verdict_line(const runner::ScenarioRun& run, const runner::Shard& shard);

// What went wrong in one seed, indented by `indent`: the scenario and seed, the first broken
// check that counts against it (or the run's error) with FILE:LINE:COL, its virtual time, the
// values that broke it, other broken checks, the trace tail and the replay command.
void print_seed_failure(const runner::ScenarioResult& result, const runner::SeedResult& seed,
                        const std::string& program, std::ostream& out,
                        const std::string& indent = "  ");

// The scenario's line, a line per vacuous check ("  vacuous FILE:LINE:COL: CHECK: WHY (3 of 20
// seeds; …)") and, when it fails, why.
void print_scenario(const runner::ScenarioRun& run, const runner::RunSet& set, std::ostream& out);

struct Tally {
  int passed = 0;
  int failed = 0;
  int undecided = 0;
};
Tally tally(const runner::RunSet& set);
// "N passed, M failed" (", K undecided" when some are).
std::string closing_line(const Tally& tally);
// 0 when nothing failed, else 1.
int exit_code(const Tally& tally);

// Every scenario's lines and the closing line; returns exit_code.
int print_summary(const runner::RunSet& set, std::ostream& out);

}  // namespace kubesim::report

#endif  // KUBESIM_REPORT_SUMMARY_H_
