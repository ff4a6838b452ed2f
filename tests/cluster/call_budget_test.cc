// cluster/call_budget.h: budgets of calls over hand-built logs — where at_most and per_second
// break (the boundary of a second to the nanosecond), what they say, that each call counts once
// however often the log is followed, calls the log dropped, the subject that makes a budget
// non-vacuous; and per_second against a reference model over random call times.
#include "kubesim/cluster/call_budget.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "kubesim/api/resources.h"

namespace kubesim::cluster {
namespace call_budget_test {

using namespace std::chrono_literals;
using fakeapi::RecordedCall;
using fakeapi::Verb;

// The builder of hand-made logs: each call numbered in order, answered at `at`.
class Log {
 public:
  Log& add(sim::Duration at, Verb verb = Verb::kUpdate, std::string process = "ctl-0",
           api::GroupVersionResource resource = api::kConfigMaps, std::string name = "x", int code = 200) {
    RecordedCall c;
    c.seq = ++seq_;
    c.received = c.answered = sim::Time{} + at;
    c.verb = verb;
    c.process = std::move(process);
    c.resource = std::move(resource);
    c.ns = "ns1";
    c.name = std::move(name);
    c.code = code;
    calls_.push_back(std::move(c));
    return *this;
  }
  CallLog log() const { return CallLog(calls_); }
  // The last `n` calls only, as a recorder that dropped the older ones keeps them.
  CallLog last(std::size_t n) const { return CallLog(std::vector<RecordedCall>(calls_.end() - static_cast<std::ptrdiff_t>(n), calls_.end())); }
  const std::vector<RecordedCall>& calls() const { return calls_; }

 private:
  std::uint64_t seq_ = 0;
  std::vector<RecordedCall> calls_;
};

sim::Time at(sim::Duration d) { return sim::Time{} + d; }

TEST(CallBudgetTest, AtMostBreaksAtTheCallPastTheLimitAndStaysBroken) {
  CallBudget b = CallBudget::at_most(Update(api::kConfigMaps).by("ctl-0"), 2);
  Log log;
  log.add(1s).add(2s, Verb::kGet).add(3s, Verb::kUpdate, "ctl-1").add(4s);
  b.follow(log.log());
  EXPECT_FALSE(b.broken());
  EXPECT_EQ(b.count(), 2);
  log.add(5s);
  b.follow(log.log());
  ASSERT_TRUE(b.broken());
  EXPECT_EQ(b.broken_at(), at(5s));
  EXPECT_EQ(b.why(), "3 calls of update configmaps by ctl-0, at most 2 allowed; the last 3:\n"
                     "  1.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  4.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  5.000s ctl-0 update configmaps ns1/x → 200");
  // Judged later (a finally): the count now, when it broke, the last five.
  for (auto t : {6s, 7s, 8s}) log.add(t);
  b.follow(log.log());
  EXPECT_EQ(b.broken_at(), at(5s));
  EXPECT_EQ(b.why(), "6 calls of update configmaps by ctl-0, at most 2 allowed (over from call 3, at 5.000s); the last 5:\n"
                     "  4.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  5.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  6.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  7.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  8.000s ctl-0 update configmaps ns1/x → 200");
  EXPECT_EQ(b.describe(), "at most 2 calls of update configmaps by ctl-0");
}

TEST(CallBudgetTest, AtMostZeroBreaksAtTheFirstCall) {
  CallBudget b = CallBudget::at_most(Writes(api::kConfigMaps), 0);
  Log log;
  log.add(1s, Verb::kList);
  b.follow(log.log());
  EXPECT_FALSE(b.broken());
  log.add(2s, Verb::kDelete);
  b.follow(log.log());
  EXPECT_EQ(b.broken_at(), at(2s));
}

// R + 1 calls break a per-second budget exactly when the first and last are less than a second
// apart: (t − 1 s, t] holds a call answered at t − 1 s + 1 ns, not one at t − 1 s.
TEST(CallBudgetTest, PerSecondCountsTheCallsOfAHalfOpenSecond) {
  {
    CallBudget b = CallBudget::per_second(Update(api::kConfigMaps), 2);
    Log log;
    log.add(1s).add(1500ms).add(2s);  // 1 s apart: two windows
    b.follow(log.log());
    EXPECT_FALSE(b.broken());
    EXPECT_EQ(b.busiest_second(), 2);
  }
  {
    CallBudget b = CallBudget::per_second(Update(api::kConfigMaps), 2);
    Log log;
    log.add(1s).add(1500ms).add(2s - 1ns);  // 1 ns less than a second apart: one window
    b.follow(log.log());
    ASSERT_TRUE(b.broken());
    EXPECT_EQ(b.broken_at(), at(2s - 1ns));
    EXPECT_EQ(b.busiest_second(), 3);
    EXPECT_EQ(b.why(), "3 calls of update configmaps within one second, from 1.000s to 1.999s, at most 2 a second allowed; "
                       "the last 3 of them:\n"
                       "  1.000s ctl-0 update configmaps ns1/x → 200\n"
                       "  1.500s ctl-0 update configmaps ns1/x → 200\n"
                       "  1.999s ctl-0 update configmaps ns1/x → 200");
  }
  {
    // Calls at one instant are in one second.
    CallBudget b = CallBudget::per_second(AnyCall(), 1);
    Log log;
    log.add(3s).add(3s);
    b.follow(log.log());
    EXPECT_EQ(b.broken_at(), at(3s));
  }
}

TEST(CallBudgetTest, PerSecondNamesTheBusiestSecondWhenJudgedLater) {
  CallBudget b = CallBudget::per_second(AnyCall(api::kConfigMaps).by("ctl-0"), 1);
  Log log;
  log.add(0s).add(100ms);  // breaks with 2
  for (int i = 0; i < 7; ++i) log.add(5s + i * 10ms);  // 7 in a second later
  b.follow(log.log());
  EXPECT_EQ(b.broken_at(), at(100ms));
  EXPECT_EQ(b.busiest_second(), 7);
  EXPECT_EQ(b.why(), "2 calls of any call on configmaps by ctl-0 within one second, from 0.000s to 0.100s, at most 1 a "
                     "second allowed (the busiest second held 7); the last 2 of them:\n"
                     "  0.000s ctl-0 update configmaps ns1/x → 200\n"
                     "  0.100s ctl-0 update configmaps ns1/x → 200");
  EXPECT_EQ(b.describe(), "at most 1 call a second of any call on configmaps by ctl-0");
}

TEST(CallBudgetTest, EachCallCountsOnceHoweverOftenTheLogIsFollowed) {
  CallBudget b = CallBudget::at_most(Update(api::kConfigMaps), 10);
  Log log;
  log.add(1s).add(2s);
  b.follow(log.log());
  b.follow(log.log());
  b.add(log.calls()[1]);  // already taken
  log.add(3s);
  b.add(log.calls()[2]);
  b.follow(log.log());
  EXPECT_EQ(b.count(), 3);
  EXPECT_EQ(b.missed(), 0u);
}

TEST(CallBudgetTest, CallsTheLogDroppedBeforeTheyWereReadAreSaidToBeMissed) {
  CallBudget b = CallBudget::at_most(Update(api::kConfigMaps), 1);
  Log log;
  log.add(1s).add(2s).add(3s).add(4s);
  b.follow(log.last(2));  // calls 1 and 2 were dropped
  EXPECT_EQ(b.missed(), 2u);
  EXPECT_EQ(b.count(), 2);
  ASSERT_TRUE(b.why());
  EXPECT_NE(b.why()->find("\n(2 calls left the log before the budget read them: the count may be low)"), std::string::npos)
      << *b.why();
}

TEST(CallBudgetTest, ItsSubjectIsAnyCallOfItsProcessOnItsResource) {
  CallBudget b = CallBudget::at_most(Update(api::kConfigMaps).status().in("ns1").named("x").by_group("ctl").ok(), 5);
  EXPECT_EQ(b.subject().describe(), "any call on configmaps by any replica of ctl");
  Log log;
  log.add(1s, Verb::kList, "other-0");
  log.add(1s, Verb::kGet, "ctl-0", api::kSecrets);
  b.follow(log.log());
  EXPECT_FALSE(b.active());
  log.add(2s, Verb::kWatch, "ctl-1", api::kConfigMaps, "", 0);
  b.follow(log.log());
  EXPECT_TRUE(b.active());
  EXPECT_EQ(b.count(), 0);
  // A pattern without process or resource is about any call.
  EXPECT_EQ(CallBudget::at_most(Update(api::kConfigMaps).named("x"), 1).subject().describe(), "any call on configmaps");
  EXPECT_EQ(CallBudget::at_most(CallPattern({Verb::kUpdate}).by("ctl-0"), 1).subject().describe(), "any call by ctl-0");
}

TEST(CallBudgetTest, AGroupPatternMatchesEveryReplicaOfTheGroupOnly) {
  CallBudget b = CallBudget::at_most(Update(api::kConfigMaps).by_group("ctl"), 100);
  Log log;
  for (const char* p : {"ctl-0", "ctl-12", "ctl", "ctl-", "ctl-a", "ctl-0-1", "ctlx-0", "xctl-0", "other-0"}) log.add(1s, Verb::kUpdate, p);
  b.follow(log.log());
  EXPECT_EQ(b.count(), 2);
  EXPECT_EQ(b.pattern().describe(), "update configmaps by any replica of ctl");
}

// The most calls in any window of one second: for each call, those answered in [its time, its
// time + 1 s).
std::int64_t busiest_reference(const std::vector<sim::Duration>& times) {
  std::int64_t best = 0;
  for (sim::Duration from : times) {
    best = std::max<std::int64_t>(best, std::count_if(times.begin(), times.end(), [&](sim::Duration t) { return t >= from && t < from + 1s; }));
  }
  return best;
}

// The first call that ends a second holding more than r: with the calls before it, more than r
// answered less than a second before it or at once.
std::optional<sim::Duration> first_break_reference(const std::vector<sim::Duration>& times, std::int64_t r) {
  for (std::size_t i = 0; i < times.size(); ++i) {
    const auto in_second = std::count_if(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                         [&](sim::Duration t) { return times[i] - t < 1s; });
    if (in_second > r) return times[i];
  }
  return std::nullopt;
}

RC_GTEST_PROP(CallBudgetProperty, PerSecondAgreesWithTheBusiestSecondOfAReferenceModel, ()) {
  // Times in ms steps with repeats and exact one-second gaps likely, some off by a nanosecond.
  const auto steps = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 1200));
  const auto nudges = *rc::gen::container<std::vector<bool>>(steps.size(), rc::gen::arbitrary<bool>());
  const std::int64_t r = *rc::gen::inRange<std::int64_t>(0, 6);
  std::vector<sim::Duration> times;
  sim::Duration t{};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    t += std::chrono::milliseconds(steps[i] % 4 == 0 ? 0 : (steps[i] % 2 == 0 ? 1000 : steps[i] / 4));
    times.push_back(t + (nudges[i] ? 1ns : 0ns));
  }
  std::sort(times.begin(), times.end());  // a log is in answer order
  Log log;
  for (sim::Duration d : times) log.add(d);
  CallBudget b = CallBudget::per_second(Update(api::kConfigMaps), r);
  // Followed in pieces, as a check after each call does.
  for (std::size_t n = 1; n <= times.size(); n += 3) b.follow(CallLog(std::vector<RecordedCall>(log.calls().begin(), log.calls().begin() + static_cast<std::ptrdiff_t>(n))));
  b.follow(log.log());
  RC_ASSERT(b.count() == static_cast<std::int64_t>(times.size()));
  RC_ASSERT(b.busiest_second() == busiest_reference(times));
  const auto expected = first_break_reference(times, r);
  RC_ASSERT(b.broken() == expected.has_value());
  if (expected) RC_ASSERT(*b.broken_at() == at(*expected));
}

}  // namespace call_budget_test
}  // namespace kubesim::cluster
