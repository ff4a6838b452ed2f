// run_seed: one scenario, one seed, on its own Loop and virtual clock.
//
// The runner builds the cluster (a fake API server with the scenario's resources and objects),
// starts every process's replicas (each with its own clock, network link, in-process client and
// shared informer factory, running its electors, informers and controllers), drives the
// workload and the timeline, and checks the expectations: `always` after every committed write
// and every change of leadership, `eventually` and `consistently` over their windows, `finally`
// at the end. Everything it does is a function of the scenario and the seed: the same pair gives
// the same trace, byte for byte, on any machine and whatever else runs beside it.
//
// Runs share nothing: several may run at once on different threads, each on its own Loop.
#ifndef KUBESIM_SCENARIOS_RUNNER_H_
#define KUBESIM_SCENARIOS_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "kubesim/scenarios/registry.h"
#include "kubesim/scenarios/result.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::scenarios {

struct RunOptions {
  RunOptions() {}
  std::uint64_t seed = 1;
  // The run's trace as JSON lines, with a last line {"traceHash": "…"}; null: not written (the
  // hash is still computed).
  std::ostream* trace = nullptr;
  // Collect the timeline picture's data (SeedResult::timeline).
  bool timeline = false;
  // How many trace lines before the first failure a SeedResult keeps.
  std::size_t trace_tail = 20;
};

// Runs `scenario` with `options.seed`. The scenario must come from the parser with the same
// registry (its controller types resolve). Never throws for what a run finds: a component's
// exception is SeedResult::error.
SeedResult run_seed(const Scenario& scenario, const Registry& registry, const RunOptions& options);

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_RUNNER_H_
