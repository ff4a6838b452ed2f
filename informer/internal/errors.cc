#include "informer/internal/errors.h"

namespace kubesim::informer::internal {

bool is_expired_error(const api::Status& s) { return api::is_resource_expired(s) || api::is_gone(s); }

bool is_too_large_resource_version_error(const api::Status& s) {
  if (s.details) {
    for (const api::StatusCause& cause : s.details->causes) {
      if (cause.type == "ResourceVersionTooLarge") return true;
    }
  }
  if (!api::is_timeout(s)) return false;
  if (s.details) {
    for (const api::StatusCause& cause : s.details->causes) {
      if (cause.message == "Too large resource version") return true;
    }
  }
  return s.message.find("Too large resource version") != std::string::npos;
}

bool is_watch_error_retriable(const api::Status& s) {
  return api::is_connection_refused(s) || api::is_too_many_requests(s);
}

api::Status wrapped(std::string_view prefix, api::Status s) {
  s.message = std::string(prefix) + s.message;
  return s;
}

}  // namespace kubesim::informer::internal
