// Reading `sweep:` and `measure:` of an experiment (kubesim/scenarios/sweep.h): each parameter's
// values — a list, or a range {from, to, steps} of durations or numbers — and the metric names.
#ifndef KUBESIM_SCENARIOS_INTERNAL_SWEEP_VALUES_H_
#define KUBESIM_SCENARIOS_INTERNAL_SWEEP_VALUES_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "scenarios/internal/yaml_reader.h"

namespace kubesim::scenarios::internal {

struct SweepValue {
  std::string text;     // as a point's name and the document write it
  bool quoted = false;  // text the sweep quoted: substituted as a string
};

struct SweepParam {
  std::string name;
  Mark mark;  // the key's place
  std::vector<SweepValue> values;
};

// Each parameter of `sweep` (undefined: none); problems go to `errors`.
std::vector<SweepParam> read_sweep(const YAML::Node& sweep, Errors& errors);
// The metric names of `measure` (undefined: none).
std::vector<std::string> read_measure(const YAML::Node& measure, Errors& errors);

}  // namespace kubesim::scenarios::internal

#endif  // KUBESIM_SCENARIOS_INTERNAL_SWEEP_VALUES_H_
