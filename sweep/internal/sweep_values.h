// Reading `sweep:` and `measure:` of an experiment (kubesim/sweep/sweep.h): each parameter's
// values — a list, or a range {from, to, steps} of durations or numbers — and the metric names.
#ifndef KUBESIM_SWEEP_INTERNAL_SWEEP_VALUES_H_
#define KUBESIM_SWEEP_INTERNAL_SWEEP_VALUES_H_

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "kubesim/scenarios/yaml_reader.h"

namespace kubesim::sweep::internal {

// An experiment's keys are read with the scenario parser's YAML walker.
using namespace scenarios::yaml;

struct SweepValue {
  std::string text;     // as a point's name and the document write it
  bool quoted = false;  // text the sweep quoted: substituted as a string
};

struct SweepParam {
  std::string name;
  scenarios::Mark mark;  // the key's place
  std::vector<SweepValue> values;
};

// Each parameter of `sweep` (undefined: none); problems go to `errors`.
std::vector<SweepParam> read_sweep(const YAML::Node& sweep, Errors& errors);
// The metric names of `measure` (undefined: none).
std::vector<std::string> read_measure(const YAML::Node& measure, Errors& errors);

}  // namespace kubesim::sweep::internal

#endif  // KUBESIM_SWEEP_INTERNAL_SWEEP_VALUES_H_
