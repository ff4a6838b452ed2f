#include "kubesim/sim/time.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace kubesim::sim {
namespace {

using namespace std::chrono_literals;
using std::chrono::seconds;

constexpr std::int64_t kUnixEpoch = 0;

TEST(TimeTest, DefaultEpochIsTheStartOf2025) {
  EXPECT_EQ(format_rfc3339(Time{}), "2025-01-01T00:00:00Z");
  EXPECT_EQ(format_rfc3339_micro(Time{}), "2025-01-01T00:00:00.000000Z");
  EXPECT_EQ(format_rfc3339(Time{}, kUnixEpoch), "1970-01-01T00:00:00Z");
}

TEST(TimeTest, Format) {
  struct Case {
    Duration since;
    std::int64_t epoch;
    const char* seconds_form;
    const char* micro_form;
  };
  const Case cases[] = {
      {7s + 123456789ns, kDefaultEpochUnixSeconds, "2025-01-01T00:00:07Z",
       "2025-01-01T00:00:07.123456Z"},  // truncated, not rounded
      {seconds(99750896), kDefaultEpochUnixSeconds, "2028-02-29T12:34:56Z",
       "2028-02-29T12:34:56.000000Z"},
      {seconds(31535999) + 999999999ns, kDefaultEpochUnixSeconds, "2025-12-31T23:59:59Z",
       "2025-12-31T23:59:59.999999Z"},
      {seconds(31536000), kDefaultEpochUnixSeconds, "2026-01-01T00:00:00Z",
       "2026-01-01T00:00:00.000000Z"},
      {seconds(2371852800), kDefaultEpochUnixSeconds, "2100-03-01T00:00:00Z",
       "2100-03-01T00:00:00.000000Z"},  // 2100 is not a leap year
      // Before the epoch: still floored to the earlier second.
      {-1ns, kDefaultEpochUnixSeconds, "2024-12-31T23:59:59Z", "2024-12-31T23:59:59.999999Z"},
      {-1s, kDefaultEpochUnixSeconds, "2024-12-31T23:59:59Z", "2024-12-31T23:59:59.000000Z"},
      {-24h, kDefaultEpochUnixSeconds, "2024-12-31T00:00:00Z", "2024-12-31T00:00:00.000000Z"},
      {seconds(951782400) + 1us, kUnixEpoch, "2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000001Z"},
      {13h + 5min + 9s, 86400, "1970-01-02T13:05:09Z", "1970-01-02T13:05:09.000000Z"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.seconds_form);
    EXPECT_EQ(format_rfc3339(Time{} + c.since, c.epoch), c.seconds_form);
    EXPECT_EQ(format_rfc3339_micro(Time{} + c.since, c.epoch), c.micro_form);
  }
}

TEST(TimeTest, ParseValidTimestamps) {
  struct Case {
    const char* text;
    Duration since;  // from Time{} with the default epoch
  };
  const Case cases[] = {
      {"2025-01-01T00:00:00Z", 0s},
      {"2025-01-01T00:00:07Z", 7s},
      {"2025-01-01T00:00:07.5Z", 7500ms},
      {"2025-01-01T00:00:07.123456Z", 7s + 123456us},
      {"2025-01-01T00:00:07.123456789Z", 7s + 123456789ns},
      {"2025-01-01T00:00:07.1234567899Z", 7s + 123456789ns},  // beyond nanoseconds: truncated
      {"2025-01-01T02:00:00+02:00", 0s},
      {"2024-12-31T19:00:00-05:00", 0s},
      {"2025-01-01T05:30:00+05:30", 0s},
      {"2025-01-01T00:00:00-00:00", 0s},
      {"2025-01-01T23:59:00+23:59", 0s},
      {"2025-01-01t00:00:01z", 1s},  // RFC 3339 allows lower case
      {"2024-12-31T23:59:59Z", -1s},
      {"2024-12-31T23:59:59.999999999Z", -1ns},
      {"2028-02-29T12:34:56Z", seconds(99750896)},
      {"2300-01-01T00:00:00Z", seconds(8678102400)},
      {"1800-01-01T00:00:00Z", seconds(-7100352000)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Time t = Time{} + 99h;
    ASSERT_TRUE(parse_rfc3339(c.text, t));
    EXPECT_EQ(t, Time{} + c.since);
  }
}

TEST(TimeTest, ParseUsesTheEpochGiven) {
  Time t;
  ASSERT_TRUE(parse_rfc3339("1970-01-01T00:01:00Z", t, kUnixEpoch));
  EXPECT_EQ(t, Time{} + 60s);
  ASSERT_TRUE(parse_rfc3339("1970-01-01T00:01:00Z", t, 120));
  EXPECT_EQ(t, Time{} - 60s);
}

TEST(TimeTest, RoundTripsTruncateToThePrecisionOfTheForm) {
  const Duration instants[] = {
      0ns,
      1ns,
      999999999ns,
      7s + 123456789ns,
      -1ns,
      -1s - 1ns,
      -365 * 24h + 17ms,
      seconds(99750896) + 999999ns,
      24h * 365 * 200 + 1us,
      -24h * 365 * 200 - 1us,
  };
  const std::int64_t epochs[] = {kDefaultEpochUnixSeconds, kUnixEpoch, 1'000'000'000};
  for (std::int64_t epoch : epochs) {
    for (Duration d : instants) {
      SCOPED_TRACE(testing::Message() << d.count() << "ns epoch " << epoch);
      const Time t = Time{} + d;
      Time back;
      ASSERT_TRUE(parse_rfc3339(format_rfc3339(t, epoch), back, epoch));
      EXPECT_EQ(back, Time{} + std::chrono::floor<seconds>(d));
      ASSERT_TRUE(parse_rfc3339(format_rfc3339_micro(t, epoch), back, epoch));
      EXPECT_EQ(back, Time{} + std::chrono::floor<std::chrono::microseconds>(d));
      // Formatting what was parsed gives the same text again.
      EXPECT_EQ(format_rfc3339_micro(back, epoch), format_rfc3339_micro(t, epoch));
    }
  }
}

TEST(TimeTest, MalformedInputsAreRejectedAndLeaveTheOutputAlone) {
  const char* inputs[] = {
      "",
      "2025",
      "2025-01-01",
      "2025-01-01T00:00:00",   // no zone
      "2025-01-01T00:00Z",     // no seconds
      "2025-01-01 00:00:00Z",  // space separator
      "2025-01-01X00:00:00Z",
      "2025-1-01T00:00:00Z",  // one-digit month
      "2025-01-1T00:00:00Z",
      "25-01-01T00:00:00Z",
      "x025-01-01T00:00:00Z",
      "2025/01/01T00:00:00Z",
      "2025-00-01T00:00:00Z",  // month 0
      "2025-13-01T00:00:00Z",
      "2025-01-00T00:00:00Z",  // day 0
      "2025-01-32T00:00:00Z",
      "2025-02-29T00:00:00Z",  // 2025 is not a leap year
      "2100-02-29T00:00:00Z",
      "2025-04-31T00:00:00Z",
      "2025-01-01T24:00:00Z",
      "2025-01-01T00:60:00Z",
      "2025-01-01T00:00:61Z",
      "2025-01-01T-1:00:00Z",
      "2025-01-01T00:00:00.Z",   // empty fraction
      "2025-01-01T00:00:00,5Z",  // comma fraction
      "2025-01-01T00:00:00.5",   // fraction without zone
      "2025-01-01T00:00:00+0200",
      "2025-01-01T00:00:00+02",
      "2025-01-01T00:00:00+2:00",
      "2025-01-01T00:00:00+02:00:00",
      "2025-01-01T00:00:00+24:00",  // offset hour out of range
      "2025-01-01T00:00:00+02:60",  // offset minute out of range
      "2025-01-01T00:00:00ZZ",
      "2025-01-01T00:00:00Z ",
      " 2025-01-01T00:00:00Z",
      "2025-01-01T00:00:00UTC",
      "9999-12-31T23:59:59Z",  // beyond what Time holds
      "0001-01-01T00:00:00Z",
  };
  for (const char* text : inputs) {
    SCOPED_TRACE(text);
    const Time sentinel = Time{} + 42s;
    Time t = sentinel;
    EXPECT_FALSE(parse_rfc3339(text, t));
    EXPECT_EQ(t, sentinel);
  }
  // An embedded NUL is not the end of the text.
  Time t = Time{} + 42s;
  EXPECT_FALSE(parse_rfc3339(std::string("2025-01-01T00:00:00Z\0", 21), t));
  EXPECT_EQ(t, Time{} + 42s);
}

TEST(TimeTest, ToSeconds) {
  EXPECT_DOUBLE_EQ(to_seconds(1500ms), 1.5);
  EXPECT_DOUBLE_EQ(to_seconds(-250ms), -0.25);
  EXPECT_DOUBLE_EQ(to_seconds(1ns), 1e-9);
}

}  // namespace
}  // namespace kubesim::sim
