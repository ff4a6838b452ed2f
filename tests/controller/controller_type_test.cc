// controller_type(): the Widget example registered as a scenario controller type runs in a
// scenario (two replicas under a Lease, the leader crashing) through run_seed; its params are
// refused; it says what it is.
#include "kubesim/scenarios/controller_type.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "widget.h"

namespace kubesim::scenarios {
namespace {

scenarios::Registry registry() {
  scenarios::Registry r = scenarios::Registry::with_builtins();
  r.register_controller(controller_type("widgets-example", widgets::setup, "the Widget example"));
  r.register_controller(controller_type("widgets-stale", widgets_stale::setup));
  return r;
}

constexpr const char* kScenario = R"(
name: widgets-example
duration: 3m
cluster:
  resources:
    - {group: example.com, version: v1, kind: Widget, plural: widgets, namespaced: true}
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
    - {apiVersion: example.com/v1, kind: Widget, metadata: {name: w1, namespace: shop}, spec: {replicas: 3}}
processes:
  - name: widgets
    replicas: 2
    run:
      - elector: {lock: leases/shop/widgets}
      - controller: {type: widgets-example, onlyWhenLeader: true}
timeline:
  - at: 1m
    crash: {process: widgets-0, restartAfter: 10s}
expect:
  always:
    - atMostOneLeader: leases/shop/widgets
    - noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: shop, name: w1-3}}
  finally:
    - {count: {resource: configmaps, namespace: shop}, equals: 3}
    - {object: example.com/v1/widgets/shop/w1, path: status.readyReplicas, equals: 3}
)";

std::string errors_of(const scenarios::ParseResult& parsed) {
  std::string out;
  for (const auto& e : parsed.errors) out += e.text() + "\n";
  return out;
}

TEST(ControllerTypeTest, RunsTheWidgetExampleInAScenario) {
  const scenarios::Registry r = registry();
  const scenarios::ParseResult parsed = scenarios::parse_scenario(kScenario, "widgets.yaml", r);
  ASSERT_TRUE(parsed.scenario.has_value()) << errors_of(parsed);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    runner::RunOptions options;
    options.seed = seed;
    const runner::SeedResult result = runner::run_seed(*parsed.scenario, r, options);
    EXPECT_EQ(result.error, "") << "seed " << seed;
    for (const auto& failure : result.failures) ADD_FAILURE() << "seed " << seed << ": " << failure.check << ": " << failure.detail;
    // The same seed replays exactly.
    EXPECT_EQ(runner::run_seed(*parsed.scenario, r, options).trace_hash, result.trace_hash);
  }
}

TEST(ControllerTypeTest, RefusesParams) {
  const scenarios::Registry r = registry();
  std::string text = kScenario;
  const std::string from = "{type: widgets-example, onlyWhenLeader: true}";
  text.replace(text.find(from), from.size(), "{type: widgets-example, onlyWhenLeader: true, params: {size: 2}}");
  const scenarios::ParseResult parsed = scenarios::parse_scenario(text, "widgets.yaml", r);
  ASSERT_EQ(parsed.errors.size(), 1u) << errors_of(parsed);
  EXPECT_EQ(parsed.errors[0].message,
            "widgets-example: params: unknown key \"size\" (widgets-example takes no params)");
}

TEST(ControllerTypeTest, SaysWhatItIs) {
  const scenarios::Registry r = registry();
  EXPECT_EQ(r.find("widgets-example")->description, "the Widget example");
  EXPECT_EQ(r.find("widgets-stale")->description, "controllers built by a kubesim::controller setup function");
  EXPECT_EQ(r.find("widgets-example")->validate(nlohmann::json::array()),
            "params must be a map (widgets-example takes none), not []");
  EXPECT_EQ(r.find("widgets-example")->validate(nlohmann::json()), std::nullopt);
  try {
    (void)controller_type("empty", nullptr);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "controller_type \"empty\": the setup function is empty");
  }
}

}  // namespace
}  // namespace kubesim::scenarios
