// emit_scenario: the layout of the library files, scalars that keep their meaning, and the round
// trip — every library file and valid parser test file, emitted, parses again; library files
// give the same trace as the originals.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "explore/internal/shrink.h"
#include "kubesim/api/yaml.h"
#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::explore {
namespace {

const std::filesystem::path kRoot =
    std::filesystem::path(__FILE__).parent_path() / ".." / "..";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> files;
  for (const auto* dir : {"scenarios/library", "tests/scenarios/parse/testdata"}) {
    for (const auto& e : std::filesystem::directory_iterator(kRoot / dir)) {
      if (e.path().extension() == ".yaml") files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// What a scalar means to the parser: quoted ones are strings, plain ones resolve as YAML 1.1.
nlohmann::json meaning(const YAML::Node& scalar) {
  if (scalar.Tag() == "!" || scalar.Tag() == "tag:yaml.org,2002:str") return scalar.Scalar();
  auto j = api::yaml_to_json(scalar.Scalar());
  return j.ok() ? *j : nlohmann::json(scalar.Scalar());
}

// The same tree: same shapes, keys in the same order, scalars of the same text and meaning.
std::string tree_difference(const YAML::Node& a, const YAML::Node& b, const std::string& path) {
  if (a.Type() != b.Type()) return path + ": node types differ";
  if (a.IsScalar()) {
    if (a.Scalar() != b.Scalar())
      return path + ": \"" + a.Scalar() + "\" != \"" + b.Scalar() + "\"";
    if (meaning(a) != meaning(b))
      return path + ": " + meaning(a).dump() + " != " + meaning(b).dump();
    return "";
  }
  if (a.size() != b.size()) return path + ": sizes differ";
  if (a.IsSequence()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      auto d = tree_difference(a[i], b[i], path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
  }
  if (a.IsMap()) {
    auto ia = a.begin();
    auto ib = b.begin();
    for (; ia != a.end(); ++ia, ++ib) {
      auto k = tree_difference(ia->first, ib->first, path + ".<key>");
      if (!k.empty()) return k;
      auto d = tree_difference(ia->second, ib->second, path + "." + ia->first.Scalar());
      if (!d.empty()) return d;
    }
  }
  return "";
}

TEST(EmitScenario, EveryFileReadsBackAsTheSameTreeAndParses) {
  const auto registry = scenarios::Registry::with_builtins();
  const auto files = scenario_files();
  ASSERT_GE(files.size(), 15u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const YAML::Node original = YAML::Load(read_text(path));
    const std::string text = scenarios::emit_scenario(original);
    EXPECT_EQ(tree_difference(original, YAML::Load(text), "doc"), "") << text;
    auto parsed = scenarios::parse_scenario(text, path.filename().string(), registry);
    for (const auto& e : parsed.errors) ADD_FAILURE() << e.text() << "\n" << text;
    EXPECT_EQ(scenarios::emit_scenario(YAML::Load(text)), text) << "emitting again changes the text";
  }
}

// Seed 1 of a library file and of its emitted text: the same trace. The files are a few of the
// short ones (each run takes about 0.3 s in the sanitizer build), with ranges, folded
// descriptions, triggers, custom resources and quoted numbers among them.
TEST(EmitScenario, LibraryFilesRunTheSameTrace) {
  const auto registry = scenarios::Registry::with_builtins();
  for (const auto* name : {"01-leader-failover-partition.yaml", "03-widget-scale.yaml",
                           "12-crash-on-trigger.yaml", "13-widget-status-conflicts.yaml"}) {
    SCOPED_TRACE(name);
    const std::string text = read_text(kRoot / "scenarios/library" / name);
    auto original = scenarios::parse_scenario(text, name, registry);
    auto emitted = scenarios::parse_scenario(scenarios::emit_scenario(YAML::Load(text)), name, registry);
    ASSERT_TRUE(original.scenario && emitted.scenario);
    runner::RunOptions options;
    options.seed = 1;
    const auto a = runner::run_seed(*original.scenario, registry, options);
    const auto b = runner::run_seed(*emitted.scenario, registry, options);
    EXPECT_EQ(a.trace_hash, b.trace_hash);
    EXPECT_EQ(a.trace_events, b.trace_events);
  }
}

TEST(EmitScenario, ScalarsKeepTheirMeaning) {
  struct Case {
    std::string yaml;
    std::string emitted;
  };
  const std::vector<Case> cases = {
      {R"(a: "1")", "a: \"1\"\n"},
      {R"(a: 1)", "a: 1\n"},
      {R"(a: "yes")", "a: \"yes\"\n"},
      {R"(a: yes)", "a: yes\n"},
      {R"(a: "~")", "a: \"~\"\n"},
      {R"(a: ~)", "a: ~\n"},
      {R"(a: "null")", "a: \"null\"\n"},
      {R"(a: "0x1F")", "a: \"0x1F\"\n"},
      {R"(a: "017")", "a: \"017\"\n"},
      {R"(a: "1e3")", "a: \"1e3\"\n"},
      {R"(a: ".inf")", "a: \".inf\"\n"},
      {R"(a: "-0.5")", "a: \"-0.5\"\n"},
      {R"(a: "team-a")", "a: team-a\n"},
      {R"(a: "-500ms")", "a: -500ms\n"},
      {R"(a: "{{n}}")", "a: \"{{n}}\"\n"},
      {R"(a: "x: y")", "a: \"x: y\"\n"},
      {R"(a: "x #y")", "a: \"x #y\"\n"},
      {R"(a: "x#y")", "a: x#y\n"},
      {R"(a: "")", "a: \"\"\n"},
      {R"(a: " x")", "a: \" x\"\n"},
      {R"(a: "- x")", "a: \"- x\"\n"},
      {R"(a: "*x")", "a: \"*x\"\n"},
      {R"(a: "say \"hi\"\\")", "a: say \"hi\"\\\n"},
      {R"(a: "tab\there")", "a: \"tab\\there\"\n"},
      {R"(a: "µs")", "a: µs\n"},
      {R"(a: {b: {c: "x,y"}})", "a:\n  b: {c: \"x,y\"}\n"},
      {R"(a: {b: {c: "x?y"}})", "a:\n  b: {c: \"x?y\"}\n"},
      {R"(a: x,y)", "a: x,y\n"},
      {R"("1": v)", "\"1\": v\n"},
      {R"(a: {})", "a: {}\n"},
      {R"(a: [])", "a: []\n"},
      {R"(a: [x, "2", 3])", "a: [x, \"2\", 3]\n"},
      {R"(a: !!str 5)", "a: \"5\"\n"},
      {"a: |\n  one\n  two\n", "a: |\n  one\n  two\n"},
      {"a: |-\n  one\n  two\n", "a: |-\n  one\n  two\n"},
      {"a: |+\n  one\n\n", "a: |+\n  one\n\n"},
      {"a: >\n  short\n", "a: >\n  short\n"},
      {"a: \"\\n lead\"", "a: \"\\n lead\"\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.yaml);
    const YAML::Node doc = YAML::Load(c.yaml);
    const std::string text = scenarios::emit_scenario(doc);
    EXPECT_EQ(text, c.emitted);
    EXPECT_EQ(tree_difference(doc, YAML::Load(text), "doc"), "");
  }
}

TEST(EmitScenario, LongTextIsFoldedAtOneHundredColumns) {
  std::string words;
  for (int i = 0; i < 40; ++i) words += (i ? " word" : "word") + std::to_string(i);
  YAML::Node doc;
  doc["description"] = words + "\n";
  const std::string text = scenarios::emit_scenario(doc);
  EXPECT_TRUE(text.starts_with("description: >\n  word0 word1")) << text;
  std::istringstream lines(text);
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) EXPECT_LE(line.size(), 100u) << line;
  EXPECT_GE(n, 4u);
  EXPECT_EQ(YAML::Load(text)["description"].Scalar(), words + "\n");
}

TEST(EmitScenario, LayoutOfTheLibraryFiles) {
  const std::string expected = R"(name: mirror
description: >
  Two lines of text that fold into one.
duration: 4m
seeds: [7]
mustFind: [atMostOneLeader]

cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: src}, data: {k: "1"}}

network:
  latency: {min: 1ms, max: 20ms}

processes:
  - name: mirror
    replicas: 2
    run:
      - elector: {lock: leases/src/mirror, leaseDuration: 15s, renewDeadline: 10s, retryPeriod: 2s}
      - controller: {type: configmap-mirror, workers: 2, params: {source: src, target: dst}}

workload:
  - every: 1s
    until: 2m
    action:
      create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: n-, namespace: src}, data: {count: "{{n}}"}}

timeline:
  - at: 1m
    faults:
      - {verb: create, resource: configmaps, namespace: dst, error: 500, probability: 0.3}
  - when: {process: mirror-0, after: {verb: create, resource: configmaps, count: 3}}
    crash: {process: mirror-0, restartAfter: 2s}

expect:
  always:
    - atMostOneLeader: leases/src/mirror
  eventually:
    - after: 3m
      within: 1m
      count: {resource: configmaps, namespace: dst}
      equals: {count: {resource: configmaps, namespace: src}}
)";
  // Written without blank lines and with the create action on one line of 130 columns, it comes
  // out as above.
  std::string file;
  std::istringstream lines(expected);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) file += line + "\n";
  }
  const std::string long_action =
      "    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {generateName: n-, "
      "namespace: src}, data: {count: \"{{n}}\"}}}\n";
  const auto action = file.find("    action:\n");
  file.replace(action, file.find("timeline:") - action, long_action);
  EXPECT_EQ(scenarios::emit_scenario(YAML::Load(file)), expected);
}

// Any text, quoted in the file, reads back as the same string.
RC_GTEST_PROP(EmitScenario, AnyStringReadsBackAsThatString, ()) {
  const std::string alphabet = "ab01 :#,-?{}[]\"'\\\n\t.~!&*|>%@`eEx+";
  const auto text = *rc::gen::container<std::string>(rc::gen::elementOf(alphabet));
  YAML::Node doc;
  doc["key"] = text;
  doc["key"].SetTag("!");
  doc["list"].push_back(doc["key"]);
  doc["map"]["inner"] = doc["key"];
  const std::string emitted = scenarios::emit_scenario(doc);
  const YAML::Node back = YAML::Load(emitted);
  for (const YAML::Node& n : {back["key"], back["list"][0], back["map"]["inner"]}) {
    RC_ASSERT(n.Scalar() == text);
    RC_ASSERT(meaning(n) == nlohmann::json(text));
  }
}

}  // namespace
}  // namespace kubesim::explore
