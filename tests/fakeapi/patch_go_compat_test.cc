#include <gtest/gtest.h>

#include <string>

#include "fakeapi/internal/encoding/go_compat.h"

namespace kubesim::fakeapi::internal {
namespace {

using nlohmann::json;

std::string parse_error(std::string_view text) {
  std::string error;
  auto v = go_parse(text, error);
  EXPECT_FALSE(v.has_value()) << text;
  return error;
}

// encoding/json's messages, byte for byte.
TEST(GoParseTest, SyntaxErrorsAreGos) {
  struct Case {
    std::string text;
    const char* error;
  };
  const Case cases[] = {
      {"", "unexpected end of JSON input"},
      {"   ", "unexpected end of JSON input"},
      {"-", "invalid character ' ' in numeric literal"},
      {"{\"a\":1", "unexpected end of JSON input"},
      {"x", "invalid character 'x' looking for beginning of value"},
      {"[1,]", "invalid character ']' looking for beginning of value"},
      {"{,}", "invalid character ',' looking for beginning of object key string"},
      {"{\"a\" 1}", "invalid character '1' after object key"},
      {"{\"a\":1,}", "invalid character '}' looking for beginning of object key string"},
      {"[1 2]", "invalid character '2' after array element"},
      {"{} {}", "invalid character '{' after top-level value"},
      {"\"a\nb\"", "invalid character '\\n' in string literal"},
      {"\"\\x\"", "invalid character 'x' in string escape code"},
      {"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"},
      {"01", "invalid character '1' after top-level value"},
      {"1.", "invalid character ' ' after decimal point in numeric literal"},
      {"1.e5", "invalid character 'e' after decimal point in numeric literal"},
      {"1e", "invalid character ' ' in exponent of numeric literal"},
      {"-a", "invalid character 'a' in numeric literal"},
      {"tru", "invalid character ' ' in literal true (expecting 'e')"},
      {"trux", "invalid character 'x' in literal true (expecting 'e')"},
      {"fals3", "invalid character '3' in literal false (expecting 'e')"},
      {"nul", "invalid character ' ' in literal null (expecting 'l')"},
      {"nulL", "invalid character 'L' in literal null (expecting 'l')"},
      {"'a'", "invalid character '\\'' looking for beginning of value"},
      {"\x01", "invalid character '\\x01' looking for beginning of value"},
      {"\xEF\xBB\xBF{}", "invalid character '\xC3\xAF' looking for beginning of value"},
      {"\xA0", "invalid character '\\u00a0' looking for beginning of value"},
      {"\xC2\xA0", "invalid character '\xC3\x82' looking for beginning of value"},
      {std::string(10001, '['), "invalid character '[' exceeded max depth"},
  };
  for (const Case& c : cases) EXPECT_EQ(parse_error(c.text), c.error) << c.text;
}

TEST(GoParseTest, DecodesWhatGoDecodes) {
  std::string error;
  EXPECT_EQ(go_parse(R"( {"a":[1,2.5,"x",true,null],"b":{}} )", error),
            json::parse(R"({"a":[1,2.5,"x",true,null],"b":{}})"));
  EXPECT_EQ(go_parse(std::string(10000, '[') + std::string(10000, ']'), error)->is_array(), true);
  // Invalid UTF-8 and lone surrogates become U+FFFD, as Go's decoder makes them.
  EXPECT_EQ(go_parse("\"a\xFF"
                     "b\"",
                     error),
            json("a\xEF\xBF\xBD"
                 "b"));
  EXPECT_EQ(go_parse(R"("\ud800x")", error), json("\xEF\xBF\xBDx"));
  EXPECT_EQ(go_parse(R"("\udc00\ud83d\ude00")", error), json("\xEF\xBF\xBD\xF0\x9F\x98\x80"));
  EXPECT_EQ(go_parse("\"\xED\xA0\x80\"", error), json("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"));
  // Duplicate keys: the last one wins, as in Go.
  EXPECT_EQ(go_parse(R"({"a":1,"a":2})", error), json::parse(R"({"a":2})"));
}

TEST(GoValuesTest, TypesEqualityAndFormatting) {
  EXPECT_EQ(go_type(json(1)), GoType::kInt64);
  EXPECT_EQ(go_type(json(1.0)), GoType::kFloat64);
  EXPECT_EQ(go_type(json(18446744073709551615ull)), GoType::kFloat64);
  EXPECT_FALSE(go_equal(json(1), json(1.0)));
  EXPECT_TRUE(go_equal(json(1), json(1u)));
  EXPECT_TRUE(go_equal(json::parse(R"({"a":[1,"x"]})"), json::parse(R"({"a":[1,"x"]})")));
  EXPECT_FALSE(go_equal(json::parse(R"({"a":[1]})"), json::parse(R"({"a":[1.0]})")));
  EXPECT_EQ(go_type_name(json::object()), "map[string]interface {}");
  EXPECT_EQ(go_type_name(json::array()), "[]interface {}");
  EXPECT_EQ(go_type_name(json()), "%!s(<nil>)");
  EXPECT_EQ(go_format_s(json()), "%!s(<nil>)");
  EXPECT_EQ(go_json_kind(json(true)), "bool");

  EXPECT_EQ(go_format_v(json::parse(R"({"b":[1,"x",null],"a":{"c":true}})")),
            "map[a:map[c:true] b:[1 x <nil>]]");
  EXPECT_EQ(go_format_s(json::parse(R"({"a":5,"b":"x","c":1.5,"d":false,"e":null})")),
            "map[a:%!s(int64=5) b:x c:%!s(float64=1.5) d:%!s(bool=false) e:<nil>]");
  const std::pair<double, const char*> floats[] = {
      {1.5, "1.5"},          {100000.0, "100000"},
      {1e6, "1e+06"},        {1234567.0, "1.234567e+06"},
      {0.0001, "0.0001"},    {0.00001, "1e-05"},
      {-2.5e-7, "-2.5e-07"}, {1e21, "1e+21"},
      {123.456, "123.456"},  {0.0, "0"},
      {1e100, "1e+100"},
  };
  for (const auto& [f, want] : floats) EXPECT_EQ(go_format_v(json(f)), want) << f;
}

TEST(GoValuesTest, Quote) {
  EXPECT_EQ(go_quote("plain"), R"("plain")");
  EXPECT_EQ(go_quote("a\"b\\c\n\t\x01\x7f"), R"("a\"b\\c\n\t\x01\x7f")");
  EXPECT_EQ(go_quote("\xC3\xA9t\xC3\xA9"), "\"\xC3\xA9t\xC3\xA9\"");
  EXPECT_EQ(go_quote("\xFF"), R"("\xff")");
  EXPECT_EQ(go_quote("\xE2\x80\xA8"), R"("\u2028")");
  EXPECT_EQ(go_quote("\xF3\xB0\x80\x80"), R"("\U000f0000")");
}

TEST(GoStableOrderTest, MatchesAStableSortForAStrictWeakOrder) {
  for (std::size_t n : {0u, 1u, 5u, 20u, 21u, 45u, 100u, 333u}) {
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>((i * 7919) % 13);
    auto perm = go_stable_order(n, [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    std::vector<std::size_t> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = i;
    std::stable_sort(want.begin(), want.end(),
                     [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    EXPECT_EQ(perm, want) << n;
  }
  // An inconsistent "less" (always true) is safe and gives insertion sort's answer.
  auto reversed = go_stable_order(4, [](std::size_t, std::size_t) { return true; });
  EXPECT_EQ(reversed, (std::vector<std::size_t>{3, 2, 1, 0}));
}

}  // namespace
}  // namespace kubesim::fakeapi::internal
