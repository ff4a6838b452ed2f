#include "api/rest/internal/connection.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "kubesim/api/rest/rest_config.h"

namespace kubesim::api::rest::internal {
namespace {

namespace ssl = net::ssl;

std::string openssl_error(const boost::system::error_code& ec) {
  std::string message = ec.message();
  if (unsigned long e = ::ERR_get_error(); e != 0) {
    char buf[256];
    ::ERR_error_string_n(e, buf, sizeof buf);
    message += " (" + std::string(buf) + ")";
  }
  ::ERR_clear_error();
  return message;
}

bool is_ip_address(const std::string& host) {
  boost::system::error_code ec;
  net::ip::make_address(host, ec);
  return !ec;
}

}  // namespace

bool Connection::readable_while_idle() {
  if (buffer.size() > 0) return true;
  pollfd p{};
  p.fd = lowest().socket().native_handle();
  p.events = POLLIN;
  return ::poll(&p, 1, 0) != 0;
}

std::optional<net::ssl::context> make_tls_context(const TransportConfig& config) {
  if (!config.url.tls) return std::nullopt;
  if (config.insecure_skip_tls_verify && !config.ca_pem.empty()) {
    throw ConfigError("specifying a root certificates file with the insecure flag is not allowed");
  }
  ssl::context ctx(ssl::context::tls_client);
  ::SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_2_VERSION);
  boost::system::error_code ec;
  if (config.insecure_skip_tls_verify) {
    ctx.set_verify_mode(ssl::verify_none);
  } else {
    ctx.set_verify_mode(ssl::verify_peer);
    if (config.ca_pem.empty()) {
      ctx.set_default_verify_paths(ec);
      if (ec) throw ConfigError("cannot load the system's CA certificates: " + openssl_error(ec));
    } else {
      ctx.add_certificate_authority(net::buffer(config.ca_pem), ec);
      if (ec) throw ConfigError("the certificate authority is not a valid PEM certificate: " + openssl_error(ec));
    }
  }
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    throw ConfigError(config.client_cert_pem.empty() ? "a client key was given without its certificate"
                                                     : "a client certificate was given without its key");
  }
  if (!config.client_cert_pem.empty()) {
    ctx.use_certificate_chain(net::buffer(config.client_cert_pem), ec);
    if (ec) throw ConfigError("the client certificate is not a valid PEM certificate: " + openssl_error(ec));
    ctx.use_private_key(net::buffer(config.client_key_pem), ssl::context::pem, ec);
    if (ec) throw ConfigError("the client key is not a valid PEM private key: " + openssl_error(ec));
    if (::SSL_CTX_check_private_key(ctx.native_handle()) != 1) {
      ::ERR_clear_error();
      throw ConfigError("the client key does not match the client certificate");
    }
  }
  return ctx;
}

void apply_deadline(Connection& c, const DialState& state) {
  if (state.deadline) {
    c.lowest().expires_at(*state.deadline);
  } else {
    c.lowest().expires_never();
  }
}

net::awaitable<Dialed> dial(net::io_context* io, net::ssl::context* tls,
                            const TransportConfig* config, std::shared_ptr<DialState> state) {
  Dialed out;
  const std::string target = config->url.host + ":" + config->url.port;
  boost::system::error_code ec;
  tcp::resolver resolver(*io);
  state->resolver = &resolver;
  auto endpoints = co_await resolver.async_resolve(config->url.host, config->url.port,
                                                   net::redirect_error(net::use_awaitable, ec));
  state->resolver = nullptr;
  if (state->canceled) ec = net::error::operation_aborted;
  if (ec) {
    out.error = "dial tcp: lookup " + config->url.host + ": " + ec.message();
    co_return out;
  }
  auto c = std::make_unique<Connection>();
  if (tls != nullptr) {
    c->tls.emplace(*io, *tls);
  } else {
    c->plain.emplace(*io);
  }
  state->connection = c.get();
  apply_deadline(*c, *state);
  co_await c->lowest().async_connect(endpoints, net::redirect_error(net::use_awaitable, ec));
  if (state->canceled) ec = net::error::operation_aborted;
  if (ec) {
    state->connection = nullptr;
    out.error = "dial tcp " + target + ": connect: " + ec.message();
    co_return out;
  }
  c->lowest().socket().set_option(tcp::no_delay(true), ec);
  c->lowest().socket().set_option(net::socket_base::keep_alive(true), ec);
  if (tls != nullptr) {
    const std::string& name = config->tls_server_name.empty() ? config->url.host : config->tls_server_name;
    // Like Go, no SNI for an IP address.
    if (!is_ip_address(name)) ::SSL_set_tlsext_host_name(c->tls->native_handle(), name.c_str());
    if (!config->insecure_skip_tls_verify) c->tls->set_verify_callback(net::ssl::host_name_verification(name));
    co_await c->tls->async_handshake(net::ssl::stream_base::client,
                                     net::redirect_error(net::use_awaitable, ec));
    if (state->canceled) ec = net::error::operation_aborted;
    if (ec) {
      state->connection = nullptr;
      out.error = "tls handshake with " + target + ": " + openssl_error(ec);
      co_return out;
    }
  }
  state->connection = nullptr;
  out.connection = std::move(c);
  co_return out;
}

}  // namespace kubesim::api::rest::internal
