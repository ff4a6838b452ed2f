#include "kubesim/api/validation.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kubesim/api/go_strings.h"

namespace kubesim::api {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

std::string repeat(char c, std::size_t n) { return std::string(n, c); }

TEST(Dns1123LabelTest, AcceptsLowercaseAlphanumericsWithInnerDashes) {
  for (const std::string& v :
       {std::string("a"), std::string("ab"), std::string("z9"), std::string("a-9"),
        std::string("a--9--x--b"), std::string("7"), std::string("07"), std::string("9-z"),
        std::string("9--y--x--8"), repeat('a', 63)}) {
    EXPECT_THAT(is_dns1123_label(v), IsEmpty()) << v;
  }
}

TEST(Dns1123LabelTest, RejectsEverythingElse) {
  for (const std::string& v :
       {std::string(""),    std::string("B"),   std::string("aBc"), std::string("Z9"),
        std::string("9-Z"), std::string("-"),   std::string("b-"),  std::string("-b"),
        std::string("7-"),  std::string("-7"),  std::string("_"),   std::string("b_"),
        std::string("b_c"), std::string("."),   std::string("b."),  std::string(".b"),
        std::string(" "),   std::string("b c"), std::string("b "),  repeat('a', 64)}) {
    EXPECT_THAT(is_dns1123_label(v), Not(IsEmpty())) << v;
  }
}

TEST(Dns1123LabelTest, MessagesUseApimachineryWording) {
  EXPECT_THAT(is_dns1123_label("a.b"), ElementsAre("must not contain dots"));
  // util/validation's MaxLenError counts characters.
  EXPECT_THAT(is_dns1123_label(repeat('a', 64)), ElementsAre("must be no more than 63 characters"));
  EXPECT_THAT(is_dns1035_label(repeat('a', 64)), ElementsAre("must be no more than 63 characters"));
  EXPECT_THAT(
      is_dns1123_label("Ab"),
      ElementsAre("a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                  "or '-', and must start and end with an alphanumeric character (e.g. 'my-name', "
                  " or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
  // Too long and with dots: both the length and the dots are reported.
  EXPECT_THAT(is_dns1123_label(repeat('a', 40) + "." + repeat('b', 40)), SizeIs(2));
}

TEST(Dns1123SubdomainTest, AcceptsDottedLabels) {
  for (const std::string& v :
       {std::string("a"), std::string("a.b"), std::string("b-1.c"), std::string("0.9"),
        std::string("9a.b"), std::string("a.b.c.d.e"), std::string("11.22.33.44.55"),
        std::string("x--1--y.z"), repeat('a', 253), repeat('a', 63) + "." + repeat('b', 189)}) {
    EXPECT_THAT(is_dns1123_subdomain(v), IsEmpty()) << v;
  }
}

TEST(Dns1123SubdomainTest, RejectsBadSyntaxAndLength) {
  for (const std::string& v :
       {std::string(""), std::string("A"), std::string("a.B"), std::string("-a"), std::string("a-"),
        std::string("a.-b"), std::string("a-.b"), std::string("."), std::string("a."),
        std::string(".a"), std::string("a..b"), std::string("a_b"), std::string("a b"),
        std::string("a@b"), std::string("a:b"), std::string("a%b"), std::string("a/b"),
        repeat('a', 254)}) {
    EXPECT_THAT(is_dns1123_subdomain(v), Not(IsEmpty())) << v;
  }
  EXPECT_THAT(is_dns1123_subdomain(repeat('a', 254)),
              ElementsAre("must be no more than 253 characters"));
  EXPECT_THAT(is_dns1123_subdomain("Example.com"),
              ElementsAre(HasSubstr(
                  "(e.g. 'example.com', regex used for validation is "
                  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")));
}

TEST(QualifiedNameTest, AcceptsOptionalPrefixAndName) {
  for (const std::string& v :
       {std::string("simple"), std::string("with-dashes"), std::string("1-starts-with-num"),
        std::string("1234"), std::string("prefix/simple"), std::string("with.dots/simple"),
        std::string("1-num.2-num/3-num"), std::string("1.2.3.4/5678"),
        std::string("Upper_Case_OK_123"), std::string("example.com/Upper_Case_OK"),
        std::string("requests.storage-foo"), repeat('a', 63),
        repeat('a', 253) + "/" + repeat('b', 63)}) {
    EXPECT_THAT(is_qualified_name(v), IsEmpty()) << v;
  }
}

TEST(QualifiedNameTest, RejectsBadPrefixesAndNames) {
  for (const std::string& v :
       {std::string("special%^=@"), std::string("ends-with-dash-"), std::string("-starts"),
        std::string("only/one/slash"), std::string("Example.com/abc"),
        std::string("example_com/abc"), std::string("example.com/"), std::string("/simple"),
        repeat('a', 64), repeat('a', 254) + "/abc", std::string("")}) {
    EXPECT_THAT(is_qualified_name(v), Not(IsEmpty())) << v;
  }
}

TEST(QualifiedNameTest, MessagesNameThePartAtFault) {
  EXPECT_THAT(is_qualified_name("/simple"), ElementsAre("prefix part must be non-empty"));
  EXPECT_THAT(is_qualified_name("example.com/"),
              ElementsAre("name part must be non-empty",
                          HasSubstr("name part must consist of alphanumeric characters")));
  // The content package's MaxLenError counts bytes, its DNS subdomain check (the prefix) too.
  EXPECT_THAT(is_qualified_name(repeat('a', 64)),
              ElementsAre("name part must be no more than 63 bytes"));
  EXPECT_THAT(is_qualified_name(repeat('a', 254) + "/x"),
              ElementsAre("prefix part must be no more than 253 bytes"));
  EXPECT_THAT(is_qualified_name("Example.com/x"),
              ElementsAre(HasSubstr("prefix part a lowercase RFC 1123 subdomain")));
  EXPECT_THAT(is_qualified_name("a/b/c"),
              ElementsAre(AllOf(HasSubstr("a valid label key must consist of"),
                                HasSubstr("(e.g. 'MyName',  or 'my.name',  or '123-abc', "),
                                HasSubstr("with an optional DNS subdomain prefix and '/'"))));
}

TEST(LabelValueTest, AcceptsEmptyAndShortValues) {
  for (const std::string& v :
       {std::string(""), std::string("simple"), std::string("with-dashes"), std::string("1-starts"),
        std::string("ends-1"), std::string("1234"), std::string("A_b.C"), repeat('a', 63)}) {
    EXPECT_THAT(is_valid_label_value(v), IsEmpty()) << v;
  }
}

TEST(LabelValueTest, RejectsBadValues) {
  for (const std::string& v :
       {std::string("special%^=@"), std::string("Tama-nui-te-r\xc4\x81"),
        std::string("\\back\\slash"), std::string("-starts-with-dash"),
        std::string("ends-with-dash-"), std::string(".starts.with.dot"),
        std::string("ends.with.dot."), std::string("a b"), std::string("a/b"), repeat('a', 64)}) {
    EXPECT_THAT(is_valid_label_value(v), Not(IsEmpty())) << v;
  }
  EXPECT_THAT(is_valid_label_value(repeat('a', 64)), ElementsAre("must be no more than 63 bytes"));
  EXPECT_THAT(is_valid_label_value("-x"),
              ElementsAre(HasSubstr("a valid label must be an empty string or consist of")));
}

TEST(PathSegmentNameTest, RejectsDotsSlashesAndPercents) {
  EXPECT_THAT(is_valid_path_segment_name("."), ElementsAre("may not be '.'"));
  EXPECT_THAT(is_valid_path_segment_name(".."), ElementsAre("may not be '..'"));
  EXPECT_THAT(is_valid_path_segment_name("a/b%c"),
              ElementsAre("may not contain '/'", "may not contain '%'"));
  EXPECT_THAT(is_valid_path_segment_name("system:controller:x"), IsEmpty());
  EXPECT_THAT(is_valid_path_segment_name("..."), IsEmpty());
}

TEST(ObjectNameTest, AppliesTheKindsRule) {
  EXPECT_THAT(validate_object_name("", false), ElementsAre("name or generateName is required"));
  EXPECT_THAT(validate_object_name("my.config", false), IsEmpty());
  EXPECT_THAT(validate_object_name("my.config", true), ElementsAre("must not contain dots"));
  EXPECT_THAT(validate_object_name("ns-1", true), IsEmpty());
  EXPECT_THAT(validate_object_name(repeat('a', 63), true), IsEmpty());
  EXPECT_THAT(validate_object_name(repeat('a', 64), true), Not(IsEmpty()));
  EXPECT_THAT(validate_object_name(repeat('a', 253), false), IsEmpty());
  EXPECT_THAT(validate_object_name(repeat('a', 254), false), Not(IsEmpty()));
  EXPECT_THAT(validate_object_name("-lead", false), Not(IsEmpty()));
  EXPECT_THAT(validate_object_name("trail-", false), Not(IsEmpty()));
  EXPECT_THAT(validate_object_name("Upper", false), Not(IsEmpty()));
  EXPECT_THAT(validate_object_name("..", NameRule::kDns1123Subdomain),
              ElementsAre("may not be '..'", HasSubstr("RFC 1123 subdomain")));
  EXPECT_THAT(validate_object_name("system:controller:x", NameRule::kPathSegment), IsEmpty());
  EXPECT_THAT(validate_object_name("a/b", NameRule::kPathSegment),
              ElementsAre("may not contain '/'"));
  EXPECT_THAT(validate_object_name("", NameRule::kPathSegment),
              ElementsAre("name or generateName is required"));
}

TEST(GenerateNameTest, AllowsATrailingDash) {
  EXPECT_THAT(validate_generate_name("", NameRule::kDns1123Label), IsEmpty());
  EXPECT_THAT(validate_generate_name("web-", NameRule::kDns1123Label), IsEmpty());
  EXPECT_THAT(validate_generate_name("web.app-", NameRule::kDns1123Subdomain), IsEmpty());
  EXPECT_THAT(validate_generate_name("web.app-", NameRule::kDns1123Label),
              ElementsAre("must not contain dots"));
  EXPECT_THAT(validate_generate_name("-", NameRule::kDns1123Label), Not(IsEmpty()));
  EXPECT_THAT(validate_generate_name("Web-", NameRule::kDns1123Subdomain), Not(IsEmpty()));
  EXPECT_THAT(validate_generate_name("a/", NameRule::kPathSegment),
              ElementsAre("may not contain '/'"));
}

TEST(LabelsValidationTest, ReportsKeysAndValuesAsFieldErrors) {
  EXPECT_THAT(validate_labels(nlohmann::json()), IsEmpty());
  EXPECT_THAT(validate_labels(nlohmann::json::object()), IsEmpty());
  EXPECT_THAT(validate_labels({{"app", "web"}, {"example.com/tier", ""}}), IsEmpty());
  EXPECT_THAT(
      validate_labels({{"bad key", "v"}}),
      ElementsAre(HasSubstr("metadata.labels: Invalid value: \"bad key\": name part must")));
  EXPECT_THAT(validate_labels({{"app", "-v"}}),
              ElementsAre(HasSubstr("metadata.labels: Invalid value: \"-v\": a valid label")));
  EXPECT_THAT(validate_labels({{"app", 3}}),
              ElementsAre("metadata.labels[app]: Invalid value: 3: must be a string"));
  EXPECT_THAT(validate_labels(nlohmann::json::array()), SizeIs(1));
}

TEST(QuoteTest, EscapesLikeGoQuoting) {
  EXPECT_EQ(go_quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\x01\"");
  EXPECT_EQ(go_quote(""), "\"\"");
  // Go's %q: the named escapes for \a \b \f \v too, \xNN for the other control bytes.
  EXPECT_EQ(go_quote("\a\b\f\v\x1b"), "\"\\a\\b\\f\\v\\x1b\"");
  // strconv.Quote: printable UTF-8 as it is, bytes of invalid UTF-8 and unprintable code points
  // escaped.
  EXPECT_EQ(go_quote("\xC3\xA9"), "\"\xC3\xA9\"");
  EXPECT_EQ(go_quote("a\xFF" "b"), R"("a\xffb")");
  EXPECT_EQ(go_quote("\xE2\x80\xA8\x7F"), R"("\u2028\x7f")");
  // Printable ASCII, from the space to the tilde, as it is.
  EXPECT_EQ(go_quote(" src/w-0~"), R"(" src/w-0~")");
  EXPECT_EQ(go_quote("w\x1f"), R"("w\x1f")");
}

TEST(ParseResultTest, HoldsValueOrError) {
  ParseResult<int> ok = 3;
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 3);
  ParseResult<int> bad = ParseError{"nope", 4};
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "nope");
  EXPECT_EQ(bad.error().position, 4u);
}

}  // namespace
}  // namespace kubesim::api

namespace kubesim::api {
namespace {

TEST(ValidationTest, Dns1035LabelsStartWithALetter) {
  EXPECT_TRUE(is_dns1035_label("my-service").empty());
  EXPECT_TRUE(is_dns1035_label("a").empty());
  EXPECT_FALSE(is_dns1035_label("1-service").empty());
  EXPECT_FALSE(is_dns1035_label("my.service").empty());
  EXPECT_FALSE(is_dns1035_label("service-").empty());
  EXPECT_FALSE(is_dns1035_label("").empty());
  EXPECT_FALSE(is_dns1035_label(std::string(64, 'a')).empty());
  EXPECT_TRUE(validate_object_name("web", NameRule::kDns1035Label).empty());
  EXPECT_FALSE(validate_object_name("9web", NameRule::kDns1035Label).empty());
}

}  // namespace
}  // namespace kubesim::api
