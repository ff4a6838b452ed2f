// The coroutine frame pool: freed frames of a size class are handed out again, on the thread
// that freed them; sizes of another class, and frames too large to keep, are not.
#include "kubesim/sim/detail/frame_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "kubesim/sim/loop.h"
#include "kubesim/sim/task.h"

namespace kubesim::sim::internal {
namespace {

TEST(FramePool, AFreedFrameIsReusedForASizeOfItsClass) {
  void* first = allocate_frame(100);
  free_frame(first, 100);
  void* again = allocate_frame(120);  // 100 and 120 bytes are both in the 65…128 class
  EXPECT_EQ(again, first);
  std::memset(again, 0xab, 120);  // all of it is usable
  free_frame(again, 120);
}

TEST(FramePool, FramesAreReusedLastFreedFirst) {
  void* a = allocate_frame(200);
  void* b = allocate_frame(200);
  free_frame(a, 200);
  free_frame(b, 200);
  EXPECT_EQ(allocate_frame(200), b);
  EXPECT_EQ(allocate_frame(200), a);
  free_frame(a, 200);
  free_frame(b, 200);
}

TEST(FramePool, AnotherClassGetsOtherStorage) {
  void* small = allocate_frame(64);
  free_frame(small, 64);
  void* larger = allocate_frame(65);
  EXPECT_NE(larger, small);
  void* same = allocate_frame(1);
  EXPECT_EQ(same, small);
  free_frame(larger, 65);
  free_frame(same, 1);
}

TEST(FramePool, LargeFramesAreNotKept) {
  // 2 KiB is the largest kept size; a larger frame comes from and goes to the global allocator.
  void* kept = allocate_frame(2048);
  free_frame(kept, 2048);
  EXPECT_EQ(allocate_frame(2048), kept);
  free_frame(kept, 2048);
  void* large = allocate_frame(4096);
  std::memset(large, 0, 4096);
  free_frame(large, 4096);
}

TEST(FramePool, EachThreadKeepsItsOwnFrames) {
  void* mine = allocate_frame(300);
  free_frame(mine, 300);
  void* theirs = nullptr;
  std::thread other([&] {
    theirs = allocate_frame(300);
    free_frame(theirs, 300);
  });
  other.join();
  EXPECT_NE(theirs, mine);
  EXPECT_EQ(allocate_frame(300), mine);
  free_frame(mine, 300);
}

TEST(FramePool, AFrameFreedOnAnotherThreadIsKeptThere) {
  void* frame = allocate_frame(500);
  void* reused = nullptr;
  std::thread other([frame, &reused] {
    free_frame(frame, 500);
    reused = allocate_frame(500);
    free_frame(reused, 500);
  });
  other.join();
  EXPECT_EQ(reused, frame);
}

Task<int> leaf(int x) { co_return x + 1; }

Task<int> chain(int depth) {
  int total = 0;
  for (int i = 0; i < depth; ++i) total += co_await leaf(i);
  co_return total;
}

TEST(FramePool, TasksRunOnRecycledFrames) {
  // Ten thousand nested awaits, each leaf's frame freed before the next leaf's is made.
  Loop loop;
  EXPECT_EQ(loop.run_until_complete(chain(10000)), 10000 * 9999 / 2 + 10000);
}

#if defined(__SANITIZE_ADDRESS__)
TEST(FramePoolDeathTest, AKeptFrameIsPoisoned) {
  void* frame = allocate_frame(100);
  free_frame(frame, 100);
  EXPECT_DEATH(static_cast<volatile char*>(frame)[8] = 1, "use-after-poison");
  void* again = allocate_frame(100);
  static_cast<volatile char*>(again)[8] = 1;  // handed out again: usable
  free_frame(again, 100);
}
#endif

}  // namespace
}  // namespace kubesim::sim::internal
