#include "kubesim/sim/loop.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <utility>

#include "kubesim/sim/clock.h"
#include "kubesim/sim/detail/frame_pool.h"
#include "kubesim/sim/real_clock.h"

namespace kubesim::sim {
static_assert(sizeof(void*) >= sizeof(std::uint64_t), "timer ids are packed into pointers");

namespace {

// A self-destroying coroutine that runs one spawned Task and reports its failure.
struct DetachedTask {
  struct promise_type {
    Loop* loop = nullptr;
    Loop::DetachedNode node;

    static void* operator new(std::size_t size) { return internal::allocate_frame(size); }
    static void operator delete(void* frame, std::size_t size) noexcept {
      internal::free_frame(frame, size);
    }

    DetachedTask get_return_object() {
      return DetachedTask{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        h.promise().loop->unlink_detached(&h.promise().node);
        h.destroy();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> handle;
};

DetachedTask run_detached(Loop* loop, Task<void> task, std::string name) {
  std::exception_ptr failure;
  try {
    co_await std::move(task);
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) loop->report_failure(failure, name);
}

void run_function(void* arg) {
  std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(arg));
  (*fn)();
}

bool heap_later(const auto& a, const auto& b) {
  if (a.when != b.when) return a.when > b.when;
  return a.seq > b.seq;
}

}  // namespace

Loop::Loop(LoopOptions options)
    : options_(options), rng_(options.seed), clock_(std::make_unique<Clock>(*this)) {
  detached_head_.prev = detached_head_.next = &detached_head_;
  if (options_.mode == ClockMode::kReal) real_start_ns_ = real_monotonic_ns();
}

Loop::~Loop() {
  // Destroying a frame may destroy awaiters that cancel timers or post work: drop those first so
  // nothing runs after this point.
  while (detached_head_.next != &detached_head_) {
    DetachedNode* node = detached_head_.next;
    unlink_detached(node);
    node->frame.destroy();
  }
  // run_function items own a heap-allocated std::function; free them without calling.
  for (auto& item : ready_) {
    if (item.fn == &run_function) delete static_cast<std::function<void()>*>(item.arg);
  }
}

void Loop::link_detached(DetachedNode* node) {
  node->next = &detached_head_;
  node->prev = detached_head_.prev;
  detached_head_.prev->next = node;
  detached_head_.prev = node;
  ++live_tasks_;
}

void Loop::unlink_detached(DetachedNode* node) {
  node->prev->next = node->next;
  node->next->prev = node->prev;
  node->prev = node->next = nullptr;
  --live_tasks_;
}

void Loop::post(std::function<void()> fn) {
  ready_.push_back({&run_function, new std::function<void()>(std::move(fn))});
}

void Loop::post_external(std::function<void()> fn) {
  {
    std::lock_guard<std::mutex> lock(external_mu_);
    external_.push_back(std::move(fn));
  }
  external_cv_.notify_one();
}

TimerId Loop::add_timer(Time when, Callback fn, void* arg) {
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  TimerSlot& s = slots_[slot];
  s.fn = fn;
  s.arg = arg;
  s.armed = true;
  heap_.push_back({when, timer_seq_++, slot, s.generation});
  std::push_heap(heap_.begin(), heap_.end(), [](const HeapEntry& a, const HeapEntry& b) {
    return heap_later(a, b);
  });
  ++live_timers_;
  return TimerId{slot, s.generation};
}

TimerId Loop::add_timer(Time when, std::function<void()> fn) {
  auto holder = std::make_unique<std::function<void()>>(std::move(fn));
  auto* raw = holder.get();
  TimerId id = add_timer(when, [](void* arg) { (*static_cast<std::function<void()>*>(arg))(); }, raw);
  slots_[id.slot].function = std::move(holder);
  return id;
}

bool Loop::cancel_timer(TimerId id) {
  if (id.slot >= slots_.size()) return false;
  TimerSlot& s = slots_[id.slot];
  if (!s.armed || s.generation != id.generation) return false;
  s.armed = false;
  ++s.generation;
  s.function.reset();
  free_slots_.push_back(id.slot);
  --live_timers_;
  ++stale_entries_;
  drop_stale_timers();
  return true;
}

void Loop::drop_stale_timers() {
  if (stale_entries_ < 1024 || stale_entries_ * 2 < heap_.size()) return;
  std::erase_if(heap_, [this](const HeapEntry& e) {
    const TimerSlot& s = slots_[e.slot];
    return !s.armed || s.generation != e.generation;
  });
  std::make_heap(heap_.begin(), heap_.end(),
                 [](const HeapEntry& a, const HeapEntry& b) { return heap_later(a, b); });
  stale_entries_ = 0;
}

bool Loop::next_timer(Time& when) {
  while (!heap_.empty()) {
    const HeapEntry& top = heap_.front();
    const TimerSlot& s = slots_[top.slot];
    if (s.armed && s.generation == top.generation) {
      when = top.when;
      return true;
    }
    std::pop_heap(heap_.begin(), heap_.end(),
                  [](const HeapEntry& a, const HeapEntry& b) { return heap_later(a, b); });
    heap_.pop_back();
    if (stale_entries_ > 0) --stale_entries_;
  }
  return false;
}

void Loop::collect_due_timers() {
  Time when;
  // While the earliest entry, armed or stale, is later than now, nothing is due: the stale ones
  // are dropped by the next next_timer() instead (no timer fires in another order for it).
  while (!heap_.empty() && heap_.front().when <= now_ && next_timer(when) && when <= now_) {
    const HeapEntry top = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(),
                  [](const HeapEntry& a, const HeapEntry& b) { return heap_later(a, b); });
    heap_.pop_back();
    // A ready item with no function is a due timer. The slot stays armed until the item runs,
    // so a cancel in between still wins.
    const std::uint64_t packed = (std::uint64_t{top.slot} << 32) | top.generation;
    ready_.push_back({nullptr, reinterpret_cast<void*>(static_cast<std::uintptr_t>(packed))});
  }
}

void Loop::run_one() {
  std::size_t index = 0;
  if (options_.shuffle && ready_.size() > 1) {
    index = static_cast<std::size_t>(rng_.uniform(ready_.size()));
    std::swap(ready_[0], ready_[index]);
  }
  ReadyItem item = ready_.front();
  ready_.pop_front();
  if (item.fn != nullptr) {
    item.fn(item.arg);
    return;
  }
  // A due timer: fire it unless it was cancelled after it became due.
  const auto packed = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(item.arg));
  const auto slot = static_cast<std::uint32_t>(packed >> 32);
  const auto generation = static_cast<std::uint32_t>(packed);
  TimerSlot& s = slots_[slot];
  if (!s.armed || s.generation != generation) return;
  Callback fn = s.fn;
  void* arg = s.arg;
  std::unique_ptr<std::function<void()>> function = std::move(s.function);
  s.armed = false;
  ++s.generation;
  free_slots_.push_back(slot);
  --live_timers_;
  fn(arg);
}

bool Loop::drain_external() {
  std::vector<std::function<void()>> work;
  {
    std::lock_guard<std::mutex> lock(external_mu_);
    work.swap(external_);
  }
  for (auto& fn : work) post(std::move(fn));
  return !work.empty();
}

void Loop::sync_real_clock() {
  const Time real{Duration(real_monotonic_ns() - real_start_ns_)};
  if (real > now_) now_ = real;
}

void Loop::wait_real(Time until, bool bounded) {
  std::unique_lock<std::mutex> lock(external_mu_);
  auto ready = [this] { return !external_.empty() || stop_requested_; };
  if (bounded) {
    const auto wait_ns = (until - now_).count();
    if (wait_ns > 0) external_cv_.wait_for(lock, std::chrono::nanoseconds(wait_ns), ready);
  } else {
    external_cv_.wait(lock, ready);
  }
}

bool Loop::step() {
  if (options_.mode == ClockMode::kReal) {
    drain_external();
    sync_real_clock();
  }
  collect_due_timers();
  if (!ready_.empty()) {
    run_one();
    return true;
  }
  Time when;
  if (!next_timer(when)) return false;
  if (options_.mode == ClockMode::kVirtual) {
    now_ = when;
  } else {
    wait_real(when, true);
    return true;
  }
  collect_due_timers();
  if (!ready_.empty()) run_one();
  return true;
}

void Loop::rethrow_failure() {
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

std::uint64_t Loop::run_until_idle() {
  std::uint64_t steps = 0;
  while (step()) {
    ++steps;
    rethrow_failure();
  }
  rethrow_failure();
  return steps;
}

void Loop::run_until(Time deadline) {
  for (;;) {
    if (options_.mode == ClockMode::kReal) {
      drain_external();
      sync_real_clock();
      if (now_ >= deadline) break;
    }
    collect_due_timers();
    if (!ready_.empty()) {
      run_one();
      rethrow_failure();
      continue;
    }
    Time when;
    const bool has_timer = next_timer(when);
    if (options_.mode == ClockMode::kReal) {
      wait_real(has_timer ? std::min(when, deadline) : deadline, true);
      continue;
    }
    if (!has_timer || when > deadline) break;
    now_ = when;
  }
  if (options_.mode == ClockMode::kVirtual && now_ < deadline) now_ = deadline;
}

void Loop::run() {
  for (;;) {
    {
      // A stop() made before this run() started (another thread may call it at once after
      // starting the loop's thread) ends this run; the request is used up by the run it ends.
      std::lock_guard<std::mutex> lock(external_mu_);
      if (std::exchange(stop_requested_, false)) break;
    }
    if (step()) {
      rethrow_failure();
      continue;
    }
    if (options_.mode == ClockMode::kVirtual) break;
    wait_real(now_, false);
  }
}

void Loop::stop() {
  {
    std::lock_guard<std::mutex> lock(external_mu_);
    stop_requested_ = true;
  }
  external_cv_.notify_one();
}

void Loop::spawn(Task<void> task, std::string name) {
  DetachedTask detached = run_detached(this, std::move(task), std::move(name));
  auto& promise = detached.handle.promise();
  promise.loop = this;
  promise.node.frame = detached.handle;
  link_detached(&promise.node);
  post(std::coroutine_handle<>(detached.handle));
}

void Loop::report_failure(std::exception_ptr error, const std::string& task_name) {
  if (failure_handler_) {
    failure_handler_(error, task_name);
    return;
  }
  if (!failure_) failure_ = error;
}

}  // namespace kubesim::sim
