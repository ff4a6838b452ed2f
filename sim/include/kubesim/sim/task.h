// Task<T>: a lazy, move-only coroutine that produces a T (or throws).
//
// A Task does nothing until it is awaited; `co_await task` runs it and yields its value or
// rethrows its exception in the awaiter. A task that finishes without suspending hands control
// straight back to its awaiter without growing the stack, so loops of immediately-ready awaits
// are safe at any optimisation level; a task that finishes after suspending resumes its awaiter
// by symmetric transfer. Destroying a Task that was never awaited destroys its frame. Detached
// work goes through Loop::spawn or TaskGroup, never through a Task left running on its own.
//
// Coroutines that return Task take their parameters by value (a reference dangles after the
// first suspension) and are never capturing lambdas. GCC 12 destroys an aggregate-initialised
// temporary twice when it is built inside a co_await expression (`co_await f({})`,
// `co_await f(Options{.x = 1})`): build aggregates in a named variable first, or pass `T()`
// (cmake/check_co_await_temporaries.cmake checks kubesim's sources). Value types passed to
// coroutines all the time (api::GroupVersionResource) have constructors instead.
#ifndef KUBESIM_SIM_TASK_H_
#define KUBESIM_SIM_TASK_H_

#include <cassert>
#include <coroutine>
#include <exception>
#include <type_traits>
#include <utility>
#include <variant>

#include "kubesim/sim/detail/frame_pool.h"

namespace kubesim::sim {

template <class T = void>
class Task;

namespace internal {

class TaskPromiseBase {
 public:
  // Frames are recycled (detail/frame_pool.h): most awaits of a nested Task make one.
  static void* operator new(std::size_t size) { return allocate_frame(size); }
  static void operator delete(void* frame, std::size_t size) noexcept { free_frame(frame, size); }

  std::suspend_always initial_suspend() noexcept { return {}; }

  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <class Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) noexcept {
      TaskPromiseBase& p = h.promise();
      // The awaiter is still on the stack below us: let it carry on by returning false from
      // its await_suspend instead of nesting another resume.
      if (p.started_inline_ || !p.continuation_) return std::noop_coroutine();
      return p.continuation_;
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }

  std::coroutine_handle<> continuation_;
  bool started_inline_ = false;
};

template <class T>
class TaskPromise : public TaskPromiseBase {
 public:
  Task<T> get_return_object() noexcept;
  template <class U>
    requires std::is_convertible_v<U&&, T>
  void return_value(U&& value) {
    result_.template emplace<1>(std::forward<U>(value));
  }
  void unhandled_exception() noexcept { result_.template emplace<2>(std::current_exception()); }

  T take() {
    if (result_.index() == 2) std::rethrow_exception(std::get<2>(result_));
    assert(result_.index() == 1 && "Task finished without a value");
    return std::move(std::get<1>(result_));
  }

 private:
  std::variant<std::monostate, T, std::exception_ptr> result_;
};

template <>
class TaskPromise<void> : public TaskPromiseBase {
 public:
  Task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void unhandled_exception() noexcept { exception_ = std::current_exception(); }
  void take() {
    if (exception_) std::rethrow_exception(exception_);
  }

 private:
  std::exception_ptr exception_;
};

}  // namespace internal

template <class T>
class [[nodiscard]] Task {
 public:
  using promise_type = internal::TaskPromise<T>;
  using value_type = T;

  Task() = default;
  explicit Task(std::coroutine_handle<promise_type> h) noexcept : handle_(h) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  bool valid() const { return static_cast<bool>(handle_); }
  bool done() const { return handle_ && handle_.done(); }

  auto operator co_await() && noexcept { return Awaiter{handle_}; }
  auto operator co_await() & noexcept { return Awaiter{handle_}; }

 private:
  struct Awaiter {
    std::coroutine_handle<promise_type> h;
    bool await_ready() const noexcept { return !h || h.done(); }
    bool await_suspend(std::coroutine_handle<> awaiter) noexcept {
      promise_type& p = h.promise();
      p.continuation_ = awaiter;
      p.started_inline_ = true;
      h.resume();
      p.started_inline_ = false;
      // Finished without suspending: the awaiter continues right here.
      return !h.done();
    }
    T await_resume() {
      assert(h && "awaiting an empty Task");
      return h.promise().take();
    }
  };

  void reset() {
    if (handle_) {
      handle_.destroy();
      handle_ = {};
    }
  }

  std::coroutine_handle<promise_type> handle_;
};

namespace internal {

template <class T>
Task<T> TaskPromise<T>::get_return_object() noexcept {
  return Task<T>(std::coroutine_handle<TaskPromise<T>>::from_promise(*this));
}

inline Task<void> TaskPromise<void>::get_return_object() noexcept {
  return Task<void>(std::coroutine_handle<TaskPromise<void>>::from_promise(*this));
}

}  // namespace internal
}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_TASK_H_
