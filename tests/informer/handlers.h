// Event handlers for the informer tests: one that records everything and keeps the view its
// notifications imply, and a slow asynchronous one.
#ifndef KUBESIM_TESTS_INFORMER_HANDLERS_H_
#define KUBESIM_TESTS_INFORMER_HANDLERS_H_

#include <map>
#include <string>
#include <vector>

#include "kubesim/informer/event_handler.h"
#include "kubesim/informer/shared_informer.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::informer::testing {

// Records notifications and replays them into a view: key -> resourceVersion.
class RecordingHandler final : public ResourceEventHandler {
 public:
  void on_add(const api::ObjectPtr& obj, bool is_in_initial_list) override {
    events.push_back(std::string(is_in_initial_list ? "add*:" : "add:") + obj->key().str());
    if (view.contains(obj->key().str())) duplicate_adds.push_back(obj->key().str());
    view[obj->key().str()] = std::string(obj->resource_version());
    ++adds;
  }
  void on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) override {
    events.push_back("update:" + new_obj->key().str());
    if (!view.contains(new_obj->key().str())) updates_of_unknown.push_back(new_obj->key().str());
    if (old_obj->resource_version() == new_obj->resource_version()) ++resyncs;
    view[new_obj->key().str()] = std::string(new_obj->resource_version());
    ++updates;
  }
  void on_delete(const DeletedObject& obj) override {
    events.push_back(std::string(is_final_state_unknown(obj) ? "delete?:" : "delete:") + key_of(obj).str());
    if (is_final_state_unknown(obj)) tombstones.push_back(std::get<DeletedFinalStateUnknown>(obj));
    view.erase(key_of(obj).str());
    ++deletes;
  }

  std::vector<std::pair<std::string, std::string>> view_state() const {
    return {view.begin(), view.end()};
  }

  std::vector<std::string> events;
  std::map<std::string, std::string> view;
  std::vector<std::string> duplicate_adds;
  std::vector<std::string> updates_of_unknown;
  std::vector<DeletedFinalStateUnknown> tombstones;
  int adds = 0, updates = 0, deletes = 0, resyncs = 0;
};

// Takes `delay` of virtual time over every notification, then hands it to `inner`.
class SlowHandler final : public AsyncResourceEventHandler {
 public:
  SlowHandler(sim::Loop& loop, sim::Duration delay) : loop_(&loop), delay_(delay) {}

  sim::Task<void> handle(Notification notification) override {
    return slowly(this, std::move(notification));
  }

  RecordingHandler inner;

 private:
  static sim::Task<void> slowly(SlowHandler* self, Notification notification) {
    const bool slept = co_await sim::sleep_for(sim::Context(), *self->loop_, self->delay_);
    (void)slept;
    dispatch(self->inner, notification);
  }

  sim::Loop* loop_;
  sim::Duration delay_;
};

// The informer's cache as (key, resourceVersion), in key order.
inline std::vector<std::pair<std::string, std::string>> cache_state(const SharedIndexInformer& informer) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& o : informer.get_indexer().list()) out.emplace_back(o->key().str(), std::string(o->resource_version()));
  return out;
}

// The three queue configurations every informer property runs with.
struct FifoVariant {
  FifoKind fifo;
  bool atomic;
  const char* name;
};
inline const FifoVariant kFifoVariants[] = {
    {FifoKind::kRealFIFO, true, "RealFIFOAtomic"},
    {FifoKind::kRealFIFO, false, "RealFIFOPerObject"},
    {FifoKind::kDeltaFIFO, false, "DeltaFIFO"},
};

}  // namespace kubesim::informer::testing

#endif  // KUBESIM_TESTS_INFORMER_HANDLERS_H_
