// CannedServer: a tiny HTTP/1.1 server for RestClient's tests, answering each request with what a
// handler returns — a plain response, a chunked stream (ended cleanly, cut, or left open), or
// nothing at all (the request hangs until the client goes away). It records every request and
// the connection it came on, so tests can check paths, queries, headers, bodies and keep-alive.
// One thread accepts, one thread serves each connection (blocking Beast calls).
#ifndef KUBESIM_TESTS_REST_CLIENT_CANNED_SERVER_H_
#define KUBESIM_TESTS_REST_CLIENT_CANNED_SERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace kubesim::api::rest::testing {

struct RecordedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  int connection = 0;  // 1 for the first connection accepted, 2 for the next, ...
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

struct Reply {
  enum class End { kClean, kCut, kHang };
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool close = false;  // close the connection after the reply
  bool hang = false;   // send nothing; wait until the client closes
  // A chunked stream: each element one chunk, flushed on its own; then `end`.
  bool stream = false;
  std::vector<std::string> chunks;
  End end = End::kClean;

  static Reply json(int status, std::string body) {
    Reply r;
    r.status = status;
    r.body = std::move(body);
    return r;
  }
};

class CannedServer {
 public:
  using Handler = std::function<Reply(const RecordedRequest&)>;
  explicit CannedServer(Handler handler);
  ~CannedServer();

  std::uint16_t port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<RecordedRequest> requests() const;
  int connections() const { return connections_.load(); }

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::uint16_t port_ = 0;
  std::atomic<int> connections_{0};
};

}  // namespace kubesim::api::rest::testing

#endif  // KUBESIM_TESTS_REST_CLIENT_CANNED_SERVER_H_
