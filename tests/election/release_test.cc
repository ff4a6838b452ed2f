// Releasing the lock as client-go's LeaderElector does (renew, release, tryRelease, Run), and
// kubesim's two release improvements, each off by default, that hide client-go's hazards.
#include "kubesim/election/leader_elector.h"

#include <gtest/gtest.h>

#include "tests/election/harness.h"

namespace kubesim::election::testing {
namespace {

// A single candidate that releases on cancel, started and leading for 10 s.
ClusterOptions one_releasing_candidate() {
  ClusterOptions o;
  o.candidates = 1;
  o.release_on_cancel = true;
  return o;
}

void lead_for_10s(Cluster& cl) {
  cl.start(0);
  cl.loop.run_until(Time{} + 10s);
}

TEST(ElectionReleaseTest, ReleaseOnCancelClearsTheHolderAndKeepsTheLease) {
  Cluster cl(one_releasing_candidate());
  lead_for_10s(cl);
  const auto transitions = lease_spec(cl)["leaseTransitions"];
  cl.candidates[0].stop();
  cl.loop.run_until(Time{} + 11s);
  ASSERT_EQ(cl.intervals.size(), 1u);
  // Stopping run's context cancels the leading context, its child, at once (client-go too).
  EXPECT_EQ(cl.intervals[0].end, Time{} + 10s);
  const auto spec = lease_spec(cl);
  EXPECT_EQ(spec["holderIdentity"], "");
  EXPECT_EQ(spec["leaseDurationSeconds"], 1);
  EXPECT_EQ(spec["leaseTransitions"], transitions);
}

TEST(ElectionReleaseTest, CrashedProcessDoesNotRelease) {
  Cluster cl(one_releasing_candidate());
  lead_for_10s(cl);
  cl.candidates[0].process->crash();
  cl.loop.run_until(Time{} + 20s);
  EXPECT_EQ(lease_spec(cl)["holderIdentity"], "candidate-0");
}

// The leader is stopped after another candidate took the Lease behind its back, before a
// renewal could have noticed, so its last observation still names itself. Returns the holder
// after the release.
std::string holder_after_a_stale_release(bool safe_release) {
  ClusterOptions o = one_releasing_candidate();
  o.safe_release = safe_release;
  o.latency_base = 100ms;
  Cluster cl(o);
  cl.start(0);
  cl.loop.run_until(Time{} + 5s);
  auto lease = cl.server.get(api::kLeases, kNamespace, kLockName, api::GetOptions()).value();
  auto taken = lease->edited([](nlohmann::json& j) { j["spec"]["holderIdentity"] = "intruder"; });
  EXPECT_TRUE(cl.server.update(api::kLeases, kNamespace, taken, api::UpdateOptions()).ok());
  EXPECT_TRUE(cl.candidates[0].elector->is_leader());
  cl.candidates[0].stop();
  cl.loop.run_until(Time{} + 10s);
  return lease_spec(cl)["holderIdentity"].get<std::string>();
}

TEST(ElectionReleaseTest, ReleaseClearsALockAnotherCandidateTookAsClientGoDoes) {
  // client-go's tryRelease: it reads the lock (refreshing the version it writes over) but checks
  // IsLeader, its last observation, so it writes the release over the intruder's record.
  EXPECT_EQ(holder_after_a_stale_release(false), "");
}

TEST(ElectionReleaseTest, ReleaseOnlyIfHolderLeavesALockSomebodyElseTookAlone) {
  EXPECT_EQ(holder_after_a_stale_release(true), "intruder");
}

// A Lease lock whose renewals fail (a 500 on every update naming a holder) once *failing is
// set, while its release, an update with an empty holder, goes through.
class RenewalFailingLock final : public ResourceLock {
 public:
  RenewalFailingLock(std::shared_ptr<ResourceLock> inner, std::shared_ptr<bool> failing)
      : inner_(std::move(inner)), failing_(std::move(failing)) {}
  sim::Task<api::Result<LockRecord>> get(sim::Context ctx) override { return inner_->get(std::move(ctx)); }
  sim::Task<api::Result<void>> create(sim::Context ctx, LeaderElectionRecord record) override {
    return inner_->create(std::move(ctx), std::move(record));
  }
  sim::Task<api::Result<void>> update(sim::Context ctx, LeaderElectionRecord record) override {
    if (*failing_ && !record.holder_identity.empty()) return failed();
    return inner_->update(std::move(ctx), std::move(record));
  }
  const std::string& identity() const override { return inner_->identity(); }
  std::string describe() const override { return inner_->describe(); }


 private:
  static sim::Task<api::Result<void>> failed() { co_return api::new_internal_error("renewals fail"); }

  std::shared_ptr<ResourceLock> inner_;
  std::shared_ptr<bool> failing_;
};

struct RenewalFailure {
  Time leadership_end;
  Time release_written;  // the released record's renewTime: when the release was sent
};

RenewalFailure renewal_failure(bool safe_release) {
  ClusterOptions o = one_releasing_candidate();
  o.safe_release = safe_release;
  o.latency_base = 50ms;
  auto failing = std::make_shared<bool>(false);
  o.make_lock = [failing](api::Client& client, const std::string& id, int, int) {
    return std::make_shared<RenewalFailingLock>(
        std::make_shared<LeaseLock>(client, kNamespace, kLockName, ResourceLockConfig(id)), failing);
  };
  Cluster cl(o);
  cl.start(0);
  cl.loop.run_until(Time{} + 5s);
  *failing = true;  // the elector that runs next cannot take the lock again either
  cl.loop.run_until(Time{} + 30s);
  RenewalFailure out{};
  EXPECT_EQ(cl.intervals.size(), 1u);
  if (cl.intervals.empty() || !cl.intervals[0].end) return out;
  out.leadership_end = *cl.intervals[0].end;
  const auto spec = lease_spec(cl);
  EXPECT_EQ(spec["holderIdentity"], "");
  EXPECT_TRUE(sim::parse_rfc3339(spec["renewTime"].get<std::string>(), out.release_written));
  return out;
}

TEST(ElectionReleaseTest, AfterAFailedRenewalLeaderWorkOverlapsTheReleaseAsInClientGo) {
  // client-go's renew releases the lock when its loop ends; the context given to
  // OnStartedLeading is cancelled only afterwards, by Run's deferred cancel. The leader's work
  // therefore runs on until the release's get and update have come back.
  const RenewalFailure f = renewal_failure(false);
  EXPECT_GT(f.leadership_end, f.release_written);
}

TEST(ElectionReleaseTest, CancelBeforeReleaseEndsLeadershipBeforeTheReleaseIsSent) {
  const RenewalFailure f = renewal_failure(true);
  EXPECT_LT(f.leadership_end, f.release_written);
}

}  // namespace
}  // namespace kubesim::election::testing
