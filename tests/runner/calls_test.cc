// `calls:` budgets over runs: a controller that writes too often breaks an `always` at the call
// that spent the budget, a `finally` at the end with the whole count, a `consistently` in its
// window; a per-second budget at the boundary of a second; budgets kept, and budgets that held
// over nothing (vacuous).
#include "kubesim/runner/runner.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/sleep.h"
#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace calls_test {

// Every `every` (params.everyMs, on its process's clock), an unconditional update of ConfigMap
// ns1/x: the hot loop a budget is for. The first is one period after it starts.
class HotWriter final : public scenarios::Controller {
 public:
  explicit HotWriter(scenarios::ControllerEnv env)
      : env_(env), every_(std::chrono::milliseconds(env.params.value("everyMs", 100))) {}
  sim::Task<void> run(sim::Context ctx) override { return write(this, std::move(ctx)); }

 private:
  static sim::Task<void> write(HotWriter* self, sim::Context ctx) {
    for (int n = 1;; ++n) {
      const bool slept = co_await sim::sleep_for(ctx, self->env_.process.clock(), self->every_);
      if (!slept) co_return;
      auto map = api::make_object({{"apiVersion", "v1"},
                                   {"kind", "ConfigMap"},
                                   {"metadata", {{"name", "x"}, {"namespace", "ns1"}}},
                                   {"data", {{"n", std::to_string(n)}}}});
      auto updated = co_await self->env_.client.update(ctx, api::kConfigMaps, "ns1", map);
      (void)updated;
    }
  }

  scenarios::ControllerEnv env_;
  sim::Duration every_;
};

const scenarios::Registry& writer_registry() {
  static const scenarios::Registry r = [] {
    scenarios::Registry registry = scenarios::Registry::with_builtins();
    registry.register_controller("hot-writer", [](scenarios::ControllerEnv env) { return std::make_unique<HotWriter>(env); });
    return registry;
  }();
  return r;
}

// No network latency: each update is answered at the instant it is sent, every `every`.
std::string scenario(int every_ms, const std::string& expect) {
  return R"(name: budget
duration: 3s
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: ns1}}
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: x, namespace: ns1}}
processes:
  - name: ctl
    run:
      - controller: {type: hot-writer, params: {everyMs: )" +
         std::to_string(every_ms) + R"(}}
expect:
)" + expect;
}

Outcome run_text(const std::string& yaml, bool strict = false) {
  scenarios::ParseResult parsed = scenarios::parse_scenario(yaml, "budget.yaml", writer_registry());
  for (const auto& e : parsed.errors) ADD_FAILURE() << e.text();
  if (!parsed.scenario) return Outcome();
  std::ostringstream trace;
  RunOptions options;
  options.seed = 1;
  options.trace = &trace;
  options.strict = strict;
  Outcome out;
  out.result = run_seed(*parsed.scenario, writer_registry(), options);
  out.trace = trace.str();
  return out;
}

TEST(CallsTest, AnAlwaysBreaksAtTheCallThatSpentTheBudget) {
  const Outcome r = run_text(scenario(100, R"(  always:
    - {calls: {verb: update, resource: configmaps, process: ctl, namespace: ns1, name: x}, atMost: 5}
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, atMost: 29}
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, atMost: 30}
)"));
  ASSERT_TRUE(r.result.error.empty()) << r.result.error;
  const auto& f = r.result.failures;
  ASSERT_EQ(f.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(f[0].condition, "calls");
  EXPECT_EQ(f[0].mark.line, 13);
  EXPECT_EQ(f[0].at, at(600ms));  // the sixth update
  EXPECT_EQ(f[0].detail, "6 calls of update configmaps in ns1 named x by any replica of ctl, at most 5 allowed; the last 5:\n"
                         "  0.200s ctl-0 update configmaps ns1/x → 200\n"
                         "  0.300s ctl-0 update configmaps ns1/x → 200\n"
                         "  0.400s ctl-0 update configmaps ns1/x → 200\n"
                         "  0.500s ctl-0 update configmaps ns1/x → 200\n"
                         "  0.600s ctl-0 update configmaps ns1/x → 200");
  EXPECT_EQ(f[1].at, at(3s));  // the 30th update, at the last instant of the run
  EXPECT_TRUE(r.result.vacuous.empty());
  // The break is traced right after the write of the call that broke it.
  const auto breaks = lines_of(r.trace, "check.break");
  ASSERT_EQ(breaks.size(), 2u);
  EXPECT_NE(breaks[0].find("\"t\":600000000"), std::string::npos) << breaks[0];
}

TEST(CallsTest, AFinallyJudgesTheWholeRunAtItsEnd) {
  const Outcome r = run_text(scenario(100, R"(  finally:
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, atMost: 5}
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, perSecond: 9}
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, perSecond: 10}
)"));
  const auto& f = r.result.failures;
  ASSERT_EQ(f.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(f[0].at, at(3s));
  EXPECT_EQ(f[0].detail.substr(0, f[0].detail.find(';')),
            "30 calls of update configmaps by ctl-0, at most 5 allowed (over from call 6, at 0.600s)");
  EXPECT_NE(f[0].detail.find("\n  3.000s ctl-0 update configmaps ns1/x → 200"), std::string::npos) << f[0].detail;
  // Ten updates 100 ms apart span 900 ms: the first second to hold ten ends at 1 s.
  EXPECT_EQ(f[1].at, at(3s));
  EXPECT_EQ(f[1].detail.substr(0, f[1].detail.find(';')),
            "10 calls of update configmaps by ctl-0 within one second, from 0.100s to 1.000s, at most 9 a second allowed");
}

// Updates 250 ms apart: the update at t − 1 s is not in the second (t − 1 s, t], so four a second
// are allowed by perSecond: 4. At 249 ms apart five fall in one second.
TEST(CallsTest, PerSecondCountsAHalfOpenSecond) {
  const std::string expect = R"(  always:
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, perSecond: 4}
    - {calls: {verb: update, resource: configmaps, process: ctl-0}, perSecond: 3}
)";
  const Outcome at250 = run_text(scenario(250, expect));
  ASSERT_EQ(at250.result.failures.size(), 1u) << failures_of(at250.result);
  EXPECT_EQ(at250.result.failures[0].mark.line, 14);
  EXPECT_EQ(at250.result.failures[0].at, at(1s));  // 250, 500, 750, 1000 ms
  EXPECT_EQ(at250.result.failures[0].detail,
            "4 calls of update configmaps by ctl-0 within one second, from 0.250s to 1.000s, at most 3 a second allowed; "
            "the last 4 of them:\n"
            "  0.250s ctl-0 update configmaps ns1/x → 200\n"
            "  0.500s ctl-0 update configmaps ns1/x → 200\n"
            "  0.750s ctl-0 update configmaps ns1/x → 200\n"
            "  1.000s ctl-0 update configmaps ns1/x → 200");
  const Outcome at249 = run_text(scenario(249, expect));
  ASSERT_EQ(at249.result.failures.size(), 2u) << failures_of(at249.result);
  EXPECT_EQ(at249.result.failures[1].mark.line, 13);
  EXPECT_EQ(at249.result.failures[1].at, at(1245ms));  // 249 … 1245 ms: five within 996 ms
}

TEST(CallsTest, AConsistentlyHoldsTheBudgetFromTheStartAtEveryInstantOfItsWindow) {
  const Outcome r = run_text(scenario(100, R"(  consistently:
    - {after: 1s, for: 1s, calls: {verb: update, process: ctl}, atMost: 15}
    - {after: 1s, for: 1s, calls: {verb: update, process: ctl}, atMost: 5}
    - {after: 1s, for: 500ms, calls: {verb: update, process: ctl}, atMost: 15}
)"));
  const auto& f = r.result.failures;
  ASSERT_EQ(f.size(), 2u) << failures_of(r.result);
  EXPECT_EQ(f[0].mark.line, 14);
  EXPECT_EQ(f[0].at, at(1s));  // spent before its window opened
  EXPECT_EQ(f[1].mark.line, 13);
  EXPECT_EQ(f[1].at, at(1600ms));  // the 16th update
}

TEST(CallsTest, ABudgetKeptIsAPass) {
  const Outcome r = run_text(scenario(100, R"(  always:
    - {calls: {verb: update, resource: configmaps, process: ctl}, atMost: 30}
    - {calls: {verb: update, resource: configmaps, process: ctl}, perSecond: 10}
    - {calls: {verb: [get, list, create, delete], resource: configmaps, process: ctl}, atMost: 0}
  finally:
    - {calls: {resource: configmaps}, atMost: 30}
)"));
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  EXPECT_TRUE(r.result.vacuous.empty()) << r.result.vacuous.front().why;
}

// A budget on what its process never called held over nothing.
TEST(CallsTest, ABudgetOnCallsItsProcessNeverMakesIsVacuous) {
  const std::string yaml = scenario(100, R"(  always:
    - {calls: {verb: update, resource: secrets, process: ctl}, atMost: 0}
  consistently:
    - {after: 1s, for: 1s, calls: {resource: configmaps, process: ctl-0}, atMost: 100}
  finally:
    - {calls: {verb: delete, resource: configmaps, process: ctl-0}, perSecond: 1}
)");
  const Outcome r = run_text(yaml);
  EXPECT_FALSE(r.result.broke_any()) << failures_of(r.result);
  ASSERT_EQ(r.result.vacuous.size(), 1u);
  EXPECT_EQ(r.result.vacuous[0].condition, "calls");
  EXPECT_EQ(r.result.vacuous[0].mark.line, 13);
  EXPECT_EQ(r.result.vacuous[0].why, "no call on secrets by any replica of ctl existed during [0s, 3s]");
  const Outcome strict = run_text(yaml, /*strict=*/true);
  ASSERT_EQ(strict.result.failures.size(), 1u);
  EXPECT_EQ(strict.result.failures[0].condition, "vacuous");
}

}  // namespace calls_test
}  // namespace kubesim::runner::testing
