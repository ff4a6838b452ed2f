// Client-side failures: the code-0 Status vocabulary of kubesim/api/status.h.
#include <cassert>

#include "kubesim/api/status.h"

namespace kubesim::api {

std::string_view to_string(ClientError error) {
  switch (error) {
    case ClientError::kNone:
      return "";
    case ClientError::kCanceled:
      return "Canceled";
    case ClientError::kDeadlineExceeded:
      return "DeadlineExceeded";
    case ClientError::kConnectionRefused:
      return "ConnectionRefused";
    case ClientError::kNetworkTimeout:
      return "NetworkTimeout";
    case ClientError::kConnectionLost:
      return "ConnectionLost";
    case ClientError::kInvalidResponse:
      return "InvalidResponse";
    case ClientError::kInvalidRequest:
      return "InvalidRequest";
  }
  return "";
}

Status new_client_error(ClientError kind, std::string message) {
  assert(kind != ClientError::kNone);
  Status s;
  s.code = 0;
  s.message = std::move(message);
  s.client_error = kind;
  return s;
}

Status new_context_error(sim::ContextError error) {
  assert(error != sim::ContextError::kNone);
  const ClientError kind = error == sim::ContextError::kDeadlineExceeded
                               ? ClientError::kDeadlineExceeded
                               : ClientError::kCanceled;
  return new_client_error(kind, sim::to_string(error));
}

bool is_client_error(const Status& s) { return s.code == 0; }
bool is_context_canceled(const Status& s) {
  return s.code == 0 && s.client_error == ClientError::kCanceled;
}
bool is_deadline_exceeded(const Status& s) {
  return s.code == 0 && s.client_error == ClientError::kDeadlineExceeded;
}
bool is_context_error(const Status& s) { return is_context_canceled(s) || is_deadline_exceeded(s); }
bool is_connection_refused(const Status& s) {
  return s.code == 0 && s.client_error == ClientError::kConnectionRefused;
}
bool is_network_timeout(const Status& s) {
  return s.code == 0 && s.client_error == ClientError::kNetworkTimeout;
}
bool is_connection_lost(const Status& s) {
  return s.code == 0 && s.client_error == ClientError::kConnectionLost;
}

}  // namespace kubesim::api
