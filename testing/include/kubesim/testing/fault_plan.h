// FaultPlan: a test's faults, as readable builders over the fake API server's fault rules
// (kubesim/fakeapi/faults.h), and a report of which fired.
//
//   c.faults().on(Update(kWidgets).status()).fail(Conflict()).probability(0.5).times(6);
//   c.faults().on(AnyCall(kConfigMaps).by("widgets-0")).delay(2s).during(10s, 40s);
//   c.faults().drop_watches(kConfigMaps).compact();   // cut every watch, force a relist (410)
//   c.faults().stall_watches(kWidgets).times(1);
//   c.faults().coalesce_watches(kWidgets, 3s).by("widgets-0").during(10s, 20s);  // unseen versions
//   c.faults().stale_reads(kWidgets, 30s);             // lists at resourceVersion "0" lag 30 s
//
// A builder adds its rule when the statement ends (its destructor): chain everything in one
// statement. on() needs exactly one of fail()/delay(). Probabilities are drawn from the loop's
// seeded generator, so a seed replays the same faults. times(n) bounds firings; during(from, to)
// is a window relative to the current virtual time. Partitions, crashes and pauses are the
// cluster's (SimCluster::partition, crash, pause): they act on processes, not requests.
//
// A watch fault acts on watches that start while it is active (times(n) of them; without times()
// or during(), one), and, when it starts now and names no process, ends the watches of the
// resource that are open now (the server cannot tell whose an open watch is): a client resumes
// an ended watch from where it was, and relists when that resourceVersion is gone (compact()),
// or when a watch ends at once with no event. coalesce_watches is the exception: it acts on open
// watches too, holding each event `hold` and letting a later event of the same object replace it
// (fakeapi/watch_delivery.h), on every watch of the resource (times(n): on n watches) while it
// lasts.
//
// report(): a line per rule with how often it fired, then a line per effect the fault aims at,
// each saying what was seen since the rule first fired, or plainly that it was not seen:
//   watch drops    the relists of the resource, by process; the deletions an informer found only
//                  at a relist and delivered as tombstones (DeletedFinalStateUnknown)
//   watch stalls   the same, or the watches resumed: whether the clients noticed
//   errors         the requests failed, by process, and whether each was retried: the same call
//                  (verb, resource, subresource, namespace, and name when the failed one had it)
//                  made again by the same process and answered ok
//   Lease faults   (errors and delays on leases) the leadership changes, or that no leader lost
//                  a lease
//   any rule       the leadership changes after it, when some leader lost a lease
// Compactions get a line each with the relists after them. A rule that never fired is shown as
// such — a test whose fault never happened did not test it. An effect is what followed the rule
// (strictly after the instant it first fired), not proof that the rule caused it: a crash the
// test made also ends a leadership. Tombstones and leadership are what a SimCluster's replicas
// tell the plan (track_components()); a plan of a bare ApiServer reports what the server saw
// only. SimCluster::failure_context() ends with the report when the plan has rules.
//
//   fault plan: 1 rule, 1 compaction
//     rule-1: drop watches of configmaps, ≤1 time, compact — fired 1 time, ended 1 open watch
//       then 1 relist of configmaps: widgets-0 (1)
//       then 1 tombstone of configmaps delivered: default/w1-0 to widgets-0 at 12.004s
//     compaction at 12.000s (revision 9) — then 1 relist: widgets-0 (1)
#ifndef KUBESIM_TESTING_FAULT_PLAN_H_
#define KUBESIM_TESTING_FAULT_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/api/gvk.h"
#include "kubesim/api/status.h"
#include "kubesim/sim/time.h"
#include "kubesim/testing/calls.h"

namespace kubesim::fakeapi {
class ApiServer;
struct FaultRule;         // kubesim/fakeapi/faults.h
enum class FaultKind;
}  // namespace kubesim::fakeapi

namespace kubesim::testing {

// Statuses as kube-apiserver returns them, for fail().
api::Status Conflict();                 // 409 Conflict ("the object has been modified")
api::Status InternalError();            // 500
api::Status ServiceUnavailable();       // 503
api::Status TooManyRequests(int retry_after_seconds = 1);  // 429 with Retry-After
api::Status ServerTimeout();            // 504 Timeout
api::Status NotFoundError();            // 404

class FaultPlan;

class RequestFault {
 public:
  // `group`: the API group of the rule's resource, for the Statuses that name it.
  RequestFault(FaultPlan& plan, fakeapi::FaultRule rule, std::string group = {});
  RequestFault(const RequestFault&) = delete;
  RequestFault& operator=(const RequestFault&) = delete;
  ~RequestFault();  // adds the rule

  RequestFault& fail(api::Status status);
  RequestFault& delay(sim::Duration latency);
  RequestFault& probability(double p);       // 0 < p ≤ 1
  RequestFault& times(std::int64_t n);       // n ≥ 1
  RequestFault& during(sim::Duration from, sim::Duration to);  // relative to now
  RequestFault& id(std::string id);

 private:
  FaultPlan* plan_;
  std::unique_ptr<fakeapi::FaultRule> rule_;
  std::string group_;
};

class WatchFault {
 public:
  // `resource`: the rule's, whose open watches a drop ends.
  WatchFault(FaultPlan& plan, fakeapi::FaultRule rule, api::GroupVersionResource resource = {});
  WatchFault(const WatchFault&) = delete;
  WatchFault& operator=(const WatchFault&) = delete;
  ~WatchFault();  // adds the rule (and compacts when asked)

  WatchFault& after_events(std::int64_t n);  // drop_watches: cut after n events (default 0)
  WatchFault& times(std::int64_t n);
  WatchFault& by(std::string process);
  WatchFault& during(sim::Duration from, sim::Duration to);
  // Also compact the store now, so a resumed watch gets 410 Gone and the informer relists.
  WatchFault& compact();

 private:
  FaultPlan* plan_;
  std::unique_ptr<fakeapi::FaultRule> rule_;
  api::GroupVersionResource resource_;
  bool compact_ = false;
};

class FaultPlan {
 public:
  explicit FaultPlan(fakeapi::ApiServer& server) : server_(&server) {}

  RequestFault on(const CallPattern& pattern);
  WatchFault drop_watches(const api::GroupVersionResource& resource);
  WatchFault stall_watches(const api::GroupVersionResource& resource);
  // Watches of `resource` hold each event `hold` (positive), and a later event of the same
  // object replaces the held one, so intermediate versions are never seen.
  WatchFault coalesce_watches(const api::GroupVersionResource& resource, sim::Duration hold);
  // Lists at resourceVersion "0" of `resource` served from the state `by` ago.
  void stale_reads(const api::GroupVersionResource& resource, sim::Duration by);
  void compact_now();
  // Removes the plan's rules from the server; the report still shows them, and how often they
  // fired, marked as cleared.
  void clear();

  struct Fired {
    std::string id;
    std::string description;  // "update widgets/status: 409 Conflict, p=0.5, ≤6 times"
    std::int64_t fired = 0;
  };
  std::vector<Fired> fired() const;
  // The report described above, one line per rule.
  std::string report() const;

  // Used by the builders.
  std::string add(fakeapi::FaultRule rule, std::string description);
  fakeapi::ApiServer& server() const { return *server_; }

  // Used by SimCluster, whose replicas tell the plan what their components saw: without
  // track_components() the report does not speak of tombstones and leadership.
  void track_components() { tracked_ = true; }
  // `process`'s informer of `resource` (plural) delivered the object `key` as a tombstone now.
  void note_tombstone(std::string process, std::string resource, std::string key);
  // `process` started (leading) or stopped leading `lock` ("<ns>/<name>") now.
  void note_leadership(std::string process, std::string lock, bool leading);

 private:
  friend class WatchFault;
  struct Rule {
    std::string id;
    std::string description;
    fakeapi::FaultKind kind{};  // value 0: kError
    std::string resource;  // plural; "" for any
    std::string process;   // "" for any
    std::size_t cut = 0;   // open watches ended when the rule was added
    std::optional<sim::Time> cut_at;
    bool cleared = false;
  };
  struct Compaction {
    sim::Time at{};
    std::int64_t revision = 0;
  };
  struct Tombstone {
    sim::Time at{};
    std::string process;
    std::string resource;
    std::string key;
  };
  struct LeadershipChange {
    sim::Time at{};
    std::string process;
    std::string lock;
    bool leading = false;
  };
  // The open watches of `resource` ended now for the rule `id`.
  void note_cut(const std::string& id, std::size_t cut);
  // The effect lines of a rule that fired (or cut watches) first at `since` (fault_plan_effects.cc).
  std::string effects(const Rule& rule, sim::Time since) const;
  std::string watch_effects(const Rule& rule, sim::Time since) const;
  std::string error_effects(const Rule& rule) const;
  std::string leadership_effects(const Rule& rule, sim::Time since) const;
  // "then 2 relists: widgets-0 (1), widgets-1 (1)" or "no relist after it", of any resource.
  std::string relists_since(sim::Time since) const;

  fakeapi::ApiServer* server_;
  std::vector<Rule> rules_;
  std::vector<Compaction> compactions_;
  bool tracked_ = false;
  // What the components saw, the latest kNotesKept of each (the oldest dropped, and counted).
  static constexpr std::size_t kNotesKept = 10'000;
  std::deque<Tombstone> tombstones_;
  std::deque<LeadershipChange> leadership_;
  std::int64_t notes_dropped_ = 0;
};

}  // namespace kubesim::testing

#endif  // KUBESIM_TESTING_FAULT_PLAN_H_
