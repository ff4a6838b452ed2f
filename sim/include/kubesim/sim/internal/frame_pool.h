// Coroutine frame storage: Task and spawned-task frames come from here, not straight from the
// global allocator.
//
// A simulation allocates and frees a coroutine frame for nearly every await of a nested Task,
// in a handful of sizes. Freed frames up to 2 KiB are kept on per-thread lists, one per 64-byte
// size class, and handed out again; larger frames, and frames beyond a bounded number kept per
// class, go to the global allocator. A frame may be freed on another thread than the one that
// allocated it. Under AddressSanitizer a kept frame is poisoned, so a use after free is still
// reported.
#ifndef KUBESIM_SIM_INTERNAL_FRAME_POOL_H_
#define KUBESIM_SIM_INTERNAL_FRAME_POOL_H_

#include <cstddef>

namespace kubesim::sim::internal {

void* allocate_frame(std::size_t size);
// `size` is the one the frame was allocated with.
void free_frame(void* frame, std::size_t size) noexcept;

}  // namespace kubesim::sim::internal

#endif  // KUBESIM_SIM_INTERNAL_FRAME_POOL_H_
