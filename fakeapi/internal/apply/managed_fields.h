// Field ownership as kube-apiserver keeps it in metadata.managedFields, and the two operations
// that change it: an Update (any create, update or patch: its manager takes the fields it
// changed) and an Apply (server-side apply: the configuration is merged in, the manager owns
// exactly the fields it applied, fields it applied before and no longer applies go when nobody
// else owns them, and fields other managers own and the apply changes are conflicts).
//
// This is k8s.io/apimachinery's managedfields (FieldManager and the managers it chains:
// managedFieldsUpdater, stripMetaManager, structuredMergeManager) over structured-merge-diff's
// merge.Updater, for one served version per kind: entries recorded with another apiVersion are
// read as if written in the current one (kube converts them; kubesim serves one version).
// Past ten Update entries, the oldest are merged into "ancient-changes" ones (capManagersManager).
// Not ported: the upgrade of kubectl's last-applied-configuration annotation.
#ifndef KUBESIM_FAKEAPI_INTERNAL_APPLY_MANAGED_FIELDS_H_
#define KUBESIM_FAKEAPI_INTERNAL_APPLY_MANAGED_FIELDS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fakeapi/internal/apply/field_set.h"
#include "fakeapi/internal/apply/type_view.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"

namespace kubesim::fakeapi::apply {

inline constexpr std::string_view kOperationApply = "Apply";
inline constexpr std::string_view kOperationUpdate = "Update";

// One metadata.managedFields entry.
struct ManagedEntry {
  std::string manager;
  std::string operation;  // kOperationApply or kOperationUpdate
  std::string api_version;
  std::string subresource;
  std::string time;  // RFC 3339; empty when the entry has none
  FieldSet fields;

  // BuildManagerIdentifier: entries with equal identifiers are one manager's. An Apply's
  // identifier leaves out the apiVersion.
  std::string identifier() const;
  // How conflict messages name the manager (printManager): "\"mgr\"", with " with subresource
  // \"status\"" and, for an Update, " using apps/v1".
  std::string printed() const;
};

using ManagedFields = std::vector<ManagedEntry>;

// DecodeManagedFields: the entries of metadata.managedFields (null or absent: none). nullopt,
// with the reason in `error`, for an entry with an unknown operation, no apiVersion, a
// fieldsType other than FieldsV1, or fieldsV1 that do not parse.
std::optional<ManagedFields> decode_managed_fields(const nlohmann::json& entries,
                                                   std::string* error = nullptr);
// Whether a request's managedFields ask for them to be reset ([] or [{}]).
bool resets_managed_fields(const nlohmann::json& entries);
// The entries as kube writes them: sorted by operation, time, manager, apiVersion and
// subresource; null when there are none.
nlohmann::json encode_managed_fields(ManagedFields managed);

// What an operation needs besides the objects.
struct OperationContext {
  std::string api_version;  // the kind's served group/version, "apps/v1"
  std::string subresource;  // "" or "status"
  std::string now;          // the time of this write, RFC 3339
  // How errors name the object (objectGVKNN): "default/web; apps/v1, Kind=Deployment".
  std::string object_label;
  // The fields this endpoint resets (the strategy's GetResetFields): nobody owns them through
  // it, and changes to them are no conflict.
  FieldSet reset_fields;
};

// The reset fields of kubesim's endpoints: the status for the main resource of a kind with a
// status subresource; every top-level field but the status for /status.
FieldSet reset_fields_for(bool has_status, std::string_view subresource, const nlohmann::json& object);

// FieldManager.Update: `manager` (empty: "unknown") wrote `next` over `live` (an empty object
// for a create). The fields it changed become its own and leave every other entry; fields the
// write removed leave every entry. The manager's Update entry gets the time only when it owns
// something new. More than ten Update entries are capped as kube caps them.
void record_update(ManagedFields& managed, const nlohmann::json& live, const nlohmann::json& next,
                   const TypeRef& type, std::string_view manager, const OperationContext& context);

struct ApplyOutcome {
  nlohmann::json object;  // the live object with the configuration applied
  ManagedFields managed;
  bool changed = false;  // whether `object` differs from the live object
};

// FieldManager.Apply of `config` (a whole object of the kind, not yet defaulted) by `manager`
// to `live` (an empty object when the apply creates it), whose entries are `managed`.
// Errors: 500 "failed to create typed patch object (<object_label>): <SMD's validation
// errors>" when `config` is not a valid configuration of the type (kube answers these with a
// plain server error); 409 Conflict with kube's "Apply failed with N conflict(s): …" message
// and one FieldManagerConflict cause per field when, without `force`, it changes fields other
// managers own. With `force` those fields move to `manager`.
api::Result<ApplyOutcome> apply_configuration(const nlohmann::json& live,
                                              const nlohmann::json& config, ManagedFields managed,
                                              const TypeRef& type, std::string_view manager,
                                              bool force, const OperationContext& context);

}  // namespace kubesim::fakeapi::apply

#endif  // KUBESIM_FAKEAPI_INTERNAL_APPLY_MANAGED_FIELDS_H_
