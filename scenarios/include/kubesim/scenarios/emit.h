// emit_scenario: a scenario document (a yaml-cpp tree of a whole scenario file) as text a person
// reads, written as the files in scenarios/library/ are: block style for the top level and the
// entries of `processes`, `workload` and `timeline`, small collections on one line in flow style
// ({verb: update, resource: configmaps}). For the stages that write scenario files (an
// experiment's points, explore's perturbed and shrunk documents).
//
// parse_scenario(emit_scenario(d)) reads back the same scenario as d: a scalar the document
// quoted stays a string.
#ifndef KUBESIM_SCENARIOS_EMIT_H_
#define KUBESIM_SCENARIOS_EMIT_H_

#include <string>

#include <yaml-cpp/yaml.h>

namespace kubesim::scenarios {

std::string emit_scenario(const YAML::Node& doc);

}  // namespace kubesim::scenarios

#endif  // KUBESIM_SCENARIOS_EMIT_H_
