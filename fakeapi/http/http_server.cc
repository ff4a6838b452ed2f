#include "kubesim/fakeapi/http/http_server.h"

#include <future>
#include <optional>
#include <stdexcept>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include "fakeapi/http/internal/dispatch.h"
#include "fakeapi/http/internal/frontend.h"
#include "fakeapi/http/internal/loop_side.h"
#include "fakeapi/http/internal/session.h"

namespace kubesim::fakeapi::http {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

// Every certificate of a PEM bundle becomes an acceptable client CA, and is announced in the
// CertificateRequest (Go clients only send a certificate issued by an announced CA).
void add_client_cas(net::ssl::context& ctx, const std::string& pem) {
  ctx.add_certificate_authority(net::buffer(pem));
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  while (X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
    SSL_CTX_add_client_CA(ctx.native_handle(), cert);
    X509_free(cert);
  }
  BIO_free(bio);
  ctx.set_verify_mode(net::ssl::verify_peer);
}

net::ssl::context make_tls(const HttpServerOptions& o) {
  net::ssl::context ctx(net::ssl::context::tls_server);
  ctx.set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                  net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 |
                  net::ssl::context::no_tlsv1_1);
  try {
    ctx.use_certificate_chain(net::buffer(o.tls.cert_pem));
    ctx.use_private_key(net::buffer(o.tls.key_pem), net::ssl::context::pem);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("tls: the serving certificate or key is not usable: ") + e.what());
  }
  if (!o.client_ca_pem.empty()) {
    try {
      add_client_cas(ctx, o.client_ca_pem);
    } catch (const std::exception& e) {
      throw std::invalid_argument(std::string("tls: the client CA is not usable: ") + e.what());
    }
  }
  return ctx;
}

}  // namespace

struct HttpServer::Impl {
  sim::Loop* loop = nullptr;
  std::unique_ptr<net::io_context> io;  // first member: destroyed last
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::optional<tcp::acceptor> acceptor;
  std::optional<net::steady_timer> retry;
  std::shared_ptr<internal::Frontend> fe;
  std::thread thread;
  std::string scheme;
  std::string host;
  std::uint16_t port = 0;
  bool stopped = false;

  void accept() {
    acceptor->async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (ec == net::error::operation_aborted || !acceptor->is_open()) return;
      if (ec) {
        // Out of descriptors or a transient failure: try again shortly instead of spinning.
        retry->expires_after(std::chrono::milliseconds(50));
        retry->async_wait([this](boost::system::error_code wait_ec) {
          if (!wait_ec) accept();
        });
        return;
      }
      internal::start_session(std::move(socket), fe);
      accept();
    });
  }
};

HttpServer::HttpServer(sim::Loop& loop, ApiServer& server, HttpServerOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (loop.options().mode != sim::ClockMode::kReal) {
    throw std::invalid_argument("HttpServer: the loop must run in real-clock mode");
  }
  auto version = internal::version_json(options.git_version);
  if (!version) {
    throw std::invalid_argument("HttpServer: git_version \"" + options.git_version +
                                "\" is not of the form vMAJOR.MINOR.PATCH");
  }
  boost::system::error_code ec;
  const auto address = net::ip::make_address(options.address, ec);
  if (ec) throw std::invalid_argument("HttpServer: \"" + options.address + "\" is not an IP address");
  const bool tls = !options.tls.cert_pem.empty();
  if (!tls && !address.is_loopback() && !options.allow_plain_non_loopback) {
    throw std::invalid_argument("HttpServer: plain HTTP is only served on a loopback address (" +
                                options.address + " is not one); use TLS or force it");
  }
  if (!tls && !options.client_ca_pem.empty()) {
    throw std::invalid_argument("HttpServer: client certificates need TLS");
  }
  if (options.watch_coalesce < std::chrono::microseconds::zero()) {
    throw std::invalid_argument("HttpServer: watch_coalesce must not be negative");
  }
  Impl& m = *impl_;
  m.loop = &loop;
  m.io = std::make_unique<net::io_context>(1);
  m.fe = std::make_shared<internal::Frontend>(*m.io, std::move(options));
  internal::Frontend& fe = *m.fe;
  if (tls) fe.ssl.emplace(make_tls(fe.options));
  fe.version_json = std::move(*version);
  m.acceptor.emplace(*m.io);
  const tcp::endpoint endpoint(address, fe.options.port);
  m.acceptor->open(endpoint.protocol());
  m.acceptor->set_option(net::socket_base::reuse_address(true));
  m.acceptor->bind(endpoint);
  m.acceptor->listen(net::socket_base::max_listen_connections);
  m.retry.emplace(*m.io);
  m.port = m.acceptor->local_endpoint().port();
  m.scheme = tls ? "https" : "http";
  std::string host = address.is_unspecified() ? (address.is_v6() ? "::1" : "127.0.0.1") : address.to_string();
  m.host = host.find(':') != std::string::npos ? "[" + host + "]" : host;

  fe.loop = &loop;
  fe.gate = std::make_shared<internal::Gate>(*m.io, fe.options.watch_coalesce);
  internal::LoopSideOptions side;
  side.git_version = fe.options.git_version;
  side.server_address = m.host + ":" + std::to_string(m.port);
  fe.loop_side = std::make_shared<internal::LoopSide>(loop, server, fe.gate, std::move(side));
  m.work.emplace(m.io->get_executor());
  m.accept();
  m.thread = std::thread([io = m.io.get()] { io->run(); });
}

HttpServer::~HttpServer() { stop(); }

std::uint16_t HttpServer::port() const { return impl_->port; }
bool HttpServer::tls() const { return impl_->scheme == "https"; }
std::string HttpServer::url() const {
  return impl_->scheme + "://" + impl_->host + ":" + std::to_string(impl_->port);
}

void HttpServer::stop(std::chrono::milliseconds grace) {
  Impl& m = *impl_;
  if (m.stopped) return;
  m.stopped = true;
  auto idle = std::make_shared<std::promise<void>>();
  std::future<void> done = idle->get_future();
  net::post(*m.io, [&m, idle] {
    boost::system::error_code ec;
    m.acceptor->close(ec);
    m.retry->cancel();
    internal::Frontend& fe = *m.fe;
    fe.stopping = true;
    fe.on_idle = [idle] { idle->set_value(); };
    std::vector<std::shared_ptr<internal::SessionBase>> all;
    for (auto* s : fe.sessions) all.push_back(s->shared_from_this());
    for (auto& s : all) s->shutdown();
    all.clear();
    if (fe.sessions.empty() && fe.on_idle) std::exchange(fe.on_idle, nullptr)();
  });
  done.wait_for(grace);
  m.fe->loop_side->close();
  m.fe->gate->close();
  m.work.reset();
  m.io->stop();
  if (m.thread.joinable()) m.thread.join();
  m.fe->gate->io_stopped();
  m.fe->on_idle = nullptr;
  m.fe->waiting.clear();
  m.acceptor.reset();
  m.retry.reset();
}

}  // namespace kubesim::fakeapi::http
