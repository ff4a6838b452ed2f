// cluster::Leadership: terms per lock, open intervals and transitions.
#include "kubesim/cluster/leadership.h"

#include <chrono>

#include <gtest/gtest.h>

namespace kubesim::cluster {
namespace {

using namespace std::chrono_literals;

TEST(LeadershipTest, LocksAreAddedOnceAndFoundByText) {
  Leadership l;
  EXPECT_EQ(l.add_lock("leases/a/m"), 0u);
  EXPECT_EQ(l.add_lock("leases/a/n"), 1u);
  EXPECT_EQ(l.add_lock("leases/a/m"), 0u);
  EXPECT_EQ(l.find("leases/a/n"), 1u);
  EXPECT_EQ(l.find("leases/a/x"), std::nullopt);
  EXPECT_EQ(l.lock_count(), 2u);
}

TEST(LeadershipTest, TermsOpenAndCloseIntervalsOnEveryLockOfTheirElector) {
  Leadership l;
  const std::size_t lease = l.add_lock("leases/a/m");
  const std::size_t map = l.add_lock("configmaps/a/m");
  const sim::Time t0{};
  const std::size_t term = l.start({lease, map}, 0, "m-0", t0 + 1s);
  EXPECT_EQ(l.lock(lease).open.size(), 1u);
  EXPECT_EQ(l.lock(map).open.size(), 1u);
  EXPECT_EQ(l.locks_of(term), (std::vector<std::size_t>{lease, map}));
  l.end(term, t0 + 4s);
  l.end(term, t0 + 9s);  // a second end does nothing
  EXPECT_TRUE(l.lock(lease).open.empty());
  ASSERT_EQ(l.lock(map).intervals.size(), 1u);
  EXPECT_EQ(l.lock(map).intervals[0].from, t0 + 1s);
  EXPECT_EQ(l.lock(map).intervals[0].to, t0 + 4s);
}

TEST(LeadershipTest, ATransitionIsATermByAnotherReplicaThanThePrevious) {
  Leadership l;
  const std::size_t lock = l.add_lock("leases/a/m");
  const sim::Time t0{};
  l.end(l.start({lock}, 0, "m-0", t0), t0 + 1s);
  l.end(l.start({lock}, 0, "m-0", t0 + 2s), t0 + 3s);  // the same replica again: none
  const std::size_t overlap = l.start({lock}, 1, "m-1", t0 + 4s);
  const std::size_t split = l.start({lock}, 0, "m-0", t0 + 5s);  // two open at once
  EXPECT_EQ(l.lock(lock).open.size(), 2u);
  l.end(overlap, t0 + 6s);
  l.end(split, t0 + 6s);
  ASSERT_EQ(l.lock(lock).transitions.size(), 2u);
  EXPECT_EQ(l.lock(lock).transitions[0].from, "m-0");
  EXPECT_EQ(l.lock(lock).transitions[0].to, "m-1");
  EXPECT_EQ(l.lock(lock).transitions[1].at, t0 + 5s);
}

}  // namespace
}  // namespace kubesim::cluster
