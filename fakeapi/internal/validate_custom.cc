// Custom resources (apiextensions-apiserver's customResourceValidator and status strategy): the
// ObjectMeta rules, then the CRD's schema over the object as kube-apiserver decodes it.
#include "fakeapi/internal/schema_defaults.h"
#include "fakeapi/internal/schema_validation.h"
#include "fakeapi/internal/validation_rules.h"

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
  if (s.info.schema.is_object()) validate_custom_resource(s.info.schema, decoded(s), nullptr, errs);
}

void custom_update(const Subject& s, FieldErrors& errs) {
  validate_meta_update(s, errs);
  if (!s.info.schema.is_object()) return;
  const Json obj = decoded(s);
  FieldErrors found;
  validate_custom_resource(s.info.schema, obj, nullptr, found);
  if (found.empty()) return;
  // Ratcheting only drops errors, so the stored object is assembled only when there are some.
  // Metadata equal but for the resourceVersion counts as unchanged.
  Json old = s.old_copy();
  old["apiVersion"] = s.info.api_version();
  old["kind"] = s.info.kind;
  old["metadata"] = s.meta_unchanged ? member(obj, "metadata") : s.old_metadata();
  validate_custom_resource(s.info.schema, obj, &old, errs);
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
}

}  // namespace

KindRules custom_resource_rules() { return {custom_create, custom_update, custom_update_status}; }

}  // namespace kubesim::fakeapi::internal::validation
