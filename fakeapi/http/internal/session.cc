#include "fakeapi/http/internal/session.h"

#include <type_traits>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/stream_base.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include "fakeapi/http/internal/dispatch.h"
#include "fakeapi/http/internal/peer_cert.h"
#include "fakeapi/http/internal/wire.h"

namespace kubesim::fakeapi::http::internal {
namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;

}  // namespace

template <class Stream>
Stream Session<Stream>::make_stream(net::ip::tcp::socket socket, Frontend& fe) {
  if constexpr (std::is_same_v<Stream, TlsStream>) {
    return Stream(std::move(socket), *fe.ssl);
  } else {
    return Stream(std::move(socket));
  }
}

template <class Stream>
Session<Stream>::Session(net::ip::tcp::socket socket, std::shared_ptr<Frontend> fe)
    : stream_(make_stream(std::move(socket), *fe)), fe_(std::move(fe)) {
  fe_->session_added(this);
}

template <class Stream>
Session<Stream>::~Session() {
  if (watch_) {
    watch_->detach();
    fe_->cancel_watch(watch_->id());
    fe_->metrics.watch_closed();
  }
  fe_->session_removed(this);
}

template <class Stream>
void Session<Stream>::start() {
  if constexpr (std::is_same_v<Stream, TlsStream>) {
    state_ = State::kHandshake;
    tcp().expires_after(fe_->options.header_timeout);
    stream_.async_handshake(net::ssl::stream_base::server,
                            [self = self()](error_code ec) { self->on_handshake(ec); });
  } else {
    read_header();
  }
}

template <class Stream>
void Session<Stream>::on_handshake(error_code ec) {
  if (ec) return close();
  if constexpr (std::is_same_v<Stream, TlsStream>) cert_user_ = certificate_user(stream_.native_handle());
  read_header();
}

// As Go's http.Server: a connection's first request header, and one whose first bytes are here,
// must arrive within header_timeout; otherwise the connection may sit idle for idle_timeout
// until the next request begins.
template <class Stream>
void Session<Stream>::read_header() {
  if (fe_->stopping) return close();
  state_ = State::kReading;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(fe_->options.max_header_bytes));
  parser_->body_limit(fe_->options.max_body_bytes);
  if (first_request_ || buffer_.size() > 0) {
    first_request_ = false;
    return read_header_bytes();
  }
  tcp().expires_after(fe_->options.idle_timeout);
  stream_.async_read_some(buffer_.prepare(kWatchReadBytes), [self = self()](error_code ec, std::size_t n) {
    self->buffer_.commit(n);
    if (ec) return self->close();
    self->read_header_bytes();
  });
}

template <class Stream>
void Session<Stream>::read_header_bytes() {
  tcp().expires_after(fe_->options.header_timeout);
  bhttp::async_read_header(stream_, buffer_, *parser_,
                           [self = self()](error_code ec, std::size_t) { self->on_header(ec); });
}

template <class Stream>
void Session<Stream>::on_header(error_code ec) {
  metric_verb_ = "INVALID";
  metric_resource_.clear();
  started_ = std::chrono::steady_clock::now();
  if (ec) {
    if (is_closed_error(ec) || state_ == State::kClosing) return close();
    return refuse(parse_error_status(ec, fe_->options.max_body_bytes));
  }
  if (parser_->is_done()) return handle_request();
  const auto expect = parser_->get()[bhttp::field::expect];
  if (beast::iequals(expect, "100-continue")) {
    continue_ = "HTTP/1.1 100 Continue\r\n\r\n";
    tcp().expires_after(fe_->options.write_timeout);
    net::async_write(stream_, net::buffer(continue_), [self = self()](error_code ec, std::size_t) {
      if (ec) return self->close();
      self->read_body();
    });
    return;
  }
  read_body();
}

template <class Stream>
void Session<Stream>::read_body() {
  tcp().expires_after(fe_->options.read_timeout);
  bhttp::async_read(stream_, buffer_, *parser_,
                    [self = self()](error_code ec, std::size_t) { self->on_body(ec); });
}

template <class Stream>
void Session<Stream>::on_body(error_code ec) {
  if (ec) {
    if (is_closed_error(ec)) return close();
    return refuse(parse_error_status(ec, fe_->options.max_body_bytes));
  }
  handle_request();
}

template <class Stream>
void Session<Stream>::handle_request() {
  auto& req = parser_->get();
  method_ = std::string(req.method_string());
  target_ = std::string(req.target());
  keep_alive_ = req.keep_alive();
  head_ = req.method() == bhttp::verb::head;
  tcp().expires_never();
  Prepared p = prepare_request(*fe_, req, cert_user_ ? &*cert_user_ : nullptr);
  metric_verb_ = std::move(p.metric_verb);
  metric_resource_ = std::move(p.metric_resource);
  user_ = std::move(p.user);
  if (p.reply) return send(std::move(*p.reply));
  watch_start_pending_ = p.call->verb == "watch";
  state_ = State::kWaiting;
  fe_->waiting[this] = shared_from_this();
  fe_->submit(std::move(*p.call), weak_from_this());
}

template <class Stream>
void Session<Stream>::on_reply(Reply reply) {
  auto keep = self();  // erasing the waiting entry may drop the last other reference
  fe_->waiting.erase(this);
  if (watch_start_pending_) {
    --fe_->watch_starts;
    watch_start_pending_ = false;
  }
  if (state_ != State::kWaiting) {
    if (reply.watch) {
      reply.watch->detach();
      fe_->cancel_watch(reply.watch->id());
    }
    return;
  }
  if (reply.watch) return begin_watch(std::move(reply.watch));
  send(std::move(reply));
}

template <class Stream>
void Session<Stream>::send(Reply reply) {
  state_ = State::kWriting;
  res_ = {};
  res_.version(11);
  res_.result(static_cast<unsigned>(reply.code));
  res_.set(bhttp::field::content_type, reply.content_type);
  res_.set(bhttp::field::cache_control, "no-cache, private");
  for (const auto& [name, value] : reply.headers) res_.insert(name, value);  // Warning may repeat
  const bool keep = keep_alive_ && !close_after_reply_ && !fe_->stopping;
  res_.keep_alive(keep);
  res_.body() = std::move(reply.body);
  res_.prepare_payload();
  if (head_) res_.body().clear();
  record(reply.code);
  tcp().expires_after(fe_->options.write_timeout);
  bhttp::async_write(stream_, res_, [self = self(), keep](error_code ec, std::size_t) {
    self->on_sent(ec, keep);
  });
}

template <class Stream>
void Session<Stream>::on_sent(error_code ec, bool keep_alive) {
  if (ec) return close();
  if (!keep_alive || fe_->stopping) return linger();
  read_header();
}

template <class Stream>
void Session<Stream>::refuse(const api::Status& status) {
  keep_alive_ = false;
  close_after_reply_ = true;
  head_ = false;
  send(Reply::of_status(status));
}

template <class Stream>
void Session<Stream>::record(int code) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  fe_->metrics.observe_request(metric_verb_, metric_resource_, code, seconds);
  if (fe_->options.log) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3fms", seconds * 1000);
    fe_->options.log(method_ + " " + target_ + " " + std::to_string(code) + " " + ms +
                     " user=" + (user_.empty() ? "-" : user_));
  }
}

template <class Stream>
void Session<Stream>::begin_watch(std::shared_ptr<WatchChannel> channel) {
  state_ = State::kWatching;
  watch_ = std::move(channel);
  fe_->metrics.watch_opened();
  record(200);
  watch_keep_alive_ = keep_alive_ && !close_after_reply_ && !fe_->stopping;
  pending_ = watch_keep_alive_ ? kWatchHead : kWatchHeadClose;
  stream_done_ = false;
  stream_abrupt_ = false;
  tcp().expires_never();
  if (!watch_reading_) watch_read();
  on_watch_data();
}

template <class Stream>
void Session<Stream>::on_watch_data() {
  if (state_ != State::kWatching || !watch_ || stream_done_) return;
  WatchChannel::Batch batch = watch_->take();
  for (const auto& event : batch.events) append_watch_event(pending_, event);
  fe_->metrics.events_sent(batch.events.size());
  if (batch.ended) {
    // An abrupt end still delivers what came before it, then cuts the connection.
    if (!batch.abrupt) pending_ += kLastChunk;
    stream_done_ = true;
    stream_abrupt_ = batch.abrupt;
  }
  if (pending_.size() > fe_->options.max_watch_buffer_bytes) {
    end_watch_from_io();  // the client does not keep up: cut it off
    return close();
  }
  flush_watch();
}

template <class Stream>
void Session<Stream>::flush_watch() {
  if (writing_) return;
  if (pending_.empty()) {
    if (stream_done_) {
      end_watch_from_io();
      // After a clean end the connection serves the next request, as kube-apiserver's does.
      if (!stream_abrupt_ && watch_keep_alive_ && !fe_->stopping) return resume_after_watch();
      close();
    }
    return;
  }
  inflight_.swap(pending_);
  pending_.clear();
  writing_ = true;
  tcp().expires_after(fe_->options.write_timeout);
  net::async_write(stream_, net::buffer(inflight_),
                   [self = self()](error_code ec, std::size_t) { self->on_watch_written(ec); });
}

template <class Stream>
void Session<Stream>::on_watch_written(error_code ec) {
  writing_ = false;
  inflight_.clear();
  if (ec) {
    end_watch_from_io();
    return close();
  }
  if (state_ == State::kWatching) flush_watch();
}

template <class Stream>
void Session<Stream>::resume_after_watch() {
  state_ = State::kAfterWatch;
  stream_done_ = false;
  // The read posted while streaming must finish first; it completes with the next request's
  // first bytes, or is cancelled here and completes at once.
  if (watch_reading_) return tcp().cancel();
  read_header();
}

// While streaming, a read stays posted so that a client going away ends the watch at once. What
// it reads is kept: it is the start of the next request once the stream has ended.
template <class Stream>
void Session<Stream>::watch_read() {
  watch_reading_ = true;
  stream_.async_read_some(buffer_.prepare(kWatchReadBytes), [self = self()](error_code ec, std::size_t n) {
    self->watch_reading_ = false;
    self->buffer_.commit(n);
    if (self->state_ == State::kAfterWatch) {
      if (ec && ec != net::error::operation_aborted) return self->close();
      return self->read_header();
    }
    if (self->state_ != State::kWatching) return;
    if (ec || self->buffer_.size() > self->fe_->options.max_header_bytes) {
      self->end_watch_from_io();  // the client went away (or floods a watch)
      return self->close();
    }
    self->watch_read();
  });
}

template <class Stream>
void Session<Stream>::end_watch_from_io() {
  if (!watch_) return;
  watch_->detach();
  fe_->cancel_watch(watch_->id());
  watch_.reset();
  fe_->metrics.watch_closed();
}

template <class Stream>
void Session<Stream>::close() {
  state_ = State::kClosing;
  error_code ec;
  tcp().socket().shutdown(net::ip::tcp::socket::shutdown_both, ec);
  tcp().close();
}

template <class Stream>
void Session<Stream>::linger() {
  state_ = State::kClosing;
  error_code ec;
  tcp().socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
  tcp().expires_after(std::chrono::seconds(1));
  linger_read();
}

template <class Stream>
void Session<Stream>::linger_read() {
  tcp().async_read_some(net::buffer(discard_), [self = self()](error_code ec, std::size_t) {
    if (ec) return self->close();
    self->linger_read();
  });
}

template <class Stream>
void Session<Stream>::shutdown() {
  switch (state_) {
    case State::kHandshake:
    case State::kReading:
    case State::kAfterWatch:
      return close();
    case State::kWaiting:
      close_after_reply_ = true;
      return;
    case State::kWatching:
      end_watch_from_io();
      if (!stream_done_) {
        pending_ += kLastChunk;
        stream_done_ = true;
      }
      state_ = State::kWatching;
      watch_.reset();
      flush_watch();
      return;
    case State::kWriting:
    case State::kClosing:
      return;
  }
}

template class Session<PlainStream>;
template class Session<TlsStream>;

void start_session(net::ip::tcp::socket socket, const std::shared_ptr<Frontend>& fe) {
  beast::error_code ec;
  socket.set_option(net::ip::tcp::no_delay(true), ec);
  if (fe->ssl) {
    std::make_shared<Session<TlsStream>>(std::move(socket), fe)->start();
  } else {
    std::make_shared<Session<PlainStream>>(std::move(socket), fe)->start();
  }
}

}  // namespace kubesim::fakeapi::http::internal
