#include "fakeapi/http/internal/channel.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace kubesim::fakeapi::http::internal {

struct Gate::DrainTimer {
  explicit DrainTimer(boost::asio::io_context& io) : timer(io) {}
  boost::asio::steady_timer timer;
};

Gate::Gate(boost::asio::io_context& io, std::chrono::microseconds coalesce)
    : io_(&io), coalesce_(coalesce) {
  if (coalesce_ > std::chrono::microseconds::zero()) timer_ = std::make_unique<DrainTimer>(io);
}

Gate::~Gate() = default;

void Gate::post(std::function<void()> fn) {
  std::lock_guard<std::mutex> lock(mu_);
  if (io_ != nullptr) boost::asio::post(*io_, std::move(fn));
}

void Gate::wake(std::weak_ptr<SessionBase> session) {
  std::lock_guard<std::mutex> lock(mu_);
  if (io_ == nullptr) return;
  woken_.push_back(std::move(session));
  if (drain_pending_) return;
  drain_pending_ = true;
  boost::asio::post(*io_, [self = shared_from_this()] { self->start_drain(); });
}

void Gate::start_drain() {
  if (!timer_) return drain();
  const auto due = last_drain_ + coalesce_;
  if (std::chrono::steady_clock::now() >= due) return drain();
  timer_->timer.expires_at(due);
  timer_->timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->drain();
  });
}

void Gate::drain() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    draining_.swap(woken_);
    drain_pending_ = false;
  }
  last_drain_ = std::chrono::steady_clock::now();
  for (const auto& weak : draining_) {
    if (auto session = weak.lock()) session->on_watch_data();
  }
  draining_.clear();
}

void Gate::close() {
  std::lock_guard<std::mutex> lock(mu_);
  io_ = nullptr;
  woken_.clear();
}

void Gate::io_stopped() { timer_.reset(); }

bool WatchChannel::push(api::WatchEvent event) {
  std::lock_guard<std::mutex> lock(mu_);
  if (detached_ || ended_) return false;
  queue_.push_back(std::move(event));
  kick_locked();
  return true;
}

std::size_t WatchChannel::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

void WatchChannel::finish(bool abrupt) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ended_) return;
  ended_ = true;
  abrupt_ = abrupt;
  if (!detached_) kick_locked();
}

WatchChannel::Batch WatchChannel::take() {
  Batch batch;
  std::lock_guard<std::mutex> lock(mu_);
  batch.events.swap(queue_);
  batch.ended = ended_;
  batch.abrupt = abrupt_;
  kicked_ = false;
  return batch;
}

void WatchChannel::detach() {
  std::lock_guard<std::mutex> lock(mu_);
  detached_ = true;
  queue_.clear();
}

void WatchChannel::kick_locked() {
  if (kicked_) return;
  kicked_ = true;
  gate_->wake(session_);
}

}  // namespace kubesim::fakeapi::http::internal
