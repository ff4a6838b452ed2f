// Manager::start: without an election the controllers run at once; with one, of two managers
// only the leader runs its controllers and is told so, the other takes over when the leader
// crashes, and a leader that loses its Lease returns from start().
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture.h"
#include "kubesim/election/lease_lock.h"
#include "kubesim/controller/builder.h"

namespace kubesim::controller {
namespace {

using namespace controller_test;  // NOLINT: the fixture, its helpers and chrono literals

ManagerOptions elected() {
  ManagerOptions options;
  options.leader_election = LeaderElection("kube-system", "widgets");
  return options;
}

std::set<std::string> reconciled_by(const Fixture& f) {
  std::set<std::string> who;
  for (const auto& r : f.log) who.insert(r.process);
  return who;
}

TEST(ManagerStartTest, WithoutElectionRunsAtOnceAndTellsNoLeadership) {
  Fixture f;
  f.widget("w1", 0);
  Replica& r = f.run([&f](Manager& m) { ControllerBuilder(m).for_(kWidgets).reconcile(log_reconciles(f)); });
  f.loop.run_for(1s);
  EXPECT_EQ(f.reconciles("shop/w1"), 1u);
  EXPECT_TRUE(r.leadership.empty());
  r.process->crash();
  f.loop.run_for(1s);
  EXPECT_EQ(r.returned, 1);
}

sim::Task<ReconcileResult> boom(ReconcileContext, ReconcileRequest) {
  throw std::runtime_error("boom");
  co_return ReconcileResult::done();
}

TEST(ManagerStartTest, AReconcileThatThrowsStopsEveryControllerAndStartRethrows) {
  Fixture f;
  f.widget("w1", 0);
  Replica& r = f.run([&f](Manager& m) {
    ControllerBuilder(m).for_(api::kConfigMaps).reconcile(log_reconciles(f, ReconcileResult::requeue_after(1s)));
    ControllerBuilder(m).for_(kWidgets).reconcile(boom);
  });
  f.config_map("c1");
  try {
    f.loop.run_for(10s);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom");
  }
  const std::size_t before = f.reconciles("shop/c1");
  f.loop.run_for(10s);
  EXPECT_EQ(f.reconciles("shop/c1"), before);  // the other controller stopped too
  EXPECT_EQ(r.returned, 0);
  EXPECT_EQ(r.manager, nullptr);
}

class ElectedPair : public ::testing::Test {
 protected:
  ElectedPair() {
    f_.widget("w1", 0);
    Fixture* fp = &f_;
    for (int i = 0; i < 2; ++i) {
      f_.start(f_.add_replica([fp](Manager& m) { ControllerBuilder(m).for_(kWidgets).reconcile(log_reconciles(*fp)); },
                              elected()));
    }
    f_.loop.run_for(30s);
  }
  int leader() const {
    for (int i = 0; i < 2; ++i) {
      const auto& l = f_.replicas[static_cast<std::size_t>(i)]->leadership;
      if (!l.empty() && l.back()) return i;
    }
    return -1;
  }
  std::string lease_holder() {
    auto lease = f_.get(api::kLeases, "kube-system", "widgets");
    return lease ? lease->value_at("spec.holderIdentity").get<std::string>() : "";
  }

  Fixture f_;
};

TEST_F(ElectedPair, OnlyTheLeaderRunsItsControllers) {
  const int l = leader();
  ASSERT_GE(l, 0);
  const std::string name = "manager-" + std::to_string(l);
  EXPECT_EQ(lease_holder(), name);
  EXPECT_EQ(f_.replicas[static_cast<std::size_t>(l)]->leadership, std::vector<bool>{true});
  EXPECT_TRUE(f_.replicas[static_cast<std::size_t>(1 - l)]->leadership.empty());
  f_.update(kWidgets, f_.get(kWidgets, "shop", "w1")->with_value_at("spec.replicas", 3));
  f_.loop.run_for(10s);
  EXPECT_EQ(f_.reconciles("shop/w1"), 2u);
  EXPECT_EQ(reconciled_by(f_), std::set<std::string>{name});
}

TEST_F(ElectedPair, TheOtherTakesOverWhenTheLeaderCrashes) {
  const int l = leader();
  ASSERT_GE(l, 0);
  const std::size_t other = static_cast<std::size_t>(1 - l);
  f_.replicas[static_cast<std::size_t>(l)]->process->crash();
  f_.loop.run_for(1min);
  EXPECT_EQ(leader(), static_cast<int>(other));
  EXPECT_EQ(f_.replicas[other]->leadership, std::vector<bool>{true});
  EXPECT_EQ(lease_holder(), "manager-" + std::to_string(other));
  EXPECT_EQ(reconciled_by(f_), (std::set<std::string>{"manager-0", "manager-1"}));
}

TEST_F(ElectedPair, ALeaderThatLosesItsLeaseReturnsFromStart) {
  const int l = leader();
  ASSERT_GE(l, 0);
  Replica& r = *f_.replicas[static_cast<std::size_t>(l)];
  // Another holder takes the Lease behind the leader's back, and keeps renewing it.
  for (int i = 0; i < 20; ++i) {
    auto lease = f_.get(api::kLeases, "kube-system", "widgets");
    f_.update(api::kLeases,
              lease->with_value_at("spec.holderIdentity", "intruder")
                  ->with_value_at("spec.renewTime", "2030-01-01T00:00:0" + std::to_string(i % 10) + ".000000Z"));
    f_.loop.run_for(1s);
  }
  EXPECT_EQ(r.leadership, (std::vector<bool>{true, false}));
  EXPECT_EQ(r.returned, 1);
  EXPECT_TRUE(r.process->alive());
  EXPECT_EQ(r.manager, nullptr);
}

}  // namespace
}  // namespace kubesim::controller
