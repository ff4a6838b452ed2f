// Frontend: what every session of one HttpServer shares on the I/O thread — options, TLS
// context, credentials, metrics, the session set (for graceful stop), and the way to the loop.
// Touched only by the I/O thread, except `loop_side` and `gate`, which are thread-safe handles.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_FRONTEND_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_FRONTEND_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include "kubesim/fakeapi/http/http_server.h"
#include "fakeapi/http/internal/call.h"
#include "fakeapi/http/internal/channel.h"
#include "fakeapi/http/internal/loop_side.h"
#include "fakeapi/http/internal/metrics.h"

namespace kubesim::fakeapi::http::internal {

struct Frontend {
  Frontend(boost::asio::io_context& io_, HttpServerOptions options_) : io(io_), options(std::move(options_)) {}

  // Hands `call` to the loop; the reply comes back through the gate to `session`.
  void submit(ApiCall call, std::weak_ptr<SessionBase> session) {
    loop->post_external([side = loop_side, call = std::move(call), session]() mutable {
      side->handle(std::move(call), std::move(session));
    });
  }
  // Asks the loop to end watch `id` (its client is gone).
  void cancel_watch(std::uint64_t id) {
    loop->post_external([side = loop_side, id] { side->cancel_watch(id); });
  }
  // The user behind a request: its client certificate's, else its bearer token's; nullopt for a
  // request that must get 401.
  std::optional<UserInfo> authenticate(std::string_view authorization, const UserInfo* cert_user) const {
    if (cert_user != nullptr) return *cert_user;
    const std::string_view token = bearer_token(authorization);
    if (!token.empty()) {
      auto it = options.tokens.find(token);
      if (it == options.tokens.end()) return std::nullopt;
      return it->second;
    }
    if (!authorization.empty()) return std::nullopt;
    if (options.anonymous) return anonymous_user();
    return std::nullopt;
  }

  void session_added(SessionBase* s) {
    sessions.insert(s);
    metrics.connection_opened();
  }
  void session_removed(SessionBase* s) {
    sessions.erase(s);
    metrics.connection_closed();
    if (stopping && sessions.empty() && on_idle) std::exchange(on_idle, nullptr)();
  }

  boost::asio::io_context& io;
  HttpServerOptions options;
  std::optional<boost::asio::ssl::context> ssl;
  sim::Loop* loop = nullptr;
  std::shared_ptr<LoopSide> loop_side;
  std::shared_ptr<Gate> gate;
  Metrics metrics;
  std::string version_json;
  std::unordered_set<SessionBase*> sessions;
  // Sessions waiting for the loop's answer: the loop holds only weak references, so these are
  // kept alive here until the answer comes (or the server stops).
  std::unordered_map<SessionBase*, std::shared_ptr<SessionBase>> waiting;
  std::size_t watch_starts = 0;  // watches submitted whose answer has not come back yet
  bool stopping = false;
  std::function<void()> on_idle;  // called once when the last session ends after stopping
};

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_FRONTEND_H_
