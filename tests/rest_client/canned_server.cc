#include "tests/rest_client/canned_server.h"

#include <sys/socket.h>

#include <utility>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace kubesim::api::rest::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

struct CannedServer::Impl {
  Handler handler;
  net::io_context io;
  tcp::acceptor acceptor{io};
  std::thread accept_thread;
  std::atomic<bool> stopping{false};
  mutable std::mutex mu;
  std::vector<RecordedRequest> requests;
  std::vector<std::shared_ptr<tcp::socket>> sockets;
  std::vector<std::thread> threads;

  void serve(std::shared_ptr<tcp::socket> sock, int connection);
  bool reply(tcp::socket& sock, const Reply& r, unsigned version);
  void wait_for_close(tcp::socket& sock) {
    char byte;
    boost::system::error_code ec;
    while (!ec && !stopping) sock.read_some(net::buffer(&byte, 1), ec);
  }
};

CannedServer::CannedServer(Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->handler = std::move(handler);
  tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(ep.protocol());
  impl_->acceptor.set_option(net::socket_base::reuse_address(true));
  impl_->acceptor.bind(ep);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  Impl* t = impl_.get();
  impl_->accept_thread = std::thread([this, t] {
    for (;;) {
      auto sock = std::make_shared<tcp::socket>(t->io);
      boost::system::error_code ec;
      t->acceptor.accept(*sock, ec);
      if (ec || t->stopping) return;
      const int n = ++connections_;
      std::lock_guard<std::mutex> lock(t->mu);
      t->sockets.push_back(sock);
      t->threads.emplace_back([t, sock, n] { t->serve(sock, n); });
    }
  });
}

CannedServer::~CannedServer() {
  impl_->stopping = true;
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  impl_->accept_thread.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    for (auto& s : impl_->sockets) ::shutdown(s->native_handle(), SHUT_RDWR);
    threads = std::move(impl_->threads);
  }
  for (auto& t : threads) t.join();
}

std::vector<RecordedRequest> CannedServer::requests() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->requests;
}

void CannedServer::Impl::serve(std::shared_ptr<tcp::socket> sock, int connection) {
  beast::flat_buffer buffer;
  while (!stopping) {
    http::request<http::string_body> req;
    boost::system::error_code ec;
    http::read(*sock, buffer, req, ec);
    if (ec) return;
    RecordedRequest rec;
    rec.method = std::string(req.method_string());
    rec.target = std::string(req.target());
    for (const auto& f : req) {
      std::string name(f.name_string());
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      rec.headers[name] = std::string(f.value());
    }
    rec.body = req.body();
    rec.connection = connection;
    {
      std::lock_guard<std::mutex> lock(mu);
      requests.push_back(rec);
    }
    const Reply r = handler(rec);
    if (!reply(*sock, r, req.version())) return;
  }
}

bool CannedServer::Impl::reply(tcp::socket& sock, const Reply& r, unsigned version) {
  boost::system::error_code ec;
  if (r.hang) {
    wait_for_close(sock);
    return false;
  }
  if (!r.stream) {
    http::response<http::string_body> res(static_cast<http::status>(r.status), version);
    if (!r.content_type.empty()) res.set(http::field::content_type, r.content_type);
    for (const auto& [k, v] : r.headers) res.set(k, v);
    res.body() = r.body;
    res.keep_alive(!r.close);
    res.prepare_payload();
    http::write(sock, res, ec);
    return !ec && !r.close;
  }
  http::response<http::empty_body> res(static_cast<http::status>(r.status), version);
  res.set(http::field::content_type, r.content_type);
  res.chunked(true);
  http::response_serializer<http::empty_body> sr(res);
  http::write_header(sock, sr, ec);
  for (const auto& chunk : r.chunks) {
    if (ec) return false;
    net::write(sock, http::make_chunk(net::buffer(chunk)), ec);
  }
  if (ec) return false;
  switch (r.end) {
    case Reply::End::kClean:
      net::write(sock, http::make_chunk_last(), ec);
      return !ec && !r.close;
    case Reply::End::kCut:
      sock.shutdown(tcp::socket::shutdown_both, ec);
      return false;
    case Reply::End::kHang:
      wait_for_close(sock);
      return false;
  }
  return false;
}

}  // namespace kubesim::api::rest::testing
