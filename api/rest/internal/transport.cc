#include "api/rest/internal/transport.h"

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <deque>
#include <limits>
#include <map>
#include <thread>
#include <vector>

#include "api/rest/internal/chunked_decoder.h"
#include "api/rest/internal/connection.h"

namespace kubesim::api::rest::internal {

namespace http = beast::http;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kReadBufferBytes = 64 * 1024;
constexpr std::uint32_t kMaxHeaderBytes = 1024 * 1024;

struct Exchange : DialState {
  std::uint64_t id = 0;
  HttpRequest request;
  Transport::Done done;
  std::shared_ptr<StreamHandler> stream;
  bool paused = false;
  bool resume_requested = false;
  std::optional<net::steady_timer> gate;  // a paused stream waits on it
};

// One try of an exchange on one connection.
struct Attempt {
  HttpResponse response;
  bool keep_alive = false;
  // Nothing of a response arrived: the connection may have been closed while idle.
  bool nothing_received = false;
  bool write_failed = false;
};

// Go's url.Error prefix: `Get "https://host/path": `.
std::string op_prefix(const HttpRequest& r, const ServerUrl& url) {
  std::string op = r.method;
  for (std::size_t i = 1; i < op.size(); ++i) op[i] = static_cast<char>(std::tolower(op[i]));
  return op + " \"" + (url.tls ? "https://" : "http://") + url.authority + r.target + "\": ";
}

std::optional<int> parse_retry_after(std::string_view v) {
  int n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return n;
}

}  // namespace

struct Transport::Impl {
  explicit Impl(TransportConfig c) : config(std::move(c)), tls(make_tls_context(config)) {}

  TransportConfig config;
  std::optional<net::ssl::context> tls;
  net::io_context io{1};
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::thread thread;
  std::atomic<bool> closed{false};
  std::atomic<std::uint64_t> next_id{1};
  std::atomic<std::uint64_t> opened{0};
  std::atomic<std::uint64_t> exchanges{0};
  std::atomic<std::size_t> idle_count{0};

  // I/O thread only.
  std::map<std::uint64_t, std::shared_ptr<Exchange>> live;
  std::deque<std::unique_ptr<Connection>> idle;

  std::unique_ptr<Connection> take_idle() {
    while (!idle.empty()) {
      auto c = std::move(idle.back());
      idle.pop_back();
      idle_count = idle.size();
      if (Clock::now() - c->idle_since < config.idle_timeout && !c->readable_while_idle()) return c;
    }
    return nullptr;
  }
  void put_idle(std::unique_ptr<Connection> c) {
    if (config.max_idle_connections == 0) return;
    if (idle.size() >= config.max_idle_connections) idle.pop_front();
    c->idle_since = Clock::now();
    idle.push_back(std::move(c));
    idle_count = idle.size();
  }
  void abort(Exchange& ex) {
    ex.canceled = true;
    if (ex.resolver != nullptr) ex.resolver->cancel();
    if (ex.connection != nullptr) {
      boost::system::error_code ignored;
      ex.connection->lowest().socket().close(ignored);
    }
    if (ex.gate) ex.gate->cancel();
  }
};

namespace {

using Impl = Transport::Impl;

enum class Framing { kNone, kChunked, kLength, kUntilEof };

bool is_eof(const boost::system::error_code& ec) {
  return ec == net::error::eof || ec == net::ssl::error::stream_truncated;
}

// Hands body bytes on: to the stream handler (pausing or stopping as it asks), or to the body.
// False when the exchange must end here (`a` says why, or the handler stopped it).
net::awaitable<bool> deliver(Impl* t, std::shared_ptr<Exchange> ex, std::string_view bytes,
                             bool streaming, Attempt* a) {
  if (bytes.empty() || ex->canceled) co_return true;
  if (!streaming) {
    if (a->response.body.size() + bytes.size() > t->config.max_response_bytes) {
      a->response.code = 0;
      a->response.error =
          "the response body exceeds " + std::to_string(t->config.max_response_bytes) + " bytes";
      co_return false;
    }
    a->response.body.append(bytes);
    co_return true;
  }
  const auto next = ex->stream->on_data(bytes);
  if (next == StreamHandler::Next::kStop) co_return false;
  if (next == StreamHandler::Next::kPause && !ex->resume_requested) {
    ex->paused = true;
    ex->gate.emplace(t->io);
    ex->gate->expires_at(net::steady_timer::time_point::max());
    boost::system::error_code ignored;
    co_await ex->gate->async_wait(net::redirect_error(net::use_awaitable, ignored));
    ex->paused = false;
  }
  ex->resume_requested = false;
  co_return true;
}

// Reads the body after the headers (chunked, by length, or up to EOF), starting with the bytes
// already in the connection's buffer.
template <class Stream>
net::awaitable<void> read_body(Impl* t, std::shared_ptr<Exchange> ex, Connection* c, Stream* s,
                               http::response_parser<http::empty_body>* p, Attempt* a) {
  const bool streaming = ex->stream && a->response.code == 200;
  if (streaming) {
    c->lowest().expires_never();
    ex->stream->on_open();
  }
  Framing framing = Framing::kUntilEof;
  if (p->is_done()) {
    framing = Framing::kNone;
  } else if (p->chunked()) {
    framing = Framing::kChunked;
  } else if (p->content_length()) {
    framing = Framing::kLength;
  }
  std::uint64_t remaining = p->content_length().value_or(0);
  ChunkedDecoder chunked;
  std::string decoded;
  std::vector<char> buf(kReadBufferBytes);
  bool complete = framing == Framing::kNone;
  bool leftover = false;  // bytes past the end of the body: the connection cannot be reused
  bool from_buffer = c->buffer.size() > 0;
  boost::system::error_code ec;
  while (!complete) {
    std::string_view input;
    if (from_buffer) {
      input = std::string_view(static_cast<const char*>(c->buffer.data().data()), c->buffer.size());
    } else {
      const std::size_t n =
          co_await s->async_read_some(net::buffer(buf), net::redirect_error(net::use_awaitable, ec));
      if (ex->canceled) ec = net::error::operation_aborted;
      if (ec && framing == Framing::kUntilEof && is_eof(ec)) break;
      if (ec) {
        if (!streaming) a->response.code = 0;
        a->response.error = "unexpected error when reading response body: " + ec.message();
        co_return;
      }
      input = std::string_view(buf.data(), n);
    }
    std::string_view body = input;
    if (framing == Framing::kChunked) {
      decoded.clear();
      const std::size_t used = chunked.feed(input, decoded);
      if (chunked.failed()) {
        if (!streaming) a->response.code = 0;
        a->response.error = chunked.error();
        co_return;
      }
      complete = chunked.done();
      leftover = used < input.size();
      body = decoded;
    } else if (framing == Framing::kLength) {
      body = input.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(remaining, input.size())));
      remaining -= body.size();
      complete = remaining == 0;
      leftover = body.size() < input.size();
    }
    if (from_buffer) {
      c->buffer.consume(c->buffer.size());
      from_buffer = false;
    }
    const bool go_on = co_await deliver(t, ex, body, streaming, a);
    if (!go_on) co_return;  // keep_alive stays false
    if (ex->canceled) {
      a->response.error = "context canceled";
      co_return;
    }
  }
  a->keep_alive = complete && !leftover && framing != Framing::kUntilEof && p->get().keep_alive();
}

template <class Stream>
net::awaitable<Attempt> exchange_on(Impl* t, std::shared_ptr<Exchange> ex, Connection* c, Stream* s) {
  Attempt a;
  http::request<http::string_body> req;
  req.method_string(ex->request.method);
  req.target(ex->request.target);
  req.version(11);
  req.set(http::field::host, t->config.url.authority);
  for (const auto& [name, value] : ex->request.headers) req.set(name, value);
  if (!ex->request.body.empty() || ex->request.method == "POST" || ex->request.method == "PUT" ||
      ex->request.method == "PATCH") {
    req.body() = ex->request.body;
    req.prepare_payload();
  }
  apply_deadline(*c, *ex);
  boost::system::error_code ec;
  co_await http::async_write(*s, req, net::redirect_error(net::use_awaitable, ec));
  if (ex->canceled) ec = net::error::operation_aborted;
  if (ec) {
    a.write_failed = a.nothing_received = true;
    a.response.error = "write: " + ec.message();
    co_return a;
  }
  http::response_parser<http::empty_body> p;
  p.header_limit(kMaxHeaderBytes);
  // Our own limits apply (max_response_bytes; the watch decoder's per-event limit). Not
  // boost::none: Beast 1.74 compares lengths against the empty optional and refuses every body.
  p.body_limit(std::numeric_limits<std::uint64_t>::max());
  co_await http::async_read_header(*s, c->buffer, p, net::redirect_error(net::use_awaitable, ec));
  if (ex->canceled) ec = net::error::operation_aborted;
  if (ec) {
    a.nothing_received = !p.got_some();
    a.response.error = (a.nothing_received ? "EOF: " : "malformed HTTP response: ") + ec.message();
    co_return a;
  }
  a.response.code = static_cast<int>(p.get().result_int());
  a.response.content_type = std::string(p.get()[http::field::content_type]);
  const auto retry_after = p.get()[http::field::retry_after];
  a.response.retry_after_seconds =
      parse_retry_after(std::string_view(retry_after.data(), retry_after.size()));
  for (const auto& field : p.get()) {
    if (field.name() == http::field::warning) a.response.warnings.emplace_back(field.value());
  }
  co_await read_body(t, ex, c, s, &p, &a);
  co_return a;
}

net::awaitable<Attempt> attempt_on(Impl* t, std::shared_ptr<Exchange> ex, Connection* c) {
  if (c->tls) {
    Attempt a = co_await exchange_on(t, ex, c, &*c->tls);
    co_return a;
  }
  Attempt a = co_await exchange_on(t, ex, c, &*c->plain);
  co_return a;
}

net::awaitable<void> run_exchange(Impl* t, std::shared_ptr<Exchange> ex) {
  HttpResponse response;
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::unique_ptr<Connection> c = t->take_idle();
    const bool reused = c != nullptr;
    if (!c) {
      Dialed d = co_await dial(&t->io, t->tls ? &*t->tls : nullptr, &t->config, ex);
      if (!d.connection) {
        response.error = d.error;
        break;
      }
      c = std::move(d.connection);
      ++t->opened;
    }
    ex->connection = c.get();
    Attempt a = co_await attempt_on(t, ex, c.get());
    ex->connection = nullptr;
    const bool retry = reused && a.nothing_received && !ex->canceled &&
                       (ex->request.idempotent() || a.write_failed);
    if (retry) continue;
    response = std::move(a.response);
    if (a.keep_alive && !ex->canceled && response.error.empty()) t->put_idle(std::move(c));
    break;
  }
  if (ex->canceled) {
    response.code = 0;
    response.error = "context canceled";
  }
  if (response.code == 0) response.error = op_prefix(ex->request, t->config.url) + response.error;
  t->live.erase(ex->id);
  auto done = std::move(ex->done);
  done(std::move(response));
}

}  // namespace

Transport::Transport(TransportConfig config) : impl_(std::make_shared<Impl>(std::move(config))) {
  impl_->work.emplace(impl_->io.get_executor());
  Impl* t = impl_.get();
  impl_->thread = std::thread([t] { t->io.run(); });
}

Transport::~Transport() { shutdown(); }

std::uint64_t Transport::start(HttpRequest request, Done done, std::shared_ptr<StreamHandler> stream) {
  const std::uint64_t id = impl_->next_id++;
  if (impl_->closed) {
    HttpResponse r;
    r.error = op_prefix(request, impl_->config.url) + "the client is closed";
    done(std::move(r));
    return id;
  }
  auto ex = std::make_shared<Exchange>();
  ex->id = id;
  if (request.timeout) ex->deadline = Clock::now() + *request.timeout;
  ex->request = std::move(request);
  ex->done = std::move(done);
  ex->stream = std::move(stream);
  ++impl_->exchanges;
  Impl* t = impl_.get();
  net::post(t->io, [t, ex] {
    t->live.emplace(ex->id, ex);
    net::co_spawn(t->io, run_exchange(t, ex), net::detached);
  });
  return id;
}

void Transport::cancel(std::uint64_t id) {
  Impl* t = impl_.get();
  net::post(t->io, [t, id] {
    if (auto it = t->live.find(id); it != t->live.end()) t->abort(*it->second);
  });
}

void Transport::resume(std::uint64_t id) {
  Impl* t = impl_.get();
  net::post(t->io, [t, id] {
    auto it = t->live.find(id);
    if (it == t->live.end()) return;
    Exchange& ex = *it->second;
    if (ex.paused && ex.gate) {
      ex.gate->cancel();
    } else {
      ex.resume_requested = true;
    }
  });
}

void Transport::shutdown() {
  if (impl_->closed.exchange(true)) return;
  Impl* t = impl_.get();
  net::post(t->io, [t] {
    for (auto& [id, ex] : t->live) t->abort(*ex);
    t->idle.clear();
    t->idle_count = 0;
  });
  t->work.reset();
  if (t->thread.joinable()) t->thread.join();
}

Transport::Stats Transport::stats() const {
  Stats s;
  s.connections_opened = impl_->opened;
  s.exchanges = impl_->exchanges;
  s.idle_connections = impl_->idle_count;
  return s;
}

}  // namespace kubesim::api::rest::internal
