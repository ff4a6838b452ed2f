// Dispatch: one parsed HTTP request to either a local answer (health, /version, /metrics,
// OpenAPI v2, and every refusal: 401, 404, 405, 406, 415, 400, 429) or an ApiCall for the loop.
// Runs on the I/O thread; changes nothing but the Frontend's watch-start count.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_DISPATCH_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_DISPATCH_H_

#include <optional>
#include <string>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "fakeapi/http/internal/call.h"
#include "fakeapi/http/internal/frontend.h"

namespace kubesim::fakeapi::http::internal {

struct Prepared {
  std::optional<Reply> reply;   // answered here
  std::optional<ApiCall> call;  // or to be executed on the loop
  std::string metric_verb;      // GET, LIST, WATCH, POST, ... for /metrics
  std::string metric_resource;
  std::string user;
};

Prepared prepare_request(Frontend& fe,
                         boost::beast::http::request<boost::beast::http::string_body>& req,
                         const UserInfo* cert_user);

// The /version document for a gitVersion "vMAJOR.MINOR.PATCH…"; nullopt when it is not one.
std::optional<std::string> version_json(const std::string& git_version);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_DISPATCH_H_
