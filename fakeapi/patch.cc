// The three patch types as kube-apiserver's patch handler runs them (applyJSPatch and
// strategicPatchObject in k8s.io/apiserver/pkg/endpoints/handlers/patch.go): decode the body,
// apply, and turn each error into the Status the handler answers.
#include "kubesim/fakeapi/patch.h"

#include <cassert>
#include <string>
#include <utility>

#include "fakeapi/internal/encoding/go_compat.h"
#include "fakeapi/internal/patch/patch_meta.h"

namespace kubesim::fakeapi {
namespace {

using internal::go_json_kind;
using internal::go_parse;
using nlohmann::json;

// The apiextensions handler's patch types for custom resources (negotiation's
// errUnsupportedMediaType lists them).
constexpr std::string_view kCustomResourcePatchTypes =
    "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

// The Go type each patch body is decoded into first (with fieldValidation=Warn).
constexpr std::string_view kJsonPatchType = "[]handlers.jsonPatchOp";
constexpr std::string_view kJsonPatchOpType = "handlers.jsonPatchOp";
constexpr std::string_view kMapType = "map[string]interface {}";

std::string cannot_unmarshal(const json& v, std::string_view go_type) {
  return "json: cannot unmarshal " + std::string(go_json_kind(v)) + " into Go value of type " +
         std::string(go_type);
}

// kjson.UnmarshalStrict(body, &[]jsonPatchOp): the first type error, if any.
std::optional<std::string> json_patch_type_error(const json& ops) {
  if (ops.is_null()) return std::nullopt;
  if (!ops.is_array()) return cannot_unmarshal(ops, kJsonPatchType);
  for (const json& op : ops) {
    if (op.is_null()) continue;
    if (!op.is_object()) return cannot_unmarshal(op, kJsonPatchOpType);
    for (const char* field : {"from", "op", "path"}) {
      auto it = op.find(field);
      if (it != op.end() && !it->is_null() && !it->is_string()) {
        return "json: cannot unmarshal " + std::string(go_json_kind(*it)) +
               " into Go struct field jsonPatchOp." + field + " of type string";
      }
    }
  }
  return std::nullopt;
}

// The JSON a json patch or merge patch produced must decode into the kind's type; the
// decoder's first step reads apiVersion and kind into strings.
std::optional<api::Status> undecodable_result(const json& result) {
  std::string error;
  if (!result.is_object()) {
    error = cannot_unmarshal(
        result,
        R"(struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })");
  } else {
    for (const char* field : {"apiVersion", "kind"}) {
      auto it = result.find(field);
      if (it != result.end() && !it->is_null() && !it->is_string()) {
        error = "json: cannot unmarshal " + std::string(go_json_kind(*it)) +
                " into Go struct field ." + field + " of type string";
        break;
      }
    }
  }
  if (error.empty()) return std::nullopt;
  const std::string body = "Invalid value: " + internal::go_quote(internal::go_marshal(result)) +
                           ": couldn't get version/kind; json parse error: " + error;
  return api::new_invalid(
      api::GroupKind{}, "",
      {api::StatusCause{std::string(api::kCauseTypeFieldValueInvalid), body, "patch"}});
}

}  // namespace

namespace internal {

api::Status generic_unprocessable_entity() {
  return api::Status{422, api::StatusReason::kInvalid,
                     "the server rejected our request due to an error in our request",
                     api::StatusDetails{}};
}

api::Status plain_server_error(std::string message) {
  return api::Status{500, api::StatusReason::kUnknown, std::move(message), std::nullopt};
}

api::Status apiserver_panic() {
  return api::Status{500, api::StatusReason::kInternalError,
                     "This request caused apiserver to panic. Look in the logs for details.",
                     std::nullopt};
}

std::string go_marshal(const json& v) {
  const std::string dumped = v.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size());
  for (std::size_t i = 0; i < dumped.size(); ++i) {
    const char c = dumped[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (dumped.compare(i, 3, "\xE2\x80\xA8") == 0 ||
               dumped.compare(i, 3, "\xE2\x80\xA9") == 0) {
      out += dumped[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace internal

api::Result<json> apply_json_patch(const json& original, std::string_view patch) {
  assert(original.is_object());
  std::string error;
  std::optional<json> ops = go_parse(patch, error, kMaxPatchNestingDepth);
  if (ops) {
    if (auto type_error = json_patch_type_error(*ops)) error = *type_error;
  }
  if (!error.empty()) return api::new_bad_request("error decoding patch: " + error);
  if (ops->is_array() && ops->size() > kMaxJsonPatchOperations) {
    return api::new_request_entity_too_large("The allowed maximum operations in a JSON patch is " +
                                             std::to_string(kMaxJsonPatchOperations) + ", got " +
                                             std::to_string(ops->size()));
  }
  json doc = original;
  if (ops->is_array()) {
    if (auto failed = internal::apply_json_patch_operations(doc, *ops, kJsonPatchMaxCopyBytes)) {
      if (*failed == internal::kGoNilDereference) return internal::apiserver_panic();
      return internal::generic_unprocessable_entity();
    }
  }
  if (auto bad = undecodable_result(doc)) return *bad;
  return doc;
}

api::Result<json> apply_merge_patch(const json& original, std::string_view patch) {
  assert(original.is_object());
  std::string error;
  std::optional<json> parsed = go_parse(patch, error, kMaxPatchNestingDepth);
  if (parsed && !parsed->is_object() && !parsed->is_null()) {
    error = cannot_unmarshal(*parsed, kMapType);
  }
  if (!error.empty()) return api::new_bad_request("error decoding patch: " + error);
  if (parsed->is_null()) return api::new_bad_request("Invalid JSON Patch");
  json doc = original;
  internal::merge_patch_object(doc, *parsed);
  if (auto bad = undecodable_result(doc)) return *bad;
  return doc;
}

api::Result<json> apply_strategic_merge_patch(const json& original, std::string_view patch,
                                              const PatchSchema& schema) {
  assert(original.is_object());
  if (!schema.supports_strategic_merge()) {
    return api::new_unsupported_media_type(
        "the body of the request was in an unknown format - accepted media types include: " +
        std::string(kCustomResourcePatchTypes));
  }
  std::string error;
  std::optional<nlohmann::ordered_json> parsed =
      internal::go_parse_ordered(patch, error, kMaxPatchNestingDepth);
  if (parsed && !parsed->is_object() && !parsed->is_null()) {
    error = cannot_unmarshal(json(*parsed), kMapType);
  }
  if (!error.empty()) return api::new_bad_request(error);
  if (parsed->is_null()) return original;
  auto merged = internal::strategic_merge_map(original, std::move(*parsed), schema);
  if (!merged) return merged.status();
  internal::remove_patch_leftovers(merged.value());
  return json(merged.value());
}

api::Result<json> apply_patch(const json& original, api::PatchType type, std::string_view patch,
                              const PatchSchema& schema) {
  switch (type) {
    case api::PatchType::kJsonPatch:
      return apply_json_patch(original, patch);
    case api::PatchType::kMergePatch:
      return apply_merge_patch(original, patch);
    case api::PatchType::kStrategicMergePatch:
      return apply_strategic_merge_patch(original, patch, schema);
    case api::PatchType::kApply:
    case api::PatchType::kApplyCbor:
      break;  // not a patch document: the server's apply path serves it
  }
  return api::new_unsupported_media_type("unknown patch type");
}

}  // namespace kubesim::fakeapi
