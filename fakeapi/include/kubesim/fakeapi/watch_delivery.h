// WatchDelivery: the front door's filter for watch faults — dropped, stalled and coalescing
// watches — and for clients that fall behind, the same for every transport.
//
// When a watch starts, the first dropWatch rule that fires cuts its stream after `afterEvents`
// events, and the first stallWatch rule that fires makes it deliver nothing more (events are
// taken from the server and discarded until the watch times out or its client gives up). The
// stream a transport then reads is a DeliveredWatch, which says whether it was cut, so that a
// transport can end the connection abruptly as a dropped one ends.
//
// Backlog: a transport takes the server's events as they come and queues them for its client (on
// the network link, in the client's stream, in an HTTP session's channel), so the WatchHub never
// sees that client fall behind. The transport tells the DeliveredWatch how many of the events it
// delivered the client has not read yet (set_unread); once the live ones among them pass the
// hub's max_backlog, the watch is cut as a dropped one is — the hub's rule for its own watchers,
// and as there, the events the watch started with (its initial list or replay) do not count.
//
// Coalescing (coalesceWatch rules, Sieve's "unobserved states") acts on every open watch, also
// one that started before the rule was added: when an event arrives while a matching rule's
// window lasts, the watch holds it for the rule's `hold` time, and a later event for the same
// object (namespace/name) replaces the held one, so the client never sees the versions between:
//   ADDED + MODIFIED    -> ADDED with the newest object    ADDED + DELETED   -> nothing
//   MODIFIED + MODIFIED -> MODIFIED with the newest        MODIFIED + DELETED -> DELETED
//   DELETED + ADDED     -> MODIFIED with the new object (as a relist would show it)
// A merged event is due `hold` after the newest event it carries arrived. A watch decides
// once per rule whether the rule takes it (the rule's keys match the watch request, its
// probability is drawn, its count — which counts watches — is consumed, the injection traced),
// and keeps the rule until the rule's window ends or the rule is removed.
// Guarantees: held events are delivered in the order the server sent them (resourceVersion
// order; a merged event takes the place of its newest part) at their due instants on the
// virtual clock, so the resourceVersions a client sees still increase and none is seen twice.
// Nothing is delivered ahead of an older held event: a BOOKMARK that arrives while events are
// held is held behind them (a newer bookmark replaces it), and so is an event that arrives after
// the window while events are still held (it is not merged). Events held when the window ends
// are still delivered at their due instants. An ERROR event is delivered at once and the held
// events are discarded, as they are when the watch ends: the client resumes from the last
// version it saw, so a correct client loses nothing.
#ifndef KUBESIM_FAKEAPI_WATCH_DELIVERY_H_
#define KUBESIM_FAKEAPI_WATCH_DELIVERY_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/api/watch.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/fakeapi/filter.h"

namespace kubesim::fakeapi {

// The events a coalescing watch holds, in arrival order, each with the instant it is due.
class HeldEvents {
 public:
  bool empty() const { return events_.empty(); }
  std::size_t size() const { return events_.size(); }
  // Holds `event` until `due`. With `merge`, a held event for the same object is replaced as the
  // table above says; without, the event waits behind what is held. A BOOKMARK replaces the held
  // bookmark.
  void hold(api::WatchEvent event, sim::Time due, bool merge);
  // When the first held event is due; nullopt when nothing is held.
  std::optional<sim::Time> next_due() const;
  // The first held event, when it is due at `now`; events behind it wait for it.
  std::optional<api::WatchEvent> take_due(sim::Time now);
  void clear();

 private:
  struct Held {
    api::WatchEvent event;
    sim::Time due{};
    bool existed_before = false;  // whether the client has the object before this event
    std::string key;              // namespace/name; empty for a bookmark
  };

  std::map<std::uint64_t, Held> events_;  // by arrival number
  // Invariant: every held object event's key maps to the arrival number of the newest held event
  // for that key.
  std::map<std::string, std::uint64_t, std::less<>> newest_;
  std::optional<std::uint64_t> bookmark_;  // the held bookmark's arrival number
  std::uint64_t arrivals_ = 0;
};

class DeliveredWatch final : public api::WatchStream {
 public:
  // `initial_events`: how many events the watch started with; `max_backlog`: the most live
  // events its client may leave unread.
  // The fault rules see `request` (what the rules match of it is kept for the life of the watch).
  DeliveredWatch(api::WatchPtr source, FaultInjector& faults, const Request& request,
                 std::optional<std::int64_t> drop_after, bool stalled, std::size_t initial_events = 0,
                 std::size_t max_backlog = std::numeric_limits<std::size_t>::max())
      : source_(std::move(source)),
        faults_(&faults),
        request_(rule_view(request)),
        drop_after_(drop_after),
        stalled_(stalled),
        initial_(initial_events),
        max_backlog_(max_backlog) {}

  sim::Task<std::optional<api::WatchEvent>> next(sim::Context ctx) override;
  std::optional<api::WatchEvent> try_next(const sim::Context& ctx) override;
  void stop() override;

  // The transport's count of the events this watch delivered that its client has not read yet;
  // without one the backlog is not watched. `unread` must not keep the transport's side of the
  // watch alive through this watch (it is held here until the watch is destroyed).
  void set_unread(std::function<std::size_t()> unread) { unread_ = std::move(unread); }

  // True once a dropWatch rule or the backlog ended the stream.
  bool cut() const { return cut_; }
  // How many events the watch holds now.
  std::size_t held() const { return held_.size(); }

 private:
  // True (and the watch cut off) when the drop rule's count is reached.
  bool drop_now();
  // Whether the client's unread live events pass max_backlog. Checked when an event comes from
  // the source: it is not delivered, and the stream ends.
  bool too_far_behind() const;
  // Ends the stream: the source stops and held events are discarded.
  void cut_off();
  // What becomes of an event from the source: delivered now (returned), held, or discarded.
  std::optional<api::WatchEvent> admit(api::WatchEvent event);
  // The hold time of the coalesceWatch rule that has this watch now, if one has.
  std::optional<sim::Duration> coalescing();
  std::optional<api::WatchEvent> deliver(api::WatchEvent event);
  sim::Time now() const { return faults_->loop().now(); }

  // What the fault rules match of `request`: its verb, target and process, without its options.
  static Request rule_view(const Request& request);

  api::WatchPtr source_;
  FaultInjector* faults_;
  Request request_;
  std::optional<std::int64_t> drop_after_;
  bool stalled_;
  bool cut_ = false;
  std::int64_t delivered_ = 0;
  std::size_t initial_;
  std::size_t max_backlog_;
  std::function<std::size_t()> unread_;
  HeldEvents held_;
  std::string coalesce_rule_;              // the id of the coalesceWatch rule that has the watch
  std::vector<std::string> decided_rules_;  // coalesceWatch rules this watch has drawn for
};

class WatchDelivery final : public Filter {
 public:
  // `max_backlog`: the hub's (WatchHubOptions::max_backlog).
  WatchDelivery(FaultInjector& faults, std::size_t max_backlog)
      : faults_(&faults), max_backlog_(max_backlog) {}
  // Every watch that starts is delivered through a DeliveredWatch, so that a coalesceWatch rule
  // added later acts on it.
  void complete(const Request& request, Response& response) override;

 private:
  FaultInjector* faults_;
  std::size_t max_backlog_;
};

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_WATCH_DELIVERY_H_
