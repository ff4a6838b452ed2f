// RunSet: what one `kubesim run` (or one shard of it, or a merge of shards) found — the results
// of every scenario it ran, with what the whole run covers, in the form every output reads (the
// summary, the --results file, JUnit, the HTML report).
//
// A run of N shards is the same plan cut into N disjoint slices (kubesim/runner/driver.h):
// every shard records the whole plan (each scenario's seeds) beside the seeds it ran, so
// merge_run_sets can tell a complete set of shards from an overlapping, missing or foreign one,
// and the merged RunSet is exactly the one the unsharded run gives.
#ifndef KUBESIM_RUNNER_RUN_SET_H_
#define KUBESIM_RUNNER_RUN_SET_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"
#include "kubesim/runner/result.h"

namespace kubesim::runner {

// The K-th (0 ≤ K < N) of N slices; {0, 1} is the whole run.
struct Shard {
  int index = 0;
  int count = 1;
  bool whole() const { return count == 1; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
  bool operator==(const Shard&) const = default;
};

// Reads "K/N" as the command line writes it; nullopt with `error` set when it is not one.
std::optional<Shard> parse_shard(const std::string& text, std::string& error);

// Whether a seed counts against its scenario: it broke a check (for a mustFind scenario, one the
// scenario does not list) or its run failed.
bool seed_failed(const ScenarioResult& scenario, const SeedResult& seed);
// Whether a seed broke one of a mustFind scenario's listed checks.
bool seed_found(const ScenarioResult& scenario, const SeedResult& seed);

// The seed whose timeline a report draws: the first that broke anything, else the first; nullopt
// when there are no seeds.
std::optional<std::size_t> report_seed_index(const ScenarioResult& result);

struct ScenarioRun {
  // result.seeds: the seeds this run ran, in plan order.
  ScenarioResult result;
  // Every seed of the whole (unsharded) run, in order.
  std::vector<std::uint64_t> planned_seeds;
  // The wall-clock seconds each of result.seeds took (parallel to it); informational, and the
  // only part of a RunSet that differs between two runs of the same plan.
  std::vector<double> wall_seconds;
};

struct RunSet {
  std::string program = "kubesim";  // replay commands start with it
  std::vector<std::string> command;  // the command line that made this set
  Shard shard;
  std::vector<ScenarioRun> scenarios;  // in the order the files were given
  // Set when the run was stopped before its end (Ctrl-C; DriverOptions::stop): how many of this
  // set's planned runs finished. The seeds that did not run are missing from their scenarios.
  struct Interruption {
    std::size_t finished = 0;
    std::size_t planned = 0;
    bool operator==(const Interruption&) const = default;
  };
  std::optional<Interruption> interrupted = std::nullopt;
};

// The --results document:
//   {"kind": "KubesimResults", "version": 1, "program": …, "command": […],
//    "shard": {"index": K, "count": N},
//    "scenarios": [{…to_json(ScenarioResult)…, "plannedSeeds": […], "wallSeconds": […]}],
//    "interrupted": {"finished": F, "planned": P}}   (only for an interrupted run)
nlohmann::json to_json(const RunSet& set);
// The inverse; a malformed document is a BadRequest naming the path of what is wrong.
api::Result<RunSet> run_set_from_json(const nlohmann::json& j);

// Joins the shards of one plan. Every shard must hold the same plan (same scenarios, files and
// planned seeds) and the same shard count, each index once, none interrupted, and no seed twice; a missing shard
// is an error too, since the merged set would not be the whole run. The merged set has
// shard {0, 1}, the shards' program, `command`, and each scenario's seeds in plan order; of the
// timelines the shards drew it keeps the one of each scenario's report seed, which the shard
// holding that seed drew, so the merged set is the unsharded run's.
api::Result<RunSet> merge_run_sets(const std::vector<RunSet>& shards,
                                   std::vector<std::string> command);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_RUN_SET_H_
