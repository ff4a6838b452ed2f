// The string formats custom resources are checked against (internal/crd/schema_formats.h): which
// formats a schema keeps, and what each accepts, as kube-openapi's strfmt accepts it.
#include "fakeapi/internal/crd/schema_formats.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace kubesim::fakeapi {
namespace {

using internal::effective_format;
using internal::string_format_valid;
using Types = std::vector<std::string>;

TEST(SchemaFormatsTest, OnlySupportedFormatsOfTheRightTypeAreKept) {
  EXPECT_EQ(effective_format({"string"}, "date-time"), "date-time");
  EXPECT_EQ(effective_format({}, "uuid"), "uuid");
  EXPECT_EQ(effective_format({"integer", "string"}, "k8s-short-name"), "k8s-short-name");
  EXPECT_EQ(effective_format({"integer", "string"}, "int32"), "");
  EXPECT_EQ(effective_format({"string"}, "color"), "");
  EXPECT_EQ(effective_format({"string"}, "int32"), "");
  EXPECT_EQ(effective_format({"integer"}, "int32"), "int32");
  EXPECT_EQ(effective_format({"integer"}, "date"), "");
  EXPECT_EQ(effective_format({"number"}, "float"), "float");
  EXPECT_EQ(effective_format({"number"}, "int64"), "");
  EXPECT_EQ(effective_format({"boolean"}, "date"), "");
  EXPECT_TRUE(internal::is_string_format("datetime"));
  EXPECT_FALSE(internal::is_string_format("int32"));
}

struct FormatCase {
  const char* format;
  const char* value;
  bool valid;
};

class FormatTest : public ::testing::TestWithParam<FormatCase> {};

TEST_P(FormatTest, AcceptsWhatStrfmtAccepts) {
  const FormatCase& c = GetParam();
  EXPECT_EQ(string_format_valid(c.format, c.value), c.valid) << c.format << " " << c.value;
}

INSTANTIATE_TEST_SUITE_P(
    TimeAndText, FormatTest,
    ::testing::Values(
        FormatCase{"date", "2024-02-29", true}, FormatCase{"date", "2023-02-29", false},
        FormatCase{"date", "2024-1-01", false}, FormatCase{"date", "2024-13-01", false},
        FormatCase{"date-time", "2024-02-29T10:00:00Z", true},
        FormatCase{"date-time", "2024-02-29t10:00:00.123+01:00", true},
        FormatCase{"date-time", "2024-02-29T24:00:00Z", false},
        FormatCase{"date-time", "2024-02-29 10:00:00Z", false},
        FormatCase{"date-time", "2024-02-29T10:00:00", false},
        FormatCase{"duration", "1h30m", true}, FormatCase{"duration", "-1.5s", true},
        FormatCase{"duration", "3 days", true}, FormatCase{"duration", "forever", false},
        FormatCase{"duration", "5 parsecs", false},
        FormatCase{"uuid", "123e4567-e89b-12d3-a456-426614174000", true},
        FormatCase{"uuid", "123E4567E89B12D3A456426614174000", true},
        FormatCase{"uuid", "123e4567-e89b-12d3-a456", false},
        FormatCase{"uuid4", "123e4567-e89b-42d3-a456-426614174000", true},
        FormatCase{"uuid4", "123e4567-e89b-12d3-a456-426614174000", false},
        FormatCase{"uuid5", "123e4567-e89b-52d3-c456-426614174000", false},
        FormatCase{"byte", "aGVsbG8=", true}, FormatCase{"byte", "aGVsbG8", false},
        FormatCase{"byte", "", false}, FormatCase{"password", "anything", true},
        FormatCase{"isbn10", "0321751043", true}, FormatCase{"isbn10", "0321751044", false},
        FormatCase{"isbn13", "978-0321751041", true}, FormatCase{"isbn", "978 0321751041", true},
        FormatCase{"creditcard", "4111 1111 1111 1111", true},
        FormatCase{"creditcard", "4111111111111112", false}, FormatCase{"ssn", "123-45-6789", true},
        FormatCase{"ssn", "123456789", false}, FormatCase{"hexcolor", "#fff", true},
        FormatCase{"hexcolor", "#ffff", false}, FormatCase{"rgbcolor", "rgb(255, 0, 10)", true},
        FormatCase{"rgbcolor", "rgb(256,0,0)", false},
        FormatCase{"bsonobjectid", "507f1f77bcf86cd799439011", true},
        FormatCase{"bsonobjectid", "507f1f77", false},
        FormatCase{"k8s-short-name", "my-name", true},
        FormatCase{"k8s-short-name", "My-Name", false},
        FormatCase{"k8s-long-name", "a.b-c.d", true}, FormatCase{"k8s-long-name", "a..b", false}));

INSTANTIATE_TEST_SUITE_P(
    Network, FormatTest,
    ::testing::Values(
        FormatCase{"ipv4", "10.0.0.1", true}, FormatCase{"ipv4", "010.0.0.1", true},
        FormatCase{"ipv4", "10.0.0", false}, FormatCase{"ipv4", "256.0.0.1", false},
        FormatCase{"ipv4", "::ffff:10.0.0.1", true}, FormatCase{"ipv6", "::1", true},
        FormatCase{"ipv6", "2001:db8::1", true}, FormatCase{"ipv6", "1::2::3", false},
        FormatCase{"ipv6", "fe80::1%eth0", false}, FormatCase{"ipv6", "10.0.0.1", false},
        FormatCase{"cidr", "10.0.0.0/8", true}, FormatCase{"cidr", "::/0", true},
        FormatCase{"cidr", "10.0.0.0/33", false}, FormatCase{"cidr", "10.0.0.0", false},
        FormatCase{"mac", "01:23:45:67:89:ab", true}, FormatCase{"mac", "01-23-45-67-89-AB", true},
        FormatCase{"mac", "0123.4567.89ab", true}, FormatCase{"mac", "01:23:45:67:89", false},
        FormatCase{"mac", "01:23-45:67:89:ab", false}, FormatCase{"hostname", "example.com", true},
        FormatCase{"hostname", "localhost", true}, FormatCase{"hostname", "a-b.example.com", true},
        // strfmt's pattern allows a lone label's '-' only as its second character.
        FormatCase{"hostname", "m-yhost", true}, FormatCase{"hostname", "my-host", false},
        FormatCase{"hostname", "example.c0m", false}, FormatCase{"hostname", "10.0.0.1", false},
        FormatCase{"uri", "https://example.com/path?q=1", true},
        FormatCase{"uri", "/relative/path", true}, FormatCase{"uri", "mailto:a@example.com", true},
        FormatCase{"uri", "http://[::1]:80/", true}, FormatCase{"uri", "example.com", false},
        FormatCase{"uri", "http://host:port/", false}, FormatCase{"uri", "/bad%zz", false},
        FormatCase{"uri", "", false}, FormatCase{"email", "a@example.com", true},
        FormatCase{"email", "Jane Doe <jane@example.com>", true},
        FormatCase{"email", "\"quoted local\"@example.com", true},
        FormatCase{"email", "a@[10.0.0.1]", true}, FormatCase{"email", "no-at-sign", false},
        FormatCase{"email", "a@b@c", false}, FormatCase{"email", "a..b@example.com", false},
        FormatCase{"email", "Jane <jane@example.com", false}));

// Every check reads any text without running off its end: random bytes, and random text made of
// the characters the formats care about.
RC_GTEST_PROP(SchemaFormatsProperty, AnyTextIsReadSafely, ()) {
  static const std::vector<std::string> kFormats = {
      "bsonobjectid", "uri",        "email",    "hostname",  "ipv4",
      "ipv6",         "cidr",       "mac",      "uuid",      "uuid4",
      "isbn",         "creditcard", "ssn",      "hexcolor",  "rgbcolor",
      "byte",         "date",       "duration", "date-time", "k8s-short-name",
      "k8s-long-name"};
  const std::string text = *rc::gen::arbitrary<bool>()
                               ? *rc::gen::arbitrary<std::string>()
                               : *rc::gen::container<std::string>(rc::gen::elementOf(
                                     std::string("0123456789abcdefT:.-/@[]<>%() \"\\")));
  for (const std::string& f : kFormats) string_format_valid(f, text);
}

}  // namespace
}  // namespace kubesim::fakeapi
