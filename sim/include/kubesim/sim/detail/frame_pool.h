// Coroutine frame storage: Task and spawned-task frames come from here, not straight from the
// global allocator.
//
// A simulation allocates and frees a coroutine frame for nearly every await of a nested Task,
// in a handful of sizes. Freed frames up to 2 KiB are kept on per-thread lists, one per 64-byte
// size class, and handed out again; larger frames, and frames beyond a bounded number kept per
// class, go to the global allocator. A frame may be freed on another thread than the one that
// allocated it. Under AddressSanitizer a kept frame is poisoned, so a use after free is still
// reported.
#ifndef KUBESIM_SIM_DETAIL_FRAME_POOL_H_
#define KUBESIM_SIM_DETAIL_FRAME_POOL_H_

#include <cstddef>
#include <cstdint>

#if !defined(__SANITIZE_ADDRESS__) && defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KUBESIM_FRAME_POOL_POISONS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KUBESIM_FRAME_POOL_POISONS 1
#endif

namespace kubesim::sim::internal {

// The lists of one thread. Trivial, so that reaching them costs no initialisation check; the
// frames they keep are given back when the thread ends (frame_pool.cc).
struct FrameLists {
  static constexpr std::size_t kGranule = 64;
  static constexpr std::size_t kClasses = 32;          // size classes of 64 … 2048 bytes
  static constexpr std::uint32_t kKeptPerClass = 4096;  // bounds what an idle thread holds

  struct FreeFrame {
    FreeFrame* next;
  };
  FreeFrame* head[kClasses];
  std::uint32_t count[kClasses];
  bool closed;  // the thread is ending: nothing more is kept

  // The class of a frame of `size` bytes, or kClasses when it is too large to keep.
  static std::size_t class_of(std::size_t size) {
    const std::size_t c = size == 0 ? 0 : (size - 1) / kGranule;
    return c < kClasses ? c : kClasses;
  }
};

inline thread_local FrameLists frame_lists{};

// The slow paths: a new frame, a frame not kept.
void* allocate_new_frame(std::size_t size);
void free_unkept_frame(void* frame, std::size_t size) noexcept;

inline void* allocate_frame(std::size_t size) {
#ifndef KUBESIM_FRAME_POOL_POISONS
  const std::size_t c = FrameLists::class_of(size);
  FrameLists& l = frame_lists;
  if (c < FrameLists::kClasses && l.head[c] != nullptr) {
    FrameLists::FreeFrame* f = l.head[c];
    l.head[c] = f->next;
    --l.count[c];
    return f;
  }
#endif
  return allocate_new_frame(size);
}

// `size` is the one the frame was allocated with.
inline void free_frame(void* frame, std::size_t size) noexcept {
#ifndef KUBESIM_FRAME_POOL_POISONS
  const std::size_t c = FrameLists::class_of(size);
  FrameLists& l = frame_lists;
  if (c < FrameLists::kClasses && l.head[c] != nullptr && l.count[c] < FrameLists::kKeptPerClass) {
    auto* f = static_cast<FrameLists::FreeFrame*>(frame);
    f->next = l.head[c];
    l.head[c] = f;
    ++l.count[c];
    return;
  }
#endif
  free_unkept_frame(frame, size);
}

}  // namespace kubesim::sim::internal

#endif  // KUBESIM_SIM_DETAIL_FRAME_POOL_H_
