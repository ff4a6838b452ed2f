// drop-on-conflict: a team roster controller: every team (a ConfigMap in namespace `teams`)
// shows in data.members how many members it has (ConfigMaps of namespace `members` labelled
// team=NAME), as a status field a dashboard reads. The write carries the cached
// resourceVersion, so it fails with 409 Conflict when the team changed since the cache saw it.
//
// The bug: a 409 is treated as "someone else wrote the team; their event will queue it again",
// and the key is dropped (done) instead of requeued. Often true — a real concurrent write does
// bring an event — which is why this survives review; but a Conflict also comes without any
// event the controller will see: the apiserver's own retried storage write, a conflicting write
// whose event was already consumed, an admission webhook's. Then the count stays wrong until
// some unrelated change of that team or its members. Realistic: `if errors.IsConflict(err) {
// return nil }` is a common snippet in operators.
// Revealed by: 409s on the controller's updates while the last changes happen.
// The fix: requeue with the rate limiter on a Conflict, as on any error (controller-runtime's
// default for a returned error).
#include <string>
#include <utility>
#include <vector>

#include "buggy.h"
#include "kubesim/api/labels.h"
#include "kubesim/api/status.h"

namespace buggy {
namespace {


constexpr const char* kTeams = "teams";
constexpr const char* kMembers = "members";

Task<ReconcileResult> reconcile(Variant variant, ReconcileContext rc, ReconcileRequest request) {
  const ObjectPtr team = rc.get(kConfigMaps, kTeams, request.name);
  if (team == nullptr) co_return ReconcileResult::done();
  const auto members = rc.list(kConfigMaps, kMembers, kubesim::api::selector_from_set({{"team", request.name}}));
  const std::string count = std::to_string(members.size());
  if (data_of(*team, "members") == count) co_return ReconcileResult::done();
  ObjectPtr next = team->edited([&](nlohmann::json& j) { j["data"]["members"] = count; });
  auto updated = co_await update(rc.ctx(), &rc.client(), kConfigMaps, std::move(next));
  if (updated.ok()) co_return ReconcileResult::done();
  // The bug: "their event will bring us back".
  if (variant == Variant::kBuggy && kubesim::api::is_conflict(updated.status())) co_return ReconcileResult::done();
  co_return ReconcileResult::fail(updated.status());
}

std::vector<ReconcileRequest> team_of(const kubesim::api::Object& object) {
  if (object.namespace_() == kTeams) return {ReconcileRequest{"", std::string(object.name())}};
  if (object.namespace_() != kMembers) return {};
  auto team = object.label("team");
  if (!team) return {};
  return {ReconcileRequest{"", std::string(*team)}};
}


}  // namespace

void register_drop_on_conflict(kubesim::scenarios::Registry& registry) {
  register_config_map_pair(registry, "drop-on-conflict",
                           {"writes each team's member count into the team ConfigMap", "drops the key on 409 Conflict"},
                           team_of, reconcile);
}

}  // namespace buggy
