// Fault rules from kubesim::testing::gen are valid for the fake API server: they survive its JSON
// form, the server's FaultInjector takes them, and they stay inside the FaultSpace they were
// drawn from.
#include "kubesim/testing/generators.h"

#include <chrono>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "kubesim/fakeapi/server.h"

namespace kubesim::testing {
namespace {

using namespace std::chrono_literals;

gen::FaultSpace space() {
  gen::FaultSpace s;
  s.resources = {"configmaps", "widgets"};
  s.processes = {"widgets-0", "widgets-1"};
  s.start = sim::Time{} + 100s;
  s.horizon = 30s;
  s.max_latency = 2s;
  s.max_count = 3;
  return s;
}

RC_GTEST_PROP(GeneratorFaults, RulesSurviveTheirJsonForm, ()) {
  const fakeapi::FaultRule rule = *gen::fault_rule(space());
  const auto parsed = fakeapi::FaultRule::from_json(rule.to_json());
  RC_ASSERT((parsed.ok() ? std::string() : parsed.status().message) == std::string());
  RC_ASSERT(parsed->to_json() == rule.to_json());
}

RC_GTEST_PROP(GeneratorFaults, RulesStayInTheirSpace, ()) {
  const gen::FaultSpace s = space();
  const fakeapi::FaultRule rule = *gen::fault_rule(s);
  const std::set<std::string> resources = {"configmaps", "widgets"};
  const std::set<std::string> processes = {"", "widgets-0", "widgets-1"};
  RC_ASSERT(resources.contains(rule.resource));
  RC_ASSERT(processes.contains(rule.process));
  RC_ASSERT(rule.count.has_value());
  RC_ASSERT(*rule.count >= 1);
  RC_ASSERT(*rule.count <= 3);
  const auto* latency = rule.as<fakeapi::LatencyFault>();
  const bool latency_in_space = latency == nullptr || latency->latency <= s.max_latency;
  RC_ASSERT(latency_in_space);
  RC_ASSERT(rule.probability > 0.0);
  if (rule.from) {
    RC_ASSERT(*rule.from >= s.start);
    RC_ASSERT(*rule.until > *rule.from);
    RC_ASSERT(*rule.until <= s.start + s.horizon);
  }
}

RC_GTEST_PROP(GeneratorFaults, PlansAreTakenByTheServer, ()) {
  sim::Loop loop;
  fakeapi::ApiServer server(loop);
  const auto plan = *gen::fault_plan(space());
  RC_ASSERT(plan.size() <= 4u);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    RC_ASSERT(plan[i].id == "gen-" + std::to_string(i));
    RC_ASSERT(server.faults().add(plan[i]) == plan[i].id);
  }
  RC_ASSERT(server.faults().rules().size() == plan.size());
}

TEST(GeneratorFaults, EveryKindIsDrawn) {
  std::set<fakeapi::FaultKind> kinds;
  rc::check("kinds", [&kinds] { kinds.insert((*gen::fault_rule()).kind()); });
  EXPECT_EQ(kinds.size(), 6u);
}

}  // namespace
}  // namespace kubesim::testing
