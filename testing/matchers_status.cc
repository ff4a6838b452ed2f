// The matchers of results and Statuses, and the printers GoogleTest uses for API values.
#include <utility>

#include "kubesim/api/match.h"
#include "kubesim/testing/matchers.h"

namespace kubesim::testing {

void IsOkMatcher::DescribeTo(std::ostream* os) const { *os << "is a successful result"; }
void IsOkMatcher::DescribeNegationTo(std::ostream* os) const { *os << "is a failed result"; }

void IsOkMatcher::explain_failure(const api::Status& status, ::testing::MatchResultListener* listener) {
  *listener << "is a failed result: " << status;
}

bool StatusIsMatcher::MatchAndExplain(const api::Status& status,
                                      ::testing::MatchResultListener* listener) const {
  *listener << "is a failed result: " << status;
  return code_ ? status.code == *code_ : status.reason == *reason_;
}

void StatusIsMatcher::describe_wanted(std::ostream* os) const {
  if (code_) {
    *os << "code " << *code_;
  } else {
    *os << "reason " << *reason_;
  }
}

void StatusIsMatcher::DescribeTo(std::ostream* os) const {
  *os << "is a failed result with ";
  describe_wanted(os);
}

void StatusIsMatcher::DescribeNegationTo(std::ostream* os) const {
  *os << "isn't a failed result with ";
  describe_wanted(os);
}

::testing::PolymorphicMatcher<IsOkMatcher> IsOk() { return ::testing::MakePolymorphicMatcher(IsOkMatcher()); }

::testing::PolymorphicMatcher<StatusIsMatcher> StatusIs(int code) {
  return ::testing::MakePolymorphicMatcher(StatusIsMatcher(code));
}

::testing::PolymorphicMatcher<StatusIsMatcher> StatusIs(api::StatusReason reason) {
  return ::testing::MakePolymorphicMatcher(StatusIsMatcher(reason));
}

}  // namespace kubesim::testing

namespace kubesim::api {

namespace {
// How much of an object a printer shows.
constexpr std::size_t kPrintLimit = 1000;
}  // namespace

void PrintTo(const Object& object, std::ostream* os) {
  nlohmann::json j = object.json();
  const auto metadata = j.find("metadata");
  if (metadata != j.end() && metadata->is_object()) metadata->erase("managedFields");
  *os << short_json(j, kPrintLimit);
}

void PrintTo(const ObjectPtr& object, std::ostream* os) {
  if (object == nullptr) {
    *os << "null ObjectPtr";
    return;
  }
  PrintTo(*object, os);
}

void PrintTo(const Status& status, std::ostream* os) { *os << status; }

}  // namespace kubesim::api
