#include "kubesim/api/fields.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace kubesim::api {
namespace {

using ::testing::HasSubstr;
using Fields = std::map<std::string, std::string>;

FieldSelector must_parse_fields(std::string_view text) {
  ParseResult<FieldSelector> r = parse_field_selector(text);
  EXPECT_TRUE(r.ok()) << "'" << text << "': " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : FieldSelector::nothing();
}

TEST(FieldSelectorParseTest, AcceptsTermsAndPrintsThemCanonically) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {",", ""},
      {"x=a,y=b,z=c", "x=a,y=b,z=c"},
      {"z=c,y=b,x=a", "x=a,y=b,z=c"},
      {"x!=a,y=b", "x!=a,y=b"},
      {R"(x=a||y\=b)", R"(x=a||y\=b)"},
      {R"(x=a\=\=b)", R"(x=a\=\=b)"},
      {"x==a", "x=a"},
      {"x=", "x="},
      {"x!=", "x!="},
      {"=a", "=a"},
      {"=", ""},
      {"!=", ""},
      {"a=b,,c=d,", "a=b,c=d"},
      {"a = b", "a = b"},
      {"a!b=c", "a!b=c"},
      {"metadata.name=x,metadata.namespace!=y", "metadata.name=x,metadata.namespace!=y"},
      {R"(k=\,,k2=v2)", R"(k2=v2,k=\,)"},
      {R"(k=\\,k2=v2)", R"(k2=v2,k=\\)"},
      {R"(k=\\\,,k2=v2)", R"(k2=v2,k=\\\,)"},
      {"\xed\x95\xa8=\xec\x88\x98,\xeb\xaa\xa9=\xeb\xa1\x9d",
       "\xeb\xaa\xa9=\xeb\xa1\x9d,\xed\x95\xa8=\xec\x88\x98"},
      {"x=a,a=x", "a=x,x=a"},
      {"a=x,x=a", "a=x,x=a"},
      {"a=1,a=1", "a=1,a=1"},
  };
  for (const auto& [input, canonical] : cases) {
    ParseResult<FieldSelector> r = parse_field_selector(input);
    ASSERT_TRUE(r.ok()) << "'" << input << "': " << r.error().message;
    EXPECT_EQ(r->to_string(), canonical) << "'" << input << "'";
  }
}

TEST(FieldSelectorParseTest, RejectsBadTermsAndEscapes) {
  struct Case {
    std::string input;
    std::size_t position;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"x=a||y=b", 6, "unescaped character in value: '='"},
      {"x==a==b", 4, "unescaped character in value: '='"},
      {"x=a,b", 4, "can't understand 'b'"},
      {"x in (a)", 0, "can't understand 'x in (a)'"},
      {"x in (a,b,c)", 0, "can't understand 'x in (a'"},
      {"x", 0, "can't understand 'x'; expected field=value, field==value or field!=value"},
      {R"(a=b,x=a\q)", 7, R"(invalid escape sequence: \q)"},
      {R"(x=a\)", 3, R"(invalid field selector: invalid escape sequence: \)"},
      {"x=\\\xed\x95\xa8", 2, "invalid escape sequence: \\\xed\x95\xa8"},
  };
  for (const Case& c : cases) {
    ParseResult<FieldSelector> r = parse_field_selector(c.input);
    ASSERT_FALSE(r.ok()) << "'" << c.input << "' parsed as '" << r->to_string() << "'";
    EXPECT_EQ(r.error().position, c.position) << c.input << ": " << r.error().message;
    EXPECT_THAT(r.error().message, HasSubstr(c.message)) << c.input;
    EXPECT_THAT(r.error().message, HasSubstr("position " + std::to_string(c.position) + ": "));
  }
}

TEST(FieldSelectorParseTest, ExposesRequirements) {
  FieldSelector s = must_parse_fields("status.phase!=Running,metadata.name==web\\,1");
  ASSERT_EQ(s.requirements().size(), 2u);
  EXPECT_EQ(s.requirements()[0],
            (FieldRequirement{"metadata.name", FieldOperator::kEquals, "web,1"}));
  EXPECT_EQ(s.requirements()[1],
            (FieldRequirement{"status.phase", FieldOperator::kNotEquals, "Running"}));
  EXPECT_EQ(must_parse_fields("a = b").requirements()[0],
            (FieldRequirement{"a ", FieldOperator::kEquals, " b"}));
}

TEST(FieldEscapeTest, EscapesAndUnescapes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},       {"a", "a"},        {"=", R"(\=)"},
      {",", R"(\,)"}, {R"(\)", R"(\\)"}, {R"(\=\,\)", R"(\\\=\\\,\\)"},
      {"!", "!"},
  };
  for (const auto& [plain, escaped] : cases) {
    EXPECT_EQ(escape_field_value(plain), escaped);
    ParseResult<std::string> back = unescape_field_value(escaped);
    ASSERT_TRUE(back.ok()) << escaped;
    EXPECT_EQ(back.value(), plain);
  }
  for (const std::string& bad : {std::string(R"(\)"), std::string(R"(\\\)"), std::string(R"(\a)"),
                                 std::string(R"(\!)"), std::string("a,b"), std::string("a=b")}) {
    ParseResult<std::string> r = unescape_field_value(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_THAT(r.error().message, HasSubstr("invalid field selector: ")) << bad;
  }
  EXPECT_EQ(unescape_field_value(R"(ab\q)").error().position, 2u);
}

TEST(FieldSelectorMatchTest, ComparesFieldValues) {
  const Fields set = {{"foo", "bar"}, {"baz", "blah"}, {"complex", R"(=value\,\)"}};
  struct Case {
    std::string selector;
    Fields fields;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"x=", {}, true},  // an absent field reads as ""
      {"x!=", {}, false},
      {"x!=a", {}, true},
      {"foo=bar", set, true},
      {"baz=blah", set, true},
      {"foo=bar,baz=blah", set, true},
      {R"(foo=bar,baz=blah,complex=\=value\\\,\\)", set, true},
      {"foo=blah", set, false},
      {"baz=bar", set, false},
      {"foo=bar,foobar=bar,baz=blah", set, false},
  };
  for (const Case& c : cases) {
    FieldSelector s = must_parse_fields(c.selector);
    EXPECT_EQ(s.matches(c.fields), c.matches) << c.selector;
    std::function<std::optional<std::string>(std::string_view)> lookup =
        [&c](std::string_view field) -> std::optional<std::string> {
      auto it = c.fields.find(std::string(field));
      if (it == c.fields.end()) return std::nullopt;
      return it->second;
    };
    EXPECT_EQ(s.matches(lookup), c.matches) << c.selector << " (lookup)";
  }
}

TEST(FieldSelectorTest, BuildersAndSpecialSelectors) {
  EXPECT_TRUE(FieldSelector::everything().empty());
  EXPECT_TRUE(FieldSelector::everything().matches(Fields{{"x", "y"}}));
  EXPECT_FALSE(FieldSelector::nothing().empty());
  EXPECT_TRUE(FieldSelector::nothing().matches_nothing());
  EXPECT_FALSE(FieldSelector::nothing().matches(Fields{}));
  EXPECT_EQ(FieldSelector::nothing().to_string(), "");
  EXPECT_TRUE(FieldSelector::one_term_equal("x", "y").matches(Fields{{"x", "y"}}));
  EXPECT_FALSE(FieldSelector::one_term_equal("x", "y").matches(Fields{{"x", "z"}}));
  EXPECT_EQ(FieldSelector::one_term_not_equal("x", "a,b").to_string(), R"(x!=a\,b)");
  EXPECT_TRUE(field_selector_from_set({}).empty());
  EXPECT_EQ(field_selector_from_set({{"b", "2"}, {"a", "="}}).to_string(), R"(a=\=,b=2)");
  EXPECT_FALSE(field_selector_from_set({{"foo", "=blah"}}).matches(Fields{{"foo", "bar"}}));
  FieldSelector s = must_parse_fields("b=2").add({"a", FieldOperator::kNotEquals, "1"});
  EXPECT_EQ(s.to_string(), "a!=1,b=2");
  EXPECT_TRUE(FieldSelector::nothing().add({"a", FieldOperator::kEquals, "1"}).matches_nothing());
}

TEST(FieldSelectorTest, RequiresExactMatch) {
  FieldSelector s = must_parse_fields("metadata.name=web,status.phase!=Failed,spec.x=");
  EXPECT_EQ(s.requires_exact_match("metadata.name"), "web");
  EXPECT_EQ(s.requires_exact_match("spec.x"), "");
  EXPECT_EQ(s.requires_exact_match("status.phase"), std::nullopt);
  EXPECT_EQ(s.requires_exact_match("metadata.namespace"), std::nullopt);
  EXPECT_EQ(FieldSelector().requires_exact_match("a"), std::nullopt);
}

// ---- Properties -------------------------------------------------------------

const std::vector<std::string> kFields = {"metadata.name", "metadata.namespace", "status.phase",
                                          "spec.nodeName"};

rc::Gen<std::string> gen_value() {
  return rc::gen::resize(10, rc::gen::container<std::string>(rc::gen::elementOf(
                                 std::vector<char>{'a', 'b', '\\', ',', '=', '!', ' ', '-'})));
}

rc::Gen<FieldRequirement> gen_requirement() {
  return rc::gen::exec([] {
    return FieldRequirement{
        *rc::gen::elementOf(kFields),
        *rc::gen::element(FieldOperator::kEquals, FieldOperator::kNotEquals),
        *rc::gen::weightedOneOf<std::string>(
            {{3, rc::gen::elementOf(std::vector<std::string>{"", "a", "b", "a,b", "\\"})},
             {1, gen_value()}})};
  });
}

rc::Gen<std::vector<FieldRequirement>> gen_requirements() {
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 5), [](std::size_t n) {
    return rc::gen::container<std::vector<FieldRequirement>>(n, gen_requirement());
  });
}

rc::Gen<Fields> gen_fields() {
  return rc::gen::exec([] {
    Fields fields;
    for (const std::string& field : kFields) {
      if (*rc::gen::arbitrary<bool>()) {
        fields[field] = *rc::gen::elementOf(std::vector<std::string>{"", "a", "b", "a,b", "\\"});
      }
    }
    return fields;
  });
}

RC_GTEST_PROP(FieldSelectorProperty, EscapingRoundTrips, (const std::string& value)) {
  ParseResult<std::string> back = unescape_field_value(escape_field_value(value));
  RC_ASSERT(back.ok());
  RC_ASSERT(back.value() == value);
}

RC_GTEST_PROP(FieldSelectorProperty, PrintedFormParsesBackToTheSameSelector, ()) {
  FieldSelector s = FieldSelector::from_requirements(*gen_requirements());
  ParseResult<FieldSelector> again = parse_field_selector(s.to_string());
  RC_ASSERT(again.ok());
  RC_ASSERT(again.value() == s);
  RC_ASSERT(again->to_string() == s.to_string());
  Fields fields = *gen_fields();
  RC_ASSERT(again->matches(fields) == s.matches(fields));
}

RC_GTEST_PROP(FieldSelectorProperty, MatchingAgreesWithReferenceModel, ()) {
  std::vector<FieldRequirement> requirements = *gen_requirements();
  Fields fields = *gen_fields();
  bool expected = true;
  for (const FieldRequirement& r : requirements) {
    auto it = fields.find(r.field);
    std::string actual = it == fields.end() ? "" : it->second;
    expected = expected && ((actual == r.value) == (r.op == FieldOperator::kEquals));
  }
  bool got = FieldSelector::from_requirements(requirements).matches(fields);
  RC_TAG(got);
  RC_ASSERT(got == expected);
}

void check_fields_accepted_or_explained(const std::string& text) {
  ParseResult<FieldSelector> r = parse_field_selector(text);
  RC_TAG(r.ok());
  if (!r.ok()) {
    RC_ASSERT(!r.error().message.empty());
    RC_ASSERT(r.error().position <= text.size());
    return;
  }
  ParseResult<FieldSelector> again = parse_field_selector(r->to_string());
  RC_ASSERT(again.ok());
  RC_ASSERT(again.value() == r.value());
  RC_ASSERT(again->to_string() == r->to_string());
}

RC_GTEST_PROP(FieldSelectorProperty, TokenSoupIsAcceptedOrExplained, ()) {
  const std::vector<std::string> pieces = {"=",   "==",   "!=", "!", ",", "\\", "\\,",
                                           "\\=", "\\\\", "a",  "b", ".", " ",  "metadata.name"};
  std::string text;
  for (const std::string& p :
       *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(pieces))) {
    text += p;
  }
  check_fields_accepted_or_explained(text);
}

RC_GTEST_PROP(FieldSelectorProperty, ArbitraryBytesAreAcceptedOrExplained,
              (const std::string& text)) {
  check_fields_accepted_or_explained(text);
}

}  // namespace
}  // namespace kubesim::api
