// Test support for fakeapi/http: a fake API server with its HTTP front end on a loopback port
// (the loop runs on a thread of its own, in real-clock mode), a blocking HTTP/1.1 client over
// plain TCP or TLS with keep-alive, and a watch reader that sees the chunks as they arrive.
// Socket reads time out after a few seconds, so a broken server fails a test instead of hanging
// it; nothing asserts on time.
#ifndef KUBESIM_TESTS_FAKEAPI_HTTP_TEST_CLIENT_H_
#define KUBESIM_TESTS_FAKEAPI_HTTP_TEST_CLIENT_H_

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi::http::testing {

inline constexpr char kToken[] = "test-token";
// The ConfigMaps of namespace "default".
inline constexpr char kCms[] = "/api/v1/namespaces/default/configmaps";

// The default options of the tests: plain HTTP on 127.0.0.1, one admin token.
HttpServerOptions plain_options();

class TestServer {
 public:
  explicit TestServer(HttpServerOptions options = plain_options(), ServerOptions server = {});
  ~TestServer();

  HttpServer& http() { return *http_; }
  ApiServer& api() { return *api_; }
  std::uint16_t port() const { return http_->port(); }
  // Runs `fn` on the loop thread and waits for it.
  void on_loop(const std::function<void()>& fn);
  std::int64_t revision();

 private:
  sim::Loop loop_;
  std::unique_ptr<ApiServer> api_;
  std::unique_ptr<HttpServer> http_;
  std::thread thread_;
};

struct Response {
  int code = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  nlohmann::json json() const;
  std::string header(const std::string& name) const;
};

struct TlsClientOptions {
  std::string ca_pem;       // verify the server with it; empty: no verification
  std::string cert_pem;     // client certificate
  std::string key_pem;
};

// One connection, reused for every request while the server keeps it open.
class Client {
 public:
  explicit Client(std::uint16_t port, std::optional<TlsClientOptions> tls = std::nullopt);
  ~Client();

  // Sends one request. `headers` are added as given; Authorization defaults to the test token
  // (pass an empty "authorization" header to send none). Throws on transport errors.
  Response request(const std::string& method, const std::string& target, const std::string& body = "",
                   std::map<std::string, std::string> headers = {});
  Response get(const std::string& target) { return request("GET", target); }
  Response post(const std::string& target, const nlohmann::json& body) {
    return request("POST", target, body.dump(), {{"content-type", "application/json"}});
  }
  // True while the server has not closed this connection.
  bool open();

  // Watch: sends the request and reads the response headers.
  Response start_watch(const std::string& target, std::map<std::string, std::string> headers = {});
  // The next event line of the watch (without its newline), or nullopt when the stream ended
  // cleanly (terminating chunk). Throws when the connection breaks or times out.
  std::optional<std::string> next_line();
  // True once the terminating chunk was read.
  bool stream_ended() const;

  // Raw bytes, for malformed requests; returns what the server answers until it closes (or a
  // timeout).
  std::string raw(const std::string& bytes);
  // Writes raw bytes and reads nothing (a request that never completes).
  void send(const std::string& bytes);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The number of open HTTP watches, from the admin stats.
std::size_t http_watches(Client& c);

}  // namespace kubesim::fakeapi::http::testing

#endif  // KUBESIM_TESTS_FAKEAPI_HTTP_TEST_CLIENT_H_
