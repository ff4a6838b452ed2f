// The implementation side of matchers.h: the polymorphic matcher classes and the Result printer.
// Included only by matchers.h. The per-matcher logic lives in testing/matchers*.cc behind
// ::testing::Matcher<const api::Object&>, so a test that includes this compiles no more of it.
#ifndef KUBESIM_TESTING_DETAIL_MATCHERS_IMPL_H_
#define KUBESIM_TESTING_DETAIL_MATCHERS_IMPL_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include <gmock/gmock.h>

#include "kubesim/api/object.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"

namespace kubesim::testing {

// Gives a matcher of `const api::Object&` to an Object, an ObjectPtr (a null pointer never
// matches) and a Result<ObjectPtr> (a failure never matches; its explanation shows the Status).
class ObjectMatcher {
 public:
  explicit ObjectMatcher(ObjectMatcherImpl inner) : inner_(std::move(inner)) {}

  bool MatchAndExplain(const api::Object& object, ::testing::MatchResultListener* listener) const;
  bool MatchAndExplain(const api::ObjectPtr& object, ::testing::MatchResultListener* listener) const;
  bool MatchAndExplain(const api::Result<api::ObjectPtr>& result,
                       ::testing::MatchResultListener* listener) const;
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

  const ObjectMatcherImpl& inner() const { return inner_; }

 private:
  ObjectMatcherImpl inner_;
};

namespace matchers_internal {

// How much of a value (as JSON text) a failure shows.
inline constexpr std::size_t kShownChars = 200;

// Says whether `object` passes, and writes what it found to `why` (whether or not it passes: a
// negated matcher shows it too).
using Check = std::function<bool(const api::Object& object, std::ostream& why)>;
// A matcher described as `description` ("has label app") and, negated, as `negation`.
::testing::PolymorphicMatcher<ObjectMatcher> make_object_matcher(std::string description,
                                                                 std::string negation, Check check);

}  // namespace matchers_internal

class IsOkMatcher {
 public:
  template <class T>
  bool MatchAndExplain(const api::Result<T>& result, ::testing::MatchResultListener* listener) const {
    if (result.ok()) return true;
    explain_failure(result.status(), listener);
    return false;
  }
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  static void explain_failure(const api::Status& status, ::testing::MatchResultListener* listener);
};

class StatusIsMatcher {
 public:
  explicit StatusIsMatcher(int code) : code_(code) {}
  explicit StatusIsMatcher(api::StatusReason reason) : reason_(reason) {}

  template <class T>
  bool MatchAndExplain(const api::Result<T>& result, ::testing::MatchResultListener* listener) const {
    if (result.ok()) {
      *listener << "is a successful result";
      return false;
    }
    return MatchAndExplain(result.status(), listener);
  }
  bool MatchAndExplain(const api::Status& status, ::testing::MatchResultListener* listener) const;
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  // "code 404" or "reason NotFound".
  void describe_wanted(std::ostream* os) const;

  std::optional<int> code_;
  std::optional<api::StatusReason> reason_;
};

}  // namespace kubesim::testing

namespace kubesim::api {

// "ok: <the value>" ("ok" for a Result<void>), or "failed: 404 NotFound: …".
template <class T>
void PrintTo(const Result<T>& result, std::ostream* os) {
  if (!result.ok()) {
    *os << "failed: ";
    PrintTo(result.status(), os);
  } else if constexpr (std::is_void_v<T>) {
    *os << "ok";
  } else {
    *os << "ok: " << ::testing::PrintToString(result.value());
  }
}

}  // namespace kubesim::api

#endif  // KUBESIM_TESTING_DETAIL_MATCHERS_IMPL_H_
