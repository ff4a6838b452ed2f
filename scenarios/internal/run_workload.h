// The workload: traffic generators, run by an extra process named "workload" with the scenario's
// default network latency and its own in-process client, so its requests are recorded, can be
// faulted and can be cut off by a partition like anyone's.
//
// Each entry acts every `every` of true time over [from, until) (until: the end of the run),
// each action a task of its own, so a slow answer never delays the next one. {{n}} in a string
// value is the entry's 1-based action count. create sends the object (generateName works);
// update and delete pick an existing object of the resource and namespace from the server's
// current state, read directly (not a request): at random (the Loop's Rng), the oldest or the
// newest (by creationTimestamp, then name); update sets the dotted paths and sends the object
// with the resourceVersion it was read at. Every action and its answer is traced; failures
// (conflicts, faults, partitions) and actions with nothing to pick are not errors.
#ifndef KUBESIM_SCENARIOS_INTERNAL_RUN_WORKLOAD_H_
#define KUBESIM_SCENARIOS_INTERNAL_RUN_WORKLOAD_H_

#include <cstdint>

#include <nlohmann/json.hpp>

namespace kubesim::scenarios::runner {

struct World;

// Makes the workload process, its link and its client (World::workload).
void make_workload(World& world);
// Starts the workload process.
void start_workload(World& world);

// `value` with every "{{n}}" in its strings replaced by n.
nlohmann::json substitute_n(const nlohmann::json& value, std::int64_t n);

}  // namespace kubesim::scenarios::runner

#endif  // KUBESIM_SCENARIOS_INTERNAL_RUN_WORKLOAD_H_
