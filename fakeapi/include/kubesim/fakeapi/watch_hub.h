// WatchHub: the fake API server's watches — starting them from a revision or with initial
// events, fanning every committed change out to the watchers of its resource, bookmarks, timeouts,
// and closing watchers that fall behind.
//
// Guarantees: a watcher sees the changes of its resource in revision order, each at most once,
// filtered by its namespace and predicate with kube-apiserver's transitions (an object entering
// the selection is ADDED, leaving it is DELETED carrying the previous content with the new
// resourceVersion). Objects are shared, never copied per watcher. A watcher whose unread backlog
// passes max_backlog is closed (it sees the end of its stream and must re-watch), so a slow
// watcher never slows a writer or grows without bound. The events a watch starts with (its
// initial list or its replay from history) do not count towards that backlog, as kube-apiserver
// sends them apart from its watchers' buffers.
//
// As kube-apiserver's watch cache: a watch from a revision the store has not reached yet waits for
// it up to `fresh_wait` and otherwise ends with a 504 "Too large resource version" ERROR event;
// each watcher that asked for bookmarks gets one a bookmark_interval after it started (or after
// its last one), and one 2 s before its timeout.
#ifndef KUBESIM_FAKEAPI_WATCH_HUB_H_
#define KUBESIM_FAKEAPI_WATCH_HUB_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kubesim/api/watch.h"
#include "kubesim/fakeapi/server_options.h"
#include "kubesim/fakeapi/store.h"
#include "kubesim/sim/loop.h"

namespace kubesim::fakeapi {

struct WatchSpec {
  WatchSpec() {}
  TableId table = 0;
  std::string api_version;  // of the resource, for bookmark objects
  std::string kind;
  std::string ns;  // one namespace, or "" for all
  std::function<bool(const api::Object&)> predicate;  // empty: everything
  bool bookmarks = false;
  // Start: replay changes after `from` (kReplay), or send the state at `from` as ADDED events
  // first (kInitialEvents), ending with the initial-events-end bookmark when `end_bookmark`.
  // A `from` beyond the store's revision waits for it (see fresh_wait).
  enum class Start { kReplay, kInitialEvents } start = Start::kReplay;
  Revision from = 0;
  bool end_bookmark = false;
  // Closed after this long (virtual time on the hub's loop).
  sim::Duration timeout = std::chrono::minutes(30);
};

// A started watch: its stream, and how many events it queued before it went live (its initial
// list or its replay), which do not count towards the backlog rule.
struct WatchStart {
  api::WatchPtr stream;
  std::size_t initial_events = 0;
};

class WatchHub {
 public:
  WatchHub(sim::Loop& loop, Store& store, WatchHubOptions options = {});
  WatchHub(const WatchHub&) = delete;
  WatchHub& operator=(const WatchHub&) = delete;
  // Closes every watch.
  ~WatchHub();

  // Starts a watch. The caller has checked that spec.from is retained.
  WatchStart start(WatchSpec spec);
  // Starts a watch that delivers one ERROR event and ends.
  WatchStart start_error(const api::Status& status);

  // Feeds a committed change to the watchers of its table (the Store's listener).
  void dispatch(const Change& change);
  // Ends every watch (a server restart) or every watch of one table.
  void close_all();
  void close_table(TableId table);

  const WatchHubOptions& options() const { return options_; }
  std::size_t watcher_count() const;
  std::uint64_t delivered() const { return delivered_; }
  std::uint64_t closed_for_backlog() const { return closed_for_backlog_; }

 private:
  struct Watcher;
  void begin(Watcher& w);
  void wake_pending(Revision revision);
  bool send(Watcher& w, api::WatchEvent event);
  bool deliver(Watcher& w, const Change& change, api::ObjectPtr& prev_with_rv);
  void close(Watcher& w);
  void remove_closed(TableId table);
  void arm_bookmark(const std::shared_ptr<Watcher>& w);

  sim::Loop* loop_;
  Store* store_;
  WatchHubOptions options_;
  std::vector<std::vector<std::shared_ptr<Watcher>>> by_table_;
  // Watchers waiting for the store to reach their start revision (any table's write may).
  std::vector<std::shared_ptr<Watcher>> pending_;
  std::uint64_t delivered_ = 0;
  std::uint64_t closed_for_backlog_ = 0;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_WATCH_HUB_H_
