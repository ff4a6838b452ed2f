// OfflineServer: a connection's request path without sockets or threads, for the fuzz target
// and tests. Raw request bytes go through what a session does with them — Beast's parser with the
// server's header and body limits, prepare_request (authentication, routing, query and body
// decoding), the loop side against the ApiServer — on the caller's thread, with a virtual-clock
// loop. Watches are answered with their head and the events the loop produces until it is idle
// (and one second of virtual time has passed), then cancelled.
//
// Not thread-safe; the loop must be in virtual mode and outlive the OfflineServer.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_OFFLINE_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_OFFLINE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "kubesim/fakeapi/http/http_server.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi::http::internal {

struct Frontend;

struct OfflineAnswer {
  OfflineAnswer() {}
  int code = 0;
  std::string content_type;
  std::string body;                // for a watch: the chunks (events and the terminating chunk)
  bool watch = false;
  std::vector<std::string> events;  // a watch's event lines, without their newline
  std::int64_t revision = 0;        // the store's revision once the request was served
};

class OfflineServer {
 public:
  OfflineServer(sim::Loop& loop, ApiServer& server, HttpServerOptions options);
  ~OfflineServer();

  // Serves the pipelined requests in `bytes` as one connection would, in order; stops after a
  // request the parser refuses (answered 400, 413 or 431, as a session closes after those) and
  // at a request that is not complete. One answer per request served.
  std::vector<OfflineAnswer> serve(std::string_view bytes);

 private:
  OfflineAnswer serve_one(boost::beast::http::request<boost::beast::http::string_body>& request);
  void settle();  // runs the loop and the I/O side until neither has work

  struct Io;
  sim::Loop* loop_;
  ApiServer* server_;
  std::unique_ptr<Io> io_;
  std::shared_ptr<Frontend> fe_;
};

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_OFFLINE_H_
