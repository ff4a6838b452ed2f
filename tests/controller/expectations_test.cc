// Expectations on a virtual clock: what satisfies a key, lowering (below zero included), the
// 5-minute TTL, remove(), and the record pending() shows.
#include "kubesim/controller/expectations.h"

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/loop.h"

namespace kubesim::controller {
namespace {

using namespace std::chrono_literals;

struct Case {
  std::string name;
  std::function<void(Expectations&, sim::Loop&)> steps;
  bool satisfied;
};

class ExpectationsCases : public ::testing::TestWithParam<Case> {};

TEST_P(ExpectationsCases, Satisfied) {
  sim::Loop loop;
  sim::Clock clock(loop);
  Expectations e(clock);
  GetParam().steps(e, loop);
  EXPECT_EQ(e.satisfied("shop/w"), GetParam().satisfied);
}

INSTANTIATE_TEST_SUITE_P(
    All, ExpectationsCases,
    ::testing::Values(
        Case{"NeverSet", [](Expectations&, sim::Loop&) {}, true},
        Case{"CreationsPending", [](Expectations& e, sim::Loop&) { e.expect_creations("shop/w", 2); }, false},
        Case{"CreationsPartlyObserved",
             [](Expectations& e, sim::Loop&) {
               e.expect_creations("shop/w", 2);
               e.creation_observed("shop/w");
             },
             false},
        Case{"CreationsAllObserved",
             [](Expectations& e, sim::Loop&) {
               e.expect_creations("shop/w", 2);
               e.creation_observed("shop/w");
               e.creation_observed("shop/w");
             },
             true},
        Case{"LoweredBelowZero",
             [](Expectations& e, sim::Loop&) {
               e.expect_creations("shop/w", 1);
               for (int i = 0; i < 3; ++i) e.creation_observed("shop/w");
             },
             true},
        Case{"DeletionsPending", [](Expectations& e, sim::Loop&) { e.expect_deletions("shop/w", 1); }, false},
        Case{"DeletionsObserved",
             [](Expectations& e, sim::Loop&) {
               e.expect_deletions("shop/w", 1);
               e.deletion_observed("shop/w");
             },
             true},
        Case{"CreationDoesNotLowerDeletions",
             [](Expectations& e, sim::Loop&) {
               e.expect_deletions("shop/w", 1);
               e.creation_observed("shop/w");
             },
             false},
        Case{"OtherKeyUntouched",
             [](Expectations& e, sim::Loop&) {
               e.expect_creations("shop/w", 1);
               e.creation_observed("shop/other");
             },
             false},
        Case{"NewExpectationReplacesOld",
             [](Expectations& e, sim::Loop&) {
               e.expect_creations("shop/w", 3);
               e.expect_deletions("shop/w", 0);
             },
             true},
        Case{"Removed",
             [](Expectations& e, sim::Loop&) {
               e.expect_creations("shop/w", 3);
               e.remove("shop/w");
             },
             true},
        Case{"WithinTtl",
             [](Expectations& e, sim::Loop& loop) {
               e.expect_creations("shop/w", 1);
               loop.run_for(5min);
             },
             false},
        Case{"PastTtl",
             [](Expectations& e, sim::Loop& loop) {
               e.expect_creations("shop/w", 1);
               loop.run_for(5min + 1ns);
             },
             true},
        Case{"TtlCountsFromTheLastSet",
             [](Expectations& e, sim::Loop& loop) {
               e.expect_creations("shop/w", 1);
               loop.run_for(4min);
               e.expect_creations("shop/w", 1);
               loop.run_for(4min);
             },
             false}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(ExpectationsTest, PendingShowsTheRecord) {
  sim::Loop loop;
  sim::Clock clock(loop);
  Expectations e(clock, 1min);
  EXPECT_EQ(e.pending("shop/w"), nullptr);
  loop.run_for(7s);
  e.expect_creations("shop/w", 2);
  e.creation_observed("shop/w");
  const Expectations::Pending* p = e.pending("shop/w");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->add, 1);
  EXPECT_EQ(p->del, 0);
  EXPECT_EQ(p->set_at, clock.now());
  // Lowering a key with no record makes none.
  e.deletion_observed("shop/none");
  EXPECT_EQ(e.pending("shop/none"), nullptr);
  // A custom TTL.
  loop.run_for(1min + 1ns);
  EXPECT_TRUE(e.satisfied("shop/w"));
}

}  // namespace
}  // namespace kubesim::controller
