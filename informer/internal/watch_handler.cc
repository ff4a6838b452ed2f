#include "informer/internal/watch_handler.h"

#include "informer/internal/errors.h"
#include "kubesim/sim/loop.h"

namespace kubesim::informer::internal {
namespace {

// Applies one event; returns false for an event of no known type (ignored, as client-go does).
bool apply(const api::WatchEvent& event, ReflectorStore* store, bool& besides_added, bool& initial_end) {
  switch (event.type) {
    case api::EventType::kAdded:
      store->add(event.object);
      return true;
    case api::EventType::kModified:
      besides_added = true;
      store->update(event.object);
      return true;
    case api::EventType::kDeleted:
      besides_added = true;
      store->delete_(event.object);
      return true;
    case api::EventType::kBookmark:
      besides_added = true;
      if (event.object->annotation(kInitialEventsAnnotation) == "true") initial_end = true;
      store->bookmark(std::string(event.object->resource_version()));
      return true;
    case api::EventType::kError:
      break;
  }
  return false;
}

}  // namespace

sim::Task<WatchOutcome> handle_watch(sim::Context ctx, WatchHandlerArgs args) {
  WatchOutcome out;
  bool besides_added = false;
  std::int64_t count = 0;
  for (;;) {
    auto event = args.watch->try_next(ctx);
    if (!event) event = co_await args.watch->next(ctx);
    if (!event) {
      if (ctx.done()) out.stopped = true;
      break;
    }
    if (event->type == api::EventType::kError) {
      auto status = event->status();
      out.error = status ? *status : api::new_client_error(api::ClientError::kInvalidResponse,
                                                         "watch ERROR event without a Status");
      co_return out;
    }
    if (!event->object) continue;
    if (!apply(*event, args.store, besides_added, out.initial_events_end)) continue;
    args.set_resource_version(std::string(event->object->resource_version()), besides_added);
    ++count;
    if (args.exit_on_initial_events_end && out.initial_events_end) co_return out;
  }
  if (out.stopped) co_return out;
  if (args.clock->now() - args.start < std::chrono::seconds(1) && count == 0) {
    out.error = api::new_client_error(api::ClientError::kConnectionLost,
                                      "very short watch: " + args.name +
                                          ": Unexpected watch close - watch lasted less than a "
                                          "second and no items received");
  }
  co_return out;
}

}  // namespace kubesim::informer::internal
