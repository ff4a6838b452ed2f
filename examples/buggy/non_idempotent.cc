// non-idempotent: a volume provisioner, shaped as the external-provisioner sidecar: every claim
// (a ConfigMap in namespace `claims`) gets a volume (a ConfigMap in namespace `volumes`,
// labelled with its claim), and the claim records the volume's name in data.volume. Two writes:
// the volume is created, then the claim is updated; a claim that records a volume is done.
//
// The bug: the volume is created with generateName (pvc-xxxxx), so creating it is not
// idempotent. When the process dies between the two writes (the create succeeded, the claim
// was never updated), the restarted provisioner sees a claim without a volume and provisions a
// second one; the first is leaked forever (in a real cluster, a disk that is paid for and
// attached to nothing). Realistic: this is the bug external-provisioner avoids by naming the
// volume after the claim's uid; controllers that record a generated name on the parent
// (operators that make a Secret or a bucket and write its name in status) have it.
// Revealed by: a crash right after the provisioner's k-th create, then a restart; as well, an
// error on the claim's update (a 409 or a 500), after which the retried sync provisions again.
// The fix: the volume's name is pvc-<claim uid>, so the second create after a restart answers
// AlreadyExists and the existing volume is recorded — any number of crashes, one volume.
#include <string>
#include <utility>
#include <vector>

#include "buggy.h"
#include "kubesim/api/status.h"

namespace buggy {
namespace {


constexpr const char* kClaims = "claims";
constexpr const char* kVolumes = "volumes";

ObjectPtr volume_for(const kubesim::api::Object& claim, Variant variant) {
  const std::string name = variant == Variant::kFixed ? "pvc-" + std::string(claim.uid()) : "";
  return config_map(kVolumes, name, {{"claim", std::string(claim.name())}},
                    {{"claim", std::string(claim.name())}}, "pvc-");
}

Task<ReconcileResult> reconcile(Variant variant, ReconcileContext rc, ReconcileRequest request) {
  const ObjectPtr claim = rc.get(kConfigMaps, request.ns, request.name);
  if (claim == nullptr || !data_of(*claim, "volume").empty()) co_return ReconcileResult::done();
  ObjectPtr volume = volume_for(*claim, variant);
  auto created = co_await create(rc.ctx(), &rc.client(), kConfigMaps, volume);
  std::string name;
  if (created.ok()) {
    name = std::string(created.value()->name());
  } else if (kubesim::api::is_already_exists(created.status())) {
    name = std::string(volume->name());  // made by an earlier attempt: a fixed name is ours
  } else {
    co_return ReconcileResult::fail(created.status());
  }
  ObjectPtr bound = claim->edited([&](nlohmann::json& j) { j["data"]["volume"] = name; });
  auto updated = co_await update(rc.ctx(), &rc.client(), kConfigMaps, std::move(bound));
  if (!updated.ok()) co_return ReconcileResult::fail(updated.status());
  co_return ReconcileResult::done();
}

std::vector<ReconcileRequest> claim_of(const kubesim::api::Object& object) {
  if (object.namespace_() != kClaims) return {};
  return {ReconcileRequest{kClaims, std::string(object.name())}};
}

}  // namespace

void register_non_idempotent(kubesim::scenarios::Registry& registry) {
  register_config_map_pair(registry, "non-idempotent",
                           {"provisions a volume ConfigMap per claim and records its name on the claim",
                            "the volume gets a generated name, so a crash between the two writes leaks one"},
                           claim_of, reconcile);
}

}  // namespace buggy
