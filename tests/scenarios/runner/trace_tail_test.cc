// TraceTail: every line on to the caller's stream, the last N kept until frozen.
#include "scenarios/internal/run_trace.h"

#include <sstream>

#include <gtest/gtest.h>

namespace kubesim::scenarios::runner {
namespace {

TEST(TraceTailTest, ForwardsEverythingAndKeepsTheLastLines) {
  std::ostringstream out;
  TraceTail tail(&out, 2);
  std::ostream& s = *tail.stream();
  s << "one\n" << "two\n";
  s.write("thr", 3);
  s << "ee\nfour\n";
  EXPECT_EQ(out.str(), "one\ntwo\nthree\nfour\n");
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"three", "four"}));
  tail.freeze();
  s << "five\n";
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"three", "four"}));
  EXPECT_EQ(out.str(), "one\ntwo\nthree\nfour\nfive\n");
}

TEST(TraceTailTest, WithNothingToKeepOrForwardItHasNoStream) {
  TraceTail none(nullptr, 0);
  EXPECT_EQ(none.stream(), nullptr);
  TraceTail ring(nullptr, 3);
  ASSERT_NE(ring.stream(), nullptr);
  *ring.stream() << "a\nb\n";
  EXPECT_EQ(ring.lines(), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace kubesim::scenarios::runner
