#include "kubesim/cluster/call_budget.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <sstream>
#include <utility>

#include "kubesim/cluster/format.h"

namespace kubesim::cluster {

namespace {

constexpr sim::Duration kSecond = std::chrono::seconds(1);

// The calls that show `pattern` watched something: its process (or group) on its resource.
CallPattern subject_of_pattern(const CallPattern& pattern) {
  CallPattern s = pattern.any_resource() ? AnyCall() : AnyCall(pattern.resource());
  if (!pattern.process().empty()) s.by(pattern.process());
  if (!pattern.group().empty()) s.by_group(pattern.group());
  return s;
}

std::string calls_text(std::int64_t n) { return std::to_string(n) + (n == 1 ? " call" : " calls"); }

}  // namespace

CallBudget::CallBudget(Kind kind, CallPattern pattern, std::int64_t limit)
    : kind_(kind), pattern_(std::move(pattern)), subject_(subject_of_pattern(pattern_)), limit_(limit) {
  assert(limit >= 0);
}

CallBudget CallBudget::at_most(CallPattern pattern, std::int64_t n) { return CallBudget(Kind::kAtMost, std::move(pattern), n); }

CallBudget CallBudget::per_second(CallPattern pattern, std::int64_t r) {
  return CallBudget(Kind::kPerSecond, std::move(pattern), r);
}

void CallBudget::follow(const CallLog& log) {
  const std::size_t n = log.size();
  if (n == 0) return;
  const std::uint64_t first = log[0].seq;
  const std::uint64_t last = log[n - 1].seq;
  if (last <= last_seq_) return;
  std::size_t from = 0;
  if (first > last_seq_ + 1) {
    missed_ += first - (last_seq_ + 1);
  } else {
    from = static_cast<std::size_t>(last_seq_ + 1 - first);
  }
  for (std::size_t i = from; i < n; ++i) add(log[i]);
}

void CallBudget::add(const fakeapi::RecordedCall& call) {
  if (call.seq <= last_seq_) return;
  last_seq_ = call.seq;
  if (!active_ && subject_.matches(call)) active_ = true;
  if (!pattern_.matches(call)) return;
  ++count_;
  if (last_.size() == kShown) last_.erase(last_.begin());
  last_.push_back(call);
  if (kind_ == Kind::kAtMost) {
    if (!breach_ && count_ > limit_) breach_ = Breach{call.answered, 0, {}, last_};
    return;
  }
  // The calls answered in (t − 1 s, t].
  while (!window_.empty() && window_.front() <= call.answered - kSecond) window_.pop_front();
  window_.push_back(call.answered);
  const auto in_window = static_cast<std::int64_t>(window_.size());
  if (in_window > busiest_) busiest_ = in_window;
  if (!breach_ && in_window > limit_) breach_ = Breach{call.answered, in_window, window_.front(), last_};
}

std::optional<sim::Time> CallBudget::broken_at() const {
  if (!breach_) return std::nullopt;
  return breach_->at;
}

std::string CallBudget::describe() const {
  return "at most " + calls_text(limit_) + (kind_ == Kind::kPerSecond ? " a second" : "") + " of " + pattern_.describe();
}

std::string CallBudget::shown(const std::vector<fakeapi::RecordedCall>& calls) const {
  std::ostringstream os;
  for (const fakeapi::RecordedCall& call : calls) {
    os << "\n  ";
    fakeapi::PrintTo(call, &os);
  }
  return os.str();
}

std::optional<std::string> CallBudget::why() const {
  if (!breach_) return std::nullopt;
  std::string out;
  if (kind_ == Kind::kAtMost) {
    out = calls_text(count_) + " of " + pattern_.describe() + ", at most " + std::to_string(limit_) + " allowed";
    // Judged later than the call that broke it (a finally): say when that was.
    if (count_ > limit_ + 1) out += " (over from call " + std::to_string(limit_ + 1) + ", at " + format_instant(breach_->at) + ")";
    out += "; the last " + std::to_string(last_.size()) + ":" + shown(last_);
  } else {
    const auto shown_calls = std::min<std::size_t>(breach_->last.size(), static_cast<std::size_t>(breach_->in_window));
    const std::vector<fakeapi::RecordedCall> of_window(breach_->last.end() - static_cast<std::ptrdiff_t>(shown_calls),
                                                       breach_->last.end());
    out = calls_text(breach_->in_window) + " of " + pattern_.describe() + " within one second, from " +
          format_instant(breach_->window_from) + " to " + format_instant(breach_->at) + ", at most " +
          std::to_string(limit_) + " a second allowed";
    if (busiest_ > breach_->in_window) out += " (the busiest second held " + std::to_string(busiest_) + ")";
    out += "; the last " + std::to_string(of_window.size()) + " of them:" + shown(of_window);
  }
  if (missed_ > 0) {
    out += "\n(" + calls_text(static_cast<std::int64_t>(missed_)) +
           " left the log before the budget read them: the count may be low)";
  }
  return out;
}

}  // namespace kubesim::cluster
