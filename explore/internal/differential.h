// The differential oracle: the end state of a perturbed run against the unperturbed run of the
// same seed, as Sieve compares them.
//
// Both end states are every object on the server at the end (RunCapture::objects). Ignored:
// metadata.uid, resourceVersion, creationTimestamp, generation and managedFields, the uids of
// ownerReferences, Events (records of what happened, not state), the electors' lock objects, and
// the scenario's `explore.free` paths (a segment `*` matches any key) and the paths its workload's
// `update` entries with `pick: random` set (on every object: a controller may copy them). Names made by generateName
// are masked to PREFIX* wherever they appear — an object's name, or any string or key of any
// object (a mirror's copy named after its source) — and so are the uids of the objects at the
// end, each to `<uid of RESOURCE/NAMESPACE/NAME>` (a volume named pvc-<claim uid>), so objects
// are compared as a multiset by RESOURCE/NAMESPACE/NAME with the names masked.
#ifndef KUBESIM_EXPLORE_INTERNAL_DIFFERENTIAL_H_
#define KUBESIM_EXPLORE_INTERNAL_DIFFERENTIAL_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/scenario.h"

namespace kubesim::explore {

struct DiffOptions {
  std::vector<std::string> free;   // explore.free
  std::vector<std::string> locks;  // "leases/NS/NAME", … (Lock texts)
};
DiffOptions diff_options(const scenarios::Scenario& scenario);

struct Difference {
  // One line: "configmaps/dst/x-*: 2 objects, 1 in the unperturbed run",
  // "configmaps/dst/seed: missing", "configmaps/dst/seed: data.k is \"b\", \"a\" in the
  // unperturbed run".
  std::string text;
  // A `finally` check that holds at the reference's end and not at this run's (a count of the
  // resource in the namespace, or a match / noMatch of the object), so a scenario file can carry
  // the difference; unset when the difference cannot be written as one.
  std::optional<YAML::Node> check;
};

// Every difference, sorted by key; empty when the end states agree.
std::vector<Difference> compare_end_states(const runner::RunCapture& reference, const runner::RunCapture& run,
                                           const DiffOptions& options);

// "end state differs from the unperturbed run: A; B; C" with the first `shown` differences (and
// "(N more)").
std::string describe_differences(const std::vector<Difference>& differences, std::size_t shown = 3);

}  // namespace kubesim::explore

#endif  // KUBESIM_EXPLORE_INTERNAL_DIFFERENTIAL_H_
