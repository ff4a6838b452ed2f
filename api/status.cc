#include "kubesim/api/status.h"

#include "kubesim/api/go_strings.h"
#include "kubesim/api/validation.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

namespace kubesim::api {
namespace {

using nlohmann::json;

constexpr std::array<std::pair<StatusReason, std::string_view>, 20> kReasonNames = {{
    {StatusReason::kUnknown, ""},
    {StatusReason::kUnauthorized, "Unauthorized"},
    {StatusReason::kForbidden, "Forbidden"},
    {StatusReason::kNotFound, "NotFound"},
    {StatusReason::kAlreadyExists, "AlreadyExists"},
    {StatusReason::kConflict, "Conflict"},
    {StatusReason::kGone, "Gone"},
    {StatusReason::kInvalid, "Invalid"},
    {StatusReason::kServerTimeout, "ServerTimeout"},
    {StatusReason::kStoreReadError, "StorageReadError"},
    {StatusReason::kTimeout, "Timeout"},
    {StatusReason::kTooManyRequests, "TooManyRequests"},
    {StatusReason::kBadRequest, "BadRequest"},
    {StatusReason::kMethodNotAllowed, "MethodNotAllowed"},
    {StatusReason::kNotAcceptable, "NotAcceptable"},
    {StatusReason::kRequestEntityTooLarge, "RequestEntityTooLarge"},
    {StatusReason::kUnsupportedMediaType, "UnsupportedMediaType"},
    {StatusReason::kInternalError, "InternalError"},
    {StatusReason::kExpired, "Expired"},
    {StatusReason::kServiceUnavailable, "ServiceUnavailable"},
}};


Status make(int code, StatusReason reason, std::string message) {
  return Status{code, reason, std::move(message), std::nullopt};
}

StatusDetails resource_details(const GroupResource& resource, std::string_view name) {
  StatusDetails d;
  d.name = std::string(name);
  d.group = resource.group;
  d.kind = resource.resource;
  return d;
}

// True when the reason matches, or when it is unknown and the code matches (apimachinery's
// "reason not in knownReasons" fallback; every reason the enum names is a known one).
bool reason_or_code(const Status& s, StatusReason reason, int code) {
  return s.reason == reason || (s.reason == StatusReason::kUnknown && s.code == code);
}

std::string json_string(std::string_view s) {
  return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

// Appends `"key":"value"` (with a leading comma) when value is not empty.
void append_string_field(std::string& out, std::string_view key, std::string_view value) {
  if (value.empty()) return;
  out += ",\"";
  out += key;
  out += "\":";
  out += json_string(value);
}

std::string details_json_string(const StatusDetails& d) {
  std::string out = "{";
  append_string_field(out, "name", d.name);
  append_string_field(out, "group", d.group);
  append_string_field(out, "kind", d.kind);
  append_string_field(out, "uid", d.uid);
  if (!d.causes.empty()) {
    out += ",\"causes\":[";
    for (std::size_t i = 0; i < d.causes.size(); ++i) {
      const StatusCause& c = d.causes[i];
      std::string cause = "{";
      append_string_field(cause, "reason", c.type);
      append_string_field(cause, "message", c.message);
      append_string_field(cause, "field", c.field);
      if (cause.size() > 1) cause.erase(1, 1);  // the leading comma
      cause += "}";
      if (i > 0) out += ",";
      out += cause;
    }
    out += "]";
  }
  if (d.retry_after_seconds != 0) {
    out += ",\"retryAfterSeconds\":" + std::to_string(d.retry_after_seconds);
  }
  if (out.size() > 1) out.erase(1, 1);
  out += "}";
  return out;
}

std::string string_or_empty(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

}  // namespace

std::string_view to_string(StatusReason reason) {
  for (const auto& [r, name] : kReasonNames) {
    if (r == reason) return name;
  }
  return "";
}

StatusReason parse_status_reason(std::string_view text) {
  for (const auto& [r, name] : kReasonNames) {
    if (name == text) return r;
  }
  return StatusReason::kUnknown;
}

std::string_view Status::status_text() const {
  return code >= 200 && code < 300 ? "Success" : "Failure";
}

nlohmann::json Status::to_json() const {
  // One encoder for both forms, so they cannot drift apart; Status bodies are not a hot path.
  return json::parse(to_json_string());
}

std::string Status::to_json_string() const {
  std::string out = R"({"kind":"Status","apiVersion":"v1","metadata":{)";
  if (!continue_token.empty()) {
    out += "\"continue\":" + json(continue_token).dump();
  }
  out += R"(},"status":")";
  out += status_text();
  out += "\"";
  append_string_field(out, "message", message);
  append_string_field(out, "reason", to_string(reason));
  if (details) out += ",\"details\":" + details_json_string(*details);
  if (code != 0) out += ",\"code\":" + std::to_string(code);
  out += "}";
  return out;
}

std::optional<Status> Status::from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  Status s;
  if (const auto it = j.find("code"); it != j.end() && it->is_number_integer()) {
    s.code = it->get<int>();
  }
  if (s.code == 0 && string_or_empty(j, "status") == "Success") s.code = 200;
  s.reason = parse_status_reason(string_or_empty(j, "reason"));
  s.message = string_or_empty(j, "message");
  if (const auto m = j.find("metadata"); m != j.end() && m->is_object()) {
    s.continue_token = string_or_empty(*m, "continue");
  }
  if (const auto it = j.find("details"); it != j.end() && it->is_object()) {
    StatusDetails d;
    d.name = string_or_empty(*it, "name");
    d.group = string_or_empty(*it, "group");
    d.kind = string_or_empty(*it, "kind");
    d.uid = string_or_empty(*it, "uid");
    if (const auto c = it->find("causes"); c != it->end() && c->is_array()) {
      for (const json& cause : *c) {
        if (!cause.is_object()) continue;
        d.causes.push_back({string_or_empty(cause, "reason"), string_or_empty(cause, "message"),
                            string_or_empty(cause, "field")});
      }
    }
    if (const auto r = it->find("retryAfterSeconds"); r != it->end() && r->is_number_integer()) {
      d.retry_after_seconds = r->get<std::int32_t>();
    }
    s.details = std::move(d);
  }
  return s;
}

std::ostream& operator<<(std::ostream& os, StatusReason reason) {
  const std::string_view name = to_string(reason);
  return os << (name.empty() ? std::string_view("Unknown") : name);
}

std::ostream& operator<<(std::ostream& os, const Status& status) {
  if (status.code == 0) {
    const std::string_view cause = to_string(status.client_error);
    return os << "client error" << (cause.empty() ? "" : " (") << cause << (cause.empty() ? "" : ")")
              << ": " << status.message;
  }
  return os << status.code << " " << status.reason << ": " << status.message;
}

Status new_not_found(const GroupResource& resource, std::string_view name) {
  Status s = make(404, StatusReason::kNotFound,
                  resource.to_string() + " " + go_quote(name) + " not found");
  s.details = resource_details(resource, name);
  return s;
}

Status new_already_exists(const GroupResource& resource, std::string_view name) {
  Status s = make(409, StatusReason::kAlreadyExists,
                  resource.to_string() + " " + go_quote(name) + " already exists");
  s.details = resource_details(resource, name);
  return s;
}

Status new_generate_name_conflict(const GroupResource& resource, std::string_view name,
                                  int retry_after_seconds) {
  Status s = make(409, StatusReason::kAlreadyExists,
                  resource.to_string() + " " + go_quote(name) +
                      " already exists, the server was not able to generate a unique name for "
                      "the object");
  s.details = resource_details(resource, name);
  s.details->retry_after_seconds = retry_after_seconds;
  return s;
}

Status new_conflict(const GroupResource& resource, std::string_view name, std::string_view error) {
  Status s = make(409, StatusReason::kConflict,
                  "Operation cannot be fulfilled on " + resource.to_string() + " " +
                      go_quote(name) + ": " + std::string(error));
  s.details = resource_details(resource, name);
  return s;
}

Status new_gone(std::string_view message) {
  return make(410, StatusReason::kGone, std::string(message));
}

Status new_resource_expired(std::string_view message) {
  return make(410, StatusReason::kExpired, std::string(message));
}

std::string too_old_resource_version_message(std::int64_t requested, std::int64_t oldest) {
  return "too old resource version: " + std::to_string(requested) + " (" + std::to_string(oldest) +
         ")";
}

Status new_invalid(const GroupKind& kind, std::string_view name, std::vector<StatusCause> causes) {
  // The field errors, aggregated as apimachinery's ErrorList.ToAggregate does: duplicates
  // dropped, one error bare, several in brackets.
  std::vector<std::string> errors;
  std::set<std::string> seen;
  for (const StatusCause& c : causes) {
    std::string e = c.field + ": " + c.message;  // field.Error's Error(), empty field or not
    if (seen.insert(e).second) errors.push_back(std::move(e));
  }
  std::string message = kind.to_string() + " " + go_quote(name) + " is invalid";
  if (errors.size() == 1) {
    message += ": " + errors.front();
  } else if (errors.size() > 1) {
    message += ": [";
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (i > 0) message += ", ";
      message += errors[i];
    }
    message += "]";
  }
  Status s = make(422, StatusReason::kInvalid, std::move(message));
  s.details = StatusDetails{std::string(name), kind.group, kind.kind, "", std::move(causes), 0};
  return s;
}

Status new_bad_request(std::string_view message) {
  return make(400, StatusReason::kBadRequest, std::string(message));
}

Status new_unauthorized(std::string_view reason) {
  return make(401, StatusReason::kUnauthorized,
              reason.empty() ? std::string("not authorized") : std::string(reason));
}

Status new_forbidden(const GroupResource& resource, std::string_view name, std::string_view error) {
  std::string message;
  if (resource.empty()) {
    message = "forbidden: " + std::string(error);
  } else if (name.empty()) {
    message = resource.to_string() + " is forbidden: " + std::string(error);
  } else {
    message = resource.to_string() + " " + go_quote(name) + " is forbidden: " + std::string(error);
  }
  Status s = make(403, StatusReason::kForbidden, std::move(message));
  s.details = resource_details(resource, name);
  return s;
}

Status new_too_many_requests(std::string_view message, int retry_after_seconds) {
  Status s = make(429, StatusReason::kTooManyRequests, std::string(message));
  s.details = StatusDetails{};
  s.details->retry_after_seconds = retry_after_seconds;
  return s;
}

Status new_internal_error(std::string_view error) {
  Status s =
      make(500, StatusReason::kInternalError, "Internal error occurred: " + std::string(error));
  s.details = StatusDetails{};
  s.details->causes.push_back({"", std::string(error), ""});
  return s;
}

Status new_service_unavailable(std::string_view message) {
  return make(503, StatusReason::kServiceUnavailable, std::string(message));
}

Status new_timeout(std::string_view message, int retry_after_seconds) {
  Status s = make(504, StatusReason::kTimeout, "Timeout: " + std::string(message));
  s.details = StatusDetails{};
  s.details->retry_after_seconds = retry_after_seconds;
  return s;
}

Status new_server_timeout(const GroupResource& resource, std::string_view operation,
                          int retry_after_seconds) {
  Status s = make(500, StatusReason::kServerTimeout,
                  "The " + std::string(operation) + " operation against " + resource.to_string() +
                      " could not be completed at this time, please try again.");
  s.details = resource_details(resource, operation);
  s.details->retry_after_seconds = retry_after_seconds;
  return s;
}

Status new_method_not_supported(const GroupResource& resource, std::string_view action) {
  Status s = make(405, StatusReason::kMethodNotAllowed,
                  std::string(action) + " is not supported on resources of kind " +
                      go_quote(resource.to_string()));
  s.details = resource_details(resource, "");
  return s;
}

Status new_request_entity_too_large(std::string_view message) {
  return make(413, StatusReason::kRequestEntityTooLarge,
              "Request entity too large: " + std::string(message));
}

Status new_unsupported_media_type(std::string_view message) {
  return make(415, StatusReason::kUnsupportedMediaType, std::string(message));
}

Status new_not_acceptable(std::string_view message) {
  return make(406, StatusReason::kNotAcceptable, std::string(message));
}

bool is_not_found(const Status& s) { return reason_or_code(s, StatusReason::kNotFound, 404); }
bool is_already_exists(const Status& s) { return s.reason == StatusReason::kAlreadyExists; }
bool is_conflict(const Status& s) { return reason_or_code(s, StatusReason::kConflict, 409); }
bool is_gone(const Status& s) { return reason_or_code(s, StatusReason::kGone, 410); }
bool is_resource_expired(const Status& s) { return s.reason == StatusReason::kExpired; }
bool is_invalid(const Status& s) { return reason_or_code(s, StatusReason::kInvalid, 422); }
bool is_bad_request(const Status& s) { return reason_or_code(s, StatusReason::kBadRequest, 400); }
bool is_unauthorized(const Status& s) {
  return reason_or_code(s, StatusReason::kUnauthorized, 401);
}
bool is_forbidden(const Status& s) { return reason_or_code(s, StatusReason::kForbidden, 403); }
bool is_too_many_requests(const Status& s) {
  // The code alone suffices here whatever the reason (kept so for backward compatibility
  // in apimachinery).
  return s.reason == StatusReason::kTooManyRequests || s.code == 429;
}
bool is_request_entity_too_large(const Status& s) {
  return s.reason == StatusReason::kRequestEntityTooLarge || s.code == 413;
}
bool is_internal_error(const Status& s) {
  return reason_or_code(s, StatusReason::kInternalError, 500);
}
bool is_service_unavailable(const Status& s) {
  return reason_or_code(s, StatusReason::kServiceUnavailable, 503);
}
bool is_timeout(const Status& s) { return reason_or_code(s, StatusReason::kTimeout, 504); }
bool is_server_timeout(const Status& s) {
  // No HTTP code is specific to retryable server timeouts, so the reason decides alone.
  return s.reason == StatusReason::kServerTimeout;
}
bool is_method_not_supported(const Status& s) {
  return reason_or_code(s, StatusReason::kMethodNotAllowed, 405);
}
bool is_not_acceptable(const Status& s) {
  return reason_or_code(s, StatusReason::kNotAcceptable, 406);
}
bool is_unsupported_media_type(const Status& s) {
  return reason_or_code(s, StatusReason::kUnsupportedMediaType, 415);
}

std::optional<int> retry_after_seconds(const Status& s) {
  if (!s.details) return std::nullopt;
  if (s.reason == StatusReason::kServerTimeout) return s.details->retry_after_seconds;
  if (s.details->retry_after_seconds > 0) return s.details->retry_after_seconds;
  return std::nullopt;
}

}  // namespace kubesim::api
