// RestClient: api::Client over HTTP(S), for a `kubesim serve` or a real cluster — client-go's
// rest client behind kubesim's Client interface.
//
// Each call is one HTTP/1.1 request on the Kubernetes REST paths (core /api/v1, groups
// /apis/GROUP/VERSION; namespaced when `ns` is given; the subresource of an update or patch, /status for update_status; DELETE on the
// collection for delete_collection), with the options of kubesim/api/options.h as query parameters and
// DeleteOptions as a JSON body, exactly as client-go sends them. Results match the in-process
// client's: the object or list, or the Status the server sent — or, for error bodies that are
// not a Status (a proxy's HTML page, an empty 500), the Status client-go makes up from the code.
// Failures on the client side (no connection, a done context, a bad name) are Statuses with
// code 0 and the error's text, as the in-process client reports a done context.
//
// Threads and the loop. The client runs on a real-mode sim::Loop (ClockMode::kReal) that the
// caller drives with loop.run() — run_until_idle() and run_until_complete() return as soon as
// the loop waits for nothing but the network. The network lives on one I/O thread per client
// with its own Asio io_context; the two meet only through thread-safe hand-offs: the loop side
// posts requests, cancellations and flow-control resumes to the io_context, and the I/O side posts
// finished responses and decoded watch events back with Loop::post_external. Responses are
// decoded (JSON parsed, Objects built) on the I/O thread, so the loop only receives ready
// results. All public members must be called on the loop's thread.
//
// Timeouts come from the call's Context: when it is done before the answer, the call returns at
// once with the context's error and the request is aborted (its connection closed). The Context
// of watch() covers only the start of the watch (until the response headers); the stream then
// lives until the server ends it, stop() is called, or the stream is destroyed.
//
// Rate limiting: every request but watches waits for a token of a client-go-style token bucket
// (RestConfig::qps / burst, 5 qps and burst 10 by default) on the loop's clock. A request whose
// wait would pass its context's deadline fails at once, as client-go's does.
//
// Watch streams decode the chunked body incrementally (one JSON event per line, or none between
// events, split anywhere); an ERROR event carries its Status and ends the stream; undecodable
// input ends it with client-go's 500 "unable to decode an event from the watch stream". A stream
// the server ends (cleanly or not) returns nullopt from next(). Past RestConfig::watch_window
// undelivered events the client stops reading the socket until the consumer catches up.
//
// Not done: retries on 429/5xx with Retry-After (client-go retries those up to 10 times; here
// the Status with its retry_after_seconds goes to the caller), HTTP/2, protobuf, exec credential
// plugins, proxies.
//
// Lifetime: the loop must outlive the client. Destroying the client aborts its requests (calls
// still waiting return an error) and ends its watch streams; streams may outlive the client.
#ifndef KUBESIM_API_REST_REST_CLIENT_H_
#define KUBESIM_API_REST_REST_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "kubesim/api/client.h"
#include "kubesim/api/rest/rest_config.h"
#include "kubesim/sim/loop.h"

namespace kubesim::api::rest {

class RestClient final : public Client {
 public:
  // Validates `config` (server URL, TLS material, token file) and starts the I/O thread. Throws
  // ConfigError naming what is wrong. `loop` must be in real mode.
  RestClient(sim::Loop& loop, RestConfig config);
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;
  ~RestClient() override;

  // One HTTP exchange (a streamed one for a watch). A delete answered with a Success Status
  // instead of the object (kube-apiserver does that for many kinds) carries that Status as its
  // object.
  sim::Task<Response> send(sim::Context ctx, Request request) override;

  const RestConfig& config() const;

  struct Stats {
    std::uint64_t connections_opened = 0;  // TCP (and TLS) connections made so far
    std::uint64_t requests = 0;            // HTTP exchanges started, watches included
    std::size_t idle_connections = 0;      // kept-alive connections waiting for reuse
  };
  // Thread-safe snapshot, for tests and benchmarks.
  Stats stats() const;

  struct Shared;

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace kubesim::api::rest

#endif  // KUBESIM_API_REST_REST_CLIENT_H_
