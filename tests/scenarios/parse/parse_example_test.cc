// The full example of the format (docs/scenarios.md, both blocks in one file) parses into the
// structs it describes, with the defaults filled in and the places kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/sweep/sweep.h"

namespace kubesim::scenarios {
namespace {

using namespace std::chrono_literals;

std::string example_path() {
  return (std::filesystem::path(__FILE__).parent_path() / "testdata" / "full_example.yaml")
      .string();
}

class FullExample : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_ = Registry::with_builtins();
    result_ = load_scenario(example_path(), registry_);
    for (const auto& e : result_.errors) ADD_FAILURE() << e.text();
    ASSERT_TRUE(result_.scenario.has_value());
    s_ = &*result_.scenario;
  }

  template <class T>
  const T& action(std::size_t i) const {
    return std::get<T>(s_->timeline.at(i).action);
  }

  Registry registry_;
  ParseResult result_;
  const Scenario* s_ = nullptr;
};

TEST_F(FullExample, TopLevel) {
  EXPECT_EQ(s_->file, example_path());
  EXPECT_EQ(s_->name, "leader-failover-under-partition");
  EXPECT_EQ(s_->description,
            "One replica is cut off; another must take over within two lease durations.");
  EXPECT_EQ(s_->duration, 10min);
  EXPECT_EQ(s_->seeds, 100);
  EXPECT_TRUE(s_->shuffle);
  EXPECT_EQ(s_->must_find, std::vector<std::string>{"atMostOneLeader"});
}

TEST_F(FullExample, Cluster) {
  EXPECT_EQ(s_->cluster.compaction, 5min);
  EXPECT_EQ(s_->cluster.bookmarks, 1min);
  ASSERT_EQ(s_->cluster.resources.size(), 1u);
  const CustomResource& foo = s_->cluster.resources[0];
  EXPECT_EQ(foo.group, "example.com");
  EXPECT_EQ(foo.version, "v1");
  EXPECT_EQ(foo.kind, "Foo");
  EXPECT_EQ(foo.plural, "foos");
  EXPECT_TRUE(foo.namespaced);
  EXPECT_EQ(foo.mark.line, 13);
  EXPECT_EQ(foo.mark.column, 7);
  ASSERT_EQ(s_->cluster.objects.size(), 2u);
  EXPECT_EQ(s_->cluster.objects[0],
            nlohmann::json::parse(
                R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"}})"));
  EXPECT_EQ(s_->cluster.objects[1]["data"], nlohmann::json::parse(R"({"k":"v"})"));
  EXPECT_EQ(s_->network.min, 1ms);
  EXPECT_EQ(s_->network.max, 20ms);
}

TEST_F(FullExample, ManagerProcess) {
  ASSERT_EQ(s_->processes.size(), 3u);
  const ProcessSpec& m = s_->processes[0];
  EXPECT_EQ(m.name, "manager");
  EXPECT_EQ(m.replicas, 3);
  EXPECT_EQ(m.mark.line, 22);
  EXPECT_EQ(m.clock.skew.min, -500ms);
  EXPECT_EQ(m.clock.skew.max, 500ms);
  EXPECT_DOUBLE_EQ(m.clock.drift.min, -0.01);
  EXPECT_DOUBLE_EQ(m.clock.drift.max, 0.01);
  ASSERT_TRUE(m.latency.has_value());
  EXPECT_EQ(m.latency->min, 5ms);
  EXPECT_EQ(m.latency->max, 50ms);
  EXPECT_FALSE(m.exec.has_value());
  ASSERT_EQ(m.run.size(), 3u);

  const auto& elector = std::get<ElectorSpec>(m.run[0]);
  EXPECT_EQ(elector.lock.primary.kind, "leases");
  EXPECT_EQ(elector.lock.primary.ns, "team-a");
  EXPECT_EQ(elector.lock.primary.name, "manager");
  EXPECT_FALSE(elector.lock.secondary.has_value());
  EXPECT_EQ(elector.lease_duration, 15s);
  EXPECT_EQ(elector.renew_deadline, 10s);
  EXPECT_EQ(elector.retry_period, 2s);
  EXPECT_TRUE(elector.release_on_cancel);
  EXPECT_FALSE(elector.cancel_before_release);
  EXPECT_EQ(elector.mark.line, 31);
  EXPECT_EQ(elector.mark.column, 11);

  const auto& informer = std::get<InformerSpec>(m.run[1]);
  EXPECT_EQ(informer.resource.gvr, api::kConfigMaps);
  EXPECT_EQ(informer.resource.text, "configmaps");
  EXPECT_EQ(informer.ns, "team-a");
  EXPECT_EQ(informer.resync, 30s);

  const auto& controller = std::get<ControllerSpec>(m.run[2]);
  EXPECT_EQ(controller.type, "configmap-mirror");
  EXPECT_TRUE(controller.only_when_leader);
  EXPECT_EQ(controller.workers, 2);
  EXPECT_EQ(controller.params, nlohmann::json::parse(R"({"source":"team-a","target":"team-b"})"));
}

TEST_F(FullExample, ExecProcessAndDefaults) {
  const ProcessSpec& op = s_->processes[1];
  EXPECT_EQ(op.name, "op");
  EXPECT_EQ(op.replicas, 2);
  ASSERT_TRUE(op.exec.has_value());
  EXPECT_EQ(op.exec->command, (std::vector<std::string>{"python3", "op.py"}));
  ASSERT_EQ(op.exec->env.size(), 1u);
  EXPECT_EQ(op.exec->env[0], (std::pair<std::string, std::string>{"LOG", "debug"}));
  EXPECT_TRUE(op.run.empty());

  const ProcessSpec& ctl = s_->processes[2];
  EXPECT_EQ(ctl.replicas, 1);
  EXPECT_EQ(ctl.clock.skew.min, 0s);
  EXPECT_EQ(ctl.clock.drift.max, 0.0);
  EXPECT_FALSE(ctl.latency.has_value());
  const auto& c = std::get<ControllerSpec>(ctl.run.at(0));
  EXPECT_FALSE(c.only_when_leader);
  EXPECT_EQ(c.workers, 1);
}

TEST_F(FullExample, Workload) {
  ASSERT_EQ(s_->workload.size(), 3u);
  const WorkloadEntry& create = s_->workload[0];
  EXPECT_EQ(create.every, 200ms);
  EXPECT_EQ(create.from, 0s);
  EXPECT_EQ(create.until, std::optional<sim::Duration>(5min));
  EXPECT_EQ(std::get<CreateAction>(create.action).object["metadata"]["generateName"], "w-");

  const WorkloadEntry& update = s_->workload[1];
  EXPECT_EQ(update.every, 1s);
  EXPECT_FALSE(update.until.has_value());
  const auto& u = std::get<UpdateAction>(update.action);
  EXPECT_EQ(u.resource.gvr, api::kConfigMaps);
  EXPECT_EQ(u.ns, "team-a");
  EXPECT_EQ(u.pick, Pick::kRandom);
  ASSERT_EQ(u.set.size(), 1u);
  EXPECT_EQ(u.set[0].first, "data.tick");
  EXPECT_EQ(u.set[0].second, "{{n}}");

  const auto& d = std::get<DeleteAction>(s_->workload[2].action);
  EXPECT_EQ(d.pick, Pick::kOldest);
  EXPECT_EQ(s_->workload[2].mark.line, 60);
}

TEST_F(FullExample, Timeline) {
  ASSERT_EQ(s_->timeline.size(), 8u);
  EXPECT_EQ(s_->timeline[0].at, std::optional<sim::Duration>(30s));
  EXPECT_EQ(action<PartitionEvent>(0).process, "manager-0");
  EXPECT_EQ(action<PartitionEvent>(0).length, 40s);
  EXPECT_EQ(action<CrashEvent>(1).process, "manager-1");
  EXPECT_EQ(action<CrashEvent>(1).restart_after, std::optional<sim::Duration>(5s));
  EXPECT_EQ(s_->timeline[2].at, std::optional<sim::Duration>(90s));
  EXPECT_TRUE(std::holds_alternative<ApiServerRestartEvent>(s_->timeline[2].action));
  EXPECT_TRUE(std::holds_alternative<CompactEvent>(s_->timeline[3].action));
  EXPECT_EQ(s_->timeline[4].at, std::optional<sim::Duration>(150s));
  EXPECT_EQ(action<SkewEvent>(5).process, "manager-2");
  EXPECT_EQ(action<SkewEvent>(5).by, 3s);
  EXPECT_EQ(action<PauseEvent>(6).length, 20s);

  const TimelineEvent& when = s_->timeline[7];
  EXPECT_FALSE(when.at.has_value());
  ASSERT_TRUE(when.when.has_value());
  EXPECT_EQ(when.when->process, "ctl-0");
  EXPECT_EQ(when.when->verb, std::optional<fakeapi::Verb>(fakeapi::Verb::kUpdate));
  EXPECT_EQ(when.when->resource, "configmaps");
  EXPECT_EQ(when.when->count, 3);
  EXPECT_EQ(action<CrashEvent>(7).restart_after, std::optional<sim::Duration>(2s));
  EXPECT_EQ(when.mark.line, 85);
  EXPECT_EQ(when.mark.column, 5);
}

TEST_F(FullExample, Faults) {
  const auto& faults = action<FaultsEvent>(4).rules;
  ASSERT_EQ(faults.size(), 4u);
  const fakeapi::FaultRule& error = faults[0].rule;
  EXPECT_EQ(error.kind(), fakeapi::FaultKind::kError);
  EXPECT_EQ(error.verbs, std::vector<fakeapi::Verb>{fakeapi::Verb::kUpdate});
  EXPECT_EQ(error.resource, "leases");
  EXPECT_DOUBLE_EQ(error.probability, 0.5);
  EXPECT_EQ(error.as<fakeapi::ErrorFault>()->status.code, 500);
  EXPECT_TRUE(api::is_internal_error(error.as<fakeapi::ErrorFault>()->status));
  EXPECT_EQ(faults[0].length, std::optional<sim::Duration>(20s));
  EXPECT_FALSE(error.from.has_value());

  const fakeapi::FaultRule& throttle = faults[1].rule;
  EXPECT_TRUE(api::is_too_many_requests(throttle.as<fakeapi::ErrorFault>()->status));
  EXPECT_EQ(api::retry_after_seconds(throttle.as<fakeapi::ErrorFault>()->status), std::optional<int>(2));
  EXPECT_EQ(throttle.count, std::optional<std::int64_t>(3));
  EXPECT_FALSE(faults[1].length.has_value());

  EXPECT_EQ(faults[2].rule.kind(), fakeapi::FaultKind::kDropWatch);
  EXPECT_EQ(faults[2].rule.as<fakeapi::DropWatchFault>()->after_events, 10);
  EXPECT_EQ(faults[3].rule.kind(), fakeapi::FaultKind::kStaleRead);
  EXPECT_EQ(faults[3].rule.as<fakeapi::StaleReadFault>()->stale_by, 30s);
  EXPECT_EQ(faults[3].length, std::optional<sim::Duration>(1min));
  EXPECT_EQ(faults[3].mark.line, 77);
  // Each converts into a rule the fault injector's own JSON form accepts.
  for (const auto& f : faults) EXPECT_TRUE(fakeapi::FaultRule::from_json(f.rule.to_json()).ok());
}

TEST_F(FullExample, Checks) {
  ASSERT_EQ(s_->checks.size(), 9u);
  const Check& always = s_->checks[0];
  EXPECT_EQ(always.kind, CheckKind::kAlways);
  EXPECT_EQ(std::get<AtMostOneLeader>(always.condition).lock, "leases/team-a/manager");
  EXPECT_EQ(always.text, "{atMostOneLeader: leases/team-a/manager}");
  EXPECT_EQ(always.mark.line, 90);
  EXPECT_EQ(always.mark.column, 7);

  const auto& no_match = std::get<Match>(s_->checks[1].condition);
  EXPECT_TRUE(no_match.negate);
  // A quoted "true" stays a string, as Kubernetes tools read it.
  EXPECT_EQ(no_match.tree["metadata"]["labels"]["bad"], "true");
  EXPECT_EQ(
      s_->checks[1].text,
      R"({noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {namespace: team-b, labels: {bad: "true"}}}})");

  const Check& elected = s_->checks[2];
  EXPECT_EQ(elected.kind, CheckKind::kEventually);
  EXPECT_EQ(elected.after, 0s);
  EXPECT_EQ(elected.within, 30s);
  EXPECT_TRUE(std::holds_alternative<InformersConverged>(s_->checks[3].condition));
  EXPECT_EQ(s_->checks[3].after, 5min);
  EXPECT_FALSE(std::get<Match>(s_->checks[4].condition).negate);

  const Check& consistently = s_->checks[5];
  EXPECT_EQ(consistently.kind, CheckKind::kConsistently);
  EXPECT_EQ(consistently.after, 1min);
  EXPECT_EQ(consistently.length, 30s);

  const auto& count = std::get<CountCompare>(s_->checks[6].condition);
  EXPECT_EQ(count.op, CountCompare::Op::kEquals);
  EXPECT_EQ(count.count.resource.gvr, api::kConfigMaps);
  EXPECT_EQ(count.count.ns, "team-b");
  EXPECT_EQ(std::get<CountQuery>(count.than).ns, "team-a");

  const auto& object = std::get<ObjectPathEquals>(s_->checks[7].condition);
  EXPECT_EQ(object.resource.gvr, api::kConfigMaps);
  EXPECT_EQ(object.ns, "team-a");
  EXPECT_EQ(object.name, "seed");
  EXPECT_EQ(object.path, "data.k");
  EXPECT_EQ(object.equals, "v");
  EXPECT_EQ(s_->checks[7].kind, CheckKind::kFinally);

  const auto& transitions = std::get<MaxLeaderTransitions>(s_->checks[8].condition);
  EXPECT_EQ(transitions.lock, "leases/team-a/manager");
  EXPECT_EQ(transitions.at_most, 4);
}

// The scenarios of the user's reference (docs/scenarios.md) parse: every YAML block of it that is
// a whole scenario (it opens with name:); an experiment's block through its expansion.
TEST(ParseScenario, TheReferenceExamplesParse) {
  const auto path =
      std::filesystem::path(__FILE__).parent_path() / ".." / ".." / ".." / "docs" / "scenarios.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  auto registry = Registry::with_builtins();
  int scenarios = 0;
  for (std::size_t at = doc.find("```yaml\n"); at != std::string::npos;
       at = doc.find("```yaml\n", at + 1)) {
    const std::size_t begin = at + 8;
    const std::string block = doc.substr(begin, doc.find("```", begin) - begin);
    if (block.rfind("name:", 0) != 0) continue;
    ++scenarios;
    if (sweep::is_experiment(block)) {  // a sweep is expanded into its points first, as kubesim run does
      auto r = sweep::expand_experiment(block, "docs/scenarios.md", registry);
      for (const auto& e : r.errors) ADD_FAILURE() << e.text();
      continue;
    }
    auto r = parse_scenario(block, "docs/scenarios.md", registry);
    for (const auto& e : r.errors) ADD_FAILURE() << e.text();
  }
  EXPECT_EQ(scenarios, 3);
}

TEST(ParseScenario, DefaultsOfAMinimalFile) {
  auto registry = Registry::with_builtins();
  auto r = parse_scenario("name: tiny\nduration: 1m\n", "tiny.yaml", registry);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().text();
  const Scenario& s = *r.scenario;
  EXPECT_EQ(s.file, "tiny.yaml");
  EXPECT_EQ(s.seeds, 20);
  EXPECT_TRUE(s.shuffle);
  EXPECT_EQ(s.cluster.compaction, 5min);
  EXPECT_EQ(s.cluster.bookmarks, 1min);
  EXPECT_EQ(s.network.min, 0s);
  EXPECT_TRUE(s.processes.empty());
  EXPECT_TRUE(s.checks.empty());
}

TEST(ParseScenario, ElectorDefaultsMultiLockRatesAndSingleValues) {
  auto registry = Registry::with_builtins();
  auto r = parse_scenario(R"(name: x
duration: 1h
network: {latency: 5ms}
processes:
  - name: p
    replicas: 2
    clock: {skew: 1s, drift: 0.02}
    run:
      - elector: {lock: {multi: {primary: leases/ns/l, secondary: endpoints/ns/l}}}
workload:
  - rate: 5/s
    action: {delete: {resource: example.com/v1/widgets, namespace: a}}
  - rate: 30/m
    action: {delete: {resource: widgets}}
  - rate: 2/h
    action: {delete: {resource: widgets}}
cluster:
  resources: [{group: example.com, version: v1, kind: Widget, plural: widgets}]
expect:
  always:
    - atMostOneLeader: endpoints/ns/l
    - {object: namespaces/kube-system, path: metadata.name, equals: kube-system}
)",
                          "x.yaml", registry);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().text();
  const Scenario& s = *r.scenario;
  EXPECT_EQ(s.network.min, 5ms);
  EXPECT_EQ(s.network.max, 5ms);
  const ProcessSpec& p = s.processes.at(0);
  EXPECT_EQ(p.clock.skew.min, 1s);
  EXPECT_EQ(p.clock.skew.max, 1s);
  EXPECT_DOUBLE_EQ(p.clock.drift.min, 0.02);
  EXPECT_DOUBLE_EQ(p.clock.drift.max, 0.02);
  const auto& e = std::get<ElectorSpec>(p.run.at(0));
  EXPECT_EQ(e.lease_duration, 15s);
  EXPECT_EQ(e.renew_deadline, 10s);
  EXPECT_EQ(e.retry_period, 2s);
  EXPECT_FALSE(e.release_on_cancel);
  EXPECT_EQ(e.lock.primary.text(), "leases/ns/l");
  ASSERT_TRUE(e.lock.secondary.has_value());
  EXPECT_EQ(e.lock.secondary->text(), "endpoints/ns/l");
  EXPECT_EQ(s.workload.at(0).every, 200ms);
  EXPECT_EQ(s.workload.at(1).every, 2s);
  EXPECT_EQ(s.workload.at(2).every, 30min);
  const auto& widgets = std::get<DeleteAction>(s.workload.at(0).action).resource;
  EXPECT_EQ(widgets.gvr, (api::GroupVersionResource{"example.com", "v1", "widgets"}));
  EXPECT_EQ(widgets.text, "example.com/v1/widgets");
  const auto& ns = std::get<ObjectPathEquals>(s.checks.at(1).condition);
  EXPECT_EQ(ns.resource.gvr, api::kNamespaces);
  EXPECT_EQ(ns.ns, "");
  EXPECT_EQ(ns.name, "kube-system");
}

// YAML 1.1, as sigs.k8s.io/yaml reads it: a plain n is false, even as a key.
TEST(ParseScenario, ScalarsResolveAsKubernetesToolsResolveThem) {
  auto registry = Registry::with_builtins();
  auto r = parse_scenario(R"(name: x
duration: 1m
cluster:
  objects:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: d}, data: {num: "1", b: "yes", s: plain, n: x}}
workload:
  - every: 1s
    action: {update: {resource: configmaps, set: {data.n: "7", spec.replicas: 3, x.on: yes, x.nil: ~}}}
)",
                          "x.yaml", registry);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front().text();
  EXPECT_EQ(r.scenario->cluster.objects.at(0)["data"],
            nlohmann::json::parse(R"({"num":"1","b":"yes","s":"plain","false":"x"})"));
  const auto& set = std::get<UpdateAction>(r.scenario->workload.at(0).action).set;
  ASSERT_EQ(set.size(), 4u);
  EXPECT_EQ(set[0].second, "7");
  EXPECT_EQ(set[1].second, 3);
  EXPECT_EQ(set[2].second, true);
  EXPECT_TRUE(set[3].second.is_null());
}

}  // namespace
}  // namespace kubesim::scenarios
