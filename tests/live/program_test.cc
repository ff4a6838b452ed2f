#include "live/internal/program.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "tests/tools/stubs.h"

namespace kubesim::live {
namespace {

using tools::testing::ScratchDir;
using namespace std::chrono_literals;

TEST(Program, FindsAWordInPathAsExecvpDoes) {
  ScratchDir dir;
  const std::string script = dir.write("bin/tool", "#!/bin/sh\nexit 0\n");
  ::chmod(script.c_str(), 0755);
  dir.write("bin/plain", "not executable");
  const Program p = find_program("tool", "/", "/nonexistent:" + dir.path("bin"));
  EXPECT_EQ(p.kind, ProgramKind::kScript);
  EXPECT_EQ(p.path, script);
  EXPECT_EQ(find_program("plain", "/", dir.path("bin")).kind, ProgramKind::kMissing);
  EXPECT_EQ(find_program("nothing", "/", dir.path("bin")).kind, ProgramKind::kMissing);
  EXPECT_EQ(find_program("", "/", dir.path("bin")).kind, ProgramKind::kMissing);
}

TEST(Program, APathWithASlashStartsAtTheWorkingDirectory) {
  ScratchDir dir;
  const std::string script = dir.write("ctl/run.sh", "#!/bin/sh\n");
  ::chmod(script.c_str(), 0755);
  EXPECT_EQ(find_program("ctl/run.sh", dir.path(""), "/usr/bin").kind, ProgramKind::kScript);
  EXPECT_EQ(find_program("./ctl/run.sh", dir.path(""), "").kind, ProgramKind::kScript);
  EXPECT_EQ(find_program("ctl/run.sh", "/", "/usr/bin").kind, ProgramKind::kMissing);
}

TEST(Program, TellsDynamicFromStaticBinaries) {
  EXPECT_EQ(find_program("sh", "/", "/bin:/usr/bin").kind, ProgramKind::kDynamic);
  const Program ldconfig = find_program("ldconfig", "/", "/sbin:/usr/sbin");
  if (ldconfig.kind == ProgramKind::kMissing) GTEST_SKIP() << "no ldconfig";
  EXPECT_EQ(ldconfig.kind, ProgramKind::kStatic);
  EXPECT_EQ(faketime_obstacle(ldconfig),
            ldconfig.path + " is statically linked: libfaketime (LD_PRELOAD) cannot change its clock");
}

TEST(Program, GoBinariesAndMissingProgramsCannotBeFaked) {
  EXPECT_EQ(faketime_obstacle(Program{ProgramKind::kGo, "/bin/ctl"}),
            "/bin/ctl is a Go binary: Go reads the clock without the C library, so libfaketime cannot change it");
  EXPECT_EQ(faketime_obstacle(Program{ProgramKind::kMissing, ""}), "the program is not found");
  if (!faketime_library().empty()) {
    EXPECT_EQ(faketime_obstacle(Program{ProgramKind::kScript, "/x.py"}), std::nullopt);
    EXPECT_EQ(faketime_obstacle(Program{ProgramKind::kDynamic, "/bin/sh"}), std::nullopt);
  }
}

TEST(Program, AClockDiffersWithASkewOrDriftRangeOrASkewEvent) {
  scenarios::Scenario s;
  scenarios::ProcessSpec p;
  p.name = "op";
  p.replicas = 2;
  EXPECT_FALSE(clock_differs(s, p, "op-0"));
  scenarios::TimelineEvent step;
  step.action = scenarios::SkewEvent{"op-1", 2s};
  s.timeline.push_back(step);
  EXPECT_FALSE(clock_differs(s, p, "op-0"));
  EXPECT_TRUE(clock_differs(s, p, "op-1"));
  p.clock.skew = {-1s, 0s};
  EXPECT_TRUE(clock_differs(s, p, "op-0"));
  p.clock.skew = {};
  p.clock.drift = {0, 0.01};
  EXPECT_TRUE(clock_differs(s, p, "op-0"));
}

TEST(Program, TheFaketimeSpecIsAnOffsetAndARate) {
  EXPECT_EQ(faketime_spec(0s, 1.0), "+0.000000s x1.000000");
  EXPECT_EQ(faketime_spec(1500ms, 1.01), "+1.500000s x1.010000");
  EXPECT_EQ(faketime_spec(-30min, 0.99), "-1800.000000s x0.990000");
}

}  // namespace
}  // namespace kubesim::live
