#include "kubesim/sim/detail/frame_pool.h"

#include <new>

#ifdef KUBESIM_FRAME_POOL_POISONS
#include <sanitizer/asan_interface.h>
// A kept frame is poisoned: a coroutine used after its frame was freed is still reported.
#define KUBESIM_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define KUBESIM_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define KUBESIM_POISON(p, n) ((void)(p), (void)(n))
#define KUBESIM_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace kubesim::sim::internal {
namespace {

constexpr std::size_t kGranule = FrameLists::kGranule;
constexpr std::size_t kClasses = FrameLists::kClasses;

// Gives this thread's kept frames back when the thread ends; frames freed after that (by
// destructors that run later) go straight to the global allocator. Touched when a list gets
// its first frame, so that a thread that never keeps one registers nothing.
struct Reaper {
  ~Reaper() {
    FrameLists& l = frame_lists;
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (FrameLists::FreeFrame* f = l.head[c]) {
        KUBESIM_UNPOISON(f, (c + 1) * kGranule);
        l.head[c] = f->next;
        ::operator delete(f);
      }
      l.count[c] = 0;
    }
    l.closed = true;
  }
  bool armed = false;
};

thread_local Reaper reaper;

}  // namespace

void* allocate_new_frame(std::size_t size) {
  const std::size_t c = FrameLists::class_of(size);
  if (c == kClasses) return ::operator new(size);
#ifdef KUBESIM_FRAME_POOL_POISONS
  FrameLists& l = frame_lists;
  if (FrameLists::FreeFrame* f = l.head[c]) {
    KUBESIM_UNPOISON(f, (c + 1) * kGranule);
    l.head[c] = f->next;
    --l.count[c];
    return f;
  }
#endif
  return ::operator new((c + 1) * kGranule);
}

void free_unkept_frame(void* frame, std::size_t size) noexcept {
  const std::size_t c = FrameLists::class_of(size);
  if (c == kClasses) {
    ::operator delete(frame);
    return;
  }
  FrameLists& l = frame_lists;
  if (l.closed || l.count[c] >= FrameLists::kKeptPerClass) {
    ::operator delete(frame);
    return;
  }
  reaper.armed = true;  // registers the thread-end cleanup
  auto* f = static_cast<FrameLists::FreeFrame*>(frame);
  f->next = l.head[c];
  l.head[c] = f;
  ++l.count[c];
  KUBESIM_POISON(f, (c + 1) * kGranule);
}

}  // namespace kubesim::sim::internal
