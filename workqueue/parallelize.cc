#include "kubesim/workqueue/parallelize.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "kubesim/sim/task_group.h"

namespace kubesim::workqueue {
namespace {

struct Work {
  sim::Context ctx;
  DoWorkPieceFn fn;
  int pieces = 0;
  int chunk_size = 1;
  int chunks = 0;
  int next_chunk = 0;
  std::exception_ptr failure;
};

sim::Task<void> run_piece(Work* work, int piece) {
  try {
    co_await work->fn(piece);
  } catch (...) {
    if (!work->failure) work->failure = std::current_exception();
  }
}

sim::Task<void> worker(Work* work) {
  while (work->next_chunk < work->chunks && !work->failure) {
    const int start = work->next_chunk++ * work->chunk_size;
    const int end = std::min(start + work->chunk_size, work->pieces);
    for (int piece = start; piece < end; ++piece) {
      if (work->ctx.done() || work->failure) co_return;
      co_await run_piece(work, piece);
    }
  }
}

}  // namespace

sim::Task<void> parallelize_until(sim::Context ctx, sim::Loop* loop, int workers, int pieces,
                                  DoWorkPieceFn do_work_piece, ParallelizeOptions options) {
  if (pieces < 0) throw std::invalid_argument("parallelize_until: pieces must not be negative");
  if (workers < 1) throw std::invalid_argument("parallelize_until: workers must be at least 1");
  if (!do_work_piece) throw std::invalid_argument("parallelize_until: do_work_piece is empty");
  if (pieces == 0) co_return;
  Work work;
  work.ctx = ctx;
  work.fn = std::move(do_work_piece);
  work.pieces = pieces;
  work.chunk_size = options.chunk_size < 1 ? 1 : options.chunk_size;
  work.chunks = (pieces + work.chunk_size - 1) / work.chunk_size;
  if (work.chunks < workers) workers = work.chunks;
  sim::TaskGroup group(*loop);
  for (int i = 0; i < workers; ++i) group.spawn(worker(&work), "parallelize_until");
  // Joined without the caller's context: the workers reference `work`, which lives here.
  (void)co_await group.wait(sim::Context());
  if (work.failure) std::rethrow_exception(work.failure);
}

}  // namespace kubesim::workqueue
