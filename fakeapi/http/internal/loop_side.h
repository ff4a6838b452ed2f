// LoopSide: the part of the HTTP front end that runs on the loop's thread, the only thread that
// touches the ApiServer. It answers discovery, OpenAPI and admin calls itself, hands every
// resource call to the server's front door (ApiServer::serve: fault rules, revision wait,
// recorder) as a Request, and pumps each started watch into its WatchChannel. Answers go back to
// the session through the Gate.
//
// Every member runs on the loop thread; the I/O thread reaches it only through
// Loop::post_external. Once closed, queued calls are dropped without touching the ApiServer.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_LOOP_SIDE_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_LOOP_SIDE_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "fakeapi/http/internal/call.h"
#include "fakeapi/http/internal/channel.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task_group.h"

namespace kubesim::fakeapi::http::internal {

struct LoopSideOptions {
  LoopSideOptions() {}
  std::string git_version;
  std::string server_address;  // host:port for APIVersions
};

class LoopSide : public std::enable_shared_from_this<LoopSide> {
 public:
  LoopSide(sim::Loop& loop, ApiServer& server, std::shared_ptr<Gate> gate, LoopSideOptions options)
      : loop_(&loop), server_(&server), gate_(std::move(gate)), options_(std::move(options)) {}

  // Loop thread: executes `call` and posts the reply to `session` (a resource call once the
  // server's front door has answered it).
  void handle(ApiCall call, std::weak_ptr<SessionBase> session);
  // Loop thread: ends watch `id` (its client is gone).
  void cancel_watch(std::uint64_t id);
  // Loop thread: ends every watch cleanly (graceful shutdown).
  void end_all_watches();
  // Any thread: later calls are dropped.
  void close() { closed_ = true; }
  bool closed() const { return closed_; }

  sim::Loop& loop() { return *loop_; }
  ApiServer& server() { return *server_; }
  // Watches pumping now (loop thread).
  std::size_t active_watches() const { return watches_.size(); }

  // Internal, for the coroutines of loop_side.cc.
  Reply execute(ApiCall& call, const std::weak_ptr<SessionBase>& session);
  void reply(const std::weak_ptr<SessionBase>& session, Reply reply);
  void watch_ended(std::uint64_t id) { watches_.erase(id); }
  // Answers the session with a started watch and pumps its events into a new channel.
  void start_pump(api::WatchPtr stream, const std::weak_ptr<SessionBase>& session);
  // The HTTP reply for the front door's `response` to a call of `verb`, Warning headers included.
  static Reply reply_of(const std::string& verb, const Response& response,
                        const std::string& api_version, const std::string& list_kind);

 private:
  Reply resource(ApiCall& call, const std::weak_ptr<SessionBase>& session);
  // A create's or update's body decoded (protobuf) and checked against the URL (the update's
  // name and namespace), as kube-apiserver's handler does before the store; the refusal if not.
  static std::optional<Reply> decode_write(ApiCall& call, const ResourceInfo& info);
  Reply discovery(const ApiCall& call);
  Reply admin(ApiCall& call);

  sim::Loop* loop_;
  ApiServer* server_;
  std::shared_ptr<Gate> gate_;
  LoopSideOptions options_;
  std::atomic<bool> closed_{false};
  std::uint64_t next_watch_id_ = 1;
  std::map<std::uint64_t, sim::CancelFunc> watches_;
  // Calls waiting for the front door and watch pumps.
  sim::TaskGroup tasks_{*loop_};
};

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_LOOP_SIDE_H_
