// RestClient::watch: a streamed GET ?watch=true whose body the I/O thread decodes into events and
// posts to the loop in batches, with a window of undelivered events as flow control.
#include <mutex>

#include "api/rest/internal/client_state.h"
#include "api/rest/internal/paths.h"
#include "api/rest/internal/watch_decoder.h"
#include "kubesim/api/rest/rest_client.h"
#include "kubesim/sim/channel.h"

namespace kubesim::api::rest {
namespace {

using internal::HttpRequest;
using internal::HttpResponse;
using internal::RequestInfo;
using internal::StreamHandler;

struct WatchState {
  WatchState(sim::Loop& loop, std::size_t window_) : events(loop), opened(loop), window(window_) {}

  // Loop thread only.
  sim::Channel<WatchEvent> events;
  sim::Event opened;  // set once the response headers arrived, or the watch failed to start
  std::optional<Status> open_error;
  bool stopped = false;
  std::uint64_t id = 0;

  // Shared by both threads, under mu. Invariant: in_flight counts events posted by the I/O
  // thread and not yet taken by next(); `paused` is true exactly while the transport has been
  // asked to stop reading and no resume has been sent.
  std::mutex mu;
  std::size_t in_flight = 0;
  bool paused = false;
  const std::size_t window;
};

// The I/O side: decodes the body and posts events to the loop.
class WatchSink final : public StreamHandler {
 public:
  WatchSink(std::shared_ptr<WatchState> state, sim::Loop* loop, std::size_t max_event_bytes)
      : state_(std::move(state)), loop_(loop), decoder_(max_event_bytes) {}

  void on_open() override {
    loop_->post_external([state = state_] { state->opened.set(); });
  }

  Next on_data(std::string_view bytes) override {
    std::vector<WatchEvent> events;
    decoder_.feed(bytes, events);
    bool pause = false;
    if (!events.empty()) {
      {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->in_flight += events.size();
        pause = state_->in_flight >= state_->window;
        if (pause) state_->paused = true;
      }
      auto batch = std::make_shared<std::vector<WatchEvent>>(std::move(events));
      loop_->post_external([state = state_, batch] {
        if (state->stopped) return;
        for (auto& e : *batch) state->events.try_send(std::move(e));
      });
    }
    if (decoder_.finished()) return Next::kStop;  // an ERROR event is the last
    return pause ? Next::kPause : Next::kContinue;
  }

 private:
  std::shared_ptr<WatchState> state_;
  sim::Loop* loop_;
  internal::WatchDecoder decoder_;
};

class RestWatchStream final : public WatchStream {
 public:
  RestWatchStream(std::shared_ptr<WatchState> state, std::weak_ptr<RestClient::Shared> client)
      : state_(std::move(state)), client_(std::move(client)) {}
  ~RestWatchStream() override { stop(); }

  sim::Task<std::optional<WatchEvent>> next(sim::Context ctx) override {
    return next_event(state_, client_, std::move(ctx));
  }

  void stop() override {
    if (state_->stopped) return;
    state_->stopped = true;
    state_->events.close();
    while (state_->events.try_recv()) {
    }
    if (auto client = client_.lock()) client->transport->cancel(state_->id);
  }

 private:
  static sim::Task<std::optional<WatchEvent>> next_event(std::shared_ptr<WatchState> state,
                                                         std::weak_ptr<RestClient::Shared> client,
                                                         sim::Context ctx) {
    auto event = co_await state->events.recv(std::move(ctx));
    if (event) {
      bool resume = false;
      {
        std::lock_guard<std::mutex> lock(state->mu);
        --state->in_flight;
        if (state->paused && state->in_flight <= state->window / 2) {
          state->paused = false;
          resume = true;
        }
      }
      if (resume) {
        if (auto c = client.lock()) c->transport->resume(state->id);
      }
    }
    co_return event;
  }

  std::shared_ptr<WatchState> state_;
  std::weak_ptr<RestClient::Shared> client_;
};

sim::Task<Response> failed(Status status) { co_return Response::failure(std::move(status)); }

sim::Task<Response> open_watch(std::shared_ptr<RestClient::Shared> s, sim::Context ctx,
                               HttpRequest req, RequestInfo info) {
  if (ctx.done()) co_return Response::failure(new_context_error(ctx.err()));
  req.headers = s->headers();
  req.timeout = s->io_timeout(ctx);
  auto state = std::make_shared<WatchState>(*s->loop, s->config.watch_window);
  sim::Loop* loop = s->loop;
  auto sink = std::make_shared<WatchSink>(state, loop, s->config.max_watch_event_bytes);
  auto done = [state, loop, info](HttpResponse r) {
    std::optional<Status> failure;
    if (r.code == 0) {
      failure = internal::transport_error(r.error);
    } else if (r.code != 200) {
      failure = internal::status_from_error_response(r, info);
    }
    // A 200 stream has ended (cleanly or not): the consumer drains what came, then sees the end.
    loop->post_external([state, failure] {
      if (failure && !state->opened.is_set()) {
        state->open_error = failure;
        state->opened.set();
      }
      state->events.close();
    });
  };
  state->id = s->transport->start(std::move(req), std::move(done), std::move(sink));
  const bool opened = co_await state->opened.wait(ctx);
  if (!opened) {
    state->stopped = true;
    s->transport->cancel(state->id);
    co_return Response::failure(new_context_error(ctx.err()));
  }
  if (state->open_error) co_return Response::failure(std::move(*state->open_error));
  Response opened_watch;
  opened_watch.watch = WatchPtr(std::make_unique<RestWatchStream>(state, s));
  co_return opened_watch;
}

}  // namespace

namespace internal {

sim::Task<Response> start_watch(const std::shared_ptr<RestClient::Shared>& s, sim::Context ctx,
                                const Request& request) {
  if (!request.ns.empty()) {
    if (auto bad = check_path_segment("namespace", request.ns)) return failed(request_error(*bad));
  }
  auto path = resource_path(s->url.base_path, request.resource, request.ns);
  HttpRequest req;
  req.method = "GET";
  req.target = with_query(std::move(path), list_query(request.list_options(), true));
  return open_watch(s, std::move(ctx), std::move(req),
                    RequestInfo("GET", request.resource.group_resource(), ""));
}

}  // namespace internal

}  // namespace kubesim::api::rest
