#include "tests/fakeapi_http/test_client.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace kubesim::fakeapi::http::testing {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

void set_timeouts(tcp::socket& s, int seconds) {
  timeval tv{seconds, 0};
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

HttpServerOptions plain_options() {
  HttpServerOptions o;
  UserInfo admin;
  admin.name = "admin";
  admin.groups = {"system:masters"};
  o.tokens[kToken] = admin;
  return o;
}

TestServer::TestServer(HttpServerOptions options, ServerOptions server)
    : loop_([] {
        sim::LoopOptions o;
        o.mode = sim::ClockMode::kReal;
        return o;
      }()) {
  api_ = std::make_unique<ApiServer>(loop_, std::move(server));
  http_ = std::make_unique<HttpServer>(loop_, *api_, std::move(options));
  thread_ = std::thread([this] { loop_.run(); });
}

TestServer::~TestServer() {
  http_->stop(std::chrono::seconds(2));
  loop_.stop();
  thread_.join();
  http_.reset();
  api_.reset();
}

void TestServer::on_loop(const std::function<void()>& fn) {
  std::promise<void> done;
  loop_.post_external([&] {
    fn();
    done.set_value();
  });
  done.get_future().wait();
}

std::int64_t TestServer::revision() {
  std::int64_t rev = 0;
  on_loop([&] { rev = static_cast<std::int64_t>(api_->revision()); });
  return rev;
}

nlohmann::json Response::json() const { return nlohmann::json::parse(body, nullptr, false); }

std::string Response::header(const std::string& name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

struct Client::Impl {
  net::io_context io;
  std::optional<net::ssl::context> ctx;
  std::optional<beast::ssl_stream<tcp::socket>> tls;
  std::optional<tcp::socket> plain;
  beast::flat_buffer buffer;
  std::optional<bhttp::response_parser<bhttp::string_body>> watch;
  std::string chunk_data;
  bool ended = false;
  std::function<std::size_t(std::uint64_t, beast::string_view, beast::error_code&)> on_chunk =
      [this](std::uint64_t, beast::string_view body, beast::error_code& ec) {
        chunk_data.append(body.data(), body.size());
        ec = {};
        return body.size();
      };

  tcp::socket& socket() { return tls ? tls->next_layer() : *plain; }

  template <class F>
  auto with_stream(F&& f) {
    if (tls) return f(*tls);
    return f(*plain);
  }
};

Client::Client(std::uint16_t port, std::optional<TlsClientOptions> tls) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  tcp::socket socket(m.io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  set_timeouts(socket, 10);
  if (!tls) {
    m.plain.emplace(std::move(socket));
    return;
  }
  m.ctx.emplace(net::ssl::context::tls_client);
  if (!tls->ca_pem.empty()) {
    m.ctx->add_certificate_authority(net::buffer(tls->ca_pem));
    m.ctx->set_verify_mode(net::ssl::verify_peer);
  }
  if (!tls->cert_pem.empty()) {
    m.ctx->use_certificate_chain(net::buffer(tls->cert_pem));
    m.ctx->use_private_key(net::buffer(tls->key_pem), net::ssl::context::pem);
  }
  m.tls.emplace(std::move(socket), *m.ctx);
  SSL_set_tlsext_host_name(m.tls->native_handle(), "localhost");
  m.tls->set_verify_callback(net::ssl::host_name_verification("localhost"));
  m.tls->handshake(net::ssl::stream_base::client);
}

Client::~Client() = default;

Response Client::request(const std::string& method, const std::string& target, const std::string& body,
                         std::map<std::string, std::string> headers) {
  Impl& m = *impl_;
  bhttp::request<bhttp::string_body> req;
  req.method_string(method);
  req.target(target);
  req.version(11);
  req.set(bhttp::field::host, "localhost");
  if (!headers.count("authorization")) headers["authorization"] = std::string("Bearer ") + kToken;
  for (const auto& [k, v] : headers) {
    if (!v.empty()) req.set(k, v);
  }
  req.body() = body;
  if (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH") req.prepare_payload();
  m.with_stream([&](auto& s) { bhttp::write(s, req); });
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  if (method == "HEAD") parser.skip(true);
  m.with_stream([&](auto& s) { bhttp::read(s, m.buffer, parser); });
  Response r;
  auto res = parser.release();
  r.code = static_cast<int>(res.result_int());
  for (const auto& f : res) r.headers[lower(std::string(f.name_string()))] = std::string(f.value());
  r.body = std::move(res.body());
  return r;
}

bool Client::open() {
  Impl& m = *impl_;
  char c;
  const ssize_t n = ::recv(m.socket().native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

Response Client::start_watch(const std::string& target, std::map<std::string, std::string> headers) {
  Impl& m = *impl_;
  bhttp::request<bhttp::empty_body> req{bhttp::verb::get, target, 11};
  req.set(bhttp::field::host, "localhost");
  if (!headers.count("authorization")) headers["authorization"] = std::string("Bearer ") + kToken;
  for (const auto& [k, v] : headers) {
    if (!v.empty()) req.set(k, v);
  }
  m.with_stream([&](auto& s) { bhttp::write(s, req); });
  m.watch.emplace();
  m.ended = false;
  m.chunk_data.clear();
  m.watch->body_limit(std::uint64_t{1} << 40);
  m.watch->on_chunk_body(m.on_chunk);
  m.with_stream([&](auto& s) { bhttp::read_header(s, m.buffer, *m.watch); });
  Response r;
  const auto& res = m.watch->get();
  r.code = static_cast<int>(res.result_int());
  for (const auto& f : res) r.headers[lower(std::string(f.name_string()))] = std::string(f.value());
  if (!m.watch->chunked()) {  // an error answer: read its body
    m.with_stream([&](auto& s) { bhttp::read(s, m.buffer, *m.watch); });
    r.body = m.watch->get().body();
    m.ended = true;
  }
  return r;
}

std::optional<std::string> Client::next_line() {
  Impl& m = *impl_;
  for (;;) {
    const std::size_t nl = m.chunk_data.find('\n');
    if (nl != std::string::npos) {
      std::string line = m.chunk_data.substr(0, nl);
      m.chunk_data.erase(0, nl + 1);
      return line;
    }
    if (m.ended || m.watch->is_done()) {
      m.ended = true;
      return std::nullopt;
    }
    m.with_stream([&](auto& s) { bhttp::read_some(s, m.buffer, *m.watch); });
  }
}

bool Client::stream_ended() const { return impl_->ended; }

void Client::send(const std::string& bytes) {
  impl_->with_stream([&](auto& s) { net::write(s, net::buffer(bytes)); });
}

std::string Client::raw(const std::string& bytes) {
  Impl& m = *impl_;
  m.with_stream([&](auto& s) { net::write(s, net::buffer(bytes)); });
  std::string out;
  char buf[4096];
  for (;;) {
    beast::error_code ec;
    const std::size_t n = m.with_stream([&](auto& s) { return s.read_some(net::buffer(buf), ec); });
    out.append(buf, n);
    if (ec) break;
  }
  return out;
}

std::size_t http_watches(Client& c) { return c.get("/kubesim/v1/stats").json()["http_watches"]; }

}  // namespace kubesim::fakeapi::http::testing
