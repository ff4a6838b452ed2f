#include "internal/controller_state.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <set>
#include <stdexcept>
#include <utility>

#include "kubesim/informer/event_handler.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/workqueue/rate_limiter.h"

namespace kubesim::controller {
namespace {

// client-go's meta.UnsafeGuessKindToResource: "Widget" → "widgets", "Policy" → "policies".
std::string guess_plural(std::string_view kind) {
  std::string singular(kind);
  std::transform(singular.begin(), singular.end(), singular.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (singular.empty() || singular == "endpoints") return singular;
  if (singular.back() == 's') return singular + "es";
  if (singular.back() == 'y') return singular.substr(0, singular.size() - 1) + "ies";
  return singular + "s";
}

enum class Change { kAdded, kUpdated, kDeleted };

// A handler calling `on_object` with each add's and update's new state and each delete's last
// known state (a tombstone without one is ignored).
std::shared_ptr<informer::ResourceEventHandler> object_handler(
    std::function<void(const api::Object& object, Change change)> on_object) {
  auto handler = std::make_shared<informer::ResourceEventHandlerFuncs>();
  handler->add_func = [on_object](const api::ObjectPtr& object, bool) {
    if (object != nullptr) on_object(*object, Change::kAdded);
  };
  handler->update_func = [on_object](const api::ObjectPtr&, const api::ObjectPtr& object) {
    if (object != nullptr) on_object(*object, Change::kUpdated);
  };
  handler->delete_func = [on_object](const informer::DeletedObject& deleted) {
    const api::ObjectPtr& object = informer::last_known_state(deleted);
    if (object != nullptr) on_object(*object, Change::kDeleted);
  };
  return handler;
}

}  // namespace

std::optional<std::string> owner_key(const api::Object& object, const api::GroupVersionResource& for_,
                                     const std::string& for_kind) {
  const api::OwnerReference* owner = object.controller_of();
  if (owner == nullptr) return std::nullopt;
  const auto version = api::parse_api_version(owner->api_version);
  if (!version || version->group != for_.group) return std::nullopt;
  if (owner->kind != for_kind && guess_plural(owner->kind) != for_.resource) return std::nullopt;
  return ReconcileRequest{std::string(object.namespace_()), std::string(owner->name)}.key();
}

ControllerState::ControllerState(Manager& manager, ControllerSpec spec)
    : manager_(&manager), spec_(std::move(spec)), expectations_(manager.process().clock()) {
  sink_->expectations = &expectations_;
  if (spec_.for_) watch_for();
  for (const auto& resource : spec_.owns) watch_owned(resource);
  for (auto& [resource, map] : spec_.watches) watch_mapped(resource, map);
}

ControllerState::~ControllerState() {
  sink_->queue = nullptr;
  sink_->expectations = nullptr;
}

void ControllerState::add_handler(const api::GroupVersionResource& resource,
                                  std::shared_ptr<informer::ResourceEventHandler> handler) {
  auto registration = manager_->informers().informer_for(resource).add_event_handler(std::move(handler));
  // The factory hands out informers that have not stopped: a Manager is filled before the
  // factory starts, and lives no longer than it.
  assert(registration.ok() && "a controller's informer had already stopped");
  if (registration.ok()) registrations_.push_back(std::move(registration.value()));
}

void ControllerState::watch_for() {
  add_handler(*spec_.for_, object_handler([sink = sink_](const api::Object& object, Change) {
                if (sink->for_kind.empty()) sink->for_kind = std::string(object.kind());
                if (sink->queue != nullptr) sink->queue->add(object.key().str());
              }));
}

void ControllerState::watch_owned(const api::GroupVersionResource& resource) {
  add_handler(resource, object_handler([sink = sink_, for_ = *spec_.for_](const api::Object& object, Change change) {
                auto key = owner_key(object, for_, sink->for_kind);
                if (!key) return;
                // Observed before the key is queued, so the reconcile it causes sees it.
                Expectations* expectations = sink->expectations;
                if (expectations != nullptr && change == Change::kAdded) expectations->creation_observed(*key);
                if (expectations != nullptr && change == Change::kDeleted) expectations->deletion_observed(*key);
                if (sink->queue != nullptr) sink->queue->add(std::move(*key));
              }));
}

void ControllerState::watch_mapped(const api::GroupVersionResource& resource, MapFn map) {
  add_handler(resource, object_handler([sink = sink_, map = std::move(map)](const api::Object& object, Change) {
                if (sink->queue == nullptr) return;
                for (const auto& request : map(object)) sink->queue->add(request.key());
              }));
}

std::size_t ControllerState::queue_depth() const { return run_ ? run_->queue->len() : 0; }

informer::Lister ControllerState::lister(const api::GroupVersionResource& resource) const {
  return informer::Lister(indexer(resource), resource.group_resource());
}

const informer::Indexer& ControllerState::indexer(const api::GroupVersionResource& resource) const {
  for (const auto& [known, found] : indexers_) {
    if (known == resource) return *found;
  }
  const bool declared = resource == spec_.for_ ||
                        std::find(spec_.owns.begin(), spec_.owns.end(), resource) != spec_.owns.end() ||
                        std::any_of(spec_.watches.begin(), spec_.watches.end(),
                                    [&](const auto& watch) { return watch.first == resource; }) ||
                        std::find(manager_->informers_taken_.begin(), manager_->informers_taken_.end(), resource) !=
                            manager_->informers_taken_.end();
  if (!declared) {
    throw std::logic_error("controller \"" + spec_.name + "\" reads " + resource.group_resource().to_string() +
                           ", which it did not declare (for_, owns, watches) nor take with Manager::informer()");
  }
  const informer::Indexer& found = manager_->informers().informer_for(resource).get_indexer();
  indexers_.emplace_back(resource, &found);
  return found;
}

std::vector<std::string> ControllerState::all_keys() const {
  std::set<std::string> keys;
  informer::SharedInformerFactory& informers = manager_->informers();
  if (spec_.for_) {
    for (const auto& object : informers.lister_for(*spec_.for_).list()) keys.insert(object->key().str());
  }
  for (const auto& resource : spec_.owns) {
    for (const auto& object : informers.lister_for(resource).list()) {
      if (auto key = owner_key(*object, *spec_.for_, sink_->for_kind)) keys.insert(std::move(*key));
    }
  }
  for (const auto& [resource, map] : spec_.watches) {
    for (const auto& object : informers.lister_for(resource).list()) {
      for (const auto& request : map(*object)) keys.insert(request.key());
    }
  }
  return {keys.begin(), keys.end()};
}

std::vector<std::function<bool()>> ControllerState::sync_checks() const {
  std::vector<std::function<bool()>> synced;
  for (const auto& registration : registrations_) {
    synced.push_back([registration] { return registration->has_synced(); });
  }
  for (const auto& resource : manager_->informers_taken_) {
    informer::SharedIndexInformer* informer = &manager_->informers().informer_for(resource);
    synced.push_back([informer] { return informer->has_synced(); });
  }
  return synced;
}

sim::Task<void> ControllerState::run(sim::Context parent) {
  const sim::Clock& clock = manager_->process().clock();
  auto stop = sim::with_cancel(parent);
  sim::Context ctx = stop.ctx;
  auto run = std::make_shared<Run>();
  workqueue::QueueConfig config;
  if (manager_->options().metrics != nullptr) {
    config.name = spec_.name;
    config.metrics_provider = manager_->options().metrics;
    config.unfinished_work_update_period = sim::Duration::zero();
  }
  run->queue = std::make_shared<WorkQueue>(clock, workqueue::default_controller_rate_limiter<std::string>(clock),
                                           std::move(config));
  run->cancel = stop.cancel;
  run_ = run;
  sink_->queue = run->queue.get();
  const bool ready = co_await informer::wait_for_cache_sync(ctx, &clock, sync_checks());
  if (ready) {
    for (auto& key : all_keys()) run->queue->add(std::move(key));
    sim::TaskGroup workers(manager_->process().loop());
    for (int i = 0; i < spec_.workers; ++i) workers.spawn(worker(ctx, run), spec_.name + "-worker");
    // The workers return once ctx is done: get() answers nothing then, and the client's calls
    // end with the context's error.
    co_await workers.wait(sim::Context());
  }
  run->queue->shut_down();
  if (run_ == run) {
    sink_->queue = nullptr;
    run_.reset();
  }
  stop.cancel();
  if (run->failure) std::rethrow_exception(run->failure);
}

sim::Task<void> ControllerState::worker(sim::Context ctx, std::shared_ptr<Run> run) {
  for (;;) {
    const bool more = co_await process_next_work_item(ctx, run.get());
    if (!more) co_return;
  }
}

sim::Task<bool> ControllerState::process_next_work_item(sim::Context ctx, Run* run) {
  auto key = co_await run->queue->get(ctx);
  if (!key) co_return false;
  std::optional<ReconcileRequest> request = ReconcileRequest::from_key(*key);
  ReconcileResult result;
  std::exception_ptr failure;
  try {
    // A key no handler makes (more than one '/') cannot be reconciled: dropped.
    if (request) {
      auto outcome = co_await spec_.reconcile(ReconcileContext(ctx, this), *request);
      result = std::move(outcome);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) {
    if (!run->failure) run->failure = failure;
    run->cancel();
    run->queue->done(*key);
    co_return false;
  }
  handle(*run->queue, *key, result);
  run->queue->done(*key);
  co_return true;
}

void ControllerState::handle(WorkQueue& queue, const std::string& key, const ReconcileResult& result) const {
  switch (result.kind) {
    case ReconcileResult::Kind::kDone:
      queue.forget(key);
      break;
    case ReconcileResult::Kind::kRequeue:
    case ReconcileResult::Kind::kError:
      queue.add_rate_limited(key);
      break;
    case ReconcileResult::Kind::kRequeueAfter:
      queue.forget(key);
      queue.add_after(key, result.after);
      break;
  }
}

}  // namespace kubesim::controller
