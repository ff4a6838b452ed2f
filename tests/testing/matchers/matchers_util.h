// What the matcher tests look at: a matcher's explanation of a value and its descriptions.
#ifndef KUBESIM_TESTS_TESTING_MATCHERS_MATCHERS_UTIL_H_
#define KUBESIM_TESTS_TESTING_MATCHERS_MATCHERS_UTIL_H_

#include <string>

#include <gmock/gmock.h>

namespace kubesim::testing::testutil {

struct Explained {
  bool matched = false;
  std::string why;
};

// Whether `m` matches `value`, and the explanation it gives.
template <class T, class M>
Explained explain(const M& m, const T& value) {
  ::testing::StringMatchResultListener listener;
  const bool matched = ::testing::Matcher<const T&>(m).MatchAndExplain(value, &listener);
  return {matched, listener.str()};
}

template <class T, class M>
std::string describe(const M& m) {
  return ::testing::DescribeMatcher<const T&>(m);
}
template <class T, class M>
std::string describe_negation(const M& m) {
  return ::testing::DescribeMatcher<const T&>(m, /*negation=*/true);
}

}  // namespace kubesim::testing::testutil

#endif  // KUBESIM_TESTS_TESTING_MATCHERS_MATCHERS_UTIL_H_
