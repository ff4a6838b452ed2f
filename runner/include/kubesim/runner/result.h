// SeedResult and ScenarioResult: what one run of a scenario found, as reports read it.
//
// A run (one scenario, one seed) either keeps every check or breaks some: each broken check is
// reported once, at the first virtual instant it broke, with the values that broke it. The
// results convert to and from JSON (the --results file) so shards' results can be merged and
// reported later exactly as if they had run together.
#ifndef KUBESIM_RUNNER_RESULT_H_
#define KUBESIM_RUNNER_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/time.h"

namespace kubesim::runner {

struct Failure {
  std::string check;      // the check as written (Check::text)
  std::string condition;  // its condition's name ("atMostOneLeader")
  scenarios::Mark mark;              // where the file wrote it
  sim::Time at{};         // the virtual instant it broke (for `finally`: the end)
  // The values that broke it, one fact a line: for atMostOneLeader which replicas led, since
  // when, and what their clocks read; for a count both counts; for a match the closest object.
  std::string detail;
};

// A check that held without testing anything: an always, consistently or finally over objects
// none of which existed in its window (or a lock nobody led), or an eventually that held at its
// first instant because what it is about did not exist. Reported, not a failure — unless the
// run is strict (RunOptions::strict), where it is a Failure of condition "vacuous".
struct Vacuous {
  std::string check;      // the check as written
  std::string condition;  // its condition's name
  scenarios::Mark mark;
  std::string why;        // "no configmaps in team existed during [0s, 10m]"

  bool operator==(const Vacuous& o) const {
    return check == o.check && condition == o.condition && mark.line == o.mark.line &&
           mark.column == o.mark.column && why == o.why;
  }
};

// What the report's timeline picture draws (collected only when asked: RunOptions::timeline).
// Lanes are named "lock leases/ns/name", "process manager-0", "apiserver", "queue manager-0".
struct TimelineSpan {
  std::string lane;
  std::string kind;  // "leader", "partition", "down", "pause", "fault"
  std::string label;
  sim::Time from{};
  sim::Time to{};
};
struct TimelineMark {
  std::string lane;
  std::string kind;  // "restart", "compact", "watch-restart", "crash", "skew", "failure"
  std::string label;
  sim::Time at{};
};
// A sample: a replica's queue depth at a whole second, after that instant's work (runner.h).
struct TimelineSample {
  std::string series;  // "queue manager-0"
  sim::Time at{};
  double value = 0;
};
struct Timeline {
  sim::Duration duration{};
  std::vector<std::string> lanes;  // in drawing order
  std::vector<TimelineSpan> spans;
  std::vector<TimelineMark> marks;
  std::vector<TimelineSample> samples;
};

// What one workload entry's actions came to in a run. Each action counts once, under its
// outcome; an action still waiting for its answer when the run ends counts nowhere.
struct EntryWrites {
  std::size_t entry = 0;  // its index in the scenario's `workload`
  std::string verb;       // "create", "update" or "delete"
  std::uint64_t written = 0;  // the server committed it
  // The server refused the request as sent — a 4xx answer with no fault injected: a bad object,
  // a namespace that does not exist, a name taken — or the action could not be made at all (a
  // kind the server does not serve, a `set` path that cannot be set).
  std::uint64_t refused = 0;
  // Not written for a reason outside the entry: an injected fault, a partition, a 5xx or 429,
  // a conflict that outlasted the retries, or the picked object deleted meanwhile.
  std::uint64_t failed = 0;
  std::uint64_t skipped = 0;  // nothing to pick (update, delete)
  // Conflicts answered by reading the object again and writing once more (counted apart: the
  // action itself counts once, under how it ended).
  std::uint64_t retried = 0;
  bool expect_refused = false;  // the entry's `expect: {refused: true}`

  bool operator==(const EntryWrites&) const = default;
};

// The sums of `writes` over entries (and seeds, with add).
struct WriteTotals {
  std::uint64_t written = 0, refused = 0, failed = 0, skipped = 0, retried = 0;
  // Refusals of entries that expect them (part of `refused`).
  std::uint64_t refused_expected = 0;
  bool any = false;  // some entry was counted

  void add(const std::vector<EntryWrites>& writes);
  // "400 written, 12 refused (12 expected), 3 failed, 2 skipped, 5 conflicts retried": written
  // always, the others when not zero.
  std::string text() const;
};

struct SeedResult {
  std::uint64_t seed = 0;
  // Every broken check, each at its first break, in the order they broke.
  std::vector<Failure> failures;
  // The runner itself failed (an exception from a component): counts as a failure.
  std::string error;
  // The last trace lines before the first failure (or the end), oldest first.
  std::vector<std::string> trace_tail;
  std::string trace_hash;  // 16 hex digits
  std::uint64_t trace_events = 0;
  std::uint64_t requests = 0;  // served through the front door
  std::optional<Timeline> timeline;
  // A live run (kubesim run --live): real time and real processes, so the seed does not replay
  // it and its instants are real ones.
  bool live = false;
  // The metrics an experiment's run measured (kubesim/sweep/measure.h), by column in the
  // order `measure:` gives them; nullopt where the run has no value. Empty for other scenarios.
  std::vector<std::pair<std::string, std::optional<double>>> metrics = {};
  // The workload's actions by outcome, one per entry in file order; empty without a workload.
  std::vector<EntryWrites> writes = {};
  // The checks that held vacuously, in file order (none of a strict run: they are failures).
  std::vector<Vacuous> vacuous = {};

  bool broke_any() const { return !failures.empty() || !error.empty(); }
};

struct ScenarioResult {
  std::string file;
  std::string name;
  std::string description;
  std::vector<std::string> must_find;
  std::vector<SeedResult> seeds;  // in seed order
  // A point of an experiment (kubesim/sweep/sweep.h): the experiment's name and each swept
  // parameter with its value, in sweep order. experiment is "" for other scenarios.
  std::string experiment = {};
  std::vector<std::pair<std::string, std::string>> point = {};

  // Without mustFind: no seed broke anything. With it: some seed broke one of the listed
  // checks, no seed broke an unlisted one, and no run failed.
  bool passed() const;
  // Some seed ran live (SeedResult::live).
  bool live() const;
  // The replay command of a seed: "kubesim run FILE --seed N", with `program` for kubesim (a
  // program that gives run_main its command line passes its argv[0]). The program and the file
  // are quoted for a POSIX shell when they need it. For a live scenario, "kubesim run --live
  // FILE --seed N": it runs the same scenario and draws from the same seed, but does not replay.
  std::string replay_command(std::uint64_t seed, std::string_view program = "kubesim") const;
  // The workload's actions by outcome over every seed.
  WriteTotals writes() const;
};

nlohmann::json to_json(const SeedResult& result);
nlohmann::json to_json(const ScenarioResult& result);
// The inverse of to_json: exactly the result that was written. A malformed document is a
// BadRequest Status naming the path of what is wrong ("seeds[2].seed: expected an unsigned
// integer").
api::Result<SeedResult> seed_result_from_json(const nlohmann::json& j);
api::Result<ScenarioResult> scenario_result_from_json(const nlohmann::json& j);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_RESULT_H_
