#include "live/internal/child.h"

#include <thread>

#include <gtest/gtest.h>

#include "tests/tools/stubs.h"

namespace kubesim::live {
namespace {

using tools::testing::read_file;
using tools::testing::ScratchDir;

ChildSpec spec_of(const ScratchDir& dir, std::vector<std::string> argv) {
  ChildSpec spec;
  spec.argv = std::move(argv);
  spec.env = {"PATH=/usr/bin:/bin", "GREETING=hello"};
  spec.cwd = dir.path("");
  spec.stdout_path = dir.path("stdout");
  spec.stderr_path = dir.path("stderr");
  return spec;
}

TEST(Child, ACommandThatDoesNotExistIsAnErrorAtStart) {
  ScratchDir dir;
  Child child;
  EXPECT_EQ(child.start(spec_of(dir, {"kubesim-no-such-program"})),
            "cannot run \"kubesim-no-such-program\": No such file or directory");
  EXPECT_FALSE(child.running());
  EXPECT_EQ(child.start(spec_of(dir, {dir.path("stdout")})),
            "cannot run \"" + dir.path("stdout") + "\": Permission denied");
  EXPECT_EQ(child.start(spec_of(dir, {})), "cannot run \"\": no command");
}

TEST(Child, KillEndsTheProcessAndSaysHow) {
  ScratchDir dir;
  Child child;
  // The shell writes before it sleeps: by the time kill() returns it has run (or never will).
  ASSERT_EQ(child.start(spec_of(dir, {"sh", "-c", "echo $GREETING from $PWD; exec sleep 100"})), "");
  EXPECT_TRUE(child.running());
  EXPECT_FALSE(child.poll());
  child.kill();
  EXPECT_FALSE(child.running());
  EXPECT_EQ(child.exit_text(), "was killed by signal 9 (Killed)");
  child.kill();  // again: nothing to do
  EXPECT_EQ(child.exit_text(), "was killed by signal 9 (Killed)");
}

TEST(Child, OutputGoesToItsFilesAppendedOverRestarts) {
  ScratchDir dir;
  for (int i = 0; i < 2; ++i) {
    Child child;
    ASSERT_EQ(child.start(spec_of(dir, {"sh", "-c", "echo $GREETING; echo oops >&2; exit 3"})), "");
    while (!child.poll()) std::this_thread::yield();  // a process of its own: it ends by itself
    EXPECT_FALSE(child.running());
    EXPECT_EQ(child.exit_text(), "exited with status 3");
  }
  EXPECT_EQ(read_file(dir.path("stdout")), "hello\nhello\n");
  EXPECT_EQ(read_file(dir.path("stderr")), "oops\noops\n");
}

}  // namespace
}  // namespace kubesim::live
