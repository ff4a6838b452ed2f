// How the Reflector classifies failures (client-go's isExpiredError and friends).
#ifndef KUBESIM_INFORMER_INTERNAL_ERRORS_H_
#define KUBESIM_INFORMER_INTERNAL_ERRORS_H_

#include <string>
#include <string_view>

#include "kubesim/api/status.h"

namespace kubesim::informer::internal {

// 410: Expired, or Gone from servers older than 1.18.
bool is_expired_error(const api::Status& s);
// The requested resourceVersion is ahead of the server (a 504 with the ResourceVersionTooLarge
// cause, or the older servers' message).
bool is_too_large_resource_version_error(const api::Status& s);
// The server is not reachable at all, or asks to slow down: retry the watch, don't re-list.
bool is_watch_error_retriable(const api::Status& s);
// `s` with `prefix` in front of its message.
api::Status wrapped(std::string_view prefix, api::Status s);

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_INTERNAL_ERRORS_H_
