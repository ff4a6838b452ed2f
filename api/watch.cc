#include "kubesim/api/watch.h"

#include <nlohmann/json.hpp>

namespace kubesim::api {

namespace internal {

struct WatchPipe {
  explicit WatchPipe(sim::Loop& loop) : events(loop) {}
  sim::Channel<WatchEvent> events;
  bool stopped = false;
  std::function<void()> on_stop;

  void stop() {
    if (stopped) return;
    stopped = true;
    events.close();
    while (events.try_recv()) {
    }
    if (auto callback = std::move(on_stop)) callback();
  }
};

}  // namespace internal

namespace {

class ChannelWatchStream final : public WatchStream {
 public:
  explicit ChannelWatchStream(std::shared_ptr<internal::WatchPipe> pipe) : pipe_(std::move(pipe)) {}
  ~ChannelWatchStream() override { pipe_->stop(); }

  sim::Task<std::optional<WatchEvent>> next(sim::Context ctx) override {
    return next_event(pipe_, std::move(ctx));
  }
  std::optional<WatchEvent> try_next(const sim::Context& ctx) override {
    // What the channel's receive takes when it need not wait.
    if (ctx.done()) return std::nullopt;
    return pipe_->events.try_recv();
  }
  void stop() override { pipe_->stop(); }

 private:
  static sim::Task<std::optional<WatchEvent>> next_event(std::shared_ptr<internal::WatchPipe> pipe,
                                                         sim::Context ctx) {
    auto event = co_await pipe->events.recv(std::move(ctx));
    co_return event;
  }

  std::shared_ptr<internal::WatchPipe> pipe_;
};

}  // namespace

std::string_view to_string(EventType type) {
  switch (type) {
    case EventType::kAdded:
      return "ADDED";
    case EventType::kModified:
      return "MODIFIED";
    case EventType::kDeleted:
      return "DELETED";
    case EventType::kBookmark:
      return "BOOKMARK";
    case EventType::kError:
      return "ERROR";
  }
  return "";
}

std::optional<EventType> parse_event_type(std::string_view text) {
  if (text == "ADDED") return EventType::kAdded;
  if (text == "MODIFIED") return EventType::kModified;
  if (text == "DELETED") return EventType::kDeleted;
  if (text == "BOOKMARK") return EventType::kBookmark;
  if (text == "ERROR") return EventType::kError;
  return std::nullopt;
}

WatchEvent WatchEvent::error(const Status& status) {
  return WatchEvent{EventType::kError, make_object(status.to_json())};
}

std::optional<Status> WatchEvent::status() const {
  if (type != EventType::kError || !object) return std::nullopt;
  return Status::from_json(object->json());
}

bool WatchFeed::send(WatchEvent event) const {
  if (!pipe_ || pipe_->stopped || pipe_->events.closed()) return false;
  return pipe_->events.try_send(std::move(event));
}

void WatchFeed::close() const {
  if (pipe_) pipe_->events.close();
}

bool WatchFeed::stopped() const { return !pipe_ || pipe_->stopped; }

std::size_t WatchFeed::backlog() const { return pipe_ ? pipe_->events.size() : 0; }

void WatchFeed::on_stop(std::function<void()> callback) const {
  if (!pipe_) return;
  if (pipe_->stopped) {
    if (callback) callback();
    return;
  }
  pipe_->on_stop = std::move(callback);
}

std::pair<WatchPtr, WatchFeed> make_watch_pipe(sim::Loop& loop) {
  auto pipe = std::make_shared<internal::WatchPipe>(loop);
  return {std::make_unique<ChannelWatchStream>(pipe), WatchFeed(pipe)};
}

}  // namespace kubesim::api
