// Properties of the parser: it never throws, whatever the text; every error it reports has a
// place in the file, and they come in file order; a Scenario comes exactly when no error does.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios {
namespace {

std::string full_example() {
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "testdata" /
                   "full_example.yaml");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Checks what every parse must give; returns the result for more checks.
ParseResult checked_parse(const std::string& text) {
  static const Registry registry = Registry::with_builtins();
  ParseResult result;
  try {
    result = parse_scenario(text, "p.yaml", registry);
  } catch (const std::exception& e) {
    RC_FAIL(std::string("parse_scenario threw: ") + e.what());
  }
  RC_ASSERT(result.scenario.has_value() == result.errors.empty());
  const auto line_count = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const auto& e : result.errors) {
    RC_ASSERT(e.file == "p.yaml");
    RC_ASSERT(e.mark.line >= 1);
    RC_ASSERT(e.mark.line <= line_count);
    RC_ASSERT(e.mark.column >= 1);
    RC_ASSERT(!e.message.empty());
  }
  RC_ASSERT(std::is_sorted(
      result.errors.begin(), result.errors.end(), [](const ParseError& a, const ParseError& b) {
        return std::pair(a.mark.line, a.mark.column) < std::pair(b.mark.line, b.mark.column);
      }));
  return result;
}

// Text made of the pieces scenario files are made of, so that it often gets past the YAML
// parser and into the scenario's own checks.
rc::Gen<std::string> yamlish_text() {
  static const std::vector<std::string> kPieces = {
      "name",     "duration", "processes",  "replicas", "run",
      "elector",  "lock",     "leases/a/m", "timeline", "at",
      "faults",   "error",    "expect",     "always",   "atMostOneLeader",
      "count",    "resource", "configmaps", "10m",      "1s",
      "-1s",      "0",        "3",          "true",     "~",
      "\"q\"",    "'s'",      ": ",         "- ",       "\n",
      "\n  ",     "\n    ",   "[",          "]",        "{",
      "}",        ", ",       "#",          "&a ",      "*a",
      "!!str ",   "|",        ">",          "---\n",    "\t",
      "%",        "@",        "manager-0",  "match",    "mustFind",
      "workload", "rate",     "5/s"};
  return rc::gen::map(rc::gen::container<std::vector<std::size_t>>(
                          rc::gen::inRange<std::size_t>(0, kPieces.size())),
                      [](const std::vector<std::size_t>& picks) {
                        std::string out;
                        for (auto i : picks) out += kPieces[i];
                        return out;
                      });
}

RC_GTEST_PROP(ParseProperty, NeverThrowsOnArbitraryBytes, (const std::string& text)) {
  checked_parse(text);
}

RC_GTEST_PROP(ParseProperty, NeverThrowsOnYamlishText, ()) { checked_parse(*yamlish_text()); }

// One random edit of a valid file: a line dropped, doubled, moved or cut short, a character
// replaced, or a piece of YAML inserted.
std::string mutate(const std::string& text) {
  auto lines = lines_of(text);
  const auto n = lines.size();
  const auto at = *rc::gen::inRange<std::size_t>(0, n);
  switch (*rc::gen::inRange(0, 6)) {
    case 0:
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
      break;
    case 1:
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), lines[at]);
      break;
    case 2:
      std::swap(lines[at], lines[*rc::gen::inRange<std::size_t>(0, n)]);
      break;
    case 3:
      lines[at].resize(*rc::gen::inRange<std::size_t>(0, lines[at].size() + 1));
      break;
    case 4:
      if (!lines[at].empty()) {
        lines[at][*rc::gen::inRange<std::size_t>(0, lines[at].size())] =
            *rc::gen::elementOf(std::string(" :-[]{},#&*!|>'\"0aZ9."));
      }
      break;
    default:
      lines[at].insert(*rc::gen::inRange<std::size_t>(0, lines[at].size() + 1), *yamlish_text());
  }
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

RC_GTEST_PROP(ParseProperty, NeverThrowsOnMutationsOfAValidFile, ()) {
  static const std::string kExample = full_example();
  std::string text = kExample;
  const int edits = *rc::gen::inRange(1, 4);
  for (int i = 0; i < edits; ++i) text = mutate(text);
  checked_parse(text);
}

TEST(ParseProperty, TheExampleItselfIsValid) {
  auto registry = Registry::with_builtins();
  EXPECT_TRUE(parse_scenario(full_example(), "p.yaml", registry).scenario.has_value());
}

// A reference to replica i of a process with n replicas resolves exactly when i < n; otherwise
// the error names the replicas that exist.
RC_GTEST_PROP(ParseProperty, ReplicaReferencesResolveExactlyWhenInRange, ()) {
  const int n = *rc::gen::inRange(1, 4);
  const int i = *rc::gen::inRange(0, 6);
  const std::string yaml =
      "name: r\nduration: 1m\nprocesses:\n  - {name: web, replicas: " + std::to_string(n) +
      "}\ntimeline:\n  - {at: 1s, crash: {process: web-" + std::to_string(i) + "}}\n";
  auto result = checked_parse(yaml);
  if (i < n) {
    RC_ASSERT(result.errors.empty());
    RC_ASSERT(std::get<CrashEvent>(result.scenario->timeline.at(0).action).process ==
              "web-" + std::to_string(i));
  } else {
    std::string names;
    for (int k = 0; k < n; ++k) names += (k > 0 ? ", web-" : "web-") + std::to_string(k);
    RC_ASSERT(result.errors.size() == 1u);
    RC_ASSERT(result.errors[0].text() == "p.yaml:6:31: process: \"web-" + std::to_string(i) +
                                             "\" does not exist: web has " + std::to_string(n) +
                                             (n == 1 ? " replica (" : " replicas (") + names + ")");
  }
}

// An instant at or before the scenario's end is accepted; one past it is an error at the instant.
RC_GTEST_PROP(ParseProperty, TimelineInstantsPastTheEndAreErrors, ()) {
  const int duration = *rc::gen::inRange(1, 100);
  const int at = *rc::gen::inRange(0, 200);
  const std::string yaml = "name: r\nduration: " + std::to_string(duration) +
                           "s\ntimeline:\n  - {at: " + std::to_string(at) + "s, compact: {}}\n";
  auto result = checked_parse(yaml);
  RC_ASSERT(result.errors.empty() == (at <= duration));
  if (at > duration) {
    RC_ASSERT(result.errors.at(0).text() == "p.yaml:4:10: at: " + std::to_string(at) +
                                                "s is past the scenario's duration (" +
                                                std::to_string(duration) + "s)");
  }
}

// A check's window that ends at or before the scenario's end is accepted; one that ends past it
// is an error at its length, whatever the kind.
RC_GTEST_PROP(ParseProperty, CheckWindowsPastTheEndAreErrors, ()) {
  const int duration = *rc::gen::inRange(1, 100);
  const int after = *rc::gen::inRange(0, duration + 1);
  const int length = *rc::gen::inRange(1, 100);
  const bool eventually = *rc::gen::arbitrary<bool>();
  const std::string key = eventually ? "within" : "for";
  const std::string yaml = "name: r\nduration: " + std::to_string(duration) + "s\nexpect:\n  " +
                           (eventually ? "eventually" : "consistently") + ":\n    - {after: " +
                           std::to_string(after) + "s, " + key + ": " + std::to_string(length) +
                           "s, count: {resource: configmaps}, equals: 0}\n";
  auto result = checked_parse(yaml);
  RC_ASSERT(result.errors.empty() == (after + length <= duration));
  if (after + length > duration) {
    RC_ASSERT(result.errors.at(0).text().rfind("p.yaml:5:", 0) == 0);
    RC_ASSERT(result.errors.at(0).text().find(": the check's window [") != std::string::npos);
    RC_ASSERT(result.errors.at(0).text().find("] ends past the scenario's duration (" + std::to_string(duration) +
                                              "s)") != std::string::npos);
  }
}

}  // namespace
}  // namespace kubesim::scenarios
