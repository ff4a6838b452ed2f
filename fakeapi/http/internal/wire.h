// The bytes a session puts on the wire that are not Beast's own: a watch's response head, one
// event in its chunk, the terminating chunk; and the Status a request gets when Beast's parser
// refuses it. Shared by the socket sessions and the offline request path (offline.h).
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_WIRE_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_WIRE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include <boost/beast/core/error.hpp>
#include <nlohmann/json.hpp>

#include "kubesim/api/status.h"
#include "kubesim/api/watch.h"

namespace kubesim::fakeapi::http::internal {

// The head of a watch response: 200, JSON, chunked; the connection stays usable after the
// terminating chunk, as kube-apiserver's does.
inline constexpr std::string_view kWatchHead =
    "HTTP/1.1 200 OK\r\nCache-Control: no-cache, private\r\nContent-Type: application/json\r\n"
    "Transfer-Encoding: chunked\r\n\r\n";
// The same for a client that asked to close the connection (or a stopping server).
inline constexpr std::string_view kWatchHeadClose =
    "HTTP/1.1 200 OK\r\nCache-Control: no-cache, private\r\nContent-Type: application/json\r\n"
    "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n";
inline constexpr std::string_view kLastChunk = "0\r\n\r\n";

// Appends `event` as one chunk holding {"type":T,"object":O} and a newline.
void append_watch_event(std::string& out, const api::WatchEvent& event);

// The answer to a request Beast's parser refused with `ec`: 413 past the body limit, 431 past
// the header limit, else 400 naming the parse error. The connection closes after it.
api::Status parse_error_status(const boost::beast::error_code& ec, std::size_t max_body_bytes);

// True for errors that mean the peer went away or a timer fired (no answer is owed).
bool is_closed_error(const boost::beast::error_code& ec);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_WIRE_H_
