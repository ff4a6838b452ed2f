// A `coalesce:` fault in a scenario: a controller that acts only on an intermediate value of an
// object sees it when the watch delivers every version, and misses it when the process's watch
// coalesces the intermediate version away; the final value reaches it either way.
#include "kubesim/runner/runner.h"

#include <memory>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/informer/event_handler.h"
#include "kubesim/informer/factory.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/scenarios/registry.h"
#include "kubesim/sim/channel.h"
#include "tests/runner/runner_util.h"

namespace kubesim::runner::testing {
namespace {

// For every value of data.phase of a ConfigMap in "default" it is told of (add or update), it
// creates the ConfigMap saw-PHASE once: edge-driven on purpose, so a version it is never shown
// leaves no trace.
class PhaseWitness final : public scenarios::Controller {
 public:
  explicit PhaseWitness(scenarios::ControllerEnv env) : env_(env), seen_(std::make_shared<Seen>(env.process.loop())) {
    auto handler = std::make_shared<informer::ResourceEventHandlerFuncs>();
    std::shared_ptr<Seen> seen = seen_;
    handler->add_func = [seen](const api::ObjectPtr& obj, bool) { seen->note(*obj); };
    handler->update_func = [seen](const api::ObjectPtr&, const api::ObjectPtr& obj) { seen->note(*obj); };
    auto added = env.informers.informer_for(api::kConfigMaps).add_event_handler(handler);
    EXPECT_TRUE(added.ok());
  }
  sim::Task<void> run(sim::Context ctx) override { return witness(this, std::move(ctx)); }

 private:
  struct Seen {
    explicit Seen(sim::Loop& loop) : phases_to_mark(loop) {}
    void note(const api::Object& obj) {
      if (obj.namespace_() != "default" || obj.name() != "job") return;
      const std::string phase = obj.json()["data"].value("phase", "");
      if (!phase.empty() && phases.insert(phase).second) {
        phases_to_mark.try_send(phase);
      }
    }
    std::set<std::string> phases;
    sim::Channel<std::string> phases_to_mark;
  };

  static sim::Task<void> witness(PhaseWitness* self, sim::Context ctx) {
    for (;;) {
      auto phase = co_await self->seen_->phases_to_mark.recv(ctx);
      if (!phase) co_return;
      auto marker = api::make_object({{"apiVersion", "v1"},
                                      {"kind", "ConfigMap"},
                                      {"metadata", {{"name", "saw-" + *phase}, {"namespace", "default"}}}});
      auto made = co_await self->env_.client.create(ctx, api::kConfigMaps, "default", marker, api::CreateOptions());
      (void)made;
    }
  }

  scenarios::ControllerEnv env_;
  std::shared_ptr<Seen> seen_;
};

const scenarios::Registry& witness_registry() {
  static const scenarios::Registry r = [] {
    scenarios::Registry registry = scenarios::Registry::with_builtins();
    registry.register_controller("phase-witness", [](scenarios::ControllerEnv env) { return std::make_unique<PhaseWitness>(env); });
    return registry;
  }();
  return r;
}

constexpr const char* kScenario = R"(
name: intermediate
duration: 20s
network: {latency: {min: 5ms, max: 5ms}}
cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: job, namespace: default}, data: {phase: pending}}
processes:
  - name: ctl
    replicas: 1
    run:
      - controller: {type: phase-witness}
workload:
  - every: 1m
    from: 5s
    action: {update: {resource: configmaps, namespace: default, pick: oldest, set: {data.phase: running}}}
  - every: 1m
    from: 5500ms
    action: {update: {resource: configmaps, namespace: default, pick: oldest, set: {data.phase: done}}}
expect:
  finally:
    - match: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: default, name: saw-done}}
    - match: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: default, name: saw-running}}
)";

constexpr const char* kCoalesce = R"(timeline:
  - at: 4s
    faults:
      - {verb: watch, resource: configmaps, process: ctl-0, coalesce: 3s, for: 5s}
)";

SeedResult run_text(const std::string& yaml) {
  scenarios::ParseResult parsed = scenarios::parse_scenario(yaml, "intermediate.yaml", witness_registry());
  for (const auto& e : parsed.errors) ADD_FAILURE() << e.text();
  if (!parsed.scenario) return SeedResult();
  RunOptions options;
  options.seed = 1;
  return run_seed(*parsed.scenario, witness_registry(), options);
}

TEST(CoalesceTest, AControllerSeesTheIntermediateValueWithoutCoalescing) {
  const SeedResult r = run_text(kScenario);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.broke_any()) << failures_of(r);
}

TEST(CoalesceTest, UnderCoalescingTheIntermediateValueIsNeverSeen) {
  const SeedResult r = run_text(std::string(kScenario) + kCoalesce);
  EXPECT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.failures.size(), 1u) << failures_of(r);
  // saw-done is there (the final value arrives, 3 s late); saw-running is not.
  EXPECT_NE(r.failures[0].check.find("saw-running"), std::string::npos) << failures_of(r);
}

}  // namespace
}  // namespace kubesim::runner::testing
