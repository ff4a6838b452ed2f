#include "kubesim/informer/event_handler.h"

namespace kubesim::informer {

void dispatch(ResourceEventHandler& handler, const Notification& notification) {
  if (const auto* add = std::get_if<AddNotification>(&notification)) {
    handler.on_add(add->new_obj, add->is_in_initial_list);
  } else if (const auto* update = std::get_if<UpdateNotification>(&notification)) {
    handler.on_update(update->old_obj, update->new_obj);
  } else {
    handler.on_delete(std::get<DeleteNotification>(notification).old_obj);
  }
}

FilterFunc unwrap_tombstones(std::function<bool(const api::Object&)> filter) {
  return [filter = std::move(filter)](const DeletedObject& obj) {
    const api::ObjectPtr& last = last_known_state(obj);
    return !last || filter(*last);
  };
}

void FilteringResourceEventHandler::on_add(const api::ObjectPtr& obj, bool is_in_initial_list) {
  if (filter_(DeletedObject(obj))) handler_->on_add(obj, is_in_initial_list);
}

void FilteringResourceEventHandler::on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  const bool newer = filter_(DeletedObject(new_obj));
  const bool older = filter_(DeletedObject(old_obj));
  if (newer && older) {
    handler_->on_update(old_obj, new_obj);
  } else if (newer) {
    handler_->on_add(new_obj, false);
  } else if (older) {
    handler_->on_delete(old_obj);
  }
}

void FilteringResourceEventHandler::on_delete(const DeletedObject& obj) {
  // The tombstone itself, not its last known state (client-go's OnDelete).
  if (filter_(obj)) handler_->on_delete(obj);
}

}  // namespace kubesim::informer
