// Transport: HTTP/1.1 exchanges over a small pool of kept-alive connections (TCP or TLS), run by
// one I/O thread with its own Asio io_context. This header is free of Asio; only transport.cc
// includes it.
//
// Threads. start(), cancel(), resume() and shutdown() may be called from any thread (RestClient
// calls them from its loop). Everything else — sockets, the pool, the exchanges — lives on the
// I/O thread, and the callbacks (Done, StreamHandler) run there, so they must hand their results
// over (RestClient posts them to its loop).
//
// Each exchange takes an idle connection (the most recently used one that is still open and has
// been idle less than idle_timeout) or opens a new one, writes the request and reads the
// response. A connection goes back to the pool after a complete response that allows keep-alive,
// and is closed otherwise (an error, a cancelled exchange, a stream stopped early). When a reused
// connection turns out to have been closed by the server before any byte of the response came
// back, an idempotent request (or one that could not even be written) is sent again once on a new
// connection, as Go's transport does.
//
// Streams. With a StreamHandler, a 200 response is streamed: on_open() once its headers are in,
// then on_data() with the body's bytes as they arrive (chunked transfer decoding done). on_data
// may ask to pause (reading stops until resume()) or to stop (the connection is closed).
#ifndef KUBESIM_API_REST_INTERNAL_TRANSPORT_H_
#define KUBESIM_API_REST_INTERNAL_TRANSPORT_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "api/rest/internal/http_types.h"
#include "api/rest/internal/url.h"

namespace kubesim::api::rest::internal {

struct TransportConfig {
  TransportConfig() {}
  ServerUrl url;
  std::string tls_server_name;  // empty: url.host
  bool insecure_skip_tls_verify = false;
  std::string ca_pem;  // empty: the system's roots
  std::string client_cert_pem;
  std::string client_key_pem;
  std::size_t max_idle_connections = 25;
  std::chrono::seconds idle_timeout{90};
  std::size_t max_response_bytes = std::size_t{1} << 30;
};

class StreamHandler {
 public:
  enum class Next { kContinue, kPause, kStop };
  virtual ~StreamHandler() = default;
  // The 200 response's headers have arrived.
  virtual void on_open() = 0;
  // Body bytes, in order. kPause: read no more until Transport::resume(); kStop: end the
  // exchange and close the connection.
  virtual Next on_data(std::string_view bytes) = 0;
};

class Transport {
 public:
  // Called exactly once per exchange, on the I/O thread: the response (a stream's, once it has
  // ended: code 200, empty body, `error` set when it broke off), or code 0 and the error.
  using Done = std::function<void(HttpResponse)>;

  struct Stats {
    std::uint64_t connections_opened = 0;
    std::uint64_t exchanges = 0;
    std::size_t idle_connections = 0;
  };

  // Builds the TLS context and starts the I/O thread. Throws ConfigError for unusable TLS
  // material (a CA, certificate or key that is not valid PEM, a key that does not match).
  explicit Transport(TransportConfig config);
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;
  // shutdown().
  ~Transport();

  // Starts an exchange and returns its id. After shutdown() `done` is called at once with an
  // error instead.
  std::uint64_t start(HttpRequest request, Done done, std::shared_ptr<StreamHandler> stream = nullptr);
  // Aborts an exchange (its connection is closed; `done` still runs, with an error). Unknown or
  // finished ids are ignored.
  void cancel(std::uint64_t id);
  // Lets a paused stream read again.
  void resume(std::uint64_t id);
  // Aborts every exchange, closes every connection and joins the I/O thread. Idempotent; must
  // not be called from a Done or StreamHandler callback.
  void shutdown();

  Stats stats() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace kubesim::api::rest::internal

#endif  // KUBESIM_API_REST_INTERNAL_TRANSPORT_H_
