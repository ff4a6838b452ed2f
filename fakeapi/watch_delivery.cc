#include "kubesim/fakeapi/watch_delivery.h"

namespace kubesim::fakeapi {

bool DeliveredWatch::drop_now() {
  if (!drop_after_ || delivered_ < *drop_after_) return false;
  if (!cut_) {
    cut_ = true;
    source_->stop();
  }
  return true;
}

sim::Task<std::optional<api::WatchEvent>> DeliveredWatch::next(sim::Context ctx) {
  for (;;) {
    if (drop_now()) co_return std::nullopt;
    auto event = co_await source_->next(ctx);
    if (!event) co_return std::nullopt;
    if (stalled_) continue;
    ++delivered_;
    co_return event;
  }
}

std::optional<api::WatchEvent> DeliveredWatch::try_next(const sim::Context& ctx) {
  if (drop_now()) return std::nullopt;
  auto event = source_->try_next(ctx);
  if (stalled_) {
    while (event) event = source_->try_next(ctx);
    return std::nullopt;
  }
  if (event) ++delivered_;
  return event;
}

void WatchDelivery::complete(const Request& request, Response& response) {
  if (request.verb != Verb::kWatch || !response.watch) return;
  const RequestInfo info = RequestInfo::of(request);
  std::optional<std::int64_t> drop_after;
  if (const FaultRule* rule = faults_->fire(FaultKind::kDropWatch, info)) {
    drop_after = rule->after_events;
  }
  const bool stalled = faults_->fire(FaultKind::kStallWatch, info) != nullptr;
  if (!drop_after && !stalled) return;
  response.watch = std::make_unique<DeliveredWatch>(std::move(response.watch), drop_after, stalled);
}

}  // namespace kubesim::fakeapi
