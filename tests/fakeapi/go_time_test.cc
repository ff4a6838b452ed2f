// metav1.Time and MicroTime: Go's time.Parse for their layouts (errors word for word) and what
// the server keeps and writes back.
#include "fakeapi/internal/encoding/types/go_time.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace kubesim::fakeapi::types {
namespace {

constexpr auto kTime = TimeLayout::kRFC3339;
constexpr auto kMicro = TimeLayout::kRFC3339Micro;

// The stored text, or "null" for the zero time, or "error: <text>".
std::string stored(std::string_view value, TimeLayout layout) {
  auto r = stored_time(value, layout);
  if (auto* error = std::get_if<std::string>(&r)) return "error: " + *error;
  const std::string& text = std::get<StoredTime>(r).text;
  return text.empty() ? "null" : text;
}

std::string time_error(std::string_view value, std::string_view elem_value, std::string_view elem) {
  return "error: parsing time \"" + std::string(value) +
         "\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"" + std::string(elem_value) +
         "\" as \"" + std::string(elem) + "\"";
}

std::string micro_error(std::string_view value, std::string_view elem_value,
                        std::string_view elem) {
  return "error: parsing time \"" + std::string(value) +
         "\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse \"" +
         std::string(elem_value) + "\" as \"" + std::string(elem) + "\"";
}

TEST(GoTimeTest, ParsesTheInstant) {
  const auto t = parse_go_time("2024-01-02T03:04:05Z", kTime);
  ASSERT_TRUE(std::holds_alternative<GoInstant>(t));
  EXPECT_EQ(std::get<GoInstant>(t), (GoInstant{1704164645, 0}));
  const auto offset = parse_go_time("2024-01-02T05:04:05.25+02:00", kTime);
  ASSERT_TRUE(std::holds_alternative<GoInstant>(offset));
  EXPECT_EQ(std::get<GoInstant>(offset), (GoInstant{1704164645, 250'000'000}));
  const auto micro = parse_go_time("2024-01-02T03:04:05.000007Z", kMicro);
  ASSERT_TRUE(std::holds_alternative<GoInstant>(micro));
  EXPECT_EQ(std::get<GoInstant>(micro), (GoInstant{1704164645, 7'000}));
}

TEST(GoTimeTest, TimesAreStoredInUtcToTheSecond) {
  const struct {
    std::string_view value;
    std::string_view want;
  } cases[] = {
      {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"},
      {"2024-01-02T03:04:05+02:00", "2024-01-02T01:04:05Z"},
      {"2024-01-01T00:30:00+01:00", "2023-12-31T23:30:00Z"},
      {"2024-01-02T03:04:05-00:00", "2024-01-02T03:04:05Z"},
      {"2024-01-02T03:04:05.999Z", "2024-01-02T03:04:05Z"},              // a fraction is dropped
      {"2024-01-02T03:04:05,5Z", "2024-01-02T03:04:05Z"},                // with a comma too
      {"2024-01-02T03:04:05.123456789123Z", "2024-01-02T03:04:05Z"},     // of any length
      {"2024-01-02T3:04:05Z", "2024-01-02T03:04:05Z"},                   // a one-digit hour
      {"2024-01-01T00:00:00+24:00", "2023-12-31T00:00:00Z"},             // offsets of 24 h
      {"2024-01-01T00:00:00+00:60", "2023-12-31T23:00:00Z"},             // and of 60 min
      {"2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"},
      {"2000-02-29T12:00:00Z", "2000-02-29T12:00:00Z"},
      {"1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"},
      {"1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59Z"},
      {"0001-01-01T00:00:00Z", "null"},                                  // the zero time
      {"0001-01-01T00:00:00.5Z", "null"},                                // once truncated
      {"0001-01-01T01:00:00+01:00", "null"},
      {"0001-01-01T00:00:01Z", "0001-01-01T00:00:01Z"},
      {"0000-01-01T00:30:00+01:00", "-0001-12-31T23:30:00Z"},
      {"9999-12-31T23:30:00-01:00", "10000-01-01T00:30:00Z"},
  };
  for (const auto& c : cases) EXPECT_EQ(stored(c.value, kTime), c.want) << c.value;
}

TEST(GoTimeTest, MicroTimesAreStoredInUtcToTheMicrosecond) {
  const struct {
    std::string_view value;
    std::string_view want;
  } cases[] = {
      {"2024-01-02T03:04:05.123456Z", "2024-01-02T03:04:05.123456Z"},
      {"2024-01-02T03:04:05.000000Z", "2024-01-02T03:04:05.000000Z"},
      {"2024-01-02T03:04:05.123456+01:00", "2024-01-02T02:04:05.123456Z"},
      {"2024-01-02T03:04:05,123456Z", "2024-01-02T03:04:05.123456Z"},
      // atoi takes a sign: "+12345" reads as 12345 of the six digits' places.
      {"2024-01-02T03:04:05.+12345Z", "2024-01-02T03:04:05.012345Z"},
      {"0001-01-01T00:00:00.000000Z", "null"},
      {"0001-01-01T00:00:00.000001Z", "0001-01-01T00:00:00.000001Z"},
  };
  for (const auto& c : cases) EXPECT_EQ(stored(c.value, kMicro), c.want) << c.value;
}

TEST(GoTimeTest, TimeErrorsAreGos) {
  const struct {
    std::string_view value;
    std::string want;
  } cases[] = {
      {"yesterday", time_error("yesterday", "yesterday", "2006")},
      {"", time_error("", "", "2006")},
      {"24", time_error("24", "24", "2006")},
      {"20x4-01-01T00:00:00Z", time_error("20x4-01-01T00:00:00Z", "20x4-01-01T00:00:00Z", "2006")},
      {"2024/01/01T00:00:00Z", time_error("2024/01/01T00:00:00Z", "/01/01T00:00:00Z", "-")},
      {"2024-1-01T00:00:00Z", time_error("2024-1-01T00:00:00Z", "1-01T00:00:00Z", "01")},
      {"2024-01-01", time_error("2024-01-01", "", "T")},
      {"2024-01-01 00:00:00Z", time_error("2024-01-01 00:00:00Z", " 00:00:00Z", "T")},
      {"2024-01-01T00:00:00", time_error("2024-01-01T00:00:00", "", "Z07:00")},
      {"2024-01-01T00:00:00.Z", time_error("2024-01-01T00:00:00.Z", ".Z", "Z07:00")},
      {"2024-01-01T00:00:00+0100", time_error("2024-01-01T00:00:00+0100", "+0100", "Z07:00")},
      {"2024-01-01T00:00:00*01:00", time_error("2024-01-01T00:00:00*01:00", "*01:00", "Z07:00")},
      {"2024-01-01T00:00:00+0a:00", time_error("2024-01-01T00:00:00+0a:00", "+0a:00", "Z07:00")},
      {"2024-01-01T00:0:00Z", time_error("2024-01-01T00:0:00Z", "0:00Z", "04")},
      {"2024-13-01T00:00:00Z", "error: parsing time \"2024-13-01T00:00:00Z\": month out of range"},
      {"2024-00-01T00:00:00Z", "error: parsing time \"2024-00-01T00:00:00Z\": month out of range"},
      {"2024-01-01T24:00:00Z", "error: parsing time \"2024-01-01T24:00:00Z\": hour out of range"},
      {"2024-01-01T00:60:00Z", "error: parsing time \"2024-01-01T00:60:00Z\": minute out of range"},
      {"2024-01-01T00:00:60Z", "error: parsing time \"2024-01-01T00:00:60Z\": second out of range"},
      {"2023-02-29T00:00:00Z", "error: parsing time \"2023-02-29T00:00:00Z\": day out of range"},
      {"2024-04-31T00:00:00Z", "error: parsing time \"2024-04-31T00:00:00Z\": day out of range"},
      {"2024-01-00T00:00:00Z", "error: parsing time \"2024-01-00T00:00:00Z\": day out of range"},
      // A range error in the offset is reported before a bad sign or minute.
      {"2024-01-01T00:00:00+25:00",
       "error: parsing time \"2024-01-01T00:00:00+25:00\": time zone offset hour out of range"},
      {"2024-01-01T00:00:00*25:00",
       "error: parsing time \"2024-01-01T00:00:00*25:00\": time zone offset hour out of range"},
      {"2024-01-01T00:00:00+01:61",
       "error: parsing time \"2024-01-01T00:00:00+01:61\": time zone offset minute out of range"},
      // Extra text is reported before a day out of range.
      {"2023-02-29T00:00:00Zjunk",
       "error: parsing time \"2023-02-29T00:00:00Zjunk\": extra text: \"junk\""},
      // time's quote: '"' and '\\' escaped, every byte past ASCII or below ' ' as \xNN.
      {"2024-01-01T00:00:00Z\"\\\xc3\xa9\t",
       "error: parsing time \"2024-01-01T00:00:00Z\\\"\\\\\\xc3\\xa9\\x09\": extra text: "
       "\"\\\"\\\\\\xc3\\xa9\\x09\""},
      {"\xff", time_error("\\xff", "\\xff", "2006")},
  };
  for (const auto& c : cases) EXPECT_EQ(stored(c.value, kTime), c.want) << c.value;
}

TEST(GoTimeTest, MicroTimeErrorsAreGos) {
  const struct {
    std::string_view value;
    std::string want;
  } cases[] = {
      // Six digits exactly: a MicroTime cannot leave its fraction out.
      {"2024-01-02T03:04:05Z", micro_error("2024-01-02T03:04:05Z", "Z", ".000000")},
      {"2024-01-02T03:04:05.123Z", micro_error("2024-01-02T03:04:05.123Z", ".123Z", ".000000")},
      {"2024-01-02T03:04:05Z+01:00",
       micro_error("2024-01-02T03:04:05Z+01:00", "Z+01:00", ".000000")},
      {"2024-01-02T03:04:05.12a456Z",
       micro_error("2024-01-02T03:04:05.12a456Z", ".12a456Z", ".000000")},
      {"2024-01-02T03:04:05.123456789Z",
       micro_error("2024-01-02T03:04:05.123456789Z", "789Z", "Z07:00")},
      {"2024-01-02T03:04:05.-12345Z",
       "error: parsing time \"2024-01-02T03:04:05.-12345Z\": fractional second out of range"},
      {"yesterday", micro_error("yesterday", "yesterday", "2006")},
  };
  for (const auto& c : cases) EXPECT_EQ(stored(c.value, kMicro), c.want) << c.value;
}

TEST(GoTimeTest, FormatsAsGoFormatsInUtc) {
  EXPECT_EQ(format_go_time({1704164645, 123'456'789}, kTime), "2024-01-02T03:04:05Z");
  EXPECT_EQ(format_go_time({1704164645, 123'456'789}, kMicro), "2024-01-02T03:04:05.123456Z");
  EXPECT_EQ(format_go_time({-1, 0}, kMicro), "1969-12-31T23:59:59.000000Z");
  EXPECT_EQ(format_go_time({-62135596800, 0}, kTime), "0001-01-01T00:00:00Z");
}

}  // namespace
}  // namespace kubesim::fakeapi::types
