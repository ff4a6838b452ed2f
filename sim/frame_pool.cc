#include "kubesim/sim/internal/frame_pool.h"

#include <cstdint>
#include <new>

#if !defined(__SANITIZE_ADDRESS__) && defined(__has_feature)
#if __has_feature(address_sanitizer)
#define __SANITIZE_ADDRESS__ 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
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

constexpr std::size_t kGranule = 64;
constexpr std::size_t kClasses = 32;          // size classes of 64 … 2048 bytes
constexpr std::uint32_t kKeptPerClass = 4096;  // bounds what an idle thread holds

struct FreeFrame {
  FreeFrame* next;
};

// The frames a thread keeps. Once the thread's storage is torn down, frames freed later (by
// destructors that run after it) go straight back to the global allocator.
struct FrameLists {
  FreeFrame* head[kClasses] = {};
  std::uint32_t count[kClasses] = {};
  bool closed = false;

  ~FrameLists() {
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (FreeFrame* f = head[c]) {
        KUBESIM_UNPOISON(f, (c + 1) * kGranule);
        head[c] = f->next;
        ::operator delete(f, (c + 1) * kGranule);
      }
      count[c] = 0;
    }
    closed = true;
  }
};

thread_local FrameLists lists;

// The class of a frame of `size` bytes, or kClasses when it is too large to keep.
std::size_t class_of(std::size_t size) {
  const std::size_t c = size == 0 ? 0 : (size - 1) / kGranule;
  return c < kClasses ? c : kClasses;
}

}  // namespace

void* allocate_frame(std::size_t size) {
  const std::size_t c = class_of(size);
  if (c == kClasses) return ::operator new(size);
  FrameLists& l = lists;
  if (FreeFrame* f = l.head[c]) {
    KUBESIM_UNPOISON(f, (c + 1) * kGranule);
    l.head[c] = f->next;
    --l.count[c];
    return f;
  }
  return ::operator new((c + 1) * kGranule);
}

void free_frame(void* frame, std::size_t size) noexcept {
  const std::size_t c = class_of(size);
  if (c == kClasses) {
    ::operator delete(frame, size);
    return;
  }
  FrameLists& l = lists;
  if (l.closed || l.count[c] >= kKeptPerClass) {
    ::operator delete(frame, (c + 1) * kGranule);
    return;
  }
  auto* f = static_cast<FreeFrame*>(frame);
  f->next = l.head[c];
  l.head[c] = f;
  ++l.count[c];
  KUBESIM_POISON(f, (c + 1) * kGranule);
}

}  // namespace kubesim::sim::internal
