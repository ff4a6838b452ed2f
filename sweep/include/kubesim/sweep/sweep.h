// Experiments: a scenario file with `sweep:` (parameters and their values) and `measure:` (the
// metrics each run records, kubesim/sweep/measure.h) becomes one scenario per grid point.
//
// Expansion works on the YAML tree, before the parser: `sweep:` and `measure:` are taken out of
// the document, and for each point of the grid (every combination of the parameters' values, the
// first parameter outermost) every `{{param}}` in the document's scalars is replaced — a scalar
// that is exactly `{{p}}` (quoted, or the plain `{{p}}` YAML reads as a nested mapping) becomes
// the value itself with its type (a duration, a number, or text when the sweep quoted it); inside
// a longer string the value is text. `{{n}}` is the workload's own placeholder and is left alone.
// The point's document is named `NAME[p=v,…]`, written with emit_scenario and parsed with
// parse_scenario, so every report reads it as an ordinary scenario.
//
// Errors are FILE:LINE:COL of the file as written, all of them at once, and then no point is made:
// an unknown metric, a `{{param}}` not swept, a swept parameter never used, a parameter called n,
// an empty list, an empty or upside-down range, steps < 2, values of mixed types, a value twice.
// A point that the parser then refuses gives its errors as "FILE:LINE:COL: in the point P=V, …:
// message", placed in the file as written (the place of the node the error is at, or of the last
// one before it), and each point's checks carry the file's places too, so a broken check is
// reported at the file's line.
#ifndef KUBESIM_SWEEP_SWEEP_H_
#define KUBESIM_SWEEP_SWEEP_H_

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kubesim/runner/driver.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sweep/measure.h"

namespace kubesim::sweep {

// A point of the grid: each parameter with its value's text, in the order `sweep:` lists them.
using SweepPoint = std::vector<std::pair<std::string, std::string>>;
// "[leaseDuration=5s,replicas=3]"; "" for the one point of a file without parameters.
std::string point_suffix(const SweepPoint& point);

struct Experiment {
  std::string file;
  std::string name;                    // the file's `name`
  std::vector<std::string> parameters; // in sweep order
  std::vector<std::string> measures;   // metric names as `measure:` lists them
  std::vector<SweepPoint> points;      // in grid order
  std::vector<scenarios::Scenario> scenarios;     // parallel to points
};

struct ExpandResult {
  std::optional<Experiment> experiment;  // set exactly when errors is empty
  std::vector<scenarios::ParseError> errors;
};

// Whether `text` is a scenario with `sweep:` or `measure:` (false for anything that does not load
// as a YAML mapping: the parser reports that).
bool is_experiment(std::string_view text);

ExpandResult expand_experiment(std::string_view text, const std::string& file,
                               const scenarios::Registry& registry);

// "FILE: sweep: P points × S seeds = R runs" (without a line break).
std::string sweep_cost_line(const std::string& file, std::size_t points, std::size_t seeds,
                            std::size_t runs);
// The cost line of each experiment in a labelled set (Experiments::label), from its planned seeds:
// what the run printed before it started, also for a merge of its shards.
std::vector<std::string> sweep_cost_lines(const runner::RunSet& set);

// What `kubesim run` does with experiments: expands the files that sweep or measure into their
// points, runs them as any scenario (its run function records each measured run's metrics), and
// labels the results. One object per command.
class Experiments {
 public:
  explicit Experiments(runner::LoadFunction load) : load_(std::move(load)) {}

  // The sources load_scenarios parses: an experiment's once per point (each load hands out the
  // next point), every other source as it is.
  std::vector<scenarios::Source> expand(std::vector<scenarios::Source> sources,
                                        const scenarios::Registry& registry);
  runner::LoadFunction loader();
  bool any() const { return !experiments_.empty(); }

  // "FILE: sweep: P points × S seeds = R runs", a line per experiment of the plan.
  void print_cost(const runner::Plan& plan, std::ostream& out) const;
  // `run` with the measured scenarios' runs recording their metrics (SeedResult::metrics).
  // It may be called from several threads at once.
  runner::RunFunction measuring(runner::RunFunction run) const;
  // Names each of `set`'s scenarios that is a point of an experiment as one
  // (ScenarioResult::experiment and point), so measured_rows (measure.h) finds its rows.
  void label(runner::RunSet& set) const;

 private:
  struct Owner {
    std::size_t experiment = 0;
    std::size_t point = 0;
  };
  runner::LoadFunction load_;
  std::vector<Experiment> experiments_;
  std::map<std::string, Owner> by_name_;                  // scenario name → its point
  // file → what each load returns
  std::map<std::string, std::vector<scenarios::ParseResult>> queue_;
  std::map<std::string, std::size_t> next_;
};

}  // namespace kubesim::sweep

#endif  // KUBESIM_SWEEP_SWEEP_H_
