// Session: one client connection on the I/O thread, plain TCP or TLS (Stream is beast::tcp_stream
// or beast::ssl_stream<beast::tcp_stream>).
//
// A session reads one request at a time (keep-alive; pipelined requests wait in the buffer),
// authenticates it, answers it locally or submits it to the loop, and writes the answer. A watch
// answer turns the session into a stream: headers at once, then each batch of events the channel
// hands over as chunks, one event per chunk and line; the end of the channel ends the stream with
// the terminating chunk, after which a keep-alive connection reads its next request (an abrupt
// end cuts the connection). A read stays posted while streaming so that a client going away ends
// the watch at once; what it reads is the start of the next request.
//
// Closing is lingering: the send side is shut, then input is drained for up to a second, so that
// a client whose body was refused (413) reads the answer instead of a reset.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_SESSION_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_SESSION_H_

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "fakeapi/http/internal/channel.h"
#include "fakeapi/http/internal/frontend.h"

namespace kubesim::fakeapi::http::internal {

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

template <class Stream>
class Session final : public SessionBase {
 public:
  Session(boost::asio::ip::tcp::socket socket, std::shared_ptr<Frontend> fe);
  ~Session() override;

  void start();
  void on_reply(Reply reply) override;
  void on_watch_data() override;
  void shutdown() override;

 private:
  enum class State { kHandshake, kReading, kWaiting, kWriting, kWatching, kAfterWatch, kClosing };
  static constexpr std::size_t kWatchReadBytes = 4096;
  using error_code = boost::beast::error_code;

  boost::beast::tcp_stream& tcp() { return boost::beast::get_lowest_layer(stream_); }
  std::shared_ptr<Session> self() { return std::static_pointer_cast<Session>(shared_from_this()); }

  void on_handshake(error_code ec);
  void read_header();
  void read_header_bytes();  // the header, its first bytes in buffer_ or about to arrive
  void on_header(error_code ec);
  void read_body();
  void on_body(error_code ec);
  void handle_request();
  void send(Reply reply);
  void on_sent(error_code ec, bool keep_alive);
  void refuse(const api::Status& status);  // answer, then close
  void begin_watch(std::shared_ptr<WatchChannel> channel);
  void flush_watch();
  void on_watch_written(error_code ec);
  void watch_read();
  void resume_after_watch();  // a clean end on a keep-alive connection: read the next request
  void end_watch_from_io();  // client gone or cut: stop the producer
  void close();
  void linger();
  void linger_read();
  static Stream make_stream(boost::asio::ip::tcp::socket socket, Frontend& fe);
  void record(int code);

  Stream stream_;
  std::shared_ptr<Frontend> fe_;
  State state_ = State::kReading;
  boost::beast::flat_buffer buffer_;
  bool first_request_ = true;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::response<boost::beast::http::string_body> res_;
  std::string continue_;  // "100 Continue" while it is written
  std::optional<UserInfo> cert_user_;
  // The request being served, for metrics and the log.
  std::chrono::steady_clock::time_point started_;
  std::string method_;
  std::string target_;
  std::string metric_verb_;
  std::string metric_resource_;
  std::string user_;
  bool keep_alive_ = true;
  bool head_ = false;
  bool watch_start_pending_ = false;
  bool close_after_reply_ = false;
  // Streaming.
  std::shared_ptr<WatchChannel> watch_;
  std::string pending_;   // bytes waiting for the current write to finish
  std::string inflight_;  // bytes being written
  bool writing_ = false;
  bool stream_done_ = false;  // the stream's end (terminating chunk, or a cut) is queued
  bool stream_abrupt_ = false;  // ... and it is a cut
  bool watch_keep_alive_ = false;  // the connection outlives the stream
  bool watch_reading_ = false;  // watch_read()'s read is posted
  std::array<char, 512> discard_{};
};

extern template class Session<PlainStream>;
extern template class Session<TlsStream>;

// Starts serving an accepted connection.
void start_session(boost::asio::ip::tcp::socket socket, const std::shared_ptr<Frontend>& fe);

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_SESSION_H_
