// Request parsing on the I/O thread: query strings, paths, the Kubernetes verb, request options
// and bodies. Everything here is pure: it reads its inputs and answers a value or the Status
// kube-apiserver gives for the same mistake (400 for malformed values, 422 for unsupported option
// values, 405 for a method a path does not allow, 415 for a body type it does not take).
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_REQUEST_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_REQUEST_H_

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kubesim/api/result.h"
#include "fakeapi/http/internal/call.h"

namespace kubesim::fakeapi::http::internal {

// Form-decodes a query string ('+' is a space, %XX escapes); a bad escape is a 400.
api::Result<Query> parse_query(std::string_view raw);
// Percent-decodes a path and splits it into a Route (kube-apiserver's RequestInfo rules).
api::Result<Route> parse_route(std::string_view path);
Method parse_method(std::string_view method);
// The media type of a Content-Type or Accept element: lower case, parameters and spaces removed.
std::string media_type(std::string_view content_type);
// False when an Accept header rules out JSON (e.g. protobuf or YAML only).
bool accepts_json(std::string_view accept);

// Sets call.verb from the method and route, then the verb's options from call.query.
std::optional<api::Status> parse_verb_and_options(ApiCall& call);
// Checks call.content_type for the verb and decodes call.body into call.object (create, update),
// call.patch_type (patch) or call.del (delete); protobuf bodies are only flagged.
std::optional<api::Status> decode_body(ApiCall& call);

// apimachinery's query-parameter bool: absent → false; "0" or "false" (any case) → false;
// anything else, the empty string included → true.
bool query_bool(const std::string& value);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_REQUEST_H_
