// Result<T>: the outcome of an API call, either a value or the api::Status explaining the failure.
//
// Expected failures (NotFound, Conflict, Gone, …) are values, not exceptions; a Result forces the
// caller to look at it ([[nodiscard]]). It converts implicitly from a T (success) and from a
// Status (failure), so functions simply `return value;` or `return new_not_found(...);`.
// Reading the wrong side (value() of a failure, status() of a success) is a bug and asserts.
// Result<void> is the same for operations that return nothing.
#ifndef KUBESIM_API_RESULT_H_
#define KUBESIM_API_RESULT_H_

#include <cassert>
#include <concepts>
#include <type_traits>
#include <utility>
#include <variant>

#include "kubesim/api/status.h"

namespace kubesim::api {

template <class T>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<std::remove_cv_t<T>, Status>,
                "a Status is the error side of a Result, not a value");
  static_assert(!std::is_reference_v<T>, "Result holds values");

 public:
  // Success. Anything a T can be built from converts, so `Result<ObjectPtr> r = make_shared...`
  // works.
  template <class U = T>
  requires std::constructible_from<T, U&&> &&(!std::same_as<std::remove_cvref_t<U>, Status>)&&(
      !std::same_as<std::remove_cvref_t<U>, Result>)Result(U&& value)
      : state_(std::in_place_index<0>, std::forward<U>(value)) {}  // NOLINT

  // Failure.
  Result(Status status) : state_(std::in_place_index<1>, std::move(status)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // The value. The caller must have checked ok().
  T& value() & {
    assert(ok() && "Result::value() on a failed result");
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(ok() && "Result::value() on a failed result");
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(ok() && "Result::value() on a failed result");
    return std::get<0>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

  // The failure. The caller must have checked !ok().
  const Status& status() const& {
    assert(!ok() && "Result::status() on a successful result");
    return std::get<1>(state_);
  }
  Status&& status() && {
    assert(!ok() && "Result::status() on a successful result");
    return std::get<1>(std::move(state_));
  }

 private:
  std::variant<T, Status> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  // Success.
  Result() = default;
  // Failure.
  Result(Status status) : status_(std::move(status)), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }

  const Status& status() const& {
    assert(!ok_ && "Result::status() on a successful result");
    return status_;
  }
  Status&& status() && {
    assert(!ok_ && "Result::status() on a successful result");
    return std::move(status_);
  }

 private:
  Status status_;
  bool ok_ = true;
};

}  // namespace kubesim::api

#endif  // KUBESIM_API_RESULT_H_
