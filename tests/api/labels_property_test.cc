// Properties of label selectors: printing and parsing agree, matching agrees with a reference
// model, and any input is either accepted or rejected with an explanation.
#include "kubesim/api/labels.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace kubesim::api {
namespace {

using Op = SelectionOperator;
using Labels = std::map<std::string, std::string>;

// A requirement as the generator describes it, before validation.
struct Spec {
  std::string key;
  Op op;
  std::vector<std::string> values;
};

const std::vector<std::string> kKeys = {"a",       "b",  "app",  "example.com/tier",
                                        "x.y-z_1", "in", "notin"};
const std::vector<std::string> kValues = {"", "1", "2", "10", "v", "in", "notin", "a.b"};
const std::vector<std::string> kLabelValues = {"", "1", "2", "10", "007", "v", "in", "a.b", "x"};
const std::vector<std::string> kInts = {"0", "1", "2", "10", "123"};
const std::vector<Op> kOps = {Op::kIn,           Op::kNotIn,       Op::kEquals,
                              Op::kDoubleEquals, Op::kNotEquals,   Op::kExists,
                              Op::kDoesNotExist, Op::kGreaterThan, Op::kLessThan};

rc::Gen<Spec> gen_spec() {
  return rc::gen::exec([] {
    Spec s{*rc::gen::elementOf(kKeys), *rc::gen::elementOf(kOps), {}};
    switch (s.op) {
      case Op::kIn:
      case Op::kNotIn:
        s.values = *rc::gen::container<std::vector<std::string>>(
            static_cast<std::size_t>(*rc::gen::inRange(1, 4)), rc::gen::elementOf(kValues));
        break;
      case Op::kExists:
      case Op::kDoesNotExist: break;
      case Op::kGreaterThan:
      case Op::kLessThan: s.values = {*rc::gen::elementOf(kInts)}; break;
      default: s.values = {*rc::gen::elementOf(kValues)};
    }
    return s;
  });
}

// Few requirements per selector, so that random label sets match often enough.
rc::Gen<std::vector<Spec>> gen_specs() {
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 4), [](std::size_t n) {
    return rc::gen::container<std::vector<Spec>>(n, gen_spec());
  });
}

// Each key present or not, so that every label set is reachable.
rc::Gen<Labels> gen_labels() {
  return rc::gen::exec([] {
    Labels labels;
    for (const std::string& key : kKeys) {
      if (*rc::gen::arbitrary<bool>()) labels[key] = *rc::gen::elementOf(kLabelValues);
    }
    return labels;
  });
}

LabelSelector build(const std::vector<Spec>& specs) {
  std::vector<LabelRequirement> requirements;
  for (const Spec& s : specs) {
    ParseResult<LabelRequirement> r = LabelRequirement::create(s.key, s.op, s.values);
    RC_ASSERT(r.ok());
    requirements.push_back(r.value());
  }
  return LabelSelector::from_requirements(std::move(requirements));
}

// A deliberately naive evaluator of the Kubernetes rules, independent of the
// implementation: absent keys satisfy only NotIn, NotEquals and DoesNotExist.
bool naive_integer(const std::string& s, long long& out) {
  if (s.empty() || s.size() > 15) return false;
  if (!std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  out = std::stoll(s);
  return true;
}

bool reference_matches(const std::vector<Spec>& specs, const Labels& labels) {
  for (const Spec& s : specs) {
    auto it = labels.find(s.key);
    bool present = it != labels.end();
    bool listed = present && std::count(s.values.begin(), s.values.end(), it->second) > 0;
    long long actual = 0;
    bool ok = false;
    switch (s.op) {
      case Op::kIn:
      case Op::kEquals:
      case Op::kDoubleEquals: ok = listed; break;
      case Op::kNotIn:
      case Op::kNotEquals: ok = !listed; break;
      case Op::kExists: ok = present; break;
      case Op::kDoesNotExist: ok = !present; break;
      case Op::kGreaterThan:
        ok = present && naive_integer(it->second, actual) && actual > std::stoll(s.values[0]);
        break;
      case Op::kLessThan:
        ok = present && naive_integer(it->second, actual) && actual < std::stoll(s.values[0]);
        break;
    }
    if (!ok) return false;
  }
  return true;
}

RC_GTEST_PROP(LabelSelectorProperty, PrintedFormParsesBackToTheSameSelector, ()) {
  LabelSelector s = build(*gen_specs());
  ParseResult<LabelSelector> again = parse_label_selector(s.to_string());
  RC_ASSERT(again.ok());
  RC_ASSERT(again->to_string() == s.to_string());
  RC_ASSERT(again.value() == s);
  Labels labels = *gen_labels();
  RC_ASSERT(again->matches(labels) == s.matches(labels));
}

RC_GTEST_PROP(LabelSelectorProperty, MatchingAgreesWithReferenceModel, ()) {
  std::vector<Spec> specs = *gen_specs();
  LabelSelector s = build(specs);
  Labels labels = *gen_labels();
  RC_TAG(s.matches(labels));
  RC_ASSERT(s.matches(labels) == reference_matches(specs, labels));
}

bool is_word(const std::string& token) {
  return token != "!" && token != "=" && token != "==" && token != "!=" && token != ">" &&
         token != "<" && token != "(" && token != ")" && token != ",";
}

// Renders specs as tokens separated by random whitespace, which the lexer must skip.
std::string render_with_whitespace(const std::vector<Spec>& specs) {
  std::vector<std::string> tokens;
  for (const Spec& s : specs) {
    if (!tokens.empty()) tokens.emplace_back(",");
    if (s.op == Op::kDoesNotExist) tokens.emplace_back("!");
    tokens.push_back(s.key);
    if (s.op == Op::kExists || s.op == Op::kDoesNotExist) continue;
    if (s.op == Op::kIn || s.op == Op::kNotIn) {
      tokens.emplace_back(s.op == Op::kIn ? "in" : "notin");
      tokens.emplace_back("(");
      for (std::size_t i = 0; i < s.values.size(); ++i) {
        if (i > 0) tokens.emplace_back(",");
        if (!s.values[i].empty()) tokens.push_back(s.values[i]);
      }
      tokens.emplace_back(")");
      continue;
    }
    const char* op = s.op == Op::kGreaterThan ? ">" : s.op == Op::kLessThan ? "<" : nullptr;
    tokens.emplace_back(op != nullptr ? op : std::string(to_string(s.op)));
    if (!s.values[0].empty()) tokens.push_back(s.values[0]);
  }
  const std::vector<std::string> optional = {"", "", " ", "\t", "\n", "\r", " \t "};
  const std::vector<std::string> required = {" ", "\t", "\n", "\r", "  "};
  std::string out = *rc::gen::elementOf(optional);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) {
      bool words = is_word(tokens[i - 1]) && is_word(tokens[i]);
      out += *rc::gen::elementOf(words ? required : optional);
    }
    out += tokens[i];
  }
  return out + *rc::gen::elementOf(optional);
}

RC_GTEST_PROP(LabelSelectorProperty, WhitespaceBetweenTokensIsIgnored, ()) {
  std::vector<Spec> specs = *gen_specs();
  std::string text = render_with_whitespace(specs);
  ParseResult<LabelSelector> parsed = parse_label_selector(text);
  RC_ASSERT(parsed.ok());
  RC_ASSERT(parsed.value() == build(specs));
}

void check_accepted_or_explained(const std::string& text) {
  ParseResult<LabelSelector> r = parse_label_selector(text);
  RC_TAG(r.ok());
  if (!r.ok()) {
    RC_ASSERT(!r.error().message.empty());
    RC_ASSERT(r.error().position <= text.size());
    return;
  }
  ParseResult<LabelSelector> again = parse_label_selector(r->to_string());
  RC_ASSERT(again.ok());
  RC_ASSERT(again.value() == r.value());
  RC_ASSERT(again->to_string() == r->to_string());
}

RC_GTEST_PROP(LabelSelectorProperty, TokenSoupIsAcceptedOrExplained, ()) {
  const std::vector<std::string> pieces = {
      "=", "==",           "!=", "in", "notin", "(",   ")",      ",", "!", " ",
      " ", "\t",           "a",  "b",  "x",     "1",   "10",     "/", ".", "-",
      "_", "example.com/", "A",  ">",  "<",     "in ", " notin "};
  std::vector<std::string> chosen =
      *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(pieces));
  std::string text;
  for (const std::string& p : chosen) text += p;
  check_accepted_or_explained(text);
}

// Near misses: a valid selector with one piece deleted, inserted or replaced.
RC_GTEST_PROP(LabelSelectorProperty, MutatedSelectorsAreAcceptedOrExplained, ()) {
  std::string text = render_with_whitespace(*gen_specs());
  const std::vector<std::string> pieces = {"=", "==", "!=", "in", "notin", "(", ")", ",", "!",
                                           " ", "a",  "1",  "-",  ">",     "<", "/", ""};
  std::size_t at = *rc::gen::inRange<std::size_t>(0, text.size() + 1);
  std::size_t erase = *rc::gen::inRange<std::size_t>(0, 3);
  text.replace(at, erase, *rc::gen::elementOf(pieces));
  check_accepted_or_explained(text);
}

RC_GTEST_PROP(LabelSelectorProperty, ArbitraryBytesAreAcceptedOrExplained,
              (const std::string& text)) {
  check_accepted_or_explained(text);
}

}  // namespace
}  // namespace kubesim::api
