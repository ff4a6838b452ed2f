// name-not-uid: a credential issuer: every app (a ConfigMap in namespace `apps`) gets a
// credential (a ConfigMap of the same name in namespace `credentials`) minted for it — it
// records the app's uid and the data.version the app had when it was minted — and the
// credential of an app that is gone is revoked (deleted). A credential is never rewritten: it is
// handed out once, as a service-account token or a database password is.
//
// The bug: the controller knows its apps by name. When an app is deleted and created again
// under the same name before the controller has acted on the deletion (the delete and the add
// collapse into one queued key; a pause, a partition, a slow worker), it finds an app and a
// credential of that name and is done: the new app is served the old app's credential, and the
// old one is never revoked. Realistic: keying state by namespace/name is the default (work
// queue keys are names), and "is it still the same object?" needs the uid — the StatefulSet
// controller checks the PVC's and the pod's owner uid, the garbage collector owner uids, for
// this reason.
// Revealed by: a lagging watch that coalesces the delete and the re-create into one update (as
// a re-list shows them), or a partition of the controller spanning both.
// The fix: the credential records the uid it was minted for; one minted for another uid is
// revoked and minted again.
#include <string>
#include <utility>
#include <vector>

#include "buggy.h"
#include "kubesim/api/status.h"

namespace buggy {
namespace {


constexpr const char* kApps = "apps";
constexpr const char* kCredentials = "credentials";

ReconcileResult retried_unless(bool ok) { return ok ? ReconcileResult::done() : ReconcileResult::requeue(); }

Task<ReconcileResult> reconcile(Variant variant, ReconcileContext rc, ReconcileRequest request) {
  const ObjectPtr app = rc.get(kConfigMaps, kApps, request.name);
  const ObjectPtr credential = rc.get(kConfigMaps, kCredentials, request.name);
  if (app == nullptr) {
    if (credential == nullptr) co_return ReconcileResult::done();
    const bool revoked = co_await remove(rc.ctx(), &rc.client(), kConfigMaps, credential);
    co_return retried_unless(revoked);
  }
  if (credential != nullptr) {
    // The bug: a credential of this name is taken to be this app's.
    if (variant == Variant::kBuggy || data_of(*credential, "uid") == app->uid()) co_return ReconcileResult::done();
    const bool revoked = co_await remove(rc.ctx(), &rc.client(), kConfigMaps, credential);
    // Minted again once the cache shows the old one gone.
    co_return revoked ? ReconcileResult::requeue() : ReconcileResult::fail("revoking " + request.name);
  }
  ObjectPtr minted = config_map(kCredentials, request.name,
                                {{"uid", std::string(app->uid())}, {"version", data_of(*app, "version")}});
  auto created = co_await create(rc.ctx(), &rc.client(), kConfigMaps, std::move(minted));
  co_return retried_unless(created.ok());
}

std::vector<ReconcileRequest> app_of(const kubesim::api::Object& object) {
  if (object.namespace_() != kApps && object.namespace_() != kCredentials) return {};
  return {ReconcileRequest{"", std::string(object.name())}};
}


}  // namespace

void register_name_not_uid(kubesim::scenarios::Registry& registry) {
  register_config_map_pair(registry, "name-not-uid",
                           {"mints a credential ConfigMap per app and revokes it when the app is gone",
                            "knows apps by name: a re-created app gets the old one's credential"},
                           app_of, reconcile);
}

}  // namespace buggy
