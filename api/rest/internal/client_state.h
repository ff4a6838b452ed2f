// The state a RestClient shares with its calls and watch streams (which may outlive it), and the
// hand-off of one finished exchange from the I/O thread to the loop.
#ifndef KUBESIM_API_REST_INTERNAL_CLIENT_STATE_H_
#define KUBESIM_API_REST_INTERNAL_CLIENT_STATE_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/rest/internal/http_types.h"
#include "api/rest/internal/rate_limiter.h"
#include "api/rest/internal/response.h"
#include "api/rest/internal/transport.h"
#include "api/rest/internal/url.h"
#include "kubesim/api/rest/rest_client.h"
#include "kubesim/sim/event.h"

namespace kubesim::api::rest {

// Loop thread only, except `transport` whose members are thread-safe.
struct RestClient::Shared {
  Shared(sim::Loop& loop_, RestConfig config_);

  sim::Loop* loop;
  RestConfig config;
  internal::ServerUrl url;
  std::unique_ptr<internal::Transport> transport;
  internal::RateLimiter limiter;

  // Accept, User-Agent and Authorization (re-reading the token file once a minute).
  std::vector<std::pair<std::string, std::string>> headers();
  // The I/O-side time limit for a call with this context: its deadline plus a second, so that
  // the loop side, which reports the context's error, normally acts first.
  std::optional<std::chrono::nanoseconds> io_timeout(const sim::Context& ctx) const;

 private:
  // Re-reads the token file; on failure keeps the last token and returns the error.
  std::string refresh_token();
  std::string token_;
  std::optional<sim::Time> token_read_at_;
};

namespace internal {

// One exchange's result on its way to the loop. Created and awaited on the loop; the I/O thread
// only posts a closure holding it back to the loop.
template <class T>
struct Pending {
  explicit Pending(sim::Loop& loop) : done(loop) {}
  sim::Event done;
  std::optional<Result<T>> value;
  int code = 0;  // the HTTP status code (0: no answer)
  std::vector<std::string> warnings;  // the texts of its Warning headers
};

// A watch request (rest_watch.cc): a streamed GET ?watch=true; the Response carries the stream
// once the server's headers arrived.
sim::Task<Response> start_watch(const std::shared_ptr<RestClient::Shared>& s, sim::Context ctx,
                                const Request& request);

}  // namespace internal
}  // namespace kubesim::api::rest

#endif  // KUBESIM_API_REST_INTERNAL_CLIENT_STATE_H_
