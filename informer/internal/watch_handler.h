// The Reflector's event loop over one watch stream (client-go's handleAnyWatch).
#ifndef KUBESIM_INFORMER_INTERNAL_WATCH_HANDLER_H_
#define KUBESIM_INFORMER_INTERNAL_WATCH_HANDLER_H_

#include <functional>
#include <optional>
#include <string>

#include "kubesim/api/status.h"
#include "kubesim/api/watch.h"
#include "kubesim/informer/store.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer::internal {

// The annotation that marks the bookmark ending a streaming list's initial events.
inline constexpr std::string_view kInitialEventsAnnotation = "k8s.io/initial-events-end";

struct WatchOutcome {
  WatchOutcome() {}
  // The initial-events-end bookmark arrived.
  bool initial_events_end = false;
  // The context was done.
  bool stopped = false;
  // An ERROR event, or a watch that ended within a second without any event.
  std::optional<api::Status> error;
};

// Called after every event with its resourceVersion and whether any event other than ADDED has
// been seen on this stream.
using SetResourceVersionFunc = std::function<void(const std::string& rv, bool event_besides_added)>;

struct WatchHandlerArgs {
  WatchHandlerArgs() {}
  const sim::Clock* clock = nullptr;
  api::WatchStream* watch = nullptr;
  ReflectorStore* store = nullptr;
  SetResourceVersionFunc set_resource_version;
  // Return as soon as the initial-events-end bookmark has been applied, leaving the stream open.
  bool exit_on_initial_events_end = false;
  // When the watch request was sent, for the very-short-watch check.
  sim::Time start{};
  std::string name;
};

// Applies the stream's events to the store until the stream ends, ctx is done, an ERROR event
// arrives, or (when asked) the initial events end.
sim::Task<WatchOutcome> handle_watch(sim::Context ctx, WatchHandlerArgs args);

}  // namespace kubesim::informer::internal

#endif  // KUBESIM_INFORMER_INTERNAL_WATCH_HANDLER_H_
