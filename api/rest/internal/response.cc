#include "api/rest/internal/response.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"
#include "kubesim/api/validation.h"

namespace kubesim::api::rest::internal {
namespace {

// client-go caps the body text it quotes in a made-up error.
constexpr std::size_t kMaxUnstructuredText = 2048;

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The media type without parameters, lower case ("application/json").
std::string media_type(std::string_view content_type) {
  return lower(trim(content_type.substr(0, content_type.find(';'))));
}

bool json_decodable(std::string_view content_type) {
  return content_type.empty() || media_type(content_type) == "application/json";
}

// A Failure Status in `j`, as client-go's Result.Error recognises one.
std::optional<Status> failure_status(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  auto kind = j.find("kind");
  auto status = j.find("status");
  if (kind == j.end() || *kind != "Status") return std::nullopt;
  if (status == j.end() || !status->is_string() || *status == "Success") return std::nullopt;
  return Status::from_json(j);
}

// apimachinery's NewGenericServerResponse with isUnexpectedResponse = true.
Status generic_server_response(int code, const RequestInfo& info, const std::string& server_message,
                               int retry_after) {
  Status s;
  s.code = code;
  s.message = "the server responded with the status code " + std::to_string(code) +
              " but did not return more information";
  switch (code) {
    case 409:
      s.reason = info.method == "POST" ? StatusReason::kAlreadyExists : StatusReason::kConflict;
      s.message = "the server reported a conflict";
      break;
    case 404:
      s.reason = StatusReason::kNotFound;
      s.message = "the server could not find the requested resource";
      break;
    case 400:
      s.reason = StatusReason::kBadRequest;
      s.message = "the server rejected our request for an unknown reason";
      break;
    case 401:
      s.reason = StatusReason::kUnauthorized;
      s.message = "the server has asked for the client to provide credentials";
      break;
    case 403:
      s.reason = StatusReason::kForbidden;
      s.message = server_message;
      break;
    case 406:
      s.reason = StatusReason::kNotAcceptable;
      s.message = server_message.empty() || server_message == "unknown"
                      ? "the server was unable to respond with a content type that the client supports"
                      : server_message;
      break;
    case 415:
      s.reason = StatusReason::kUnsupportedMediaType;
      s.message = server_message;
      break;
    case 405:
      s.reason = StatusReason::kMethodNotAllowed;
      s.message = "the server does not allow this method on the requested resource";
      break;
    case 422:
      s.reason = StatusReason::kInvalid;
      s.message = "the server rejected our request due to an error in our request";
      break;
    case 503:
      s.reason = StatusReason::kServiceUnavailable;
      s.message = "the server is currently unable to handle the request";
      break;
    case 504:
      s.reason = StatusReason::kTimeout;
      s.message =
          "the server was unable to return a response in the time allotted, but may still be "
          "processing the request";
      break;
    case 429:
      s.reason = StatusReason::kTooManyRequests;
      s.message = "the server has received too many requests and has asked us to try again later";
      break;
    default:
      if (code >= 500) {
        s.reason = StatusReason::kInternalError;
        s.message = "an error on the server (" + go_quote(server_message) +
                    ") has prevented the request from succeeding";
      }
  }
  const std::string verb = lower(info.method);
  if (!info.resource.empty() && !info.name.empty()) {
    s.message += " (" + verb + " " + info.resource.to_string() + " " + info.name + ")";
  } else if (!info.resource.empty()) {
    s.message += " (" + verb + " " + info.resource.to_string() + ")";
  }
  StatusDetails d;
  d.group = info.resource.group;
  d.kind = info.resource.resource;
  d.name = info.name;
  d.retry_after_seconds = retry_after;
  d.causes.push_back(
      StatusCause{std::string(kCauseTypeUnexpectedServerResponse), server_message, ""});
  s.details = std::move(d);
  return s;
}

// The parsed JSON of a 2xx response, or the failure to report.
Result<nlohmann::json> success_json(const HttpResponse& r, const RequestInfo& info) {
  if (r.code == 0) return transport_error(r.error);
  if (r.code < 200 || r.code > 206) return status_from_error_response(r, info);
  if (!json_decodable(r.content_type)) {
    return decode_error("serializer for " + r.content_type + " doesn't exist");
  }
  if (r.body.empty()) {
    return decode_error("0-length response with status code: " + std::to_string(r.code) +
                        " and content type: " + r.content_type);
  }
  nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
  if (j.is_discarded()) return decode_error("unable to decode the response body: malformed JSON");
  if (!j.is_object()) return decode_error("unable to decode the response body: not a JSON object");
  if (auto failure = failure_status(j)) return *failure;
  return j;
}

}  // namespace

Status transport_error(std::string error) {
  ClientError kind = ClientError::kConnectionLost;
  if (error.find("context canceled") != std::string::npos) {
    kind = ClientError::kCanceled;
  } else if (error.find("context deadline exceeded") != std::string::npos) {
    kind = ClientError::kDeadlineExceeded;
  } else if (error.find("connection refused") != std::string::npos) {
    kind = ClientError::kConnectionRefused;
  } else if (error.find("timeout") != std::string::npos || error.find("timed out") != std::string::npos) {
    kind = ClientError::kNetworkTimeout;
  }
  return new_client_error(kind, std::move(error));
}

Status decode_error(std::string message) {
  return new_client_error(ClientError::kInvalidResponse, std::move(message));
}

Status request_error(std::string message) {
  return new_client_error(ClientError::kInvalidRequest, std::move(message));
}

Status status_from_error_response(const HttpResponse& r, const RequestInfo& info) {
  if (json_decodable(r.content_type) && !r.body.empty()) {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (auto s = failure_status(j)) return *s;
  }
  const bool text =
      r.content_type.empty() || media_type(r.content_type).rfind("text/", 0) == 0;
  std::string message = "unknown";
  if (text) {
    message = std::string(trim(std::string_view(r.body).substr(0, kMaxUnstructuredText)));
  }
  return generic_server_response(r.code, info, message, r.retry_after_seconds.value_or(0));
}

Result<ObjectPtr> decode_object_response(const HttpResponse& r, const RequestInfo& info) {
  auto j = success_json(r, info);
  if (!j.ok()) return std::move(j).status();
  auto object = Object::from_json(std::move(j).value());
  if (!object.ok()) return decode_error("unable to decode the response body: " + object.status().message);
  return std::move(object).value();
}

Result<ObjectList> decode_list_response(const HttpResponse& r, const RequestInfo& info) {
  auto parsed = success_json(r, info);
  if (!parsed.ok()) return std::move(parsed).status();
  nlohmann::json& j = parsed.value();
  ObjectList list;
  std::string api_version;
  std::string item_kind;
  if (auto it = j.find("apiVersion"); it != j.end() && it->is_string()) api_version = *it;
  if (auto it = j.find("kind"); it != j.end() && it->is_string()) {
    item_kind = *it;
    if (item_kind.size() > 4 && item_kind.ends_with("List")) item_kind.resize(item_kind.size() - 4);
  }
  if (auto meta = j.find("metadata"); meta != j.end() && meta->is_object()) {
    if (auto rv = meta->find("resourceVersion"); rv != meta->end() && rv->is_string()) {
      list.resource_version = *rv;
    }
    if (auto c = meta->find("continue"); c != meta->end() && c->is_string()) list.continue_token = *c;
    if (auto n = meta->find("remainingItemCount"); n != meta->end() && n->is_number_integer()) {
      list.remaining_item_count = n->get<std::int64_t>();
    }
  }
  auto items = j.find("items");
  if (items == j.end() || items->is_null()) return list;
  if (!items->is_array()) return decode_error("unable to decode the response body: items is not a list");
  list.items.reserve(items->size());
  for (auto& item : *items) {
    if (item.is_object()) {
      if (!item.contains("kind") && !item_kind.empty()) item["kind"] = item_kind;
      if (!item.contains("apiVersion") && !api_version.empty()) item["apiVersion"] = api_version;
    }
    auto object = Object::from_json(std::move(item));
    if (!object.ok()) {
      return decode_error("unable to decode the response body: " + object.status().message);
    }
    list.items.push_back(std::move(object).value());
  }
  return list;
}

Result<void> decode_empty_response(const HttpResponse& r, const RequestInfo& info) {
  if (r.code == 0) return transport_error(r.error);
  if (r.code < 200 || r.code > 206) return status_from_error_response(r, info);
  if (json_decodable(r.content_type) && !r.body.empty()) {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (auto failure = failure_status(j)) return *failure;
  }
  return {};
}

}  // namespace kubesim::api::rest::internal
