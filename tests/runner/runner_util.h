// The runner tests' helpers: scenarios from YAML text, a registry with the built-in controller
// types and a few test types, and a run with its trace kept.
#ifndef KUBESIM_TESTS_SCENARIOS_RUNNER_RUNNER_UTIL_H_
#define KUBESIM_TESTS_SCENARIOS_RUNNER_RUNNER_UTIL_H_

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/sleep.h"

namespace kubesim::runner::testing {

using namespace std::chrono_literals;

// A controller that runs until its context is done; `throw_after` > 0 makes run() throw
// "boom" that long (on its process's clock) after it started.
class TestController final : public scenarios::Controller {
 public:
  TestController(scenarios::ControllerEnv env, sim::Duration throw_after) : env_(env), throw_after_(throw_after) {}
  sim::Task<void> run(sim::Context ctx) override { return run_until_done(this, std::move(ctx)); }
  std::size_t queue_depth() const override { return 3; }

 private:
  static sim::Task<void> run_until_done(TestController* self, sim::Context ctx) {
    if (self->throw_after_ > sim::Duration::zero()) {
      const bool slept = co_await sim::sleep_for(ctx, self->env_.process.clock(), self->throw_after_);
      if (slept) throw std::runtime_error("boom");
      co_return;
    }
    sim::Event never(self->env_.process.loop());
    co_await never.wait(ctx);
  }

  scenarios::ControllerEnv env_;
  sim::Duration throw_after_;
};

inline scenarios::Registry test_registry() {
  scenarios::Registry registry = scenarios::Registry::with_builtins();
  registry.register_controller("idle", [](scenarios::ControllerEnv env) {
    return std::make_unique<TestController>(env, sim::Duration::zero());
  });
  registry.register_controller("thrower", [](scenarios::ControllerEnv env) {
    return std::make_unique<TestController>(env, std::chrono::seconds(5));
  });
  registry.register_controller("broken-factory", [](scenarios::ControllerEnv) -> std::unique_ptr<scenarios::Controller> {
    throw std::runtime_error("cannot make it");
  });
  return registry;
}

inline const scenarios::Registry& registry() {
  static const scenarios::Registry r = test_registry();
  return r;
}

// Parses `yaml` (failing the test with every error when it does not parse).
inline scenarios::Scenario parse(std::string_view yaml) {
  scenarios::ParseResult parsed = scenarios::parse_scenario(yaml, "test.yaml", registry());
  std::string errors;
  for (const auto& e : parsed.errors) errors += e.text() + "\n";
  EXPECT_TRUE(parsed.scenario.has_value()) << errors;
  if (!parsed.scenario) return scenarios::Scenario();
  return std::move(*parsed.scenario);
}

struct Outcome {
  SeedResult result;
  std::string trace;
};

inline Outcome run(const scenarios::Scenario& scenario, std::uint64_t seed = 1, bool timeline = false) {
  std::ostringstream trace;
  RunOptions options;
  options.seed = seed;
  options.trace = &trace;
  options.timeline = timeline;
  Outcome out;
  out.result = run_seed(scenario, registry(), options);
  out.trace = trace.str();
  return out;
}

// The trace's lines of kind `kind`.
inline std::vector<std::string> lines_of(const std::string& trace, std::string_view kind) {
  std::vector<std::string> out;
  std::istringstream in(trace);
  const std::string needle = "\"k\":\"" + std::string(kind) + "\"";
  for (std::string line; std::getline(in, line);) {
    if (line.find(needle) != std::string::npos) out.push_back(line);
  }
  return out;
}

inline std::string failures_of(const SeedResult& r) {
  std::string out = r.error.empty() ? "" : "error: " + r.error + "\n";
  for (const auto& f : r.failures) out += f.check + " at " + std::to_string(f.at.time_since_epoch().count()) + ": " + f.detail + "\n";
  return out;
}

inline sim::Time at(sim::Duration d) { return sim::Time{} + d; }

}  // namespace kubesim::runner::testing

#endif  // KUBESIM_TESTS_SCENARIOS_RUNNER_RUNNER_UTIL_H_
