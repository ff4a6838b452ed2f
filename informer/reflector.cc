#include "kubesim/informer/reflector.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "informer/internal/errors.h"
#include "informer/internal/list_store.h"
#include "informer/internal/pager.h"
#include "informer/internal/watch_handler.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/sim/task_group.h"

namespace kubesim::informer {
namespace {

using namespace std::chrono_literals;

constexpr sim::Duration kBackoffInitial = 800ms;
constexpr sim::Duration kBackoffMax = 30s;
constexpr sim::Duration kBackoffReset = 2min;
constexpr double kBackoffFactor = 2.0;
constexpr double kBackoffJitter = 1.0;

// client-go's default reflector Backoff: as many steps as the cap over the initial delay.
sim::Backoff reflector_backoff() {
  sim::Backoff backoff;
  backoff.duration = kBackoffInitial;
  backoff.cap = kBackoffMax;
  backoff.steps = static_cast<int>(std::ceil(sim::to_seconds(kBackoffMax) / sim::to_seconds(kBackoffInitial)));
  backoff.factor = kBackoffFactor;
  backoff.jitter = kBackoffJitter;
  return backoff;
}
constexpr sim::Duration kMinWatchTimeout = 5min;
constexpr std::int64_t kDefaultPageSize = 500;

}  // namespace

Reflector::Reflector(const sim::Clock& clock, ListerWatcher& lister_watcher, ReflectorStore& store,
                     ReflectorOptions options)
    : clock_(&clock),
      lister_watcher_(&lister_watcher),
      store_(&store),
      options_(std::move(options)),
      backoff_(clock, clock.loop().rng(), reflector_backoff(), kBackoffReset) {
  options_.min_watch_timeout = std::max(options_.min_watch_timeout, kMinWatchTimeout);
}

void Reflector::trace(std::string_view event) const { trace(event, nlohmann::json::object()); }

void Reflector::trace(std::string_view event, nlohmann::json fields) const {
  sim::Loop& loop = clock_->loop();
  if (!loop.trace().enabled()) return;
  fields["event"] = event;
  if (!options_.process.empty()) fields["reflector"] = options_.name;
  loop.trace().record(loop.now(), options_.process.empty() ? options_.name : options_.process, "reflector",
                      fields);
}

std::string Reflector::relist_resource_version() const {
  if (last_sync_resource_version_unavailable_) return "";
  if (last_sync_resource_version_.empty()) return "0";
  return last_sync_resource_version_;
}

std::string Reflector::rewatch_resource_version() const {
  if (last_sync_resource_version_unavailable_) return "";
  return last_sync_resource_version_;
}

std::int64_t Reflector::list_page_size(const std::string& rv) const {
  if (options_.watch_list_page_size != 0) return options_.watch_list_page_size;
  if (paginated_result_) return kDefaultPageSize;
  // A specific resourceVersion can be served from the watch cache only without a limit.
  if (!rv.empty() && rv != "0") return 0;
  return kDefaultPageSize;
}

std::int64_t Reflector::watch_timeout_seconds() {
  const double min = sim::to_seconds(options_.min_watch_timeout);
  const double max = 2 * min;
  return static_cast<std::int64_t>(min + clock_->loop().rng().uniform_real() * (max - min));
}

sim::Task<void> Reflector::run(sim::Context ctx) {
  trace("start");
  while (!ctx.done()) {
    api::Result<void> round = co_await list_and_watch(ctx);
    if (ctx.done()) break;
    if (!round.ok()) {
      trace("error", {{"message", round.status().message}, {"code", round.status().code}});
      if (options_.watch_error_handler) options_.watch_error_handler(*this, round.status());
    }
    const bool slept = co_await sim::sleep_for(ctx, *clock_, backoff_.next());
    if (!slept) break;
  }
  trace("stop");
}

sim::Task<api::Result<void>> Reflector::list_and_watch(sim::Context ctx) {
  api::WatchPtr stream;
  bool fallback_to_list = !options_.use_watch_list;
  if (options_.use_watch_list) {
    auto streamed = co_await watch_list(ctx);
    if (streamed.ok() && !streamed.value()) co_return api::Result<void>();  // ctx done
    if (streamed.ok()) {
      stream = std::move(streamed.value());
    } else {
      trace("watch-list-fallback", {{"message", streamed.status().message}});
      fallback_to_list = true;
    }
  }
  if (fallback_to_list) {
    api::Result<void> listed = co_await list(ctx);
    if (!listed.ok()) co_return listed;
  }
  auto watched = co_await watch_with_resync(ctx, std::move(stream));
  co_return watched;
}

sim::Task<api::Result<void>> Reflector::list(sim::Context ctx) {
  api::ListOptions options;
  options.resource_version = relist_resource_version();
  const std::string asked_rv = options.resource_version;
  const std::int64_t page_size = list_page_size(asked_rv);
  trace("list", {{"resourceVersion", asked_rv}, {"limit", page_size}});
  auto listed = co_await internal::list_pages(ctx, lister_watcher_, options, page_size);
  if (!listed.ok() && (internal::is_expired_error(listed.status()) ||
                       internal::is_too_large_resource_version_error(listed.status()))) {
    // The resourceVersion is gone or not there yet: a consistent read of the latest state.
    last_sync_resource_version_unavailable_ = true;
    api::ListOptions latest;
    latest.resource_version = relist_resource_version();
    trace("list", {{"resourceVersion", latest.resource_version}, {"limit", page_size}});
    auto relisted = co_await internal::list_pages(ctx, lister_watcher_, latest, page_size);
    co_return finish_list(ctx, std::move(relisted), asked_rv);
  }
  co_return finish_list(ctx, std::move(listed), asked_rv);
}

api::Result<void> Reflector::finish_list(sim::Context& ctx, api::Result<internal::PagedList> listed,
                                         const std::string& asked_rv) {
  if (ctx.done()) return {};
  if (!listed.ok()) return internal::wrapped("failed to list: ", listed.status());
  internal::PagedList& pages = listed.value();
  if (asked_rv == "0" && pages.paginated) paginated_result_ = true;
  last_sync_resource_version_unavailable_ = false;
  const std::string rv = pages.list.resource_version;
  trace("listed", {{"resourceVersion", rv}, {"items", pages.list.items.size()}});
  store_->replace(std::move(pages.list.items), rv);
  last_sync_resource_version_ = rv;
  return {};
}

sim::Task<api::Result<api::WatchPtr>> Reflector::watch_list(sim::Context ctx) {
  internal::ListStore collected;  // the streamed objects, until the initial events end
  collected.set_transform(store_->transformer());
  std::string rv;
  api::WatchPtr stream;
  for (;;) {
    if (ctx.done()) co_return api::WatchPtr();
    rv.clear();
    collected.clear();
    api::ListOptions options;
    options.resource_version = rewatch_resource_version();
    options.allow_watch_bookmarks = true;
    options.send_initial_events = true;
    options.resource_version_match = api::ResourceVersionMatch::kNotOlderThan;
    options.timeout_seconds = watch_timeout_seconds();
    trace("watch-list", {{"resourceVersion", options.resource_version}});
    internal::WatchHandlerArgs args;
    args.clock = clock_;
    args.start = clock_->now();
    auto started = co_await lister_watcher_->watch(ctx, options);
    if (!started.ok()) {
      const bool retry = co_await retry_watch_list(ctx, started.status());
      if (retry) continue;
      co_return started.status();
    }
    stream = std::move(started.value());
    args.watch = stream.get();
    args.store = &collected;
    args.exit_on_initial_events_end = true;
    args.name = options_.name;
    std::string* out_rv = &rv;
    args.set_resource_version = [out_rv](const std::string& event_rv, bool besides_added) {
      if (besides_added) *out_rv = event_rv;
    };
    auto outcome = co_await internal::handle_watch(ctx, std::move(args));
    if (outcome.initial_events_end && !outcome.error && !outcome.stopped) break;
    stream->stop();
    if (outcome.stopped) co_return api::WatchPtr();
    if (outcome.error) {
      const bool retry = co_await retry_watch_list(ctx, *outcome.error);
      if (retry) continue;
      co_return *outcome.error;
    }
    // Ended before the initial events did: try again.
  }
  last_sync_resource_version_unavailable_ = false;
  trace("watch-listed", {{"resourceVersion", rv}, {"items", collected.size()}});
  store_->replace(collected.list(), rv);
  last_sync_resource_version_ = rv;
  co_return std::move(stream);
}

sim::Task<bool> Reflector::retry_watch_list(sim::Context ctx, api::Status error) {
  if (internal::is_watch_error_retriable(error)) {
    const bool slept = co_await sim::sleep_for(ctx, *clock_, backoff_.next());
    (void)slept;
    co_return true;
  }
  if (internal::is_expired_error(error) || internal::is_too_large_resource_version_error(error)) {
    // Ask for the latest state instead of the resourceVersion the server refused.
    last_sync_resource_version_unavailable_ = true;
    co_return true;
  }
  co_return false;
}

sim::Task<api::Result<void>> Reflector::watch_with_resync(sim::Context ctx, api::WatchPtr stream) {
  auto resync = sim::with_cancel(ctx);
  sim::TaskGroup group(clock_->loop());
  if (options_.resync_period > sim::Duration::zero()) {
    group.spawn(resync_loop(resync.ctx), options_.name + "-resync");
  }
  auto watched = co_await watch(ctx, std::move(stream));
  resync.cancel();
  const bool joined = co_await group.wait(sim::Context());
  (void)joined;
  co_return watched;
}

sim::Task<void> Reflector::resync_loop(sim::Context ctx) {
  for (;;) {
    const bool slept = co_await sim::sleep_for(ctx, *clock_, options_.resync_period);
    if (!slept) co_return;
    if (!options_.should_resync || options_.should_resync()) {
      trace("resync");
      store_->resync();
    }
  }
}

sim::Task<api::Result<void>> Reflector::watch(sim::Context ctx, api::WatchPtr stream) {
  for (;;) {
    if (ctx.done()) co_return api::Result<void>();
    internal::WatchHandlerArgs args;
    args.clock = clock_;
    args.start = clock_->now();
    // A stream handed over by the streaming list is already past its synthetic ADDED events.
    bool propagate_from_start = true;
    if (!stream) {
      api::ListOptions options;
      options.resource_version = last_sync_resource_version_;
      options.timeout_seconds = watch_timeout_seconds();
      options.allow_watch_bookmarks = true;
      propagate_from_start = !options.resource_version.empty() && options.resource_version != "0";
      trace("watch", {{"resourceVersion", options.resource_version}});
      auto started = co_await lister_watcher_->watch(ctx, options);
      if (!started.ok()) {
        if (!internal::is_watch_error_retriable(started.status())) co_return started.status();
        const bool slept = co_await sim::sleep_for(ctx, *clock_, backoff_.next());
        if (!slept) co_return api::Result<void>();
        continue;
      }
      stream = std::move(started.value());
    }
    args.watch = stream.get();
    args.store = store_;
    args.name = options_.name;
    args.set_resource_version = [this, propagate_from_start](const std::string& rv, bool besides_added) {
      if (propagate_from_start || besides_added) last_sync_resource_version_ = rv;
    };
    auto outcome = co_await internal::handle_watch(ctx, std::move(args));
    stream->stop();
    stream.reset();
    if (outcome.stopped) co_return api::Result<void>();
    if (!outcome.error) continue;  // closed cleanly: watch again from where it ended
    const api::Status& error = *outcome.error;
    trace("watch-ended", {{"code", error.code}, {"message", error.message}});
    if (api::is_too_many_requests(error)) {
      const bool slept = co_await sim::sleep_for(ctx, *clock_, backoff_.next());
      if (!slept) co_return api::Result<void>();
      continue;
    }
    // Expired (re-list from the last synced resourceVersion) or another failure: end the round.
    co_return api::Result<void>();
  }
}

}  // namespace kubesim::informer
