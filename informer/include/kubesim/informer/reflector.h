// Reflector: keeps a store in step with one resource on the server — list, then watch.
// Behaviour matches client-go 1.36's tools/cache Reflector, hazards included.
//
// run() repeats list_and_watch() until its context is done, waiting between rounds with
// client-go's reflector backoff: wait.Backoff{800 ms, factor 2, jitter 1.0, cap 30 s}, delays
// taken through DelayWithReset(clock, 2 min) (internal/delay_with_reset.h), on the clock it was
// given, so a Process's skewed clock is honoured. That reset is periodic: under an outage that
// never ends, the delay drops back to [0.8 s, 1.6 s) every 2 minutes instead of staying at the cap
// (client-go 1.35 and earlier stayed). The same backoff paces retried watches. One round:
//
// 1. Get the state. By default a streaming list: a watch with sendInitialEvents=true,
//    resourceVersionMatch=NotOlderThan and bookmarks, whose synthetic ADDED events are collected
//    until the "k8s.io/initial-events-end" bookmark and then replace the store in one step; the
//    same stream then carries on as the watch. The collected objects go through the store's
//    transformer() (ReflectorStore) as they arrive and again in the store's replace(): a streamed
//    object is transformed twice, a listed object or a watch event once, so a transform that is not
//    idempotent misbehaves here as in client-go 1.36. If the stream fails, or with use_watch_list
//    off, a paginated list (pages of 500) replaces the store: a continue that fails with 410
//    Expired falls back to one full list at the resourceVersion first asked for, while a 410 with
//    reason Gone (servers before 1.18) ends the pager and the list starts over from "" (the latest
//    state), in pages again, as client-go 1.36 does. The list's resourceVersion follows client-go:
//    "0" for the first list (any cached state will do), the last synced one on a re-list, and "" (a
//    consistent read) after the server said that one had expired or was too new.
// 2. Watch from the last synced resourceVersion with bookmarks and a random timeout in
//    [5 min, 10 min). Every event goes to the store and advances last_sync_resource_version()
//    (once past the synthetic ADDED events of a watch started from "" or "0"). A watch that
//    ends cleanly is re-opened at once from there; 429 and refused connections back off and
//    re-watch; 410 Gone/Expired and other errors end the round, so the next one re-lists.
// 3. Meanwhile, every resync_period, store.resync() when should_resync() agrees.
//
// Failures of a round go to the watch error handler (default: a trace record). The store gets
// objects exactly as the server sent them (or as the transform made them): shared, never copied.
//
// Improvements on client-go kept as options: none.
#ifndef KUBESIM_INFORMER_REFLECTOR_H_
#define KUBESIM_INFORMER_REFLECTOR_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "kubesim/api/watch.h"
#include "kubesim/informer/detail/delay_with_reset.h"
#include "kubesim/informer/lister_watcher.h"
#include "kubesim/informer/store.h"
#include "kubesim/sim/clock.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer {

class Reflector;

namespace internal {
struct PagedList;
}

using WatchErrorHandler = std::function<void(Reflector& reflector, const api::Status& error)>;

struct ReflectorOptions {
  std::string name = "reflector";
  // The process it runs in: the process of its trace events, which then carry the name as the
  // field "reflector". Empty: the name stands for the process.
  std::string process{};
  // 0: never resync.
  sim::Duration resync_period{};
  // Asked at every resync tick; empty means always.
  std::function<bool()> should_resync{};
  // Watch timeouts are drawn from [min, 2·min); values below 5 minutes count as 5 minutes.
  sim::Duration min_watch_timeout = std::chrono::minutes(5);
  // The page size of lists; 0 is client-go's choice: 500, except that a re-list at a specific
  // resourceVersion asks for everything at once (served from the watch cache).
  std::int64_t watch_list_page_size = 0;
  // Streaming lists (client-go's WatchListClient, on by default since 1.35).
  bool use_watch_list = true;
  // Called when a round fails; the reflector then backs off and starts another one.
  WatchErrorHandler watch_error_handler{};
};

class Reflector {
 public:
  // `lister_watcher` and `store` must outlive the reflector; `clock` times backoffs, resyncs and
  // watches, and its Loop's Rng draws jitter and timeouts.
  Reflector(const sim::Clock& clock, ListerWatcher& lister_watcher, ReflectorStore& store,
            ReflectorOptions options = {});
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  // Lists and watches until `ctx` is done.
  sim::Task<void> run(sim::Context ctx);
  // One round. Fails when it could not get the state (list failed); a watch that ends, cleanly
  // or with 410, is success.
  sim::Task<api::Result<void>> list_and_watch(sim::Context ctx);

  // The resourceVersion of the last list, or of the last watch event applied to the store.
  const std::string& last_sync_resource_version() const { return last_sync_resource_version_; }
  const std::string& name() const { return options_.name; }

  // The resourceVersion the next list asks for, and the next streaming list.
  std::string relist_resource_version() const;
  std::string rewatch_resource_version() const;

 private:
  sim::Task<api::Result<void>> list(sim::Context ctx);
  api::Result<void> finish_list(sim::Context& ctx, api::Result<internal::PagedList> listed,
                                const std::string& asked_rv);
  sim::Task<api::Result<api::WatchPtr>> watch_list(sim::Context ctx);
  sim::Task<bool> retry_watch_list(sim::Context ctx, api::Status error);
  sim::Task<api::Result<void>> watch_with_resync(sim::Context ctx, api::WatchPtr watch);
  sim::Task<api::Result<void>> watch(sim::Context ctx, api::WatchPtr watch);
  sim::Task<void> resync_loop(sim::Context ctx);
  std::int64_t list_page_size(const std::string& rv) const;
  std::int64_t watch_timeout_seconds();
  void trace(std::string_view event) const;
  void trace(std::string_view event, nlohmann::json fields) const;

  const sim::Clock* clock_;
  ListerWatcher* lister_watcher_;
  ReflectorStore* store_;
  ReflectorOptions options_;
  internal::DelayWithReset backoff_;
  std::string last_sync_resource_version_;
  // The last list or watch at last_sync_resource_version_ failed as expired or too large.
  bool last_sync_resource_version_unavailable_ = false;
  // The first list ("0") came back in pages: the server does not serve lists from a cache.
  bool paginated_result_ = false;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_REFLECTOR_H_
