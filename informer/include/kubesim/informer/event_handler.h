// Event handlers: how a program hears about changes the informer applied to its cache.
//
// A handler receives, in order, on_add for an object new to the cache (is_in_initial_list while
// the informer delivers its first list, or the cache's content to a handler added later),
// on_update with the previous and the new state (both the same ObjectPtr's resourceVersion for
// a resync), and on_delete with the final state or a DeletedFinalStateUnknown tombstone when the
// deletion was only inferred from a re-list. Objects are the cache's own immutable ObjectPtrs.
//
// FilteringResourceEventHandler follows client-go 1.36: its filter sees a tombstone itself. The
// one improvement kept is opt-in: unwrap_tombstones() filters a tombstone's last known state
// instead, which hides the hazard of a filter that forgets tombstones and so loses deletions.
//
// ResourceEventHandler's callbacks run to completion before the next notification.
// AsyncResourceEventHandler may suspend (take virtual time) on each notification; the informer
// waits for it before handing the same handler its next one, and meanwhile keeps the rest
// buffered, so a slow handler never holds up the others or the informer.
#ifndef KUBESIM_INFORMER_EVENT_HANDLER_H_
#define KUBESIM_INFORMER_EVENT_HANDLER_H_

#include <functional>
#include <variant>

#include "kubesim/api/object.h"
#include "kubesim/informer/deltas.h"
#include "kubesim/sim/task.h"

namespace kubesim::informer {

struct AddNotification {
  AddNotification(api::ObjectPtr new_obj_, bool is_in_initial_list_)
      : new_obj(std::move(new_obj_)), is_in_initial_list(is_in_initial_list_) {}
  api::ObjectPtr new_obj;
  bool is_in_initial_list = false;
};

struct UpdateNotification {
  UpdateNotification(api::ObjectPtr old_obj_, api::ObjectPtr new_obj_)
      : old_obj(std::move(old_obj_)), new_obj(std::move(new_obj_)) {}
  api::ObjectPtr old_obj;
  api::ObjectPtr new_obj;
};

struct DeleteNotification {
  explicit DeleteNotification(DeletedObject old_obj_) : old_obj(std::move(old_obj_)) {}
  DeletedObject old_obj;
};

using Notification = std::variant<AddNotification, UpdateNotification, DeleteNotification>;

class ResourceEventHandler {
 public:
  virtual ~ResourceEventHandler() = default;
  virtual void on_add(const api::ObjectPtr& obj, bool is_in_initial_list) = 0;
  virtual void on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) = 0;
  virtual void on_delete(const DeletedObject& obj) = 0;
};

// Calls `handler` for `notification`.
void dispatch(ResourceEventHandler& handler, const Notification& notification);

// A handler from functions; an empty function ignores its notifications.
class ResourceEventHandlerFuncs final : public ResourceEventHandler {
 public:
  ResourceEventHandlerFuncs() = default;

  std::function<void(const api::ObjectPtr& obj, bool is_in_initial_list)> add_func;
  std::function<void(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj)> update_func;
  std::function<void(const DeletedObject& obj)> delete_func;

  void on_add(const api::ObjectPtr& obj, bool is_in_initial_list) override {
    if (add_func) add_func(obj, is_in_initial_list);
  }
  void on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) override {
    if (update_func) update_func(old_obj, new_obj);
  }
  void on_delete(const DeletedObject& obj) override {
    if (delete_func) delete_func(obj);
  }
};

// What a FilteringResourceEventHandler's filter is given: for adds and updates the object; for a
// delete the final state, or — as client-go's FilterFunc receives it — the
// DeletedFinalStateUnknown tombstone itself, which a filter that only looks for objects rejects.
using FilterFunc = std::function<bool(const DeletedObject& obj)>;

// A filter that applies `filter` to the object, and to a tombstone's last known state; a
// tombstone without one passes. Not client-go's behaviour, an opt-in: it hides the hazard of a
// real filter that forgets tombstones (the controller never hears of deletions it missed).
FilterFunc unwrap_tombstones(std::function<bool(const api::Object&)> filter);

// client-go's FilteringResourceEventHandler (as of client-go 1.36): passes on only what `filter`
// accepts, turning an update into an add or a delete when the object enters or leaves the filter.
// A delete is passed on only when the filter accepts what the delete carries, tombstone included.
class FilteringResourceEventHandler final : public ResourceEventHandler {
 public:
  FilteringResourceEventHandler(FilterFunc filter, std::shared_ptr<ResourceEventHandler> handler)
      : filter_(std::move(filter)), handler_(std::move(handler)) {}

  void on_add(const api::ObjectPtr& obj, bool is_in_initial_list) override;
  void on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) override;
  void on_delete(const DeletedObject& obj) override;

 private:
  FilterFunc filter_;
  std::shared_ptr<ResourceEventHandler> handler_;
};

class AsyncResourceEventHandler {
 public:
  virtual ~AsyncResourceEventHandler() = default;
  // Handles one notification; the next one waits until the returned task completes.
  virtual sim::Task<void> handle(Notification notification) = 0;
};

}  // namespace kubesim::informer

#endif  // KUBESIM_INFORMER_EVENT_HANDLER_H_
