// Shrinking a failing scenario: the smallest document that still fails, and its YAML text.
//
// `kubesim explore` hands the shrinker a whole scenario file as a YAML tree (with its perturbation
// already written into it as ordinary timeline entries and fault rules, and its seed pinned by a
// `seeds: [S]` list) and a predicate that runs a document and says whether it still fails. The
// shrinker tries smaller documents and keeps each one that still fails:
//   - removes timeline events, fault rules (an emptied `faults:` event goes), workload entries,
//     processes' replicas (never below 1), and `run:` actors that no check or reference needs;
//   - reduces durations (the scenario's `duration`, `for`, `restartAfter`, a workload's `until`)
//     and counts (a fault's `count`, a trigger's `count` is never changed: it names the point);
//   - pins random choices that matter: a fault's `probability` is dropped (1), `pick: random`
//     becomes `oldest` or `newest`, a range (`{min, max}`) becomes one value, `shuffle: false`.
// Every candidate is a deep copy; the input is never changed. A candidate the parser refuses is
// simply a predicate that returns false. The result is deterministic for a deterministic
// predicate. `seeds` and `name` are never touched.
// The predicate sees each candidate as emit_scenario's text reads back, at most once per text. A
// list emptied by removals stays in the document as `[]`. A duration goes to its lower bound (for
// the scenario's `duration`: the latest `at` and check window end) when that still fails, else
// by halving to the smallest whole second (millisecond below 1s) seen to fail: for a predicate
// that fails from a threshold T up, T rounded up to a whole second.
#ifndef KUBESIM_EXPLORE_INTERNAL_SHRINK_H_
#define KUBESIM_EXPLORE_INTERNAL_SHRINK_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kubesim/scenarios/emit.h"

namespace kubesim::explore {

// True when `doc` (a whole scenario file) still fails. Must return false for a document that does
// not parse.
using StillFails = std::function<bool(const YAML::Node& doc)>;

struct ShrinkOptions {
  std::size_t max_runs = 2000;  // predicate calls at most; the best document so far is returned
};

struct ShrinkResult {
  YAML::Node doc;                  // the smallest failing document found (a deep copy)
  std::size_t runs = 0;            // predicate calls made
  std::size_t entries = 0;         // scenario_entries(doc)
  std::vector<std::string> steps;  // each accepted step, one line ("removed timeline[2] (crash)")
};

// `doc` must fail (the caller checked); it is returned unchanged when nothing smaller fails.
ShrinkResult shrink_scenario(const YAML::Node& doc, const StillFails& fails,
                             const ShrinkOptions& options = {});

// The size the corpus measures: timeline events + fault rules + workload entries.
std::size_t scenario_entries(const YAML::Node& doc);

}  // namespace kubesim::explore

#endif  // KUBESIM_EXPLORE_INTERNAL_SHRINK_H_
