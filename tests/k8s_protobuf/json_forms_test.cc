// The Go JSON forms the decoder writes: base64, UTF-8 repair, RFC 3339 times, Quantity syntax.
#include "fakeapi/http/protobuf/internal/json_forms.h"

#include <gtest/gtest.h>

namespace kubesim::fakeapi::http::k8s_protobuf {
namespace {

TEST(JsonForms, Base64WithPadding) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\xfb\xff\x00", 3)), "+/8A");
}

TEST(JsonForms, Utf8RepairMatchesGo) {
  EXPECT_EQ(go_json_text("plain é € 😀"), "plain é € 😀");
  EXPECT_EQ(go_json_text(std::string("a\0b", 3)), std::string("a\0b", 3));
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(go_json_text("\xff"), r);
  EXPECT_EQ(go_json_text("\xc0\xaf"), r + r);              // overlong '/'
  EXPECT_EQ(go_json_text("\xed\xa0\x80"), r + r + r);      // a surrogate
  EXPECT_EQ(go_json_text("\xf4\x90\x80\x80"), r + r + r + r);  // past U+10FFFF
  EXPECT_EQ(go_json_text("\xe2\x82"), r + r);              // cut short
  EXPECT_EQ(go_json_text("x\xe2\x82\xacy"), "x€y");
}

TEST(JsonForms, Rfc3339) {
  EXPECT_EQ(rfc3339(0, 0, false), "1970-01-01T00:00:00Z");
  EXPECT_EQ(rfc3339(1714557600, 0, false), "2024-05-01T10:00:00Z");
  EXPECT_EQ(rfc3339(951782400, 0, false), "2000-02-29T00:00:00Z");
  EXPECT_EQ(rfc3339(-1, 0, false), "1969-12-31T23:59:59Z");
  EXPECT_EQ(rfc3339(-62135596800, 0, false), "0001-01-01T00:00:00Z");
  EXPECT_EQ(rfc3339(-62167219200, 0, false), "0000-01-01T00:00:00Z");
  EXPECT_EQ(rfc3339(253402300799, 0, false), "9999-12-31T23:59:59Z");
  EXPECT_EQ(rfc3339(253402300800, 0, false), std::nullopt);
  EXPECT_EQ(rfc3339(-62167219201, 0, false), std::nullopt);
  EXPECT_EQ(rfc3339(INT64_MIN, 0, false), std::nullopt);
  EXPECT_EQ(rfc3339(1714557600, 123456789, true), "2024-05-01T10:00:00.123456Z");
  EXPECT_EQ(rfc3339(0, -1000, true), "1969-12-31T23:59:59.999999Z");
}

TEST(JsonForms, QuantitySyntaxAsParseQuantity) {
  for (const char* ok : {"0", "1", "+1", "-1", "1.5", ".5", "1.", "500m", "64Mi", "1Gi", "2e3",
                         "1E-2", "1e+9", "100n", "7u", "3k", "4M", "5G", "6T", "7P", "8E", "9Ei",
                         "-", "+", "."}) {
    EXPECT_EQ(quantity_error(ok), std::nullopt) << ok;
  }
  for (const char* bad : {"", "lots", " 1", "1 ", "1.5.5", "1Qi", "0x10", "1e3x", "1KiB"}) {
    EXPECT_NE(quantity_error(bad), std::nullopt) << bad;
    EXPECT_NE(quantity_error(bad)->find("regular expression"), std::string::npos) << bad;
  }
  for (const char* bad : {"1e", "1mk", "--1", "1ki", "1e99999999999999999999"}) {
    EXPECT_EQ(quantity_error(bad), "unable to parse quantity's suffix") << bad;
  }
}

}  // namespace
}  // namespace kubesim::fakeapi::http::k8s_protobuf
