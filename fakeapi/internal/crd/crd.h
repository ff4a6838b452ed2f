// What apiextensions-apiserver does to a CustomResourceDefinition object: the defaults and the
// status its registry strategy writes, the checks of an update, the conditions its controllers
// maintain, and the names its naming controller accepts. Pure functions over the CRD's JSON; the
// server (server_crd.cc) decides when they run and stores the results.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_CRD_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_CRD_H_

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/status.h"
#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi::internal {

// The finalizer a CRD gets on its first deletion request; the finalizer controller removes it
// once every object of the CRD is gone.
inline constexpr char kCrdCleanupFinalizer[] = "customresourcecleanup.apiextensions.k8s.io";

bool is_crds(const ResourceInfo& info);

// The decoder's defaults (SetDefaults_CustomResourceDefinitionSpec): names.singular from the
// kind, names.listKind = kind + "List", conversion strategy None.
void default_crd_spec(nlohmann::json& crd);

// PrepareForCreate: the status starts with no conditions, empty accepted names and the storage
// version as the only stored version.
void initial_crd_status(nlohmann::json& crd);

// PrepareForUpdate's bookkeeping: a storage version not yet in status.storedVersions is appended.
void record_storage_version(nlohmann::json& crd);

// ValidateCustomResourceDefinitionUpdate beyond what Registry::parse_crd checks of the new
// object: spec.group and spec.names.plural never change; spec.scope and spec.names.kind do not
// once the CRD is Established; every stored version stays in spec.versions. `crd` has its
// status (storedVersions) already updated.
std::vector<api::StatusCause> crd_update_causes(const nlohmann::json& old_crd,
                                                const nlohmann::json& crd);

// Conditions (status.conditions), as apihelpers reads and writes them.
const nlohmann::json* find_crd_condition(const nlohmann::json& crd, std::string_view type);
bool crd_condition_true(const nlohmann::json& crd, std::string_view type);
// SetCRDCondition: replaces or appends the condition; lastTransitionTime moves to `now` only when
// the status changes (or the condition is new).
void set_crd_condition(nlohmann::json& crd, std::string_view type, std::string_view status,
                       std::string_view reason, std::string_view message, const std::string& now);

// Whether spec.names equals status.acceptedNames (nothing for the naming controller to do).
bool crd_names_settled(const nlohmann::json& crd);

// The naming controller's sync of `crd` against the CRDs of its group (`group`, the CRD itself
// included, as its lister lists them): each requested name is accepted when it equals the one
// accepted before or no CRD of the group has accepted it; NamesAccepted says which did not
// (PluralConflict, SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict), and
// Established becomes False/Installing once every name is accepted (it stays True once True).
// Returns whether the status changed.
bool accept_crd_names(nlohmann::json& crd, const std::vector<nlohmann::json>& group,
                      const std::string& now);

// The CRD as it is served: spec.names replaced by status.acceptedNames (for Registry::parse_crd).
nlohmann::json crd_serving_view(const nlohmann::json& crd);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_CRD_H_
