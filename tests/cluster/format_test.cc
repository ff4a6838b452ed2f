// cluster::format_instant: an instant of a run as failure messages and call logs show it.
#include "kubesim/cluster/format.h"

#include <chrono>

#include <gtest/gtest.h>

namespace kubesim::cluster {
namespace {

using namespace std::chrono_literals;

TEST(FormatInstantTest, SecondsWithMillisecondsTruncated) {
  EXPECT_EQ(format_instant(sim::Time{}), "0.000s");
  EXPECT_EQ(format_instant(sim::Time{} + 12s + 345ms + 999us), "12.345s");
  EXPECT_EQ(format_instant(sim::Time{} + 2min), "120.000s");
  EXPECT_EQ(format_instant(sim::Time{} + 7ms), "0.007s");
}

}  // namespace
}  // namespace kubesim::cluster
