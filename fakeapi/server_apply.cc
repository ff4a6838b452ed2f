// Server-side apply, and the Update entries every other write records in
// metadata.managedFields: kube-apiserver's apply patcher (handlers/patch.go applyPatcher),
// ValidatePatchOptions, and the field manager it runs (k8s.io/apimachinery's managedfields,
// ported in fakeapi/internal/apply/).
#include <cstdio>

#include "fakeapi/internal/apply/managed_fields.h"
#include "fakeapi/internal/defaulting/walker.h"
#include "fakeapi/internal/server_util.h"
#include "kubesim/api/go_strings.h"
#include "kubesim/api/yaml.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/fakeapi/validation.h"

namespace kubesim::fakeapi {
namespace {

using nlohmann::json;

// metav1's FieldManagerMaxLength.
constexpr std::size_t kFieldManagerMaxLength = 128;

const json& json_member(const json& j, std::string_view key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string string_at(const json& j, std::string_view key) {
  const json& v = json_member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

api::Status invalid_patch_options(std::vector<api::StatusCause> causes) {
  return api::new_invalid(api::GroupKind{"meta.k8s.io", "PatchOptions"}, "", std::move(causes));
}

// ValidateFieldManager: at most 128 bytes, printable characters only (ASCII control characters
// are what a field manager can hold that unicode.IsPrint refuses, as far as kubesim checks).
void check_field_manager(const std::string& manager, std::vector<api::StatusCause>& causes) {
  if (manager.size() > kFieldManagerMaxLength) {
    causes.push_back({"FieldValueTooLong", "Too long: may not be more than 128 bytes", "fieldManager"});
  }
  for (std::size_t i = 0; i < manager.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(manager[i]);
    if (c >= 0x20 && c != 0x7f) continue;
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", c);
    causes.push_back({"FieldValueInvalid",
                      "Invalid value: " + api::go_quote(manager) + ": invalid character " + code +
                          " (at position " + std::to_string(i) + ")",
                      "fieldManager"});
  }
}

// gvk.String() of an applied configuration's apiVersion and kind: "apps/v1, Kind=Deployment",
// "/v1, Kind=ConfigMap".
std::string gvk_text(const std::string& api_version, const std::string& kind) {
  const auto slash = api_version.find('/');
  const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  const std::string version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
  return group + "/" + version + ", Kind=" + kind;
}

// What yaml.Unmarshal into a map says of a document that is not one.
std::string go_json_type(const json& j) {
  if (j.is_array()) return "array";
  if (j.is_string()) return "string";
  if (j.is_boolean()) return "bool";
  return "number";
}

apply::TypeRef type_of(const ResourceInfo& info) {
  return info.custom ? apply::TypeRef::custom_resource(&info.schema)
                     : apply::TypeRef::builtin_kind(info.gvr.group, info.kind);
}

json without_managed_fields(json j) {
  if (j.is_object()) {
    auto meta = j.find("metadata");
    if (meta != j.end() && meta->is_object()) meta->erase("managedFields");
  }
  return j;
}

void set_managed_fields(json& j, const apply::ManagedFields& managed) {
  json encoded = apply::encode_managed_fields(managed);
  if (encoded.is_null()) {
    j["metadata"].erase("managedFields");
  } else {
    j["metadata"]["managedFields"] = std::move(encoded);
  }
}

// The context of a write of `object` through the endpoint `subresource` of `info`'s resource.
apply::OperationContext apply_context(const ResourceInfo& info, Subresource subresource,
                                      std::string now, std::string_view ns, std::string_view name,
                                      const json& object) {
  apply::OperationContext c;
  c.api_version = info.api_version();
  c.subresource = subresource == Subresource::kStatus ? "status" : "";
  c.now = std::move(now);
  c.object_label = std::string(ns) + "/" + std::string(name) + "; " +
                   gvk_text(info.api_version(), info.kind);
  c.reset_fields = apply::reset_fields_for(info.has_status, c.subresource, object);
  return c;
}

}  // namespace

void ApiServer::track_managed_fields(const ResourceInfo& info, const api::Object* live, json& next,
                                     std::string_view field_manager, Subresource subresource) {
  // FieldManager.Update's managed fields: the request's, unless it resets them or has none,
  // then the live object's. A subresource write always starts from the live object's.
  const json& sent = json_member(json_member(next, "metadata"), "managedFields");
  const json live_managed = live != nullptr ? live->metadata_field("managedFields") : json();
  if (field_manager.empty() && sent.is_null() && live_managed.is_null()) return;
  std::optional<apply::ManagedFields> managed;
  if (subresource == Subresource::kNone && apply::resets_managed_fields(sent)) {
    managed.emplace();
  } else if (subresource == Subresource::kNone && !sent.is_null()) {
    managed = apply::decode_managed_fields(sent);
    if (managed && managed->empty()) managed.reset();
  }
  if (!managed) managed = apply::decode_managed_fields(live_managed);
  if (!managed) managed.emplace();  // undecodable entries start over, as kube's do
  json before = json::object();
  if (live != nullptr) {
    before = without_managed_fields(live->to_json());
  } else {
    render_stored(info, before);
  }
  const json after = without_managed_fields(next);
  apply::record_update(*managed, before, after, type_of(info), field_manager,
                       apply_context(info, subresource, now_rfc3339(),
                                     string_at(json_member(next, "metadata"), "namespace"),
                                     string_at(json_member(next, "metadata"), "name"), after));
  set_managed_fields(next, *managed);
}

api::Result<api::ObjectPtr> ApiServer::apply_object(const Request& request,
                                                    std::vector<std::string>* warnings) {
  const api::PatchOptions& options = request.patch_options();
  // ValidatePatchOptions.
  std::vector<api::StatusCause> causes;
  if (!api::is_apply(request.patch_type)) {
    causes.push_back({"FieldValueForbidden", "Forbidden: may not be specified for non-apply patch", "force"});
  } else if (options.field_manager.empty()) {
    causes.push_back({"FieldValueRequired", "Required value: is required for apply patch", "fieldManager"});
  }
  check_field_manager(options.field_manager, causes);
  if (!causes.empty()) return invalid_patch_options(std::move(causes));
  auto r = resolve(request.resource, request.ns, false);
  if (!r) return r.status();
  const ResourceInfo& info = *r->info;
  if (request.patch_type == api::PatchType::kApplyCbor) {
    return api::new_unsupported_media_type(
        std::string("the body of the request was in an unknown format - accepted media types "
                    "include: application/json-patch+json, application/merge-patch+json, ") +
        (info.custom ? "" : "application/strategic-merge-patch+json, ") + "application/apply-patch+yaml");
  }
  const bool status = request.subresource == Subresource::kStatus;
  if (request.subresource != Subresource::kNone && !(status && info.has_status)) {
    return internal::unknown_resource();
  }
  // The configuration: YAML (JSON is YAML).
  auto parsed = api::yaml_to_json(request.patch_body);
  if (!parsed) return api::new_bad_request("error decoding YAML: " + parsed.status().message);
  json config = parsed->is_null() ? json::object() : std::move(parsed.value());
  if (!config.is_object()) {
    return api::new_bad_request(
        "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal " +
        go_json_type(config) + " into Go value of type map[string]interface {}");
  }
  // versionCheckManager, then structuredMergeManager's checks of the configuration.
  const std::string config_version = string_at(config, "apiVersion");
  const std::string config_kind = string_at(config, "kind");
  if (config_version != info.api_version() || config_kind != info.kind) {
    return api::new_bad_request("invalid object type: " + gvk_text(config_version, config_kind));
  }
  if (!json_member(json_member(config, "metadata"), "managedFields").is_null()) {
    return api::new_bad_request("metadata.managedFields must be nil");
  }
  const std::string key = internal::object_key(info, request.ns, request.name);
  api::ObjectPtr current = store_.get(r->table, key);
  if (!current && status) return api::new_not_found(info.group_resource(), request.name);
  json live = json::object();
  if (current) {
    live = current->to_json();
  } else {
    render_stored(info, live);
  }
  std::string decode_error;
  auto managed = apply::decode_managed_fields(
      json_member(json_member(live, "metadata"), "managedFields"), &decode_error);
  if (!managed) {
    return api::Status{500, api::StatusReason::kUnknown,
                       "failed to decode managed fields: " + decode_error, std::nullopt};
  }
  live = without_managed_fields(std::move(live));
  auto applied = apply::apply_configuration(
      live, config, std::move(*managed), type_of(info), options.field_manager,
      options.force.value_or(false),
      apply_context(info, request.subresource, now_rfc3339(), request.ns, request.name, config));
  if (!applied) return applied.status();
  json next = std::move(applied.value().object);
  set_managed_fields(next, applied.value().managed);
  // checkName: the object the configuration makes must be the one the URL names.
  const json& meta = json_member(next, "metadata");
  if (string_at(meta, "name") != request.name) {
    return api::new_bad_request("the name of the object (" + string_at(meta, "name") +
                                ") does not match the name on the URL (" + request.name + ")");
  }
  const std::string object_ns = string_at(meta, "namespace");
  if (!request.ns.empty() && !object_ns.empty() && object_ns != request.ns) {
    return api::new_bad_request("the namespace of the object (" + object_ns +
                                ") does not match the namespace on the URL (" + request.ns + ")");
  }
  if (!current) {
    // The apply creates the object: the create path names, defaults, checks and stores it.
    auto object = api::Object::from_json(std::move(next));
    if (!object) return object.status();
    Request create = request;
    create.verb = api::Verb::kCreate;
    create.object = std::move(object.value());
    create.options = api::CreateOptions{options.dry_run, options.field_manager, options.field_validation};
    auto created = create_object(create, warnings);
    apply_created_ = created.ok();
    return created;
  }
  // structuredMergeManager defaults the merged object; its defaults are nobody's fields.
  if (!info.custom && info.go_type != nullptr && defaulting::has_defaults(*info.go_type)) {
    defaulting::apply_defaults(*info.go_type, next);
  }
  auto bad = validate_update(info, current->json(), next, request.ns, request.name, status,
                             options.field_validation, /*patched=*/true, warnings);
  if (bad && bad->code == 400) return *bad;
  const json& rv = json_member(meta, "resourceVersion");
  if (rv.is_string() && rv.get<std::string>() != current->resource_version()) {
    return api::new_conflict(info.group_resource(), request.name, api::kOptimisticLockErrorMsg);
  }
  if (bad) return *bad;
  const json managed_fields = json_member(meta, "managedFields");
  return write_update(*r, current, std::move(next),
                      {request.process, request.subresource, options.dry_run,
                       options.field_validation, false, {}, &managed_fields});
}

}  // namespace kubesim::fakeapi
