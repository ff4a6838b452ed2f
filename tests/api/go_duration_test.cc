// parse_go_duration and format_go_duration against time.ParseDuration's and Duration.String's
// behaviour (cases derived from reading go/src/time: format.go and time_test.go).
#include "kubesim/api/go_duration.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace kubesim::api {
namespace {

using namespace std::chrono_literals;
using sim::Duration;

constexpr Duration kMax{std::numeric_limits<std::int64_t>::max()};
constexpr Duration kMin{std::numeric_limits<std::int64_t>::min()};

struct Parsed {
  const char* text;
  Duration want;
};

TEST(GoDurationTest, ParsesWhatGoParses) {
  const Parsed cases[] = {
      {"0", 0s}, {"5s", 5s}, {"30s", 30s}, {"1478s", 1478s}, {"-5s", -5s}, {"+5s", 5s},
      {"-0", 0s}, {"+0", 0s}, {"5.0s", 5s}, {"5.6s", 5600ms}, {"5.s", 5s}, {".5s", 500ms},
      {"1.0s", 1s}, {"1.00s", 1s}, {"1.004s", 1004ms}, {"1.0040s", 1004ms},
      {"100.00100s", 100001ms}, {"10ns", 10ns}, {"11us", 11us}, {"12\xC2\xB5s", 12us},
      {"12\xCE\xBCs", 12us}, {"13ms", 13ms}, {"14s", 14s}, {"15m", 15min}, {"16h", 16h},
      {"3h30m", 3h + 30min}, {"10.5s4m", 4min + 10500ms}, {"-2m3.4s", -(2min + 3400ms)},
      {"1h2m3s4ms5us6ns", 1h + 2min + 3s + 4ms + 5us + 6ns}, {"39h9m14.425s", 39h + 9min + 14425ms},
      {"52763797000ns", 52763797us}, {"0.3333333333333333333h", 20min},
      {"9007199254740993ns", Duration((std::int64_t{1} << 53) + 1)},
      {"9223372036854775807ns", kMax}, {"9223372036854775.807us", kMax},
      {"9223372036854ms775us807ns", kMax}, {"-9223372036854775808ns", kMin},
      {"-9223372036854775.808us", kMin}, {"-9223372036854ms775us808ns", kMin},
      {"-2562047h47m16.854775808s", kMin}, {"0.100000000000000000000h", 6min},
      {"0.830103483285477580700h", 49min + 48s + 372539827ns},
  };
  for (const auto& c : cases) {
    auto got = parse_go_duration(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.status();
    EXPECT_EQ(got.value(), c.want) << c.text;
  }
}

TEST(GoDurationTest, RefusesWhatGoRefusesWithItsMessage) {
  const std::pair<const char*, const char*> cases[] = {
      {"", R"(time: invalid duration "")"},
      {"3", R"(time: missing unit in duration "3")"},
      {"-", R"(time: invalid duration "-")"},
      {"s", R"(time: invalid duration "s")"},
      {".", R"(time: invalid duration ".")"},
      {"-.", R"(time: invalid duration "-.")"},
      {".s", R"(time: invalid duration ".s")"},
      {"+.s", R"(time: invalid duration "+.s")"},
      {"1d", R"(time: unknown unit "d" in duration "1d")"},
      {"1.5sec", R"(time: unknown unit "sec" in duration "1.5sec")"},
      {"\x85\x85", R"(time: invalid duration "\x85\x85")"},
      {"\xff" "ff", R"(time: invalid duration "\xffff")"},
      {"hello \xff" "ff world", R"(time: invalid duration "hello \xffff world")"},
      {"9223372036854775808ns", R"(time: invalid duration "9223372036854775808ns")"},
      {"9223372036854775.808us", R"(time: invalid duration "9223372036854775.808us")"},
      {"9223372036854ms775us808ns", R"(time: invalid duration "9223372036854ms775us808ns")"},
      {"-9223372036854775809ns", R"(time: invalid duration "-9223372036854775809ns")"},
  };
  for (const auto& [text, message] : cases) {
    auto got = parse_go_duration(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_TRUE(is_bad_request(got.status()));
    EXPECT_EQ(got.status().message, message) << text;
  }
}

TEST(GoDurationTest, FormatsAsDurationStringDoes) {
  const std::pair<const char*, Duration> cases[] = {
      {"0s", 0s}, {"1ns", 1ns}, {"1.1\xC2\xB5s", 1100ns}, {"2.2ms", 2200us}, {"3.3s", 3300ms},
      {"4m5s", 4min + 5s}, {"4m5.001s", 4min + 5001ms}, {"5h6m7.001s", 5h + 6min + 7001ms},
      {"8m0.000000001s", 8min + 1ns}, {"2562047h47m16.854775807s", kMax},
      {"-2562047h47m16.854775808s", kMin}, {"-1.5s", -1500ms}, {"1h0m0s", 1h},
  };
  for (const auto& [text, d] : cases) EXPECT_EQ(format_go_duration(d), text);
}

RC_GTEST_PROP(GoDurationProperty, FormatThenParseIsTheIdentity, (std::int64_t n)) {
  const Duration d(n);
  auto back = parse_go_duration(format_go_duration(d));
  RC_ASSERT(back.ok());
  RC_ASSERT(back.value() == d);
}

// An instant of a run reads as the virtual time since its start.
TEST(GoDurationTest, FormatsAnInstantAsTheTimeSinceTheStart) {
  using namespace std::chrono_literals;
  EXPECT_EQ(format_go_time(sim::Time{}), "0s");
  EXPECT_EQ(format_go_time(sim::Time{} + 90s), "1m30s");
  EXPECT_EQ(format_go_time(sim::Time{} + 1500ms), "1.5s");
}

// For people: to the millisecond, halves away from zero, as Duration.Round(time.Millisecond).
TEST(GoDurationTest, RoundsToTheMillisecondForPeople) {
  EXPECT_EQ(format_rounded(3min + 15s + 201378720ns), "3m15.201s");
  EXPECT_EQ(format_rounded(15s + 937879174ns), "15.938s");
  EXPECT_EQ(format_rounded(10s + 104976ns), "10s");
  EXPECT_EQ(format_rounded(1500us), "2ms");
  EXPECT_EQ(format_rounded(-1500us), "-2ms");
  EXPECT_EQ(format_rounded(250us), "250µs");  // under a millisecond: whole
  EXPECT_EQ(format_rounded_time(sim::Time{} + 2min), "2m0s");
}

}  // namespace
}  // namespace kubesim::api
