#include "kubesim/cluster/leadership.h"

#include <algorithm>

namespace kubesim::cluster {

std::size_t Leadership::add_lock(const std::string& text) {
  if (auto id = find(text)) return *id;
  locks_.push_back(LockLeadership{text, {}, {}, std::nullopt, {}});
  return locks_.size() - 1;
}

std::optional<std::size_t> Leadership::find(std::string_view text) const {
  for (std::size_t i = 0; i < locks_.size(); ++i) {
    if (locks_[i].text == text) return i;
  }
  return std::nullopt;
}

std::size_t Leadership::start(const std::vector<std::size_t>& locks, std::size_t replica,
                              const std::string& name, sim::Time now) {
  Term term;
  term.locks = locks;
  for (std::size_t id : locks) {
    LockLeadership& lock = locks_[id];
    if (lock.last_replica && *lock.last_replica != replica) {
      lock.transitions.push_back(LeaderTransition{lock.intervals.back().name, name, now});
    }
    lock.last_replica = replica;
    lock.intervals.push_back(LeaderInterval{replica, name, now, std::nullopt});
    lock.open.push_back(lock.intervals.size() - 1);
    term.intervals.push_back(lock.intervals.size() - 1);
  }
  terms_.push_back(std::move(term));
  return terms_.size() - 1;
}

void Leadership::end(std::size_t term_id, sim::Time now) {
  Term& term = terms_[term_id];
  if (term.ended) return;
  term.ended = true;
  for (std::size_t i = 0; i < term.locks.size(); ++i) {
    LockLeadership& lock = locks_[term.locks[i]];
    lock.intervals[term.intervals[i]].to = now;
    std::erase(lock.open, term.intervals[i]);
  }
}

}  // namespace kubesim::cluster
