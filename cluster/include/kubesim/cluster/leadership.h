// Leadership: who believed it led each lock, when, in true virtual time — the record that
// leadership checks (at most one leader, transitions, leader for at least) read.
//
// A replica believes it leads from on_started_leading until its leading context is done; each
// such stretch is a term. A term holds every lock text its elector answers to (a MultiLock's two
// locks), so checks on either text see it. Per lock text the record keeps every interval, the
// intervals still open, and the transitions: a term started by a replica other than the one that
// started the previous term on that lock (the first term is not a transition).
#ifndef KUBESIM_CLUSTER_LEADERSHIP_H_
#define KUBESIM_CLUSTER_LEADERSHIP_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/sim/time.h"

namespace kubesim::cluster {

struct LeaderInterval {
  std::size_t replica = 0;  // the replica's index, as the caller numbers them
  std::string name;         // the replica's name
  sim::Time from{};
  std::optional<sim::Time> to;  // unset while it lasts
};

struct LeaderTransition {
  std::string from, to;
  sim::Time at{};
};

struct LockLeadership {
  std::string text;  // "leases/ns/name"
  std::vector<LeaderInterval> intervals;
  std::vector<std::size_t> open;  // indices into intervals, in start order
  std::optional<std::size_t> last_replica;
  std::vector<LeaderTransition> transitions;
};

class Leadership {
 public:
  // The id of the lock `text`, added when new.
  std::size_t add_lock(const std::string& text);
  std::optional<std::size_t> find(std::string_view text) const;
  const LockLeadership& lock(std::size_t id) const { return locks_[id]; }
  std::size_t lock_count() const { return locks_.size(); }

  // Starts a term of `replica` on `locks` at `now`; returns the term's id.
  std::size_t start(const std::vector<std::size_t>& locks, std::size_t replica, const std::string& name,
                    sim::Time now);
  // Ends the term (a second call does nothing).
  void end(std::size_t term, sim::Time now);
  const std::vector<std::size_t>& locks_of(std::size_t term) const { return terms_[term].locks; }

 private:
  struct Term {
    std::vector<std::size_t> locks;
    std::vector<std::size_t> intervals;  // parallel to locks
    bool ended = false;
  };
  std::vector<LockLeadership> locks_;
  std::vector<Term> terms_;
};

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_LEADERSHIP_H_
