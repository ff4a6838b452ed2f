// `calls:` budgets as the parser reads them: the pattern (as a fault rule's match, with a whole
// process allowed), the limit beside or inside it, the condition's name, and the round trip
// through emit_scenario.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "kubesim/api/resources.h"
#include "kubesim/scenarios/emit.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::scenarios {
namespace parse_calls_test {

using fakeapi::Verb;

const std::string kCallsScenario = R"(name: budgets
duration: 1m
cluster:
  resources:
    - {group: example.com, version: v1, kind: Widget, plural: widgets, namespaced: true}
processes:
  - name: ctl
    replicas: 2
    run:
      - informer: {resource: configmaps}
expect:
  always:
    - {calls: {verb: update, resource: configmaps, process: ctl, namespace: ns1, name: x}, atMost: 50}
    - {calls: {verb: [get, list], resource: example.com/v1/widgets, process: ctl-0}, perSecond: 20}
  consistently:
    - {after: 10s, for: 20s, calls: {resource: widgets/status, process: ctl-1, perSecond: 0}}
  finally:
    - {calls: {verb: delete}, atMost: 0}
mustFind: [calls]
)";

Scenario parsed(const std::string& yaml) {
  const auto registry = Registry::with_builtins();
  auto r = parse_scenario(yaml, "budgets.yaml", registry);
  for (const auto& e : r.errors) ADD_FAILURE() << e.text();
  return r.scenario ? std::move(*r.scenario) : Scenario();
}

const CallBudget& budget_of(const Scenario& s, std::size_t i) { return std::get<CallBudget>(s.checks.at(i).condition); }

TEST(ParseCalls, ReadsThePatternAndTheLimit) {
  const Scenario s = parsed(kCallsScenario);
  ASSERT_EQ(s.checks.size(), 4u);
  {
    const CallBudget& b = budget_of(s, 0);
    EXPECT_EQ(s.checks[0].kind, CheckKind::kAlways);
    EXPECT_EQ(b.calls.verbs, std::vector<Verb>{Verb::kUpdate});
    ASSERT_TRUE(b.calls.resource);
    EXPECT_EQ(b.calls.resource->gvr, api::kConfigMaps);
    EXPECT_EQ(b.calls.resource->text, "configmaps");
    EXPECT_EQ(b.calls.subresource, "");
    EXPECT_EQ(b.calls.ns, "ns1");
    EXPECT_EQ(b.calls.name, "x");
    EXPECT_EQ(b.calls.process, "ctl");
    EXPECT_TRUE(b.calls.whole_process);  // a process: any of its replicas
    EXPECT_EQ(b.limit, CallBudget::Limit::kAtMost);
    EXPECT_EQ(b.allowed, 50);
  }
  {
    const CallBudget& b = budget_of(s, 1);
    EXPECT_EQ(b.calls.verbs, (std::vector<Verb>{Verb::kGet, Verb::kList}));
    EXPECT_EQ(b.calls.resource->gvr, (api::GroupVersionResource{"example.com", "v1", "widgets"}));
    EXPECT_EQ(b.calls.process, "ctl-0");
    EXPECT_FALSE(b.calls.whole_process);
    EXPECT_EQ(b.limit, CallBudget::Limit::kPerSecond);
    EXPECT_EQ(b.allowed, 20);
  }
  {
    // The limit may also stand inside the pattern; a resource may name its subresource.
    const CallBudget& b = budget_of(s, 2);
    EXPECT_EQ(s.checks[2].kind, CheckKind::kConsistently);
    EXPECT_TRUE(b.calls.verbs.empty());
    EXPECT_EQ(b.calls.resource->gvr.resource, "widgets");
    EXPECT_EQ(b.calls.subresource, "status");
    EXPECT_EQ(b.calls.process, "ctl-1");
    EXPECT_EQ(b.limit, CallBudget::Limit::kPerSecond);
    EXPECT_EQ(b.allowed, 0);
  }
  {
    const CallBudget& b = budget_of(s, 3);
    EXPECT_EQ(b.calls.verbs, std::vector<Verb>{Verb::kDelete});
    EXPECT_FALSE(b.calls.resource);
    EXPECT_EQ(b.calls.process, "");
    EXPECT_EQ(b.allowed, 0);
  }
  EXPECT_EQ(condition_name(s.checks[0].condition), "calls");
  EXPECT_EQ(s.must_find, std::vector<std::string>{"calls"});
  EXPECT_EQ(s.checks[1].text, "{calls: {verb: [get, list], resource: example.com/v1/widgets, process: ctl-0}, perSecond: 20}");
}

bool same_budget(const CallBudget& a, const CallBudget& b) {
  const auto resource = [](const CallMatch& m) { return m.resource ? m.resource->gvr.to_string() + " " + m.resource->text : ""; };
  return a.calls.verbs == b.calls.verbs && resource(a.calls) == resource(b.calls) && a.calls.subresource == b.calls.subresource &&
         a.calls.ns == b.calls.ns && a.calls.name == b.calls.name && a.calls.process == b.calls.process &&
         a.calls.whole_process == b.calls.whole_process && a.limit == b.limit && a.allowed == b.allowed;
}

// parse → emit → parse keeps every calls check as it was, and the text is written as the
// library's files are.
TEST(ParseCalls, ARoundTripThroughTheWriterKeepsEveryBudget) {
  const Scenario original = parsed(kCallsScenario);
  const std::string text = emit_scenario(YAML::Load(kCallsScenario));
  const Scenario again = parsed(text);
  ASSERT_EQ(again.checks.size(), original.checks.size()) << text;
  for (std::size_t i = 0; i < original.checks.size(); ++i) {
    SCOPED_TRACE(original.checks[i].text);
    EXPECT_EQ(again.checks[i].kind, original.checks[i].kind);
    EXPECT_EQ(again.checks[i].after, original.checks[i].after);
    EXPECT_EQ(again.checks[i].length, original.checks[i].length);
    EXPECT_EQ(again.checks[i].text, original.checks[i].text);
    EXPECT_TRUE(same_budget(budget_of(again, i), budget_of(original, i)));
  }
  EXPECT_NE(text.find("    - {calls: {verb: [get, list], resource: example.com/v1/widgets, process: ctl-0}, perSecond: 20}\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(emit_scenario(YAML::Load(text)), text);
}

}  // namespace parse_calls_test
}  // namespace kubesim::scenarios
