// Custom resources (apiextensions-apiserver's customResourceValidator and status strategy): the
// ObjectMeta rules, then the CRD's schema over the object as kube-apiserver decodes it, then the
// objects it embeds, then the uniqueness its x-kubernetes-list-type lists ask for (not asked
// again of an update whose stored object already broke it).
#include "fakeapi/internal/crd/schema_defaults.h"
#include "fakeapi/internal/crd/schema_embedded.h"
#include "fakeapi/internal/crd/schema_list_types.h"
#include "fakeapi/internal/crd/schema_validation.h"
#include "fakeapi/internal/validation/validation_rules.h"

namespace kubesim::fakeapi::internal::validation {
namespace {

// The object the strategy validates: the body as the decoder makes it (pruned, its disallowed
// nulls dropped, defaulted) with its apiVersion and kind, and, with a status subresource, the
// status PrepareForCreate and PrepareForUpdate leave: none on a create, the stored one on an
// update.
Json decoded(const Subject& s) {
  Json obj = s.obj.is_object() ? s.obj : Json::object();
  obj["apiVersion"] = s.info.api_version();
  obj["kind"] = s.info.kind;
  if (s.info.has_status) {
    const Json& stored = s.old_member("status");
    if (stored.is_null()) {
      obj.erase("status");
    } else {
      obj["status"] = stored;
    }
  }
  decode_custom_resource(s.info.schema, obj, nullptr);
  return obj;
}

void custom_create(const Subject& s, FieldErrors& errs) {
  validate_meta_create(s, errs);
  if (!s.info.schema.is_object()) return;
  const Json obj = decoded(s);
  validate_custom_resource(s.info.schema, obj, nullptr, errs);
  validate_embedded_resources(s.info.schema, obj, errs);
  validate_list_sets_and_maps(s.info.schema, obj, errs);
}

// The stored object as the strategies see it: with its apiVersion and kind.
Json stored_object(const Subject& s) {
  Json old = s.old_copy();
  old["apiVersion"] = s.info.api_version();
  old["kind"] = s.info.kind;
  return old;
}

void custom_update(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  if (!s.info.schema.is_object()) return;
  const Json obj = decoded(s);
  FieldErrors found;
  validate_custom_resource(s.info.schema, obj, nullptr, found);
  FieldErrors list_errors;
  validate_list_sets_and_maps(s.info.schema, obj, list_errors);
  if (!found.empty() || !list_errors.empty()) {
    // Ratcheting only drops errors, so the stored object is assembled only when there are some.
    const Json old = stored_object(s);
    if (!found.empty()) {
      // Metadata equal but for the resourceVersion counts as unchanged.
      Json correlated = old;
      correlated["metadata"] = s.meta_unchanged ? member(obj, "metadata") : s.old_metadata();
      validate_custom_resource(s.info.schema, obj, &correlated, errs);
    }
    if (has_list_set_or_map_errors(s.info.schema, old)) list_errors = FieldErrors();
  }
  // Embedded objects are checked as on a create, without ratcheting.
  validate_embedded_resources(s.info.schema, obj, errs);
  errs.append(std::move(list_errors));
}

// The status strategy validates the status the body's decoding leaves (which a default may give
// and a dropped null may take away), when there is one, against the stored status.
void custom_update_status(const Subject& s, FieldErrors& errs) {
  validate_meta_identity(s, errs);
  if (!s.info.schema.is_object()) return;
  Json obj = Json::object();
  if (s.obj.is_object() && s.obj.contains("status")) obj["status"] = member(s.obj, "status");
  decode_custom_resource(s.info.schema, obj, nullptr);
  if (!obj.contains("status")) return;
  const Json& stored = s.old_member("status");
  validate_custom_resource_status(s.info.schema, obj["status"], &stored, errs);
  // The whole new object is the stored one with this status: it breaks list uniqueness only in
  // the status, or where the stored object already did (and then nothing is reported).
  FieldErrors list_errors;
  validate_list_sets_and_maps(s.info.schema, Json{{"status", obj["status"]}}, list_errors);
  if (!list_errors.empty() && !has_list_set_or_map_errors(s.info.schema, stored_object(s))) {
    errs.append(std::move(list_errors));
  }
}

}  // namespace

KindRules custom_resource_rules() { return {custom_create, custom_update, custom_update_status}; }

}  // namespace kubesim::fakeapi::internal::validation
