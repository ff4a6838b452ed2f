// Request bodies: JSON and YAML objects for create and update, patch documents, DeleteOptions.
#include "fakeapi/internal/server_util.h"
#include "fakeapi/http/internal/request.h"
#include "kubesim/api/yaml.h"

namespace kubesim::fakeapi::http::internal {
namespace {

constexpr char kProtobuf[] = "application/vnd.kubernetes.protobuf";

api::Status unknown_format(std::string_view accepted) {
  return api::new_unsupported_media_type(
      "the body of the request was in an unknown format - accepted media types include: " +
      std::string(accepted));
}

api::Status bad_body(const std::string& what) {
  return api::new_bad_request("the body of the request could not be decoded: " + what);
}

std::optional<api::Status> decode_object(ApiCall& call) {
  const std::string& type = call.content_type;
  if (type == kProtobuf) {
    call.protobuf_body = true;
    return std::nullopt;
  }
  nlohmann::json j;
  if (type.empty() || type == "application/json") {
    auto obj = api::Object::from_string(call.body);
    if (!obj) return obj.status();
    call.object = std::move(obj.value());
    return std::nullopt;
  }
  if (type == "application/yaml") {
    auto parsed = api::yaml_to_json(call.body);
    if (!parsed) return parsed.status();
    if (!parsed->is_object()) return bad_body("the YAML document is not an object");
    auto obj = api::Object::from_json(std::move(parsed.value()));
    if (!obj) return obj.status();
    call.object = std::move(obj.value());
    return std::nullopt;
  }
  return unknown_format("application/json, application/yaml, application/vnd.kubernetes.protobuf");
}

std::optional<api::Status> decode_delete_options(ApiCall& call) {
  if (call.body.empty()) return std::nullopt;
  const std::string& type = call.content_type;
  nlohmann::json j;
  if (type == "application/yaml") {
    auto parsed = api::yaml_to_json(call.body);
    if (!parsed) return parsed.status();
    j = std::move(parsed.value());
  } else if (type.empty() || type == "application/json") {
    j = nlohmann::json::parse(call.body, nullptr, false);
    if (j.is_discarded()) return bad_body("DeleteOptions is not valid JSON");
  } else {
    return unknown_format("application/json, application/yaml");
  }
  return fakeapi::internal::delete_options_from_json(j, call.del);
}

}  // namespace

std::optional<api::Status> decode_body(ApiCall& call) {
  if (call.verb == "create" || call.verb == "update") return decode_object(call);
  if (call.verb == "patch") {
    // application/apply-patch+cbor reaches the server, which refuses it as kube-apiserver
    // without the CBOR feature does.
    call.patch_type = api::patch_type_from_content_type(call.content_type);
    if (!call.patch_type) {
      return unknown_format(
          "application/json-patch+json, application/merge-patch+json, "
          "application/strategic-merge-patch+json, application/apply-patch+yaml");
    }
    return std::nullopt;
  }
  if (call.verb == "delete" || call.verb == "deletecollection") return decode_delete_options(call);
  return std::nullopt;
}

}  // namespace kubesim::fakeapi::http::internal
