#include "fakeapi/http/internal/channel.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace kubesim::fakeapi::http::internal {

void Gate::post(std::function<void()> fn) {
  std::lock_guard<std::mutex> lock(mu_);
  if (io_ != nullptr) boost::asio::post(*io_, std::move(fn));
}

void Gate::close() {
  std::lock_guard<std::mutex> lock(mu_);
  io_ = nullptr;
}

bool WatchChannel::push(api::WatchEvent event) {
  std::lock_guard<std::mutex> lock(mu_);
  if (detached_ || ended_ || queue_.size() >= max_queued_) return false;
  queue_.push_back(std::move(event));
  kick_locked();
  return true;
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
  gate_->post([session = session_] {
    if (auto s = session.lock()) s->on_watch_data();
  });
}

}  // namespace kubesim::fakeapi::http::internal
