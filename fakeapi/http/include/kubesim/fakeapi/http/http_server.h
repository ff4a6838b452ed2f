// HttpServer: the fake API server over HTTP/1.1 and TLS, for unmodified Kubernetes clients.
//
// It serves the Kubernetes REST paths (core /api/v1 and /apis/GROUP/VERSION, namespaced and
// cluster-scoped, the /status subresource, collection delete, ?watch=true streams), legacy
// discovery, /version, OpenAPI as far as kubectl's default validation needs, /healthz, /livez,
// /readyz, /metrics and the admin endpoints under /kubesim/v1/. Errors are metav1.Status bodies
// with the code and reason kube-apiserver gives. Watches answer 200 with their headers at once,
// then one JSON event per line in its own chunk, written as soon as the event happens; an ERROR
// event (410 Expired) is followed by the end of the stream. A stream that ends cleanly (timeout,
// 410, restart) ends with the terminating chunk and leaves a keep-alive connection usable for the
// next request, as kube-apiserver does; only abrupt ends (fault rules, slow clients) cut it.
//
// Threads. The ApiServer and its sim::Loop (real-clock mode) keep their single thread, which the
// caller runs (loop.run()). HttpServer owns one I/O thread running an Asio io_context: accept,
// TLS, HTTP parsing, authentication, body decoding (JSON, YAML), the endpoints that need no store
// (health, /version, /metrics, /openapi/v2) and writing. Each request that needs the store
// crosses to the loop with Loop::post_external, is executed there in arrival order, and its
// answer comes back to the I/O thread; watch events flow the same way through a bounded channel
// per watch. So the store is only ever touched by the loop thread, and the in-process side (a
// test, a simulated controller) can drive the same ApiServer at the same time from that thread.
//
// Authentication: a bearer token from `tokens`, or (TLS only) a client certificate signed by
// `client_ca_pem` (CN = user, O = groups). Anything else gets 401 unless `anonymous`. The health
// endpoints answer without authentication. Authenticated users may do everything.
//
// Limits: bodies over max_body_bytes get 413 (Content-Length is checked before the body is read),
// headers over max_header_bytes 431, malformed HTTP 400; those three close the connection. As
// kube-apiserver's http.Server: a keep-alive connection with no next request for idle_timeout
// (90 s) is closed, and a request header must arrive within header_timeout (32 s) of its first
// byte (of the connection, for its first request). A body that does not arrive in read_timeout
// closes the connection, and a write (a response or watch events) that makes no progress for
// write_timeout cuts the connection (kube-apiserver bounds both with its 60 s request timeout).
// Watches beyond max_watches get 429 with Retry-After; a watch whose client lets more than
// max_watch_buffer_bytes pile up is cut off.
//
// Lifetime: the loop, the ApiServer and the loop's thread must outlive the HttpServer. stop()
// (also run by the destructor) stops accepting, ends every watch cleanly (terminating chunk),
// lets requests in flight finish for up to `grace`, then closes everything.
#ifndef KUBESIM_FAKEAPI_HTTP_HTTP_SERVER_H_
#define KUBESIM_FAKEAPI_HTTP_HTTP_SERVER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "kubesim/fakeapi/http/auth.h"
#include "kubesim/fakeapi/http/tls.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi::http {

struct HttpServerOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (see HttpServer::port())
  // TLS with this serving certificate; plain HTTP when tls.cert_pem is empty. Plain HTTP on an
  // address other than loopback is refused unless allow_plain_non_loopback.
  CertificateAndKey tls{};
  bool allow_plain_non_loopback = false;
  std::string client_ca_pem{};  // client certificates it signed authenticate; empty: none do
  std::map<std::string, UserInfo, std::less<>> tokens{};
  bool anonymous = false;
  // /version's gitVersion, "vMAJOR.MINOR.PATCH[-suffix]"; kubectl's dispatcher picks its binary
  // from the minor version.
  std::string git_version = "v1.33.1";
  std::size_t max_body_bytes = 3 * 1024 * 1024;
  std::size_t max_header_bytes = 1024 * 1024;
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(90);
  std::chrono::milliseconds header_timeout = std::chrono::seconds(32);
  std::chrono::milliseconds read_timeout = std::chrono::seconds(60);
  std::chrono::milliseconds write_timeout = std::chrono::seconds(60);
  std::size_t max_watches = 10'000;
  std::size_t max_watch_buffer_bytes = 16 * 1024 * 1024;
  // Watch writes start at least this far apart: an event after a quiet spell goes out at once,
  // but under load the events of several writes share one socket write per watch. Zero writes
  // every event as soon as the I/O thread gets to it.
  std::chrono::microseconds watch_coalesce = std::chrono::milliseconds(2);
  // When set, called on the I/O thread with one line per request (method, path, code, time, user).
  std::function<void(const std::string&)> log{};
};

class HttpServer {
 public:
  // Validates `options`, binds and starts serving. Throws std::invalid_argument naming the bad
  // option, std::runtime_error (boost::system::system_error) when the address cannot be bound.
  HttpServer(sim::Loop& loop, ApiServer& server, HttpServerOptions options);
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();

  std::uint16_t port() const;
  bool tls() const;
  // "https://127.0.0.1:PORT" (or http://), with IPv6 addresses in brackets.
  std::string url() const;
  // Graceful stop; idempotent. Needs the loop running to end watches through it (without it the
  // streams are still ended cleanly, from the I/O side).
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kubesim::fakeapi::http

#endif  // KUBESIM_FAKEAPI_HTTP_HTTP_SERVER_H_
