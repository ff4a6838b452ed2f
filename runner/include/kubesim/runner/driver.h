// The driver: from the files named on a command line to a RunSet — find the scenario files, parse
// all of them, plan the (scenario, seed) runs, cut the plan into shards, and run a shard's slice
// on one or more threads.
//
// The driver does not know how a seed runs: it is given a RunFunction (run_seed in the command
// line, a deterministic stub in tests) and a LoadFunction (parse_source). Each run gets its own
// RunOptions and shares nothing with the others, so runs may go in parallel; the results are
// gathered in plan order, so nothing the driver returns or reports depends on the number of jobs.
#ifndef KUBESIM_RUNNER_DRIVER_H_
#define KUBESIM_RUNNER_DRIVER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "kubesim/runner/result.h"
#include "kubesim/runner/run_set.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::runner {

using RunFunction = std::function<SeedResult(const scenarios::Scenario&, const scenarios::Registry&,
                                             const RunOptions&)>;
// Parses one file's text (scenarios::parse_source; a stub in tests).
using LoadFunction =
    std::function<scenarios::ParseResult(const scenarios::Source&, const scenarios::Registry&)>;

// --- finding and reading the files ----------------------------------------------------------

struct FileList {
  std::vector<std::string> files;   // each once, in the order given; a directory's sorted
  std::vector<std::string> errors;  // "PATH: no such file or directory", …
  // The files found by listing a directory rather than named (a virtual run skips those of
  // them that need --live, where a named one is an error).
  std::set<std::string> listed;
};
// The scenario files that command-line paths name: a file as it is, "-" (standard input), a
// directory's *.yaml and *.yml files (not its subdirectories), sorted by name.
FileList scenario_files(const std::vector<std::string>& paths);

struct LoadedScenarios {
  std::vector<scenarios::Scenario> scenarios;  // set only when errors is empty
  std::vector<std::string> errors;  // every error of every file, "FILE:LINE:COL: message"
  // The scenarios a virtual run leaves out, and why ("FILE: scenario NAME runs exec processes
  // (process "op"), which only kubesim run --live starts").
  std::vector<std::string> skipped;
};
// Reads each file once (scenarios::read_source), in order.
std::vector<scenarios::Source> read_sources(const std::vector<std::string>& files);
// Parses every source, also after one has failed. Beyond the parser's errors: a source that
// could not be read, an `exec:` process unless `live` ("exec processes run only with --live";
// a file in `listed` — found in a directory — is skipped instead, and said so in `skipped`),
// a `cluster:` object or resource the server refuses (found by creating them on a fresh server,
// as every run starts: FILE:LINE:COL of the object), and a scenario name that an earlier file
// already uses.
LoadedScenarios load_scenarios(const std::vector<scenarios::Source>& sources,
                               const scenarios::Registry& registry, const LoadFunction& load,
                               bool live = false, const std::set<std::string>& listed = {});

// --- the plan --------------------------------------------------------------------------------

struct SeedChoice {
  // --seeds N: seeds 1…N instead of the file's `seeds` (a count N: 1…N; a list: those seeds).
  std::optional<int> seeds;
  std::optional<std::uint64_t> seed;   // --seed S: only S
};

struct PlannedRun {
  std::size_t scenario = 0;  // index into Plan::scenarios
  std::uint64_t seed = 0;
  bool operator==(const PlannedRun&) const = default;
};

struct Plan {
  std::vector<scenarios::Scenario> scenarios;
  std::vector<std::vector<std::uint64_t>> seeds;  // each scenario's seeds in the whole run
  Shard shard;
  std::vector<PlannedRun> runs;  // this shard's slice, in (scenario, seed) order
};

// The runs of shard K of N: the whole run's (scenario, seed) pairs in order, numbered from 0,
// and shard K takes those whose number is K modulo N. Every shard gets the same number of runs
// give or take one, each scenario's seeds spread over all shards (an expensive scenario is not
// one shard's burden), and the shards' union is the whole run, each pair once.
std::vector<PlannedRun> shard_slice(const std::vector<std::vector<std::uint64_t>>& seeds,
                                    Shard shard);

Plan make_plan(std::vector<scenarios::Scenario> scenarios, const SeedChoice& choice, Shard shard);

// --- running ---------------------------------------------------------------------------------

struct DriverOptions {
  int jobs = 1;  // threads running seeds; 1 runs them on the calling thread
  bool strict = false;  // RunOptions::strict for every run
  // After the others, rerun each scenario's report seed (report_seed_index, run_set.h) with
  // RunOptions::timeline, and keep the timeline in its SeedResult.
  bool timelines = false;
  // The trace of the plan's only run (the caller checks there is exactly one).
  std::ostream* trace = nullptr;
  std::size_t trace_tail = 20;
  // Called on the calling thread once a scenario's seeds are all in, in scenario order (before
  // the timelines are drawn). Scenarios with no seeds in this shard are passed too.
  std::function<void(const ScenarioRun&)> on_scenario;
  // Called on the calling thread after each seed: seeds done, of total, and how many failed.
  std::function<void(std::size_t done, std::size_t total, std::size_t failed)> on_progress;
  // Read before each run starts (the command line sets it on Ctrl-C): once it is true no further
  // run starts, the runs under way finish and are kept, no timeline is drawn after that, and
  // run_plan returns what finished with RunSet::interrupted set (when some run did not start).
  const std::atomic<bool>* stop = nullptr;
};

// Runs the plan's slice (all of it unless options.stop is set meanwhile: then each scenario has
// the seeds that finished, in plan order, and on_scenario is called for every scenario still
// due). A run function that throws gives a SeedResult whose error says so. A
// seed that broke nothing keeps no trace tail (nothing reads it), so a run's memory grows by only
// a little per seed.
RunSet run_plan(const Plan& plan, const scenarios::Registry& registry, const RunFunction& run,
                const DriverOptions& options);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_DRIVER_H_
