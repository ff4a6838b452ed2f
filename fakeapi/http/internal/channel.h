// Thread handoffs between the loop thread and the I/O thread, free of Asio in their interface.
//
// Gate: the loop's way onto the I/O thread. post() and wake() are thread-safe; once close()d (the
// I/O side is going away) they drop what they are given, so nothing is ever posted to a destroyed
// io_context.
//
// Watch wake-ups are coalesced: wake(session) queues the session, and one drain on the I/O thread
// runs on_watch_data() for every session queued so far. With a `coalesce` interval, drains start
// at least that far apart: a wake-up after a quiet spell is drained at once, but under load the
// events of several writes gather and go out in one socket write per watch, which is what lets
// one I/O thread keep up with thousands of watches (a write costs far more than an event).
// The added delay is at most `coalesce`.
//
// WatchChannel: one watch's events on their way from the loop (producer) to a session (consumer).
// The producer pushes events and finally finish()es; the first push after the consumer drained
// the queue wakes the session through the Gate, so a burst of events costs one wake-up. The queue
// is bounded by the front door's watch delivery (watch_delivery.h), as every transport's is: the
// producer reports queued() as the events its client has not read, and a watch whose client
// falls too far behind is cut.
#ifndef KUBESIM_FAKEAPI_HTTP_INTERNAL_CHANNEL_H_
#define KUBESIM_FAKEAPI_HTTP_INTERNAL_CHANNEL_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "kubesim/api/watch.h"
#include "fakeapi/http/internal/call.h"

namespace boost::asio {
class io_context;
}

namespace kubesim::fakeapi::http::internal {

class SessionBase;

class Gate : public std::enable_shared_from_this<Gate> {
 public:
  // `coalesce`: the least time between the starts of two drains of woken sessions; zero drains
  // every wake-up as soon as the I/O thread gets to it (no timer: for polled io_contexts).
  explicit Gate(boost::asio::io_context& io,
                std::chrono::microseconds coalesce = std::chrono::microseconds::zero());
  ~Gate();
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  void post(std::function<void()> fn);
  // `session` has watch data: its on_watch_data() runs on the I/O thread at the next drain.
  void wake(std::weak_ptr<SessionBase> session);
  void close();
  // Call once the I/O thread has stopped and before the io_context is destroyed: frees the drain
  // timer, which belongs to the io_context (the Gate itself may live on in watch channels).
  void io_stopped();

 private:
  struct DrainTimer;
  void start_drain();  // I/O thread
  void drain();        // I/O thread

  std::mutex mu_;
  boost::asio::io_context* io_;  // null once closed
  std::vector<std::weak_ptr<SessionBase>> woken_;  // guarded by mu_
  bool drain_pending_ = false;  // guarded by mu_: a drain is on its way and has not taken woken_
  const std::chrono::microseconds coalesce_;
  // I/O thread only: the timer that holds a drain back, and when the last drain started.
  std::unique_ptr<DrainTimer> timer_;
  std::chrono::steady_clock::time_point last_drain_ = std::chrono::steady_clock::time_point::min();
  std::vector<std::weak_ptr<SessionBase>> draining_;  // reused buffer of the drain in progress
};

// What the loop side needs of a session (implemented on the I/O thread).
class SessionBase : public std::enable_shared_from_this<SessionBase> {
 public:
  virtual ~SessionBase() = default;
  // I/O thread: the answer to the call this session submitted.
  virtual void on_reply(Reply reply) = 0;
  // I/O thread: its watch channel has events or has ended.
  virtual void on_watch_data() = 0;
  // I/O thread: the server is stopping; end cleanly as soon as possible.
  virtual void shutdown() = 0;
};

class WatchChannel {
 public:
  WatchChannel(std::shared_ptr<Gate> gate, std::weak_ptr<SessionBase> session, std::uint64_t id)
      : gate_(std::move(gate)), session_(std::move(session)), id_(id) {}

  std::uint64_t id() const { return id_; }

  // Producer. False (nothing queued) once the consumer detached.
  bool push(api::WatchEvent event);
  // Producer: the events pushed that the consumer has not taken yet.
  std::size_t queued() const;
  // Producer: no more events. `abrupt` cuts the connection instead of ending the stream cleanly.
  void finish(bool abrupt);

  struct Batch {
    std::vector<api::WatchEvent> events;
    bool ended = false;
    bool abrupt = false;
  };
  // Consumer: everything queued so far, and whether the end has come.
  Batch take();
  // Consumer: it is gone; later pushes fail.
  void detach();

 private:
  void kick_locked();

  std::shared_ptr<Gate> gate_;
  std::weak_ptr<SessionBase> session_;
  const std::uint64_t id_;
  mutable std::mutex mu_;
  std::vector<api::WatchEvent> queue_;  // guarded by mu_, as are the flags below
  bool ended_ = false;
  bool abrupt_ = false;
  bool detached_ = false;
  bool kicked_ = false;  // a wake-up is posted and not yet taken
};

}  // namespace kubesim::fakeapi::http::internal

#endif  // KUBESIM_FAKEAPI_HTTP_INTERNAL_CHANNEL_H_
