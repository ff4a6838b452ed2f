// Channel<T>: a FIFO channel between coroutines on one Loop, like Go's channels.
//
// Unbounded by default (send never waits); a bounded channel of capacity N lets N values wait
// in it and makes further senders wait; capacity 0 is a rendezvous where a sender waits for a
// receiver. Values are received in the order they were sent; waiting receivers and senders are
// served in the order they started waiting. close() wakes everyone: receivers drain what is
// buffered and then get nullopt; waiting and later senders get false.
#ifndef KUBESIM_SIM_CHANNEL_H_
#define KUBESIM_SIM_CHANNEL_H_

#include <cstddef>
#include <deque>
#include <limits>
#include <optional>

#include "kubesim/sim/waiter.h"

namespace kubesim::sim {

template <class T>
class Channel {
 public:
  static constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();

  explicit Channel(Loop& loop, std::size_t capacity = kUnbounded) : loop_(&loop), capacity_(capacity) {}
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  std::size_t size() const { return buffer_.size(); }
  std::size_t capacity() const { return capacity_; }
  bool closed() const { return closed_; }

  // Sends without waiting. False when the channel is closed or no room and no receiver waits.
  bool try_send(T value) { return try_send_from(value); }

  // As try_send, but moves from `value` only when it succeeds.
  bool try_send_from(T& value) {
    if (closed_) return false;
    if (auto* receiver = pop_receiver()) {
      receiver->deliver(std::move(value));
      return true;
    }
    if (buffer_.size() >= capacity_) return false;
    buffer_.push_back(std::move(value));
    return true;
  }

  // Receives without waiting: nullopt when nothing is available now.
  std::optional<T> try_recv() {
    if (!buffer_.empty()) {
      std::optional<T> value(std::move(buffer_.front()));
      buffer_.pop_front();
      refill_from_sender();
      return value;
    }
    if (auto* sender = pop_sender()) return sender->take();
    return std::nullopt;
  }

  // Closes the channel. Idempotent.
  void close() {
    if (closed_) return;
    closed_ = true;
    receivers_.fire_all();
    senders_.fire_all();
  }

  class RecvAwaiter : public ListWaiter {
   public:
    RecvAwaiter(Channel& ch, Context ctx) : ListWaiter(*ch.loop_, std::move(ctx)), ch_(&ch) {}
    bool await_ready() {
      if (ctx_.done()) {
        cancelled_ = true;
        return true;
      }
      value_ = ch_->try_recv();
      return value_.has_value() || ch_->closed_;
    }
    bool await_suspend(std::coroutine_handle<> h) {
      if (!arm(h)) return false;
      park(ch_->receivers_);
      return true;
    }
    // The next value; nullopt when the channel is closed and drained or the context was done.
    // A receiver woken by close() has nothing to drain (receivers wait only while the buffer is
    // empty, and nothing enters it after close), so it does not go back to the channel, which may
    // therefore be destroyed right after close(), as an Event may be right after set().
    std::optional<T> await_resume() { return std::move(value_); }
    void deliver(T value) {
      value_.emplace(std::move(value));
      wake();
    }

   private:
    Channel* ch_;
    std::optional<T> value_;
  };

  class SendAwaiter : public ListWaiter {
   public:
    SendAwaiter(Channel& ch, Context ctx, T value)
        : ListWaiter(*ch.loop_, std::move(ctx)), ch_(&ch), value_(std::move(value)) {}
    bool await_ready() {
      if (ch_->closed_) {
        sent_ = false;
        return true;
      }
      if (ctx_.done()) {
        cancelled_ = true;
        return true;
      }
      sent_ = ch_->try_send_from(*value_);
      return sent_;
    }
    bool await_suspend(std::coroutine_handle<> h) {
      if (!arm(h)) return false;
      park(ch_->senders_);
      return true;
    }
    // True when the value was handed over or buffered; false on close or cancellation.
    bool await_resume() const { return sent_ && !cancelled_; }
    T take() {
      sent_ = true;
      T value = std::move(*value_);
      wake();
      return value;
    }

   private:
    Channel* ch_;
    std::optional<T> value_;
    bool sent_ = false;
  };

  RecvAwaiter recv(Context ctx) { return RecvAwaiter(*this, std::move(ctx)); }
  SendAwaiter send(Context ctx, T value) { return SendAwaiter(*this, std::move(ctx), std::move(value)); }

 private:
  RecvAwaiter* pop_receiver() {
    auto* node = static_cast<ListWaiter::Node*>(receivers_.pop_front());
    return node ? static_cast<RecvAwaiter*>(node->owner) : nullptr;
  }
  SendAwaiter* pop_sender() {
    auto* node = static_cast<ListWaiter::Node*>(senders_.pop_front());
    return node ? static_cast<SendAwaiter*>(node->owner) : nullptr;
  }
  void refill_from_sender() {
    if (buffer_.size() < capacity_) {
      if (auto* sender = pop_sender()) buffer_.push_back(sender->take());
    }
  }

  Loop* loop_;
  std::size_t capacity_;
  std::deque<T> buffer_;
  bool closed_ = false;
  WaitList receivers_;
  WaitList senders_;
};

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_CHANNEL_H_
