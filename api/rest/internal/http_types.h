// The HTTP exchange as the loop side of RestClient sees it: a request to send and the response
// (or transport error) that came back. Plain data, free of Asio, shared by the transport and the
// decoders.
#ifndef KUBESIM_API_REST_INTERNAL_HTTP_TYPES_H_
#define KUBESIM_API_REST_INTERNAL_HTTP_TYPES_H_

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kubesim::api::rest::internal {

struct HttpRequest {
  HttpRequest() {}
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // The time the exchange may take on the I/O side (connect, write, response); none: no limit.
  // A stream's limit covers its response headers only.
  std::optional<std::chrono::nanoseconds> timeout;

  // Requests that may be sent again after a kept-alive connection turned out to be closed.
  bool idempotent() const { return method != "POST" && method != "PATCH"; }
};

struct HttpResponse {
  HttpResponse() {}
  int code = 0;  // 0: no response, see `error`
  std::string content_type;
  std::string body;  // empty for a 200 stream (its bytes went to the stream handler)
  std::optional<int> retry_after_seconds;
  std::vector<std::string> warnings;  // the Warning header values, in order
  // Why no response (code 0) arrived, or why a stream broke off; empty on success and on a
  // stream that the server ended cleanly.
  std::string error;
};

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_HTTP_TYPES_H_
