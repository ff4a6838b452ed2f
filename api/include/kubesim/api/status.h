// API errors as values: Status mirrors metav1.Status, the body Kubernetes returns for a failed
// call.
//
// A Status carries an HTTP code, a machine-readable reason, a human message and optional details.
// The constructors below build exactly the Status kube-apiserver builds for the same failure
// (apimachinery's k8s.io/apimachinery/pkg/api/errors: same code, reason, message text and
// details), so clients that branch on them, or print them, see what they would see against a
// real cluster. Branch with the predicates (`is_conflict(s)`), never by comparing messages.
#ifndef KUBESIM_API_STATUS_H_
#define KUBESIM_API_STATUS_H_

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/sim/context.h"

namespace kubesim::api {

// metav1.StatusReason. kUnknown is the empty reason; so is any reason string this enum does not
// know, which makes the predicates fall back on the code for it, as apimachinery's do.
enum class StatusReason {
  kUnknown,
  kUnauthorized,
  kForbidden,
  kNotFound,
  kAlreadyExists,
  kConflict,
  kGone,
  kInvalid,
  kServerTimeout,
  kStoreReadError,
  kTimeout,
  kTooManyRequests,
  kBadRequest,
  kMethodNotAllowed,
  kNotAcceptable,
  kRequestEntityTooLarge,
  kUnsupportedMediaType,
  kInternalError,
  kExpired,
  kServiceUnavailable,
};

// The reason as Kubernetes spells it on the wire ("NotFound", "AlreadyExists", …; "" for kUnknown).
std::string_view to_string(StatusReason reason);
// The inverse; unrecognised strings (and "") give kUnknown.
StatusReason parse_status_reason(std::string_view text);

// metav1.StatusCause. `type` is serialized as "reason", as in Kubernetes.
struct StatusCause {
  std::string type;
  std::string message;
  std::string field;

  bool operator==(const StatusCause&) const = default;
};

// metav1.StatusDetails. Note `kind` holds the resource for most errors (apimachinery puts the
// GroupResource's resource there).
struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;
  std::string uid;
  std::vector<StatusCause> causes;
  std::int32_t retry_after_seconds = 0;

  bool operator==(const StatusDetails&) const = default;
};

// Common cause types (metav1.CauseType).
inline constexpr std::string_view kCauseTypeFieldValueNotFound = "FieldValueNotFound";
inline constexpr std::string_view kCauseTypeFieldValueRequired = "FieldValueRequired";
inline constexpr std::string_view kCauseTypeFieldValueDuplicate = "FieldValueDuplicate";
inline constexpr std::string_view kCauseTypeFieldValueInvalid = "FieldValueInvalid";
inline constexpr std::string_view kCauseTypeFieldValueNotSupported = "FieldValueNotSupported";
inline constexpr std::string_view kCauseTypeFieldValueTypeInvalid = "FieldValueTypeInvalid";
inline constexpr std::string_view kCauseTypeForbidden = "FieldValueForbidden";
inline constexpr std::string_view kCauseTypeTooLong = "FieldValueTooLong";
inline constexpr std::string_view kCauseTypeTooMany = "FieldValueTooMany";
inline constexpr std::string_view kCauseTypeInternal = "InternalError";
inline constexpr std::string_view kCauseTypeUnexpectedServerResponse = "UnexpectedServerResponse";

// Why a call got no API answer. client-go returns a Go error rather than a metav1.Status when no
// answer arrived or it could not be read; kubesim returns a Status with code 0 whose
// `client_error` names the cause, so every client reports these the same way. kNone marks a
// Status that came from a server.
enum class ClientError {
  kNone,
  kCanceled,           // the call's context was cancelled ("context canceled")
  kDeadlineExceeded,   // the call's context passed its deadline ("context deadline exceeded")
  kConnectionRefused,  // nothing accepted the connection ("connect: connection refused")
  kNetworkTimeout,     // the network did not carry the call in time (an i/o timeout, a partition)
  kConnectionLost,     // the connection broke before the answer was complete (EOF, reset)
  kInvalidResponse,    // an answer arrived that the client could not decode
  kInvalidRequest,     // the client refused the call before sending it (an empty name)
};

// "Canceled", "DeadlineExceeded", "ConnectionRefused", "NetworkTimeout", "ConnectionLost",
// "InvalidResponse", "InvalidRequest"; "" for kNone.
std::string_view to_string(ClientError error);

// The error the registry wraps into a Conflict when an update carries a stale resourceVersion
// (the generic registry's OptimisticLockErrorMsg).
inline constexpr std::string_view kOptimisticLockErrorMsg =
    "the object has been modified; please apply your changes to the latest version and try again";

struct Status {
  int code = 0;
  StatusReason reason = StatusReason::kUnknown;
  std::string message;
  std::optional<StatusDetails> details;
  // metadata.continue: set only on the 410 for a compacted continue token, where it lets the
  // client take the rest of the list at the latest revision (an inconsistent continuation).
  std::string continue_token{};
  // For code 0 only: why no answer arrived (see ClientError). Not part of the wire form.
  ClientError client_error = ClientError::kNone;

  // "Success" for a 2xx code, otherwise "Failure": the Status's "status" field.
  std::string_view status_text() const;

  // The metav1.Status JSON object. Empty fields are omitted as Go's omitempty omits them;
  // "kind", "apiVersion", "metadata" and "status" are always present.
  nlohmann::json to_json() const;
  // The same as compact JSON text with the fields in metav1.Status's declaration order
  // ({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":…}), the
  // bytes kube-apiserver writes.
  std::string to_json_string() const;
  // Reads a Status back from its JSON form. Missing or mistyped fields keep their defaults; a
  // "Success" status without a code gets 200. Returns nullopt only when `j` is not an object.
  static std::optional<Status> from_json(const nlohmann::json& j);

  bool operator==(const Status&) const = default;
};

std::ostream& operator<<(std::ostream& os, StatusReason reason);
// "409 Conflict: Operation cannot be fulfilled …", for logs and test failure output.
std::ostream& operator<<(std::ostream& os, const Status& status);

// --- Constructors (apimachinery's errors.New*) ------------------------------------------------

// 404 NotFound: `configmaps "x" not found`.
Status new_not_found(const GroupResource& resource, std::string_view name);
// 409 AlreadyExists: `configmaps "x" already exists`.
Status new_already_exists(const GroupResource& resource, std::string_view name);
// 409 AlreadyExists, for a generateName that did not yield a free name.
Status new_generate_name_conflict(const GroupResource& resource, std::string_view name,
                                  int retry_after_seconds);
// 409 Conflict: `Operation cannot be fulfilled on configmaps "x": <error>`; the registry passes
// kOptimisticLockErrorMsg as the error for a stale resourceVersion.
Status new_conflict(const GroupResource& resource, std::string_view name, std::string_view error);
// 410 Gone. apimachinery deprecates it in favour of new_resource_expired; current apiservers
// answer both compacted list continuations and too-old watches with Expired.
Status new_gone(std::string_view message);
// 410 Expired: the requested resourceVersion has been compacted away.
Status new_resource_expired(std::string_view message);
// The watch cache's message for a too-old resourceVersion: "too old resource version: 5 (10)".
std::string too_old_resource_version_message(std::int64_t requested, std::int64_t oldest);
// 422 Invalid: `ConfigMap "x" is invalid: <field>: <message>` (several causes are listed in
// brackets, duplicates dropped). Each cause's message is the field error's body, without the
// field path; the path goes in `field`.
Status new_invalid(const GroupKind& kind, std::string_view name, std::vector<StatusCause> causes);
// 400 BadRequest with `message` as is.
Status new_bad_request(std::string_view message);
// 401 Unauthorized; an empty reason becomes "not authorized".
Status new_unauthorized(std::string_view reason);
// 403 Forbidden: `configmaps "x" is forbidden: <error>` (shorter forms without name/resource).
Status new_forbidden(const GroupResource& resource, std::string_view name, std::string_view error);
// 429 TooManyRequests with details.retryAfterSeconds.
Status new_too_many_requests(std::string_view message, int retry_after_seconds);
// 500 InternalError: "Internal error occurred: <error>", with the error as the only cause.
Status new_internal_error(std::string_view error);
// 503 ServiceUnavailable with `message` as is.
Status new_service_unavailable(std::string_view message);
// 504 Timeout: "Timeout: <message>"; the request may still complete on the server.
Status new_timeout(std::string_view message, int retry_after_seconds);
// 500 ServerTimeout: "The <operation> operation against <resource> could not be completed at
// this time, please try again."; the client should retry after `retry_after_seconds`.
Status new_server_timeout(const GroupResource& resource, std::string_view operation,
                          int retry_after_seconds);
// 405 MethodNotAllowed: `<action> is not supported on resources of kind "<resource>"`.
Status new_method_not_supported(const GroupResource& resource, std::string_view action);
// 413 RequestEntityTooLarge: "Request entity too large: <message>".
Status new_request_entity_too_large(std::string_view message);
// 415 UnsupportedMediaType with `message` as is.
Status new_unsupported_media_type(std::string_view message);
// 406 NotAcceptable with `message` as is.
Status new_not_acceptable(std::string_view message);

// --- Client-side failures (no API answer) ---------------------------------------------------

// A code-0 Status for `kind` with `message` as is (Go's error text, e.g. "dial tcp 10.0.0.1:443:
// connect: connection refused"). `kind` must not be kNone.
Status new_client_error(ClientError kind, std::string message);
// The failure of a call whose context is done: "context canceled" or "context deadline exceeded",
// the texts of Go's context errors. `error` must not be kNone.
Status new_context_error(sim::ContextError error);

// True for every client-side failure (code 0), whatever its cause.
bool is_client_error(const Status& s);
bool is_context_canceled(const Status& s);
bool is_deadline_exceeded(const Status& s);
// The call's context ended it, cancelled or past its deadline.
bool is_context_error(const Status& s);
bool is_connection_refused(const Status& s);
bool is_network_timeout(const Status& s);
bool is_connection_lost(const Status& s);

// --- Predicates (apimachinery's errors.Is*) ----------------------------------------------------
// Each is true when the reason matches. Most also accept the matching code when the reason is
// kUnknown (a proxy or an older server); AlreadyExists, Expired and ServerTimeout look at the
// reason only, and TooManyRequests and RequestEntityTooLarge accept their code whatever the reason.

bool is_not_found(const Status& s);
bool is_already_exists(const Status& s);
bool is_conflict(const Status& s);
bool is_gone(const Status& s);
bool is_resource_expired(const Status& s);
bool is_invalid(const Status& s);
bool is_bad_request(const Status& s);
bool is_unauthorized(const Status& s);
bool is_forbidden(const Status& s);
bool is_too_many_requests(const Status& s);
bool is_request_entity_too_large(const Status& s);
bool is_internal_error(const Status& s);
bool is_service_unavailable(const Status& s);
bool is_timeout(const Status& s);
bool is_server_timeout(const Status& s);
bool is_method_not_supported(const Status& s);
bool is_not_acceptable(const Status& s);
bool is_unsupported_media_type(const Status& s);

// The delay the server asks for (apimachinery's SuggestsClientDelay): the details'
// retryAfterSeconds when positive, or whatever it is for a ServerTimeout; otherwise nullopt.
std::optional<int> retry_after_seconds(const Status& s);

}  // namespace kubesim::api

#endif  // KUBESIM_API_STATUS_H_
