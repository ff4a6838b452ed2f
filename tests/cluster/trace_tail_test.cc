// TraceTail: every line on to every sink, the last N kept until frozen.
#include "kubesim/cluster/trace_tail.h"

#include <sstream>

#include <gtest/gtest.h>

namespace kubesim::cluster {
namespace {

TEST(TraceTailTest, ForwardsEverythingAndKeepsTheLastLines) {
  std::ostringstream out;
  TraceTail tail(2);
  tail.add_sink(&out);
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
  TraceTail none(0);
  none.add_sink(nullptr);
  EXPECT_EQ(none.stream(), nullptr);
  TraceTail ring(3);
  ASSERT_NE(ring.stream(), nullptr);
  *ring.stream() << "a\nb\n";
  EXPECT_EQ(ring.lines(), (std::vector<std::string>{"a", "b"}));
}

TEST(TraceTailTest, EverySinkGetsEveryByteAndTheRingWrapsInPlace) {
  std::ostringstream a;
  std::ostringstream b;
  TraceTail tail(3);
  tail.add_sink(&a);
  tail.add_sink(&b);
  for (int i = 0; i < 7; ++i) *tail.stream() << "line " << i << "\n";
  EXPECT_EQ(a.str(), b.str());
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"line 4", "line 5", "line 6"}));
  EXPECT_FALSE(tail.frozen());
}

TEST(TraceTailTest, WithoutARingItOnlyForwards) {
  std::ostringstream out;
  TraceTail tail(0);
  tail.add_sink(&out);
  ASSERT_NE(tail.stream(), nullptr);
  *tail.stream() << "a\nb";
  EXPECT_EQ(out.str(), "a\nb");
  EXPECT_TRUE(tail.lines().empty());
}

}  // namespace
}  // namespace kubesim::cluster
