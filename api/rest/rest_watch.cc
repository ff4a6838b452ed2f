// RestClient::watch: a streamed GET ?watch=true whose body the I/O thread decodes into events and
// posts to the loop in batches, with a window of undelivered events as flow control.
#include <mutex>

#include "kubesim/api/rest/internal/client_state.h"
#include "kubesim/api/rest/internal/paths.h"
#include "kubesim/api/rest/internal/watch_decoder.h"
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

sim::Task<Result<WatchPtr>> failed(Status status) { co_return status; }

sim::Task<Result<WatchPtr>> start_watch(std::shared_ptr<RestClient::Shared> s, sim::Context ctx,
                                        HttpRequest req, RequestInfo info) {
  if (ctx.done()) co_return new_context_error(ctx.err());
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
    co_return new_context_error(ctx.err());
  }
  if (state->open_error) co_return *state->open_error;
  co_return WatchPtr(std::make_unique<RestWatchStream>(state, s));
}

}  // namespace

sim::Task<Result<WatchPtr>> RestClient::watch(sim::Context ctx, GroupVersionResource resource,
                                              std::string ns, ListOptions options) {
  if (!ns.empty()) {
    if (auto bad = internal::check_path_segment("namespace", ns)) {
      return failed(internal::request_error(*bad));
    }
  }
  auto path = internal::resource_path(shared_->url.base_path, resource, ns);
  HttpRequest req;
  req.method = "GET";
  req.target = internal::with_query(std::move(path), internal::list_query(options, true));
  return start_watch(shared_, std::move(ctx), std::move(req),
                     RequestInfo("GET", resource.group_resource(), ""));
}

}  // namespace kubesim::api::rest
