// One HTTP connection of the transport (plain TCP or TLS) and how it is opened. Includes Asio:
// only the transport's sources include this header.
#ifndef KUBESIM_API_REST_INTERNAL_CONNECTION_H_
#define KUBESIM_API_REST_INTERNAL_CONNECTION_H_

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (keep <utility> above the Asio headers)
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "api/rest/internal/transport.h"

namespace kubesim::api::rest::internal {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;

struct Connection {
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
  // Bytes read past the current response; a kept-alive connection must have none left.
  beast::flat_buffer buffer;
  std::chrono::steady_clock::time_point idle_since;

  beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*tls) : *plain; }
  // True when the server has closed the (idle) connection or sent something unasked.
  bool readable_while_idle();
};

// The TLS client context of `config`, or nullopt for plain HTTP. Throws ConfigError.
std::optional<net::ssl::context> make_tls_context(const TransportConfig& config);

// What an exchange shares with its connection attempt, so that cancel() can reach the
// operation in progress.
struct DialState {
  bool canceled = false;
  tcp::resolver* resolver = nullptr;
  Connection* connection = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

struct Dialed {
  std::unique_ptr<Connection> connection;  // null on failure
  std::string error;                       // Go-like: "dial tcp 127.0.0.1:1: connect: ..."
};

// Resolves, connects and (for TLS) handshakes, verifying the server's name.
net::awaitable<Dialed> dial(net::io_context* io, net::ssl::context* tls,
                            const TransportConfig* config, std::shared_ptr<DialState> state);

// Applies the exchange's deadline (or none) to the connection's next operations.
void apply_deadline(Connection& c, const DialState& state);

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_CONNECTION_H_
