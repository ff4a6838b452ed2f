// Measurements: the metrics an experiment records per run (the `measure:` names), computed from
// what the runner already produces — the timeline picture (SeedResult::timeline) and the capture
// (RunCapture: every call the API server answered) — and their outputs: the CSV file (one row per
// point and seed) and the plain-text table (per point, each metric's median and p5–p95 over
// seeds). The data is long-form at heart — (point, seed, metric, value) — so a chart per metric
// against each swept parameter reads it directly. Definitions: docs/scenarios.md, "Sweeps and
// measurements".
#ifndef KUBESIM_SWEEP_MEASURE_H_
#define KUBESIM_SWEEP_MEASURE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/runner/result.h"
#include "kubesim/runner/run_set.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::sweep {

// The names `measure:` accepts, in the order columns are written.
const std::vector<std::string>& metric_names();
// The columns a metric gives: "apiCalls" → apiCalls, apiCalls.get, …; "queueDepth" →
// queueDepth.p50, queueDepth.p95 (and so "workDuration"); "apiCallsByResource" → none known
// before the run (a run gives apiCallsByResource.RESOURCE for each resource it called); any
// other → itself.
std::vector<std::string> metric_columns(const std::string& metric);

// A run's values by column; nullopt where the run has none (no failover happened, no queue).
using Metrics = std::vector<std::pair<std::string, std::optional<double>>>;

// The metrics `measures` asks for of one run; `result.timeline` must be set, `capture` filled.
Metrics measure_run(const scenarios::Scenario& scenario, const runner::SeedResult& result,
                    const runner::RunCapture& capture, const std::vector<std::string>& measures);

struct MeasuredRun {
  std::string scenario;  // the point's scenario name
  std::string experiment;
  std::vector<std::pair<std::string, std::string>> point;  // parameter → value
  std::uint64_t seed = 0;
  bool passed = true;
  Metrics metrics;
};

// Every measured run of `set`, one row per point and seed in the set's order: the seeds of each
// scenario that is a point of an experiment (ScenarioResult::experiment), with their metrics. A
// merged set gives the rows the unsharded run gives.
std::vector<MeasuredRun> measured_rows(const runner::RunSet& set);

// The p-th percentile (0–100) of `values` by linear interpolation between closest ranks;
// nullopt for none.
std::optional<double> percentile(std::vector<double> values, double p);

// A point's metric column over its seeds: how many seeds have a value, and (when any does) the
// median and the 5th and 95th percentiles of those values.
struct ColumnSummary {
  std::string column;
  std::size_t values = 0;
  std::optional<double> median, p5, p95;
};
// A point of an experiment over its seeds (the rows of one scenario).
struct PointSummary {
  std::string scenario;
  std::string experiment;
  std::vector<std::pair<std::string, std::string>> point;
  std::size_t seeds = 0, passed = 0;
  std::vector<ColumnSummary> columns;  // in the order the rows give them
};
// One summary per scenario of `runs`, in the order of first appearance.
std::vector<PointSummary> summarize_points(const std::vector<MeasuredRun>& runs);

// A value as the CSV, the table and the charts write it: up to 6 significant digits ("5.25",
// "1e+07"), never "-0".
std::string measure_text(double value);

// One header line and one row per run; the parameters of every experiment are columns (empty
// where a run's experiment has no such parameter), then seed, passed and every metric column.
// Fields are quoted (RFC 4180) when they hold a comma, a quote or a line break.
void write_csv(const std::vector<MeasuredRun>& runs, std::ostream& out);
// Per experiment and point: each metric column's median and p5–p95 over the point's seeds, and
// how many seeds passed.
void write_table(const std::vector<MeasuredRun>& runs, std::ostream& out);

}  // namespace kubesim::sweep

#endif  // KUBESIM_SWEEP_MEASURE_H_
