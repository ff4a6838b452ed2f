#include "fakeapi/http/internal/wire.h"

#include <cstdio>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>

namespace kubesim::fakeapi::http::internal {

namespace bhttp = boost::beast::http;
namespace net = boost::asio;

void append_watch_event(std::string& out, const api::WatchEvent& event) {
  const std::string_view object = event.object ? event.object->serialized() : "{}";
  const std::string_view type = api::to_string(event.type);
  const std::size_t size = 9 + type.size() + 11 + object.size() + 2;  // {"type":"T","object":O}\n
  char hex[20];
  const int n = std::snprintf(hex, sizeof hex, "%zx\r\n", size);
  out.append(hex, static_cast<std::size_t>(n));
  out += "{\"type\":\"";
  out += type;
  out += "\",\"object\":";
  out += object;
  out += "}\n\r\n";
}

api::Status parse_error_status(const boost::beast::error_code& ec, std::size_t max_body_bytes) {
  if (ec == bhttp::error::body_limit) {
    return api::new_request_entity_too_large("limit is " + std::to_string(max_body_bytes));
  }
  if (ec == bhttp::error::header_limit) {
    return api::Status{431, api::StatusReason::kUnknown, "Request Header Fields Too Large", {}};
  }
  return api::new_bad_request("malformed HTTP request: " + ec.message());
}

bool is_closed_error(const boost::beast::error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == net::error::eof ||
         ec == net::error::operation_aborted || ec == boost::beast::error::timeout ||
         ec == net::error::connection_reset || ec == net::ssl::error::stream_truncated;
}

}  // namespace kubesim::fakeapi::http::internal
