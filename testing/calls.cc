#include "kubesim/testing/calls.h"

#include <utility>
#include <vector>

namespace kubesim::testing {

using fakeapi::RecordedCall;

// How many matching calls a CallCount failure lists, and how many of the log's last calls it
// shows when none matches.
constexpr std::size_t kListed = 10;

namespace {

class CallCountMatcher final : public ::testing::MatcherInterface<const CallLog&> {
 public:
  CallCountMatcher(CallPattern pattern, ::testing::Matcher<std::size_t> count)
      : pattern_(std::move(pattern)), count_(std::move(count)) {}

  bool MatchAndExplain(const CallLog& log, ::testing::MatchResultListener* listener) const override {
    const std::vector<RecordedCall> calls = log.matching(pattern_);
    ::testing::StringMatchResultListener inner;
    const bool matched = count_.MatchAndExplain(calls.size(), &inner);
    if (calls.empty()) {
      *listener << "no call matches";
    } else {
      *listener << calls.size() << " call" << (calls.size() == 1 ? " matches" : "s match");
    }
    if (!inner.str().empty()) *listener << " (" << inner.str() << ")";
    if (calls.empty()) {
      if (log.empty()) {
        *listener << "; the log is empty";
      } else {
        *listener << "; the last calls of the log:\n" << log.format(kListed, "  ");
      }
      return matched;
    }
    *listener << ":\n" << CallLog(calls).format(kListed, "  ");
    return matched;
  }
  void DescribeTo(std::ostream* os) const override {
    *os << "the count of " << pattern_.describe() << " calls ";
    count_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const override {
    *os << "the count of " << pattern_.describe() << " calls ";
    count_.DescribeNegationTo(os);
  }

 private:
  CallPattern pattern_;
  ::testing::Matcher<std::size_t> count_;
};

}  // namespace

::testing::Matcher<const CallLog&> CallCount(CallPattern pattern, ::testing::Matcher<std::size_t> count) {
  return ::testing::MakeMatcher(new CallCountMatcher(std::move(pattern), std::move(count)));
}

}  // namespace kubesim::testing
