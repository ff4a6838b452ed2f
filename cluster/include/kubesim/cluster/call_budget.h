// CallBudget: a limit on the API calls of a pattern (calls.h), judged call by call as the
// server's recorder logs them — at most N calls from the start of the run, or at most R calls in
// any one second. A controller's hot retry loop (an update re-sent every few milliseconds, a
// relist in a loop) breaks it at the call that spent the budget.
//
//   cluster::CallBudget budget = cluster::CallBudget::per_second(cluster::Update(api::kConfigMaps).by("ctl-0"), 20);
//   budget.follow(c.calls());   // after each call, or whenever; each call counts once
//   if (auto why = budget.why()) …
//
// What counts: every call the recorder logs that the pattern matches, whatever its answer (a
// failed call is a call; a request the client gave up on too), at the instant its answer left
// the server (RecordedCall::answered), the order of the log. A window of one second is
// half-open: the calls answered in (t − 1 s, t] for some instant t, so R + 1 calls break a
// per-second budget exactly when the first and the last of them are less than one second apart.
// Both budgets only grow spent: once broken, a budget stays broken (why() keeps saying so), so it
// is a check for every instant from the start of the run up to the one checked. The fixture's
// CallsAtMost and CallsPerSecond (kubesim/testing/conditions.h) and the scenario check `calls:`
// are built on it.
//
// It does not see calls the log dropped before it read them (a recorder keeps the last 100 k):
// those are counted in missed(), and why() says its count may be low. Reading each call once is
// by RecordedCall::seq, so follow() must always be given the same recorder's log.
#ifndef KUBESIM_CLUSTER_CALL_BUDGET_H_
#define KUBESIM_CLUSTER_CALL_BUDGET_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "kubesim/cluster/calls.h"
#include "kubesim/fakeapi/recorded_call.h"
#include "kubesim/sim/time.h"

namespace kubesim::cluster {

class CallBudget {
 public:
  // How many of the last matching calls a failure shows.
  static constexpr std::size_t kShown = 5;

  // At most `n` calls of `pattern` in all; n >= 0.
  static CallBudget at_most(CallPattern pattern, std::int64_t n);
  // At most `r` calls of `pattern` in any window of one second; r >= 0.
  static CallBudget per_second(CallPattern pattern, std::int64_t r);

  // Takes the calls of `log` not taken yet, oldest first.
  void follow(const CallLog& log);
  // Takes one call; a call not newer (by seq) than the last one taken is ignored.
  void add(const fakeapi::RecordedCall& call);

  // nullopt while every call taken kept the budget; else why not: the count (or the calls of
  // the second that broke it and their span), the pattern, the limit, and the last matching
  // calls with their times.
  std::optional<std::string> why() const;
  bool broken() const { return breach_.has_value(); }
  // When the call that broke it was answered.
  std::optional<sim::Time> broken_at() const;

  // The matching calls taken.
  std::int64_t count() const { return count_; }
  // The most matching calls in one window of a second so far (per_second budgets only; 0 for
  // at_most).
  std::int64_t busiest_second() const { return busiest_; }
  // Some call of subject() was taken: what the budget is about did call the server.
  bool active() const { return active_; }
  // The calls that show the budget watched something: any call by the pattern's process (or
  // group) on the pattern's resource, of any verb, namespace, name, subresource and outcome. A
  // budget kept while none was ever made held vacuously: the process never ran, or never used
  // the resource.
  const CallPattern& subject() const { return subject_; }
  const CallPattern& pattern() const { return pattern_; }
  // Calls the log dropped before they were taken.
  std::uint64_t missed() const { return missed_; }
  // "at most 50 calls of update configmaps by ctl-0", "at most 20 calls a second of …".
  std::string describe() const;

 private:
  enum class Kind { kAtMost, kPerSecond };
  struct Breach {
    sim::Time at{};
    std::int64_t in_window = 0;  // per_second: the calls of the window that broke it
    sim::Time window_from{};     // per_second: the first of them
    std::vector<fakeapi::RecordedCall> last;  // the last matching calls then, oldest first
  };

  CallBudget(Kind kind, CallPattern pattern, std::int64_t limit);
  std::string shown(const std::vector<fakeapi::RecordedCall>& calls) const;

  Kind kind_;
  CallPattern pattern_;
  CallPattern subject_;
  std::int64_t limit_;
  std::uint64_t last_seq_ = 0;  // of the last call taken
  std::uint64_t missed_ = 0;
  std::int64_t count_ = 0;
  std::int64_t busiest_ = 0;
  bool active_ = false;
  // per_second: when the matching calls of the last second were answered, oldest first; every
  // entry is later than the newest minus one second.
  std::deque<sim::Time> window_;
  std::vector<fakeapi::RecordedCall> last_;  // the last kShown matching calls, oldest first
  std::optional<Breach> breach_;
};

}  // namespace kubesim::cluster

#endif  // KUBESIM_CLUSTER_CALL_BUDGET_H_
