// shrink_scenario: the smallest document that still fails (see internal/shrink.h).
//
// Rounds of passes, until a round keeps nothing or the runs are spent. Each round goes coarse to
// fine, and shortens the run early so that later candidates run faster: timeline events, the
// scenario's duration, fault rules, workload entries, replicas, processes and their actors, the
// cluster's objects, then random choices pinned, then the times and counts of what is left.
#include "explore/internal/shrink.h"

#include "explore/internal/shrink_search.h"

namespace kubesim::explore {
namespace {

std::size_t list_size(const YAML::Node& map, const char* key) {
  if (!map.IsMap()) return 0;
  const YAML::Node list = map[key];
  return list.IsDefined() && list.IsSequence() ? list.size() : 0;
}

using Pass = bool (*)(shrink::Search&);
constexpr Pass kPasses[] = {
    shrink::remove_timeline_events,  shrink::reduce_scenario_duration,
    shrink::remove_fault_rules,      shrink::remove_workload_entries,
    shrink::reduce_replicas,         shrink::remove_processes_and_actors,
    shrink::remove_cluster_objects,  shrink::pin_random_choices,
    shrink::reduce_times_and_counts,
};

}  // namespace

std::size_t scenario_entries(const YAML::Node& doc) {
  std::size_t n = list_size(doc, "timeline") + list_size(doc, "workload");
  if (list_size(doc, "timeline") == 0) return n;
  for (const auto& event : doc["timeline"]) n += list_size(event, "faults");
  return n;
}

ShrinkResult shrink_scenario(const YAML::Node& doc, const StillFails& fails,
                             const ShrinkOptions& options) {
  shrink::Search search(doc, fails, options.max_runs);
  bool changed = true;
  while (changed && !search.exhausted()) {
    changed = false;
    for (Pass pass : kPasses) changed = pass(search) || changed;
  }
  return std::move(search).finish();
}

}  // namespace kubesim::explore
