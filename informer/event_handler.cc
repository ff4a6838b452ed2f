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

void FilteringResourceEventHandler::on_add(const api::ObjectPtr& obj, bool is_in_initial_list) {
  if (filter_(*obj)) handler_->on_add(obj, is_in_initial_list);
}

void FilteringResourceEventHandler::on_update(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  const bool newer = filter_(*new_obj);
  const bool older = filter_(*old_obj);
  if (newer && older) {
    handler_->on_update(old_obj, new_obj);
  } else if (newer) {
    handler_->on_add(new_obj, false);
  } else if (older) {
    handler_->on_delete(old_obj);
  }
}

void FilteringResourceEventHandler::on_delete(const DeletedObject& obj) {
  const api::ObjectPtr& last = last_known_state(obj);
  // A tombstone without a last state cannot be filtered; pass it on rather than lose it.
  if (!last || filter_(*last)) handler_->on_delete(obj);
}

}  // namespace kubesim::informer
