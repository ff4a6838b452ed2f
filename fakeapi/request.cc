#include "kubesim/fakeapi/request.h"

#include "fakeapi/internal/server_util.h"

namespace kubesim::fakeapi {

Revision read_revision(const Request& request) {
  if (request.verb == Verb::kGet) {
    return internal::parse_revision(request.get_options().resource_version).value_or(0);
  }
  if (request.verb == Verb::kList && request.list_options().continue_token.empty()) {
    return internal::parse_revision(request.list_options().resource_version).value_or(0);
  }
  return 0;
}

}  // namespace kubesim::fakeapi
