#include "kubesim/fakeapi/watch_hub.h"

#include <algorithm>

#include "fakeapi/internal/server_util.h"

namespace kubesim::fakeapi {

struct WatchHub::Watcher {
  WatchSpec spec;
  api::WatchFeed feed;
  sim::Time deadline;
  sim::TimerId timeout_timer;
  sim::TimerId bookmark_timer;
  sim::TimerId pending_timer;  // while waiting for spec.from
  std::size_t initial = 0;  // events queued before the watch went live
  std::size_t sent = 0;     // events queued in all
  bool pending = false;
  bool closed = false;

  // Unread events, not counting unread initial ones (they come first in the stream).
  std::size_t live_backlog() const {
    const std::size_t backlog = feed.backlog();
    const std::size_t consumed = sent - backlog;
    const std::size_t unread_initial = initial > consumed ? initial - consumed : 0;
    return backlog - unread_initial;
  }
};

namespace {

api::ObjectPtr bookmark_object(const std::string& api_version, const std::string& kind,
                               Revision revision, bool initial_events_end) {
  nlohmann::json meta = {{"resourceVersion", std::to_string(revision)}};
  if (initial_events_end) meta["annotations"] = {{"k8s.io/initial-events-end", "true"}};
  return api::make_object({{"apiVersion", api_version}, {"kind", kind}, {"metadata", std::move(meta)}});
}

bool in_scope(const WatchSpec& spec, const api::Object& obj) {
  if (!spec.ns.empty() && obj.namespace_() != spec.ns) return false;
  return !spec.predicate || spec.predicate(obj);
}

}  // namespace

WatchHub::WatchHub(sim::Loop& loop, Store& store, WatchHubOptions options)
    : loop_(&loop), store_(&store), options_(options) {}

WatchHub::~WatchHub() {
  for (auto& w : pending_) close(*w);
  for (auto& list : by_table_) {
    for (auto& w : list) {
      w->feed.on_stop({});
      close(*w);
    }
  }
}

WatchStart WatchHub::start(WatchSpec spec) {
  auto pipe = api::make_watch_pipe(*loop_);
  auto w = std::make_shared<Watcher>();
  w->spec = std::move(spec);
  w->feed = pipe.second;
  w->deadline = loop_->now() + w->spec.timeout;
  const TableId table = w->spec.table;
  if (by_table_.size() <= table) by_table_.resize(table + 1);
  by_table_[table].push_back(w);
  std::weak_ptr<Watcher> weak = w;
  w->timeout_timer = loop_->add_timer(w->deadline, [this, weak, table] {
    if (auto live = weak.lock()) {
      close(*live);
      remove_closed(table);
    }
  });
  w->feed.on_stop([this, weak, table] {
    if (auto live = weak.lock()) {
      close(*live);
      remove_closed(table);
    }
  });
  std::size_t initial = 0;
  if (w->spec.from > store_->revision()) {
    w->pending = true;
    pending_.push_back(w);
    w->pending_timer = loop_->add_timer(loop_->now() + options_.fresh_wait, [this, weak, table] {
      auto live = weak.lock();
      if (!live || !live->pending) return;
      live->pending = false;
      std::erase(pending_, live);
      send(*live, api::WatchEvent::error(internal::too_large_revision(live->spec.from, store_->revision())));
      close(*live);
      remove_closed(table);
    });
  } else {
    begin(*w);
    initial = w->initial;
    if (w->spec.bookmarks) arm_bookmark(w);
  }
  return WatchStart{std::move(pipe.first), initial};
}

void WatchHub::begin(Watcher& w) {
  const WatchSpec& s = w.spec;
  if (s.start == WatchSpec::Start::kInitialEvents) {
    const std::string prefix = s.ns.empty() ? std::string() : s.ns + "/";
    store_->scan(s.table, s.from, prefix, "", [&](std::string_view, const api::ObjectPtr& obj) {
      if (!s.predicate || s.predicate(*obj)) send(w, {api::EventType::kAdded, obj});
      return true;
    });
    if (s.end_bookmark) {
      send(w, {api::EventType::kBookmark, bookmark_object(s.api_version, s.kind, s.from, true)});
    }
  }
  w.initial = w.sent;  // the state so far, and the replay below, are the watch's initial events
  for (auto it = store_->changes_after(s.from); it != store_->changes_end(); ++it) {
    api::ObjectPtr prev_with_rv;
    if (it->table == s.table && deliver(w, *it, prev_with_rv)) ++w.initial;
  }
}

void WatchHub::wake_pending(Revision revision) {
  std::vector<std::shared_ptr<Watcher>> ready;
  std::erase_if(pending_, [&](const std::shared_ptr<Watcher>& w) {
    if (w->closed) return true;
    if (w->spec.from > revision) return false;
    ready.push_back(w);
    return true;
  });
  for (auto& w : ready) {
    w->pending = false;
    loop_->cancel_timer(w->pending_timer);
    begin(*w);
    if (w->spec.bookmarks) arm_bookmark(w);
  }
}

bool WatchHub::send(Watcher& w, api::WatchEvent event) {
  if (w.closed || !w.feed.send(std::move(event))) return false;
  ++w.sent;
  return true;
}

WatchStart WatchHub::start_error(const api::Status& status) {
  auto pipe = api::make_watch_pipe(*loop_);
  pipe.second.send(api::WatchEvent::error(status));
  pipe.second.close();
  return WatchStart{std::move(pipe.first), 0};
}

bool WatchHub::deliver(Watcher& w, const Change& change, api::ObjectPtr& prev_with_rv) {
  if (w.closed || w.pending || change.revision <= w.spec.from) return false;
  const bool now_in = change.type != ChangeType::kDeleted && in_scope(w.spec, *change.object);
  const bool was_in = change.previous && in_scope(w.spec, *change.previous);
  api::WatchEvent event;
  if (now_in && !was_in) {
    event = {api::EventType::kAdded, change.object};
  } else if (now_in && was_in) {
    event = {api::EventType::kModified, change.object};
  } else if (was_in) {
    if (change.type == ChangeType::kDeleted) {
      event = {api::EventType::kDeleted, change.object};
    } else {
      if (!prev_with_rv) prev_with_rv = change.previous->with_resource_version(std::to_string(change.revision));
      event = {api::EventType::kDeleted, prev_with_rv};
    }
  } else {
    return false;
  }
  if (!send(w, std::move(event))) {
    close(w);
    return false;
  }
  ++delivered_;
  if (w.live_backlog() > options_.max_backlog) {
    ++closed_for_backlog_;
    close(w);
  }
  return true;
}

void WatchHub::dispatch(const Change& change) {
  if (!pending_.empty()) wake_pending(change.revision);
  if (change.table >= by_table_.size()) return;
  auto& list = by_table_[change.table];
  api::ObjectPtr prev_with_rv;
  bool any_closed = false;
  for (auto& w : list) {
    deliver(*w, change, prev_with_rv);
    any_closed |= w->closed;
  }
  if (any_closed) remove_closed(change.table);
}

void WatchHub::close(Watcher& w) {
  if (w.closed) return;
  w.closed = true;
  loop_->cancel_timer(w.timeout_timer);
  loop_->cancel_timer(w.bookmark_timer);
  loop_->cancel_timer(w.pending_timer);
  w.feed.close();
}

void WatchHub::remove_closed(TableId table) {
  if (table >= by_table_.size()) return;
  auto& list = by_table_[table];
  std::erase_if(list, [](const std::shared_ptr<Watcher>& w) { return w->closed; });
}

void WatchHub::close_all() {
  for (TableId t = 0; t < by_table_.size(); ++t) close_table(t);
}

void WatchHub::close_table(TableId table) {
  if (table >= by_table_.size()) return;
  auto list = by_table_[table];  // close() may re-enter remove_closed through on_stop
  for (auto& w : list) close(*w);
  remove_closed(table);
}

std::size_t WatchHub::watcher_count() const {
  std::size_t n = 0;
  for (const auto& list : by_table_) n += list.size();
  return n;
}

void WatchHub::arm_bookmark(const std::shared_ptr<Watcher>& w) {
  // The watch cache's nextBookmarkTime: every bookmark_interval, and 2 s before the deadline.
  const sim::Time now = loop_->now();
  sim::Time next = now + options_.bookmark_interval;
  const sim::Time before_deadline = w->deadline - std::chrono::seconds(2);
  if (before_deadline < next) next = before_deadline;
  if (next <= now) return;
  std::weak_ptr<Watcher> weak = w;
  w->bookmark_timer = loop_->add_timer(next, [this, weak] {
    auto live = weak.lock();
    if (!live || live->closed) return;
    send(*live, {api::EventType::kBookmark,
                 bookmark_object(live->spec.api_version, live->spec.kind, store_->revision(), false)});
    arm_bookmark(live);
  });
}

}  // namespace kubesim::fakeapi
