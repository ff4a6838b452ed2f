#include "kubesim/informer/processor_listener.h"

#include <algorithm>
#include <cassert>

namespace kubesim::informer {

ProcessorListener::ProcessorListener(sim::Loop& loop, std::shared_ptr<ResourceEventHandler> handler,
                                     std::shared_ptr<AsyncResourceEventHandler> async_handler,
                                     sim::Duration requested_resync_period, sim::Duration resync_period,
                                     sim::Time now, std::function<bool()> upstream_has_synced)
    : handler_(std::move(handler)),
      async_handler_(std::move(async_handler)),
      buffer_(loop),
      requested_resync_period_(requested_resync_period),
      resync_period_(resync_period),
      upstream_has_synced_(std::move(upstream_has_synced)) {
  assert((handler_ != nullptr) != (async_handler_ != nullptr) && "exactly one handler");
  determine_next_resync(now);
}

void ProcessorListener::add(Notification notification) {
  if (stopped_) return;
  if (const auto* add = std::get_if<AddNotification>(&notification); add && add->is_in_initial_list) {
    ++pending_initial_;
  }
  const bool sent = buffer_.try_send(std::move(notification));
  assert(sent && "an unbounded buffer takes everything until stopped");
  (void)sent;
}

void ProcessorListener::deliver(const Notification& notification) { dispatch(*handler_, notification); }

sim::Task<void> ProcessorListener::run(std::shared_ptr<ProcessorListener> self, sim::Context ctx) {
  for (;;) {
    auto notification = co_await self->buffer_.recv(ctx);
    if (!notification || self->stopped_) co_return;
    const auto* add = std::get_if<AddNotification>(&*notification);
    const bool initial = add != nullptr && add->is_in_initial_list;
    if (self->async_handler_) {
      sim::Task<void> handled = self->async_handler_->handle(std::move(*notification));
      co_await std::move(handled);
    } else {
      self->deliver(*notification);
    }
    if (initial) --self->pending_initial_;
  }
}

void ProcessorListener::stop() {
  stopped_ = true;
  buffer_.close();
  while (buffer_.try_recv()) {
  }
}

bool ProcessorListener::should_resync(sim::Time now) const {
  return resync_period_ != sim::Duration::zero() && now >= next_resync_;
}

sim::Duration determine_resync_period(sim::Duration desired, sim::Duration check) {
  if (desired == sim::Duration::zero()) return desired;
  if (check == sim::Duration::zero()) return sim::Duration::zero();
  return std::max(desired, check);
}

void SharedProcessor::add_listener(std::shared_ptr<ProcessorListener> listener) {
  listeners_.push_back(listener);
  if (started_) group_.spawn(ProcessorListener::run(std::move(listener), ctx_), "listener");
}

bool SharedProcessor::remove_listener(const ResourceEventHandlerRegistration* registration) {
  auto it = std::find_if(listeners_.begin(), listeners_.end(),
                         [&](const auto& l) { return l.get() == registration; });
  if (it == listeners_.end()) return false;
  (*it)->stop();
  listeners_.erase(it);
  return true;
}

void SharedProcessor::distribute(const Notification& notification, bool sync) {
  for (const auto& listener : listeners_) {
    if (!sync || listener->syncing) listener->add(notification);
  }
}

bool SharedProcessor::should_resync(sim::Time now) {
  bool needed = false;
  for (const auto& listener : listeners_) {
    listener->syncing = listener->should_resync(now);
    if (listener->syncing) {
      needed = true;
      listener->determine_next_resync(now);
    }
  }
  return needed;
}

void SharedProcessor::resync_check_period_changed(sim::Duration check_period) {
  for (const auto& listener : listeners_) {
    listener->set_resync_period(determine_resync_period(listener->requested_resync_period(), check_period));
  }
}

std::size_t SharedProcessor::pending() const {
  std::size_t n = 0;
  for (const auto& listener : listeners_) n += listener->pending();
  return n;
}

void SharedProcessor::run(sim::Context ctx) {
  ctx_ = std::move(ctx);
  started_ = true;
  for (const auto& listener : listeners_) group_.spawn(ProcessorListener::run(listener, ctx_), "listener");
}

sim::Task<void> SharedProcessor::stop() {
  for (const auto& listener : listeners_) listener->stop();
  listeners_.clear();
  started_ = false;
  const bool joined = co_await group_.wait(sim::Context());
  (void)joined;
}

}  // namespace kubesim::informer
