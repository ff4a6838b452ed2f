// Watch events and the stream a watch returns.
//
// A WatchStream yields events in the order the server sent them; next() returns nullopt once the
// stream has ended (the server closed it, stop() was called, or the context was done — check
// the context to tell them apart). An ERROR event carries a Status (410 Gone when the watch
// started from a compacted revision) and is the last event of its stream.
//
// ChannelWatchStream is the in-process stream: a producer (the fake API server) pushes through a
// WatchFeed, the consumer pulls. Either side may go away first.
#ifndef KUBESIM_API_WATCH_H_
#define KUBESIM_API_WATCH_H_

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "kubesim/api/object.h"
#include "kubesim/api/status.h"
#include "kubesim/sim/channel.h"
#include "kubesim/sim/task.h"

namespace kubesim::api {

enum class EventType { kAdded, kModified, kDeleted, kBookmark, kError };

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR".
std::string_view to_string(EventType type);
std::optional<EventType> parse_event_type(std::string_view text);

struct WatchEvent {
  EventType type = EventType::kAdded;
  ObjectPtr object;  // for kError, the Status as an object

  static WatchEvent error(const Status& status);
  // The Status of an ERROR event; nullopt for other events.
  std::optional<Status> status() const;
};

class WatchStream {
 public:
  virtual ~WatchStream() = default;
  // The next event, or nullopt once the stream has ended or `ctx` is done.
  virtual sim::Task<std::optional<WatchEvent>> next(sim::Context ctx) = 0;
  // The event next(ctx) would give at once, without waiting; nullopt when it would wait or end
  // the stream (the caller then awaits next). A stream may always answer nullopt.
  virtual std::optional<WatchEvent> try_next(const sim::Context& ctx) {
    (void)ctx;
    return std::nullopt;
  }
  // Ends the stream from the consumer's side; idempotent. Buffered events are dropped.
  virtual void stop() = 0;
};

using WatchPtr = std::unique_ptr<WatchStream>;

namespace internal {
struct WatchPipe;
}

// The producer's end of a ChannelWatchStream.
class WatchFeed {
 public:
  WatchFeed() = default;
  // Queues an event. False (and nothing queued) once either side has ended the stream.
  bool send(WatchEvent event) const;
  // Ends the stream from the producer's side: the consumer drains what is queued, then ends.
  void close() const;
  // True once the consumer called stop() or was destroyed.
  bool stopped() const;
  // Events queued and not yet taken.
  std::size_t backlog() const;
  // Called once when the consumer stops (not when the producer closes).
  void on_stop(std::function<void()> callback) const;

 private:
  friend std::pair<WatchPtr, WatchFeed> make_watch_pipe(sim::Loop& loop);
  explicit WatchFeed(std::shared_ptr<internal::WatchPipe> pipe) : pipe_(std::move(pipe)) {}
  std::shared_ptr<internal::WatchPipe> pipe_;
};

// A connected pair: the stream for the consumer and the feed for the producer.
std::pair<WatchPtr, WatchFeed> make_watch_pipe(sim::Loop& loop);

}  // namespace kubesim::api

#endif  // KUBESIM_API_WATCH_H_
