// Exact timing: with no faults, a fixed one-way latency of 5 ms and perfect clocks, the acquire,
// renew, expiry and renew-deadline instants are the ones computed by hand below. The only random
// numbers are the acquire loop's jitter draws; the test replays them from a copy of the Loop's Rng.
#include "tests/election/harness.h"
#include "tests/election/recording_client.h"

#include <gtest/gtest.h>

#include "kubesim/sim/backoff.h"

namespace kubesim::election::testing {
namespace {

constexpr Duration kLatency = 5ms;  // one way
constexpr Duration kRoundTrip = 2 * kLatency;

Time at(Duration d) { return Time{} + d; }

std::vector<Call> of(const std::vector<Call>& calls, const std::string& who, const std::string& verb) {
  std::vector<Call> out;
  for (const auto& c : calls) {
    if (c.who == who && c.verb == verb) out.push_back(c);
  }
  return out;
}

TEST(ElectionScheduleTest, AcquireRenewExpiryAndDeadlineMatchTheHandComputedSchedule) {
  std::vector<Call> calls;
  std::vector<std::unique_ptr<RecordingClient>> clients;
  ClusterOptions options;
  options.candidates = 2;
  options.latency_base = kLatency;
  options.latency_extra = 0ms;
  sim::Loop* loop = nullptr;
  options.make_lock = [&](api::Client& client, const std::string& id, int, int) {
    clients.push_back(std::make_unique<RecordingClient>(client, *loop, id, &calls));
    return std::make_shared<LeaseLock>(*clients.back(), kNamespace, kLockName, ResourceLockConfig(id));
  };
  Cluster cl(options);
  loop = &cl.loop;
  // The Lease exists, unheld, before anyone runs (creating it draws a uid from the Rng).
  ASSERT_TRUE(cl.server.create(api::kLeases, kNamespace,
                               api::make_object({{"apiVersion", "coordination.k8s.io/v1"},
                                                 {"kind", "Lease"},
                                                 {"metadata", {{"name", kLockName}, {"namespace", kNamespace}}}}),
                               api::CreateOptions()).ok());
  sim::Rng draws = cl.loop.rng();  // the jitter draws to come, in order
  const std::string a = "candidate-0", b = "candidate-1";

  // The schedule by hand. A starts at 0: one attempt (a get, then an update over the unheld
  // Lease) answered at 20 ms; it leads from then on. Renewal k (k = 0, 1, …) starts 2 s after
  // the previous answer, at 20 ms + k · 2.010 s, and is written 5 ms later. A crashes at 31 s,
  // so its last write lands at 20 ms + 15 · 2.010 s + 5 ms = 30.175 s.
  (void)sim::jitter(2s, kJitterFactor, draws);  // A's one draw, before its first attempt
  const Time last_write = at(30175ms);
  // B starts at 1 s; each attempt is a get answered 10 ms later, then a wait of
  // 2 s · [1, 2.2) drawn before it. B first sees A's last record with the first get served after
  // 30.175 s, and its lease expires 15 s after that answer; the first attempt starting at or
  // after the expiry takes over (get, update), and B leads 20 ms after that attempt started.
  Time attempt = at(1s);
  std::optional<Time> observed;
  std::vector<Time> expected_gets;
  for (;;) {
    expected_gets.push_back(attempt);
    if (observed && attempt >= *observed + 15s) break;
    if (!observed && attempt + kLatency > last_write) observed = attempt + kRoundTrip;
    attempt += kRoundTrip + sim::jitter(2s, kJitterFactor, draws);
  }
  const Time expiry = *observed + 15s;
  const Time takeover = expected_gets.back();
  const Time lead_b = takeover + 2 * kRoundTrip;
  // B renews at lead_b + k · 2.010 s. A partition from lead_b + 5 s stalls the renewal that
  // starts at lead_b + 6.030 s, and B stops leading exactly one renew deadline later.
  const Time partition = lead_b + 5s;
  const Time lost = lead_b + 6030ms + 10s;

  cl.start(0);
  cl.at(at(1s), [&] { cl.start(1); });
  cl.at(at(31s), [&] { cl.candidates[0].process->crash(); });
  cl.at(partition, [&] { cl.candidates[1].link->partition(); });
  cl.at(lost + 5s, [&] { cl.candidates[1].link->heal(); });
  cl.loop.run_until(lost + 1s);

  ASSERT_EQ(cl.intervals.size(), 2u);
  EXPECT_EQ(cl.intervals[0].candidate, 0);
  EXPECT_EQ(cl.intervals[0].start, at(20ms));
  EXPECT_EQ(cl.intervals[0].end, at(31s));  // the crash ends A's leadership at once
  const auto a_updates = of(calls, a, "update");
  ASSERT_EQ(a_updates.size(), 17u);  // the acquiring write and 16 renewals before the crash
  EXPECT_EQ(a_updates[0].sent, at(kRoundTrip));
  for (std::size_t k = 1; k < a_updates.size(); ++k) {
    EXPECT_EQ(a_updates[k].sent, at(20ms + static_cast<int>(k - 1) * (2s + kRoundTrip))) << "renewal " << k;
    EXPECT_EQ(a_updates[k].answered, a_updates[k].sent + kRoundTrip);
  }
  EXPECT_EQ(a_updates.back().sent + kLatency, last_write);

  const auto b_gets = of(calls, b, "get");
  ASSERT_GE(b_gets.size(), expected_gets.size());
  for (std::size_t i = 0; i < expected_gets.size(); ++i) {
    EXPECT_EQ(b_gets[i].sent, expected_gets[i]) << "B's attempt " << i;
  }
  EXPECT_GE(takeover, expiry);
  EXPECT_EQ(cl.intervals[1].candidate, 1);
  EXPECT_EQ(cl.intervals[1].start, lead_b);
  EXPECT_EQ(cl.intervals[1].end, lost);
  const auto b_updates = of(calls, b, "update");
  ASSERT_GE(b_updates.size(), 5u);
  EXPECT_EQ(b_updates[0].sent, takeover + kRoundTrip);  // the takeover
  for (std::size_t k = 1; k <= 4; ++k) {
    EXPECT_EQ(b_updates[k].sent, lead_b + static_cast<int>(k - 1) * (2s + kRoundTrip)) << "renewal " << k;
  }
  EXPECT_FALSE(b_updates[4].ok);
  EXPECT_EQ(b_updates[4].answered, lost);

  // The Lease tells the same story: B took it over from A (two transitions since it was
  // unheld), and its last renewal carries the instant that renewal started on B's clock.
  auto lease = cl.server.get(api::kLeases, kNamespace, kLockName, api::GetOptions());
  ASSERT_TRUE(lease.ok());
  const auto& spec = lease.value()->json()["spec"];
  EXPECT_EQ(spec["holderIdentity"], b);
  EXPECT_EQ(spec["leaseTransitions"], 2);
  EXPECT_EQ(spec["leaseDurationSeconds"], 15);
  EXPECT_EQ(spec["renewTime"], sim::format_rfc3339_micro(lead_b + 2 * (2s + kRoundTrip)));
  EXPECT_EQ(spec["acquireTime"], sim::format_rfc3339_micro(takeover));
  EXPECT_EQ(cl.candidates[1].new_leaders.front(), a);
}

}  // namespace
}  // namespace kubesim::election::testing
