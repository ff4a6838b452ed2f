#include "kubesim/api/labels.h"

#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kubesim::api {
namespace {

using ::testing::HasSubstr;
using Op = SelectionOperator;
using Labels = std::map<std::string, std::string>;

LabelSelector must_parse(std::string_view text) {
  ParseResult<LabelSelector> r = parse_label_selector(text);
  EXPECT_TRUE(r.ok()) << "'" << text << "': " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : LabelSelector::nothing();
}

LabelRequirement must_require(std::string key, Op op, std::vector<std::string> values = {}) {
  ParseResult<LabelRequirement> r = LabelRequirement::create(key, op, values);
  EXPECT_TRUE(r.ok()) << key << ": " << (r.ok() ? "" : r.error().message);
  return r.value();
}

// Each input parses; `canonical` is what to_string() prints for it.
struct GoodCase {
  std::string input;
  std::string canonical;
};

TEST(LabelSelectorParseTest, AcceptsTheFullSyntax) {
  const std::vector<GoodCase> cases = {
      {"", ""},
      {"   ", ""},
      {"x=a,y=b,z=c", "x=a,y=b,z=c"},
      {"z=c,x=a,y=b", "x=a,y=b,z=c"},
      {"x!=a,y=b", "x!=a,y=b"},
      {"x=", "x="},
      {"x= ", "x="},
      {"x=,z= ", "x=,z="},
      {"x= ,z= ", "x=,z="},
      {"x==a", "x==a"},
      {"!x", "!x"},
      {"x>1", "x>1"},
      {"x>1,z<5", "x>1,z<5"},
      {"x > 10 , x < 20", "x>10,x<20"},
      {"\rx", "x"},
      {"a ", "a"},
      {"example.com/key-with-dash", "example.com/key-with-dash"},
      {"example.com/key in (so,what)", "example.com/key in (so,what)"},
      {"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
       "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)"},
      {"foo  in\t (abc)", "foo in (abc)"},
      {"x notin\n (abc)", "x notin (abc)"},
      {"x  notin\t\t\t(abc,def)", "x notin (abc,def)"},
      {"x in(b,a)", "x in (a,b)"},
      {"x in (abc,)", "x in (,abc)"},
      {"x in (abc,abc)", "x in (abc)"},
      {"x in ()", "x in ()"},
      {"x notin ( )", "x notin ()"},
      {"x notin (, a)", "x notin (,a)"},
      {"x in (a,,)", "x in (,a)"},
      {"x in (a,,,,,,)", "x in (,a)"},
      {"x in (a,,a,,a,,a,,)", "x in (,a)"},
      {"x notin (abc,,def),bar,z in (),w", "bar,w,x notin (,abc,def),z in ()"},
      {"x,y in (a)", "x,y in (a)"},
      {"a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"},
      {"notin=in", "notin=in"},
      {"in in (in)", "in in (in)"},
      {"!in,notin", "!in,notin"},
      {"z!=a,z", "z!=a,z"},
      {"z,z!=a", "z,z!=a"},
      {"x=a,a=x", "a=x,x=a"},
      {"a=x,x=a", "a=x,x=a"},
  };
  for (const GoodCase& c : cases) {
    ParseResult<LabelSelector> r = parse_label_selector(c.input);
    ASSERT_TRUE(r.ok()) << "'" << c.input << "': " << r.error().message;
    EXPECT_EQ(r->to_string(), c.canonical) << "'" << c.input << "'";
  }
}

// Each input is rejected at `position` with a message containing `message`.
struct BadCase {
  std::string input;
  std::size_t position;
  std::string message;
};

TEST(LabelSelectorParseTest, RejectsBadInputSayingWhereAndWhy) {
  const std::string ops = "expected: in, notin, =, ==, !=, >, <";
  const std::vector<BadCase> cases = {
      {"x=a||y=b", 2, "invalid label value \"a||y\" for key \"x\""},
      {"x==a==b", 4, "found '==', expected: ',' or 'end of string'"},
      {"!x=a", 2, "found '=', expected: ',' or 'end of string'"},
      {"x<a", 2, "for 'Gt', 'Lt' operators, the value must be an integer: \"a\""},
      {"x>", 2, "the value must be an integer"},
      {"x>99999999999999999999", 2, "the value must be an integer"},
      {"x>-1", 2, "invalid label value \"-1\""},
      {"x,,y", 2, "found ',', expected: identifier after ','"},
      {",x,y", 0, "found ',', expected: !, identifier, or 'end of string'"},
      {"x nott in (y)", 2, "found 'nott', " + ops},
      {"a in (xyz),", 11, "found end of string, expected: identifier after ','"},
      {"a in (xyz)b notin ()", 10, "found 'b', expected: ',' or 'end of string'"},
      {"a in (xyz abc)", 10, "found 'abc', expected: ',' or ')'"},
      {"a notin(", 8, "found end of string, expected: ',', ')' or identifier"},
      {"a (", 2, "found '(', " + ops},
      {"(", 0, "found '(', expected: !, identifier, or 'end of string'"},
      {"x in a", 5, "found 'a', expected: '('"},
      {"x in (!)", 6, "found '!', expected: ',', ')' or identifier"},
      {"x in (a,!)", 8, "found '!', expected: ',' or identifier"},
      {"x in (a,b", 9, "found end of string, expected: ',' or ')'"},
      {"x=!", 2, "found '!', expected: identifier"},
      {"!", 1, "found end of string, expected: identifier"},
      {"!!x", 1, "found '!', expected: identifier"},
      {"x=a b", 4, "found 'b', expected: ',' or 'end of string'"},
      {"x=a=b", 3, "found '=', expected: ',' or 'end of string'"},
      {"-bad=1", 0, "invalid label key \"-bad\": name part must consist of"},
      {"a/b/c", 0, "invalid label key \"a/b/c\": a valid label key"},
      {"Example.com/x", 0, "invalid label key \"Example.com/x\": prefix part"},
      {"k=" + std::string(64, 'v'), 2, "must be no more than 63 bytes"},
      {"k in (a, -b)", 9, "invalid label value \"-b\" for key \"k\""},
      {std::string("k=a\0b", 5), 2, "invalid label value \"a\\x00b\""},
  };
  for (const BadCase& c : cases) {
    ParseResult<LabelSelector> r = parse_label_selector(c.input);
    ASSERT_FALSE(r.ok()) << "'" << c.input << "' parsed as '" << r->to_string() << "'";
    EXPECT_EQ(r.error().position, c.position) << c.input << ": " << r.error().message;
    EXPECT_THAT(r.error().message, HasSubstr(c.message)) << c.input;
    EXPECT_THAT(r.error().message, HasSubstr("position " + std::to_string(c.position) + ": "));
  }
}

struct MatchCase {
  std::string selector;
  Labels labels;
  bool matches;
};

TEST(LabelSelectorMatchTest, FollowsKubernetesSemantics) {
  const Labels two = {{"foo", "bar"}, {"baz", "blah"}};
  const std::vector<MatchCase> cases = {
      {"", {{"x", "y"}}, true},
      {"x=y", {{"x", "y"}}, true},
      {"x==y", {{"x", "y"}}, true},
      {"x=y,z=w", {{"x", "y"}, {"z", "w"}}, true},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "a"}}, true},
      {"notin=in", {{"notin", "in"}}, true},
      {"x", {{"x", "z"}}, true},
      {"!x", {{"y", "z"}}, true},
      {"x>1", {{"x", "2"}}, true},
      {"x<1", {{"x", "0"}}, true},
      {"x>1", {{"x", "+2"}}, true},
      {"x<1", {{"x", "-5"}}, true},
      {"x=z", {}, false},
      {"x=y", {{"x", "z"}}, false},
      {"x=y,z=w", {{"x", "w"}, {"z", "w"}}, false},
      {"x!=y,z!=w", {{"x", "z"}, {"z", "w"}}, false},
      {"x!=y", {}, true},
      {"x", {{"y", "z"}}, false},
      {"!x", {{"x", "z"}}, false},
      {"x>1", {{"x", "0"}}, false},
      {"x<1", {{"x", "2"}}, false},
      {"x>1", {{"x", "v2"}}, false},
      {"x>1", {}, false},
      {"x<1", {{"x", ""}}, false},
      {"x in (foo),y notin (alpha)", {{"x", "foo"}, {"y", "baz"}}, true},
      {"x in (foo),y in (alpha)", {{"x", "foo"}, {"y", "baz"}}, false},
      {"x notin (),y", {{"y", ""}}, true},
      {"!x,y", {{"y", ""}}, true},
      {"x notin (),!y", {{"y", ""}}, false},
      {"x in ()", {{"y", "baz"}}, false},
      {"x in ()", {{"x", ""}}, true},
      {"foo=bar", two, true},
      {"baz=blah", two, true},
      {"foo=bar,baz=blah", two, true},
      {"foo=blah", two, false},
      {"baz=bar", two, false},
      {"foo=bar,foobar=bar,baz=blah", two, false},
  };
  for (const MatchCase& c : cases) {
    LabelSelector s = must_parse(c.selector);
    EXPECT_EQ(s.matches(c.labels), c.matches) << c.selector;
    nlohmann::json json_labels = nlohmann::json::object();
    for (const auto& [k, v] : c.labels) json_labels[k] = v;
    EXPECT_EQ(s.matches(json_labels), c.matches) << c.selector << " (json)";
    auto lookup = [&c](std::string_view key) -> std::optional<std::string_view> {
      auto it = c.labels.find(std::string(key));
      if (it == c.labels.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    EXPECT_EQ(s.matches(lookup), c.matches) << c.selector << " (lookup)";
  }
}

TEST(LabelSelectorMatchTest, JsonLabelsMayBeAbsentOrOddlyTyped) {
  LabelSelector s = must_parse("!app,tier notin (web)");
  EXPECT_TRUE(s.matches(nlohmann::json()));
  EXPECT_TRUE(s.matches(nlohmann::json{{"app", 1}}));  // not a string: absent
  EXPECT_FALSE(s.matches(nlohmann::json{{"app", "x"}}));
  EXPECT_FALSE(must_parse("app").matches(nlohmann::json()));
}

TEST(LabelSelectorTest, EverythingNothingAndEmpty) {
  EXPECT_TRUE(LabelSelector::everything().empty());
  EXPECT_TRUE(LabelSelector::everything().matches(Labels{{"x", "y"}}));
  EXPECT_EQ(LabelSelector::everything().to_string(), "");
  EXPECT_FALSE(LabelSelector::nothing().empty());
  EXPECT_TRUE(LabelSelector::nothing().matches_nothing());
  EXPECT_FALSE(LabelSelector::nothing().matches(Labels{}));
  EXPECT_FALSE(LabelSelector::nothing().matches(nlohmann::json::object()));
  EXPECT_EQ(LabelSelector::nothing().to_string(), "");
  EXPECT_NE(LabelSelector::nothing(), LabelSelector::everything());
  EXPECT_TRUE(LabelSelector::nothing().add(must_require("a", Op::kExists)).matches_nothing());
  EXPECT_FALSE(must_parse("a").empty());
}

TEST(LabelRequirementTest, CreateValidatesOperatorValuesAndKey) {
  struct Case {
    std::string key;
    Op op;
    std::vector<std::string> values;
    std::string error;  // empty: valid
  };
  const std::vector<Case> cases = {
      {"x1", Op::kIn, {}, "for 'in', 'notin' operators, values set can't be empty"},
      {"x2", Op::kNotIn, {}, "values set can't be empty"},
      {"x3", Op::kIn, {"foo"}, ""},
      {"x4", Op::kNotIn, {"foo"}, ""},
      {"x5", Op::kEquals, {"foo", "bar"}, "exact-match compatibility requires one single value"},
      {"x5", Op::kNotEquals, {}, "exact-match compatibility requires one single value"},
      {"x6", Op::kExists, {}, ""},
      {"x7", Op::kDoesNotExist, {}, ""},
      {"x8", Op::kExists, {"foo"}, "values set must be empty for exists and does not exist"},
      {"x11", Op::kGreaterThan, {"1"}, ""},
      {"x12", Op::kLessThan, {"6"}, ""},
      {"x13", Op::kGreaterThan, {}, "for 'Gt', 'Lt' operators, exactly one value is required"},
      {"x14", Op::kGreaterThan, {"1", "2"}, "exactly one value is required"},
      {"x15", Op::kLessThan, {"bar"}, "the value must be an integer: \"bar\""},
      {std::string(254, 'a'), Op::kExists, {}, "invalid label key"},
      {"x16", Op::kEquals, {std::string(254, 'a')}, "for key \"x16\": must be no more than 63"},
      {"x17", Op::kEquals, {"a b"}, "invalid label value \"a b\" for key \"x17\""},
  };
  for (const Case& c : cases) {
    ParseResult<LabelRequirement> r = LabelRequirement::create(c.key, c.op, c.values);
    if (c.error.empty()) {
      EXPECT_TRUE(r.ok()) << c.key << ": " << r.error().message;
    } else {
      ASSERT_FALSE(r.ok()) << c.key;
      EXPECT_THAT(r.error().message, HasSubstr(c.error)) << c.key;
    }
  }
}

TEST(LabelRequirementTest, ValuesAreSortedAndUnique) {
  LabelRequirement r = must_require("x", Op::kIn, {"b", "a", "b"});
  EXPECT_EQ(r.values(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.to_string(), "x in (a,b)");
  EXPECT_EQ(to_string(Op::kNotIn), "notin");
  EXPECT_EQ(to_string(Op::kGreaterThan), "gt");
}

TEST(LabelSelectorTest, PrintsCanonicalForm) {
  auto print = [](std::vector<LabelRequirement> rs) {
    return LabelSelector::from_requirements(std::move(rs)).to_string();
  };
  EXPECT_EQ(print({must_require("x", Op::kIn, {"def", "abc"}),
                   must_require("y", Op::kNotIn, {"jkl"}), must_require("z", Op::kExists)}),
            "x in (abc,def),y notin (jkl),z");
  EXPECT_EQ(print({must_require("z", Op::kDoesNotExist), must_require("y", Op::kNotEquals, {"jkl"}),
                   must_require("x", Op::kNotIn, {"abc", "def"})}),
            "x notin (abc,def),y!=jkl,!z");
  EXPECT_EQ(
      print({must_require("x", Op::kNotIn, {"abc"}), must_require("y", Op::kIn, {"mno", "jkl"}),
             must_require("z", Op::kNotIn, {""})}),
      "x notin (abc),y in (jkl,mno),z notin ()");
  EXPECT_EQ(
      print({must_require("x", Op::kEquals, {"abc"}), must_require("y", Op::kDoubleEquals, {"jkl"}),
             must_require("z", Op::kNotEquals, {"a"}), must_require("z", Op::kExists)}),
      "x=abc,y==jkl,z!=a,z");
  EXPECT_EQ(print({must_require("x", Op::kGreaterThan, {"2"}),
                   must_require("y", Op::kLessThan, {"8"}), must_require("z", Op::kExists)}),
            "x>2,y<8,z");
}

TEST(LabelSelectorTest, AddKeepsKeyOrder) {
  LabelSelector s = must_parse("m=1").add(must_require("a", Op::kExists));
  EXPECT_EQ(s.to_string(), "a,m=1");
  EXPECT_EQ(s, must_parse("a,m=1"));
}

TEST(LabelSelectorTest, RequiresExactMatch) {
  LabelSelector s = must_parse("a=1,b==2,c in (3),d in (4,5),e!=6,f");
  EXPECT_EQ(s.requires_exact_match("a"), "1");
  EXPECT_EQ(s.requires_exact_match("b"), "2");
  EXPECT_EQ(s.requires_exact_match("c"), "3");
  EXPECT_EQ(s.requires_exact_match("d"), std::nullopt);
  EXPECT_EQ(s.requires_exact_match("e"), std::nullopt);
  EXPECT_EQ(s.requires_exact_match("f"), std::nullopt);
  EXPECT_EQ(s.requires_exact_match("zz"), std::nullopt);
}

TEST(LabelSelectorTest, FromSet) {
  const Labels set = {{"foo", "bar"}, {"baz", "blah"}};
  EXPECT_TRUE(selector_from_set({}).empty());
  EXPECT_EQ(selector_from_set(set).to_string(), "baz=blah,foo=bar");
  EXPECT_TRUE(selector_from_set(set).matches(set));
  EXPECT_TRUE(selector_from_set({{"foo", "bar"}}).matches(set));
  EXPECT_FALSE(selector_from_set({{"foo", "=blah"}}).matches(set));
  ASSERT_TRUE(validated_selector_from_set(set).ok());
  EXPECT_EQ(validated_selector_from_set(set).value(), selector_from_set(set));
  ParseResult<LabelSelector> bad = validated_selector_from_set({{"foo", "=blah"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("invalid label value \"=blah\" for key \"foo\""));
}

TEST(LabelSelectorJsonTest, ConvertsMetav1LabelSelector) {
  EXPECT_TRUE(label_selector_from_json(nlohmann::json())->matches_nothing());
  EXPECT_TRUE(label_selector_from_json(nlohmann::json::object())->empty());
  EXPECT_TRUE(label_selector_from_json({{"matchLabels", nlohmann::json::object()},
                                        {"matchExpressions", nlohmann::json::array()}})
                  ->empty());
  auto json = nlohmann::json::parse(R"({
    "matchLabels": {"app": "web", "tier": "front"},
    "matchExpressions": [
      {"key": "env", "operator": "In", "values": ["prod", "dev"]},
      {"key": "app", "operator": "NotIn", "values": ["db"]},
      {"key": "canary", "operator": "DoesNotExist"},
      {"key": "team", "operator": "Exists", "values": []}
    ]})");
  ParseResult<LabelSelector> s = label_selector_from_json(json);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->to_string(), "app=web,app notin (db),!canary,env in (dev,prod),team,tier=front");
  EXPECT_TRUE(s->matches(Labels{{"app", "web"}, {"tier", "front"}, {"env", "dev"}, {"team", "a"}}));
  EXPECT_FALSE(s->matches(Labels{{"app", "web"}, {"tier", "front"}, {"env", "dev"}}));
}

TEST(LabelSelectorJsonTest, RejectsInvalidSelectors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"([])", "must be a JSON object"},
      {R"({"matchLabels": []})", "matchLabels: Invalid value"},
      {R"({"matchLabels": {"a": 1}})", "matchLabels[a]: Invalid value: must be a string"},
      {R"({"matchLabels": {"a b": "c"}})", "matchLabels: invalid label key \"a b\""},
      {R"({"matchLabels": {"a": "-c"}})", "matchLabels: invalid label value \"-c\""},
      {R"({"matchExpressions": {}})", "matchExpressions: Invalid value"},
      {R"({"matchExpressions": [{"operator": "Exists"}]})", "matchExpressions[0].key"},
      {R"({"matchExpressions": [{"key": "a"}]})", "matchExpressions[0].operator"},
      {R"({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]})",
       "\"Gt\" is not a valid label selector operator"},
      {R"({"matchExpressions": [{"key": "a", "operator": "In"}]})",
       "matchExpressions[0].values: Required value: must be specified when `operator` is 'In' "
       "or 'NotIn'"},
      {R"({"matchExpressions": [{"key": "a", "operator": "Exists"},
                                {"key": "b", "operator": "NotIn", "values": []}]})",
       "matchExpressions[1].values: Required value"},
      {R"({"matchExpressions": [{"key": "a", "operator": "DoesNotExist", "values": ["x"]}]})",
       "matchExpressions[0].values: Forbidden: may not be specified when `operator` is "
       "'Exists' or 'DoesNotExist'"},
      {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": [1]}]})",
       "must be strings"},
      {R"({"matchExpressions": [{"key": "-a", "operator": "Exists"}]})",
       "matchExpressions[0]: invalid label key \"-a\""},
  };
  for (const auto& [text, message] : cases) {
    ParseResult<LabelSelector> r = label_selector_from_json(nlohmann::json::parse(text));
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_THAT(r.error().message, HasSubstr(message)) << text;
  }
}

}  // namespace
}  // namespace kubesim::api
