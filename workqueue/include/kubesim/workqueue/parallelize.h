// parallelize_until: client-go's workqueue.ParallelizeUntil as coroutines on a Loop.
//
//   co_await workqueue::parallelize_until(ctx, &loop, 4, 100, sync_one);
//
// Runs do_work_piece(0) … do_work_piece(pieces - 1) on at most `workers` coroutines, each
// taking the next chunk of `chunk_size` pieces (in order) as it becomes free. Returns when
// every piece has run, or, once `ctx` is done, when the pieces already running have finished:
// no piece starts after ctx is done. If a piece throws, no further piece starts and the first
// exception is rethrown once the running pieces have finished.
//
// do_work_piece returns a Task (call a named coroutine; a capturing lambda must not itself be a
// coroutine). Pieces on different workers interleave only where they suspend.
#ifndef KUBESIM_WORKQUEUE_PARALLELIZE_H_
#define KUBESIM_WORKQUEUE_PARALLELIZE_H_

#include <functional>

#include "kubesim/sim/context.h"
#include "kubesim/sim/loop.h"
#include "kubesim/sim/task.h"

namespace kubesim::workqueue {

using DoWorkPieceFn = std::function<sim::Task<void>(int piece)>;

// An aggregate (`ParallelizeOptions{.chunk_size = 4}`); with GCC 12, build it outside a co_await
// statement (see api/options.h).
struct ParallelizeOptions {
  // Pieces a worker takes at a time (client-go's WithChunkSize); values below 1 mean 1.
  int chunk_size = 1;
};

// Throws std::invalid_argument (from the returned task) for negative pieces or workers < 1.
sim::Task<void> parallelize_until(sim::Context ctx, sim::Loop* loop, int workers, int pieces,
                                  DoWorkPieceFn do_work_piece,
                                  ParallelizeOptions options = ParallelizeOptions());

}  // namespace kubesim::workqueue

#endif  // KUBESIM_WORKQUEUE_PARALLELIZE_H_
