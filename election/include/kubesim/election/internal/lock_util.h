// Helpers shared by the lock implementations.
#ifndef KUBESIM_ELECTION_INTERNAL_LOCK_UTIL_H_
#define KUBESIM_ELECTION_INTERNAL_LOCK_UTIL_H_

#include <string>

#include "kubesim/api/status.h"

namespace kubesim::election::internal {

// A failure found on the client side, before any request (code 0, as a client's own errors are).
inline api::Status local_error(std::string message) {
  api::Status s;
  s.code = 0;
  s.message = std::move(message);
  return s;
}

}  // namespace kubesim::election::internal

#endif  // KUBESIM_ELECTION_INTERNAL_LOCK_UTIL_H_
