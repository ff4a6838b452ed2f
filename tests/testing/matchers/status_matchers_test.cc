// IsOk and StatusIs over Results of any type and Statuses, and the printers of objects, results
// and Statuses, with the text a failure shows.
#include "kubesim/testing/matchers.h"

#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testing/matchers/matchers_util.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;
using testutil::describe;
using testutil::describe_negation;
using testutil::explain;

const api::Status kNotFound = api::new_not_found({"", "configmaps"}, "x");
const api::Status kConflict = api::new_conflict({"", "configmaps"}, "x", "boom");
const api::ObjectPtr kObject =
    api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "x"}}}});

TEST(IsOkTest, ShowsTheStatusOfAFailure) {
  using R = api::Result<api::ObjectPtr>;
  EXPECT_TRUE(explain<R>(IsOk(), R(kObject)).matched);
  EXPECT_EQ(explain<R>(IsOk(), R(kObject)).why, "");
  const auto got = explain<R>(IsOk(), R(kNotFound));
  EXPECT_FALSE(got.matched);
  EXPECT_EQ(got.why, R"(is a failed result: 404 NotFound: configmaps "x" not found)");
  // Any T, void included.
  EXPECT_TRUE(explain<api::Result<int>>(IsOk(), api::Result<int>(3)).matched);
  EXPECT_TRUE(explain<api::Result<void>>(IsOk(), api::Result<void>()).matched);
  EXPECT_EQ(explain<api::Result<void>>(IsOk(), api::Result<void>(kConflict)).why,
            R"(is a failed result: 409 Conflict: Operation cannot be fulfilled on configmaps "x": boom)");
  EXPECT_EQ(describe<R>(IsOk()), "is a successful result");
  EXPECT_EQ(describe_negation<R>(IsOk()), "is a failed result");
}

TEST(StatusIsTest, MatchesAFailuresCodeOrReason) {
  using R = api::Result<api::ObjectPtr>;
  const struct {
    const char* name;
    ::testing::Matcher<const R&> matcher;
    R result;
    bool matched;
    std::string why;
  } cases[] = {
      {"the code", StatusIs(404), R(kNotFound), true,
       R"(is a failed result: 404 NotFound: configmaps "x" not found)"},
      {"the reason", StatusIs(api::StatusReason::kNotFound), R(kNotFound), true,
       R"(is a failed result: 404 NotFound: configmaps "x" not found)"},
      {"another code", StatusIs(409), R(kNotFound), false,
       R"(is a failed result: 404 NotFound: configmaps "x" not found)"},
      {"another reason", StatusIs(api::StatusReason::kConflict), R(kNotFound), false,
       R"(is a failed result: 404 NotFound: configmaps "x" not found)"},
      {"a success", StatusIs(404), R(kObject), false, "is a successful result"},
  };
  for (const auto& c : cases) {
    const auto got = explain<R>(c.matcher, c.result);
    EXPECT_EQ(got.matched, c.matched) << c.name;
    EXPECT_EQ(got.why, c.why) << c.name;
  }
  EXPECT_TRUE(explain<api::Status>(StatusIs(409), kConflict).matched);
  EXPECT_TRUE(explain<api::Result<void>>(StatusIs(api::StatusReason::kConflict), api::Result<void>(kConflict))
                  .matched);
  EXPECT_EQ(describe<R>(StatusIs(404)), "is a failed result with code 404");
  EXPECT_EQ(describe<R>(StatusIs(api::StatusReason::kNotFound)), "is a failed result with reason NotFound");
  EXPECT_EQ(describe_negation<R>(StatusIs(api::StatusReason::kNotFound)),
            "isn't a failed result with reason NotFound");
}

TEST(PrintToTest, ObjectsResultsAndStatuses) {
  EXPECT_EQ(::testing::PrintToString(*kObject),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})");
  EXPECT_EQ(::testing::PrintToString(kObject),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})");
  EXPECT_EQ(::testing::PrintToString(api::ObjectPtr()), "null ObjectPtr");
  EXPECT_EQ(::testing::PrintToString(kNotFound), R"(404 NotFound: configmaps "x" not found)");
  EXPECT_EQ(::testing::PrintToString(api::Result<api::ObjectPtr>(kNotFound)),
            R"(failed: 404 NotFound: configmaps "x" not found)");
  EXPECT_EQ(::testing::PrintToString(api::Result<api::ObjectPtr>(kObject)),
            R"(ok: {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})");
  EXPECT_EQ(::testing::PrintToString(api::Result<int>(3)), "ok: 3");
  EXPECT_EQ(::testing::PrintToString(api::Result<void>()), "ok");
  EXPECT_EQ(::testing::PrintToString(api::new_context_error(sim::ContextError::kCanceled)),
            "client error (Canceled): context canceled");
}

TEST(PrintToTest, AnObjectLosesItsManagedFieldsAndIsCutWhenLong) {
  const api::ObjectPtr managed =
      api::make_object({{"apiVersion", "v1"},
                        {"kind", "ConfigMap"},
                        {"metadata", {{"name", "x"}, {"managedFields", {{{"manager", "m"}}}}}}});
  EXPECT_EQ(::testing::PrintToString(managed),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})");
  const api::ObjectPtr big = api::make_object({{"apiVersion", "v1"},
                                               {"kind", "ConfigMap"},
                                               {"metadata", {{"name", "x"}}},
                                               {"data", {{"k", std::string(2000, 'x')}}}});
  const std::string printed = ::testing::PrintToString(big);
  EXPECT_EQ(printed.size(), 1000 + std::string("…").size());
  EXPECT_EQ(printed.substr(0, 30), R"({"apiVersion":"v1","data":{"k")");
}

TEST(StatusIsTest, AFailureShowsTheResultAndWhy) {
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(api::Result<api::ObjectPtr>(kNotFound), IsOk()),
                          "Expected: is a successful result\n"
                          "  Actual: failed: 404 NotFound: configmaps \"x\" not found, "
                          "is a failed result: 404 NotFound: configmaps \"x\" not found");
  EXPECT_NONFATAL_FAILURE(
      EXPECT_THAT(api::Result<api::ObjectPtr>(kObject), StatusIs(api::StatusReason::kNotFound)),
      "Expected: is a failed result with reason NotFound\n"
      "  Actual: ok: {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"}}, "
      "is a successful result");
}

}  // namespace
}  // namespace kubesim::testing
