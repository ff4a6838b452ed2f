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
#ifndef KUBESIM_RUNNER_RUNNER_H_
#define KUBESIM_RUNNER_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/fakeapi/recorder.h"

#include "kubesim/runner/result.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::runner {

// What a run hands back beyond its SeedResult when asked (`kubesim explore` learns from it):
// filled at the scenario's end, before anything is torn down.
struct RunCapture {
  // Every request the front door served, in the order answers left the server (the recorder's
  // log: the oldest are dropped past its capacity, `calls_dropped` counts them).
  std::vector<fakeapi::RecordedCall> calls;
  std::uint64_t calls_dropped = 0;
  // Every object on the server at the end, by resource (each group/resource once, at its storage
  // version), namespace and name.
  struct Object {
    api::GroupVersionResource resource;
    nlohmann::json object;
  };
  std::vector<Object> objects;
  // Every name the server made from a generateName during the run (objects deleted since
  // included), with its prefix, in the order made.
  std::vector<std::pair<std::string, std::string>> generated_names;
  // Every item a replica's controllers finished processing, in the order they finished: the
  // replica and the item's work duration in seconds on the replica's clock (client-go's
  // workqueue_work_duration_seconds, from its get to its done).
  std::vector<std::pair<std::string, double>> work;
};

struct RunOptions {
  RunOptions() {}
  std::uint64_t seed = 1;
  // The run's trace as JSON lines, with a last line {"traceHash": "…"}; null: not written (the
  // hash is still computed).
  std::ostream* trace = nullptr;
  // Collect the timeline picture's data (SeedResult::timeline). Each queue-depth sample is read
  // at a whole second of the run (1 s, 2 s, … up to the end) once all the work of that instant
  // has run, for every replica whose process is up and runs a controller.
  bool timeline = false;
  // How many trace lines before the first failure a SeedResult keeps.
  std::size_t trace_tail = 20;
  // Filled when set (off by default: a run pays nothing for it).
  RunCapture* capture = nullptr;
  // A check that held vacuously (SeedResult::vacuous) is a failure of condition "vacuous"
  // (`kubesim run --strict`).
  bool strict = false;
  // Neither `trace`, `timeline`, `trace_tail` nor `capture` changes the run: they schedule
  // nothing on its Loop and draw nothing from its seed, so the trace hash is the same with or
  // without them, and `kubesim run FILE --seed N` replays what a report or an experiment showed.
};

// Runs `scenario` with `options.seed`. The scenario must come from the parser with the same
// registry (its controller types resolve). Never throws for what a run finds: a component's
// exception is SeedResult::error.
SeedResult run_seed(const scenarios::Scenario& scenario, const scenarios::Registry& registry,
                    const RunOptions& options);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_RUNNER_H_
