// Loop: the single-threaded event loop every simulation runs on.
//
// In virtual mode the loop owns a virtual clock: ready work runs first (FIFO), and when nothing
// is ready the clock jumps to the earliest timer. An hour of virtual time costs only the work
// done in it. In real mode the same loop follows the machine's monotonic clock and waits for
// timers; other threads hand it work with post_external(), the only thread-safe member.
//
// Ordering guarantees: timers fire in (deadline, scheduling order); ready work runs in the order
// it was posted, or, in shuffle mode, in an order drawn from the seed. Either way a seed replays
// a run exactly. Time never moves while work is ready.
//
// Failures: an exception escaping a spawned task is reported to the failure handler. The default
// handler keeps the first one and the run_* call that observed it rethrows it, so no failure is
// ever swallowed.
#ifndef KUBESIM_SIM_LOOP_H_
#define KUBESIM_SIM_LOOP_H_

#include <condition_variable>
#include <coroutine>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kubesim/sim/rng.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/time.h"
#include "kubesim/sim/trace.h"

namespace kubesim::sim {

class Clock;

enum class ClockMode { kVirtual, kReal };

struct LoopOptions {
  std::uint64_t seed = 1;
  // Run same-instant ready work in an order drawn from the seed instead of FIFO.
  bool shuffle = false;
  ClockMode mode = ClockMode::kVirtual;
  // The Unix second that Time{} stands for in formatted timestamps.
  std::int64_t epoch_unix_seconds = kDefaultEpochUnixSeconds;
};

// Identifies a scheduled timer; cancelling a fired or cancelled timer is a no-op.
struct TimerId {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
};

class Loop {
 public:
  using Callback = void (*)(void* arg);
  using FailureHandler = std::function<void(std::exception_ptr, const std::string& task_name)>;

  explicit Loop(LoopOptions options = {});
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;
  // Destroys the frames of spawned tasks that are still suspended.
  ~Loop();

  Time now() const { return now_; }
  const LoopOptions& options() const { return options_; }
  Rng& rng() { return rng_; }
  Trace& trace() { return trace_; }
  // The identity view of true time, for helpers that take a Clock.
  const Clock& clock() const { return *clock_; }

  // Resumes `h` (or calls `fn(arg)`) once the work already queued has run.
  void post(std::coroutine_handle<> h) { ready_.push_back({&resume_handle, h.address()}); }
  void post(Callback fn, void* arg) { ready_.push_back({fn, arg}); }
  void post(std::function<void()> fn);

  // Thread-safe: queues `fn` to run on the loop thread and wakes a real-mode loop.
  void post_external(std::function<void()> fn);

  // Calls fn(arg) at `when` (at once, after queued work, when `when` is not in the future).
  TimerId add_timer(Time when, Callback fn, void* arg);
  TimerId add_timer(Time when, std::function<void()> fn);
  // Returns true when the timer was still pending and will now never fire.
  bool cancel_timer(TimerId id);
  // Number of timers still pending.
  std::size_t pending_timers() const { return live_timers_; }

  // Starts `task` as detached work after the work already queued. Its failure is reported to
  // the failure handler. Frames still suspended when the Loop is destroyed are destroyed then.
  void spawn(Task<void> task, std::string name = {});
  std::size_t live_tasks() const { return live_tasks_; }

  // Runs one unit of work, first advancing virtual time to the next timer if nothing is ready.
  // Returns false when there is nothing left to do (in real mode: nothing ready, no timer and no
  // external work).
  bool step();
  // Runs until no work and no timer remain. Returns the number of steps taken.
  std::uint64_t run_until_idle();
  // Runs everything due up to and including `deadline`, then sets the clock to it.
  void run_until(Time deadline);
  void run_for(Duration d) { run_until(now_ + d); }
  // Runs until stop() is called (real mode waits for external work) or, in virtual mode, idle.
  void run();
  // Makes run() return after the current step, or the next run() return at once when none is
  // running. Thread-safe.
  void stop();

  // Runs the loop until `task` completes and returns its value (or rethrows). Throws
  // std::logic_error when the loop goes idle first: the task waits for something that can never
  // happen.
  template <class T>
  T run_until_complete(Task<T> task);

  void set_failure_handler(FailureHandler handler) { failure_handler_ = std::move(handler); }
  // Reports a failure of detached work (used by spawn and TaskGroup).
  void report_failure(std::exception_ptr error, const std::string& task_name);

  // Internal: bookkeeping of detached coroutine frames, for destruction at shutdown.
  struct DetachedNode {
    DetachedNode* prev = nullptr;
    DetachedNode* next = nullptr;
    std::coroutine_handle<> frame;
  };
  void link_detached(DetachedNode* node);
  void unlink_detached(DetachedNode* node);

 private:
  static void resume_handle(void* address) { std::coroutine_handle<>::from_address(address).resume(); }

  struct ReadyItem {
    Callback fn;
    void* arg;
  };
  struct TimerSlot {
    Callback fn = nullptr;
    void* arg = nullptr;
    std::unique_ptr<std::function<void()>> function;
    std::uint32_t generation = 0;
    bool armed = false;
  };
  struct HeapEntry {
    Time when;
    std::uint64_t seq;
    std::uint32_t slot;
    std::uint32_t generation;
  };

  void collect_due_timers();
  bool drain_external();
  void wait_real(Time until, bool bounded);
  void sync_real_clock();
  void run_one();
  void rethrow_failure();
  void drop_stale_timers();
  bool next_timer(Time& when);

  LoopOptions options_;
  Time now_{};
  Rng rng_;
  Trace trace_;
  std::unique_ptr<Clock> clock_;
  std::deque<ReadyItem> ready_;
  std::vector<TimerSlot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<HeapEntry> heap_;
  std::uint64_t timer_seq_ = 0;
  std::size_t live_timers_ = 0;
  std::size_t stale_entries_ = 0;
  DetachedNode detached_head_;
  std::size_t live_tasks_ = 0;
  FailureHandler failure_handler_;
  std::exception_ptr failure_;

  // Real mode.
  std::mutex external_mu_;
  std::condition_variable external_cv_;
  std::vector<std::function<void()>> external_;
  bool stop_requested_ = false;
  std::int64_t real_start_ns_ = 0;
};

namespace internal {

template <class T>
Task<void> capture_result(Task<T> task, std::optional<T>* out, std::exception_ptr* error) {
  try {
    T value = co_await std::move(task);
    out->emplace(std::move(value));
  } catch (...) {
    *error = std::current_exception();
  }
}

inline Task<void> capture_result(Task<void> task, std::optional<bool>* out,
                                 std::exception_ptr* error) {
  try {
    co_await std::move(task);
    out->emplace(true);
  } catch (...) {
    *error = std::current_exception();
  }
}

}  // namespace internal

template <class T>
T Loop::run_until_complete(Task<T> task) {
  using Slot = std::conditional_t<std::is_void_v<T>, bool, T>;
  std::optional<Slot> result;
  std::exception_ptr error;
  spawn(internal::capture_result(std::move(task), &result, &error), "run_until_complete");
  while (!result && !error) {
    if (!step()) break;
    rethrow_failure();
  }
  if (error) std::rethrow_exception(error);
  if (!result) throw std::logic_error("run_until_complete: the loop went idle before the task finished");
  if constexpr (!std::is_void_v<T>) return std::move(*result);
}

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_LOOP_H_
