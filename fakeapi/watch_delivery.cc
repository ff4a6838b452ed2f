#include "kubesim/fakeapi/watch_delivery.h"

#include <algorithm>

#include "kubesim/sim/context.h"

namespace kubesim::fakeapi {
namespace {

std::string key_of(const api::Object& object) {
  std::string key(object.namespace_());
  key.push_back('/');
  key.append(object.name());
  return key;
}

}  // namespace

void HeldEvents::hold(api::WatchEvent event, sim::Time due, bool merge) {
  const std::uint64_t at = arrivals_++;
  if (event.type == api::EventType::kBookmark) {
    if (bookmark_) events_.erase(*bookmark_);
    bookmark_ = at;
    events_.emplace(at, Held{std::move(event), due, false, {}});
    return;
  }
  std::string key = key_of(*event.object);
  bool existed_before = event.type != api::EventType::kAdded;
  if (auto newest = newest_.find(key); merge && newest != newest_.end()) {
    const auto replaced = events_.find(newest->second);
    existed_before = replaced->second.existed_before;
    events_.erase(replaced);
    newest_.erase(newest);
    const bool exists_after = event.type != api::EventType::kDeleted;
    if (!existed_before && !exists_after) return;  // created and deleted unseen
    event.type = !existed_before ? api::EventType::kAdded
                 : exists_after  ? api::EventType::kModified
                                 : api::EventType::kDeleted;
  }
  newest_[key] = at;
  events_.emplace(at, Held{std::move(event), due, existed_before, std::move(key)});
}

std::optional<sim::Time> HeldEvents::next_due() const {
  if (events_.empty()) return std::nullopt;
  return events_.begin()->second.due;
}

std::optional<api::WatchEvent> HeldEvents::take_due(sim::Time now) {
  if (events_.empty() || events_.begin()->second.due > now) return std::nullopt;
  auto first = events_.extract(events_.begin());
  Held& held = first.mapped();
  if (bookmark_ == first.key()) bookmark_.reset();
  if (auto newest = newest_.find(held.key); newest != newest_.end() && newest->second == first.key()) {
    newest_.erase(newest);
  }
  return std::move(held.event);
}

void HeldEvents::clear() {
  events_.clear();
  newest_.clear();
  bookmark_.reset();
}

Request DeliveredWatch::rule_view(const Request& request) {
  return Request{.verb = request.verb,
                 .resource = request.resource,
                 .ns = request.ns,
                 .name = request.name,
                 .subresource = request.subresource,
                 .process = request.process};
}

bool DeliveredWatch::too_far_behind() const {
  if (!unread_) return false;
  const auto delivered = static_cast<std::size_t>(delivered_);
  const std::size_t unread = std::min(unread_(), delivered);
  const std::size_t consumed = delivered - unread;
  const std::size_t unread_initial = initial_ > consumed ? initial_ - consumed : 0;
  return unread - std::min(unread, unread_initial) > max_backlog_;
}

void DeliveredWatch::cut_off() {
  if (cut_) return;
  cut_ = true;
  source_->stop();
  held_.clear();
}

bool DeliveredWatch::drop_now() {
  if (!drop_after_ || delivered_ < *drop_after_) return false;
  cut_off();
  return true;
}

std::optional<api::WatchEvent> DeliveredWatch::deliver(api::WatchEvent event) {
  ++delivered_;
  return event;
}

std::optional<sim::Duration> DeliveredWatch::coalescing() {
  if (!coalesce_rule_.empty()) {
    const FaultRule* rule = faults_->find(coalesce_rule_);
    const CoalesceWatchFault* fault = rule != nullptr ? rule->as<CoalesceWatchFault>() : nullptr;
    if (fault != nullptr && (!rule->until || now() < *rule->until)) return fault->hold;
    coalesce_rule_.clear();
  }
  for (;;) {
    // The first rule this watch has not yet drawn for that matches it now.
    const auto& rules = faults_->rules();
    const auto rule = std::find_if(rules.begin(), rules.end(), [&](const FaultRule& r) {
      return r.kind() == FaultKind::kCoalesceWatch &&
             std::find(decided_rules_.begin(), decided_rules_.end(), r.id) == decided_rules_.end() &&
             faults_->matches(r, request_);
    });
    if (rule == rules.end()) return std::nullopt;
    const std::string id = rule->id;
    const sim::Duration hold_for = rule->as<CoalesceWatchFault>()->hold;
    decided_rules_.push_back(id);
    if (faults_->fire_rule(id, request_)) {
      coalesce_rule_ = id;
      return hold_for;
    }
  }
}

std::optional<api::WatchEvent> DeliveredWatch::admit(api::WatchEvent event) {
  if (stalled_) return std::nullopt;
  if (event.type == api::EventType::kError) {
    held_.clear();
    return event;
  }
  if (event.type == api::EventType::kBookmark) {
    if (held_.empty()) return event;
    held_.hold(std::move(event), now(), false);
    return held_.take_due(now());
  }
  const auto hold_for = coalescing();
  if (!hold_for && held_.empty()) return event;
  held_.hold(std::move(event), now() + hold_for.value_or(sim::Duration::zero()), hold_for.has_value());
  return held_.take_due(now());
}

sim::Task<std::optional<api::WatchEvent>> DeliveredWatch::next(sim::Context ctx) {
  for (;;) {
    if (drop_now()) co_return std::nullopt;
    if (auto due = held_.take_due(now())) co_return deliver(std::move(*due));
    // While events are held, wait for the source at most until the first of them is due.
    sim::Context wait = ctx;
    sim::CancelFunc stop_waiting;
    if (const auto due_at = held_.next_due()) {
      auto child = sim::with_deadline(ctx, faults_->loop(), *due_at);
      wait = child.ctx;
      stop_waiting = child.cancel;
    }
    auto event = co_await source_->next(wait);
    stop_waiting();
    if (!event) {
      const auto due_at = held_.next_due();
      if (!ctx.done() && due_at && *due_at <= now()) continue;  // a held event is due
      held_.clear();
      co_return std::nullopt;
    }
    if (too_far_behind()) {
      cut_off();
      co_return std::nullopt;
    }
    if (auto out = admit(std::move(*event))) co_return deliver(std::move(*out));
  }
}

std::optional<api::WatchEvent> DeliveredWatch::try_next(const sim::Context& ctx) {
  if (drop_now() || ctx.done()) return std::nullopt;
  for (;;) {
    if (auto due = held_.take_due(now())) return deliver(std::move(*due));
    auto event = source_->try_next(ctx);
    if (!event) return std::nullopt;
    if (too_far_behind()) {
      cut_off();
      return std::nullopt;
    }
    if (auto out = admit(std::move(*event))) return deliver(std::move(*out));
  }
}

void DeliveredWatch::stop() {
  source_->stop();
  held_.clear();
}

void WatchDelivery::complete(const Request& request, Response& response) {
  if (request.verb != Verb::kWatch || !response.watch) return;
  std::optional<std::int64_t> drop_after;
  if (const DropWatchFault* drop = faults_->fire<DropWatchFault>(request)) drop_after = drop->after_events;
  const bool stalled = faults_->fire<StallWatchFault>(request) != nullptr;
  response.watch = std::make_unique<DeliveredWatch>(std::move(response.watch), *faults_, request,
                                                    drop_after, stalled,
                                                    response.initial_events, max_backlog_);
}

}  // namespace kubesim::fakeapi
