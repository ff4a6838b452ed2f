// A paused process (Process::pause: a long GC pause, SIGSTOP, a stopped VM) in an election: the
// way a real leader ends up leading after another candidate took the lock.
#include "tests/election/harness.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace kubesim::election::testing {
namespace {

struct Reply {
  std::optional<Time> at;
  bool not_found = false;
};

sim::Task<void> get_lease(Cluster* cl, sim::Context ctx, Reply* out) {
  auto got = co_await cl->candidates[0].client->get(ctx, api::kLeases, kNamespace, kLockName,
                                                     api::GetOptions());
  out->at = cl->loop.now();
  out->not_found = !got.ok() && api::is_not_found(got.status());
}

TEST(ElectionPauseTest, AReplyToARequestInFlightWaitsForThePause) {
  ClusterOptions o;
  o.candidates = 1;
  o.latency_base = 100ms;
  Cluster cl(o);
  Reply reply;
  cl.loop.spawn(get_lease(&cl, cl.candidates[0].process->context(), &reply));
  // The request reaches the server at 100 ms; its answer is on the way back when the pause starts.
  cl.at(Time{} + 150ms, [&cl] { cl.candidates[0].process->pause(1s); });
  cl.loop.run_until(Time{} + 2s);
  ASSERT_TRUE(reply.at.has_value());
  EXPECT_EQ(*reply.at, Time{} + 1150ms);
  EXPECT_TRUE(reply.not_found);
}

// Pauses whoever leads at 30 s for `pause`; returns the first instant two candidates led, if any.
std::optional<std::string> pause_the_leader(Duration pause) {
  ClusterOptions o;  // client-go's defaults: LD 15 s, RD 10 s, RP 2 s
  Cluster cl(o);
  cl.start_all();
  cl.loop.run_until(Time{} + 30s);
  int leader = -1;
  for (int i = 0; i < o.candidates; ++i) {
    if (cl.leading(i)) leader = i;
  }
  EXPECT_GE(leader, 0);
  if (leader < 0) return std::nullopt;
  cl.candidates[static_cast<std::size_t>(leader)].process->pause(pause);
  cl.loop.run_until(Time{} + 30s + pause + 1min);
  return cl.double_leader();
}

TEST(ElectionPauseTest, APauseLongerThanTheLeaseGivesTwoLeaders) {
  // client-go's renew times its renew deadline on the monotonic clock, which a stopped process
  // cannot act on: another candidate waits out the lease and takes over, and the paused leader,
  // when it runs again, still leads until its renewal round ends.
  const auto violation = pause_the_leader(15s + 10s);
  ASSERT_TRUE(violation.has_value());
  std::printf("%s\n", violation->c_str());
}

TEST(ElectionPauseTest, AShortPauseIsHarmless) {
  // The leader's last renewal was at most RP before the pause, and its round gives up RD after
  // it began: RP + RD + 1 s + δ < LD.
  EXPECT_EQ(pause_the_leader(1s), std::nullopt);
}

}  // namespace
}  // namespace kubesim::election::testing
