// expand_experiment: the grid, typed and text substitution, ranges of durations and numbers, the
// points' names, and every error of a broken sweep with its exact message.
#include "kubesim/sweep/sweep.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kubesim::sweep {
namespace {

// A scenario whose elector and workload take the parameters.
const char* kBody = R"(name: lease
duration: 1m
seeds: 2
processes:
  - name: ctl
    replicas: {{replicas}}
    run:
      - elector: {lock: leases/default/ctl, leaseDuration: "{{lease}}", renewDeadline: 4s, retryPeriod: 1s}
workload:
  - every: 10s
    action: {create: {apiVersion: v1, kind: ConfigMap, metadata: {name: "cm-{{lease}}-{{n}}", namespace: default}}}
)";

ExpandResult expand(const std::string& head) {
  return expand_experiment(head + kBody, "s.yaml", scenarios::Registry{});
}

std::vector<std::string> texts(const ExpandResult& r) {
  std::vector<std::string> out;
  for (const auto& e : r.errors) out.push_back(e.text());
  return out;
}

TEST(Sweep, EveryPointOfTheGridIsAScenarioNamedByItsValues) {
  const ExpandResult r = expand("sweep:\n  lease: [5s, 10s]\n  replicas: [1, 3]\n");
  ASSERT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  const Experiment& e = *r.experiment;
  ASSERT_EQ(e.scenarios.size(), 4u);
  EXPECT_EQ(e.name, "lease");
  EXPECT_EQ(e.parameters, (std::vector<std::string>{"lease", "replicas"}));
  EXPECT_EQ(e.scenarios[0].name, "lease[lease=5s,replicas=1]");
  EXPECT_EQ(e.scenarios[1].name, "lease[lease=5s,replicas=3]");
  EXPECT_EQ(e.scenarios[3].name, "lease[lease=10s,replicas=3]");
  EXPECT_EQ(e.scenarios[3].processes[0].replicas, 3);  // a plain {{replicas}} is the number
  const auto& elector = std::get<scenarios::ElectorSpec>(e.scenarios[3].processes[0].run[0]);
  EXPECT_EQ(elector.lease_duration, std::chrono::seconds(10));  // a quoted "{{lease}}": the duration
  EXPECT_EQ(e.scenarios[3].seeds, 2);
  EXPECT_EQ(e.points[2], (SweepPoint{{"lease", "10s"}, {"replicas", "1"}}));
}

TEST(Sweep, InsideLongerTextTheValueIsTextAndNStaysTheWorkloadsPlaceholder) {
  const ExpandResult r = expand("sweep:\n  lease: [5s]\n  replicas: [1]\n");
  ASSERT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  const auto& workload = r.experiment->scenarios[0].workload;
  ASSERT_EQ(workload.size(), 1u);
  const nlohmann::json& object = std::get<scenarios::CreateAction>(workload[0].action).object;
  EXPECT_EQ(object["metadata"]["name"], "cm-5s-{{n}}") << object.dump();
}

TEST(Sweep, RangesOfDurationsAndNumbersSplitEvenly) {
  ExpandResult r = expand("sweep:\n  lease: {from: 5s, to: 20s, steps: 4}\n  replicas: {from: 1, to: 2, steps: 3}\n");
  // 1.5 replicas does not parse: the range itself is what is checked here.
  ASSERT_FALSE(r.experiment);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].message.rfind("in the point lease=5s, replicas=1.5: ", 0), 0u) << r.errors[0].message;
  r = expand("sweep:\n  lease: {from: 5s, to: 20s, steps: 4}\n  replicas: {from: 1, to: 3, steps: 3}\n");
  ASSERT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  std::vector<std::string> names;
  for (const auto& s : r.experiment->scenarios) names.push_back(s.name);
  ASSERT_EQ(names.size(), 12u);
  EXPECT_EQ(names[0], "lease[lease=5s,replicas=1]");
  EXPECT_EQ(names[4], "lease[lease=10s,replicas=2]");
  EXPECT_EQ(names[8], "lease[lease=15s,replicas=3]");
  EXPECT_EQ(names[11], "lease[lease=20s,replicas=3]");
  r = expand("sweep:\n  lease: {from: 5s, to: 6s, steps: 3}\n  replicas: [1]\n");
  ASSERT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  EXPECT_EQ(r.experiment->scenarios[1].name, "lease[lease=5.5s,replicas=1]");
}

// The value of a ConfigMap's data key `k`, written as "{{v}}", for a sweep of v.
nlohmann::json data_value(const std::string& values) {
  const ExpandResult r = expand_experiment(
      "name: t\nduration: 1m\nsweep: {v: " + values + "}\nworkload:\n  - every: 10s\n    action: "
      "{create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: "
      "\"{{v}}\"}}}\n",
      "t.yaml", scenarios::Registry{});
  EXPECT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  if (!r.experiment) return nullptr;
  return std::get<scenarios::CreateAction>(r.experiment->scenarios[0].workload[0].action).object["data"]["k"];
}

TEST(Sweep, AQuotedValueStaysTextAndAPlainOneKeepsItsType) {
  EXPECT_EQ(data_value("[\"007\", \"8\"]"), nlohmann::json("007"));
  EXPECT_EQ(data_value("[7, 8]"), nlohmann::json(7));
  EXPECT_EQ(data_value("[yes-please]"), nlohmann::json("yes-please"));
}

TEST(Sweep, APointTheParserRefusesIsNamedWithItsErrorsAtTheFilesPlace) {
  const ExpandResult r = expand("sweep:\n  lease: [3s]\n  replicas: [1]\n");
  ASSERT_FALSE(r.experiment);
  // Line 11 of the file (3 lines of sweep, then the body's 8th), at renewDeadline's value.
  EXPECT_EQ(texts(r), (std::vector<std::string>{
                          "s.yaml:11:88: in the point lease=3s, replicas=1: leaseDuration (3s) must be "
                          "greater than renewDeadline (4s), as client-go requires"}));
  // A plain {{replicas}} (a nested mapping to YAML) that becomes a bad value: its place.
  const ExpandResult zero = expand("sweep:\n  lease: [5s]\n  replicas: [0]\n");
  ASSERT_FALSE(zero.experiment);
  ASSERT_EQ(texts(zero).size(), 1u);
  EXPECT_EQ(texts(zero)[0].rfind("s.yaml:9:15: in the point lease=5s, replicas=0: replicas", 0), 0u)
      << texts(zero)[0];
}

TEST(Sweep, APointsChecksCarryTheFilesPlaces) {
  const ExpandResult r = expand_experiment(
      std::string("sweep:\n  lease: [5s, 10s]\n  replicas: [1]\n") + kBody +
          "expect:\n  always:\n    - atMostOneLeader: leases/default/ctl\n  finally:\n"
          "    - {count: {resource: configmaps}, equals: 2}\n",
      "s.yaml", scenarios::Registry{});
  ASSERT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  for (const auto& scenario : r.experiment->scenarios) {
    ASSERT_EQ(scenario.checks.size(), 2u);
    EXPECT_EQ(scenario.checks[0].mark.line, 17);
    EXPECT_EQ(scenario.checks[0].mark.column, 7);
    EXPECT_EQ(scenario.checks[1].mark.line, 19);
    EXPECT_EQ(scenario.checks[1].mark.column, 7);
  }
}

TEST(Sweep, MeasureAloneIsOnePointUnderTheFilesName) {
  const ExpandResult r = expand_experiment(
      "name: plain\nduration: 1m\nmeasure: [apiCalls, failoverTime]\n", "p.yaml", scenarios::Registry{});
  ASSERT_TRUE(r.experiment) << ::testing::PrintToString(texts(r));
  ASSERT_EQ(r.experiment->scenarios.size(), 1u);
  EXPECT_EQ(r.experiment->scenarios[0].name, "plain");
  EXPECT_EQ(r.experiment->measures, (std::vector<std::string>{"apiCalls", "failoverTime"}));
}

TEST(Sweep, IsExperimentLooksForSweepOrMeasure) {
  EXPECT_TRUE(is_experiment("name: a\nsweep: {}\n"));
  EXPECT_TRUE(is_experiment("name: a\nmeasure: []\n"));
  EXPECT_FALSE(is_experiment("name: a\nduration: 1m\n"));
  EXPECT_FALSE(is_experiment("- a\n"));
  EXPECT_FALSE(is_experiment("{"));
}

TEST(Sweep, TheParserRefusesAStraySweepOrMeasure) {
  const scenarios::ParseResult r = scenarios::parse_scenario("name: a\nduration: 1m\nsweep: {a: [1s]}\nmeasure: [failoverTime]\n",
                                       "s.yaml", scenarios::Registry{});
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].text(),
            "s.yaml:3:1: sweep: an experiment's key, expanded by kubesim run (one scenario per point); "
            "not accepted here");
  EXPECT_EQ(r.errors[1].text(),
            "s.yaml:4:1: measure: an experiment's key, expanded by kubesim run (one scenario per "
            "point); not accepted here");
}

struct BadCase {
  std::string name;
  std::string head;
  std::vector<std::string> errors;
};

class BadSweep : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadSweep, EveryErrorAtItsPlaceAndNoPoints) {
  const ExpandResult r = expand(GetParam().head);
  EXPECT_FALSE(r.experiment);
  EXPECT_EQ(texts(r), GetParam().errors);
}

const BadCase kBadCases[] = {
    {"UnknownMetric", "sweep: {lease: [5s], replicas: [1]}\nmeasure: [failoverTime, speed]\n",
     {"s.yaml:2:25: measure: unknown metric \"speed\" (the metrics: failoverTime, leaderTransitions, "
      "convergenceTime, apiCalls, apiCallsByResource, apiCallsPerChange, requestsPerSecond, watchRestarts, "
      "relists, queueDepth, workDuration, checksBroken)"}},
    {"NotSwept", "sweep: {lease: [5s]}\n",
     {"s.yaml:7:15: {{replicas}} is not a swept parameter (sweep: lease)"}},
    {"NeverUsed", "sweep:\n  lease: [5s]\n  replicas: [1]\n  extra: [1, 2]\n",
     {"s.yaml:4:3: sweep: parameter extra is never used as {{extra}}"}},
    {"EmptyList", "sweep: {lease: [], replicas: [1]}\n", {"s.yaml:1:16: sweep: lease has no values"}},
    {"EmptyRange", "sweep:\n  lease: {from: 5s, to: 5s, steps: 2}\n  replicas: [1]\n",
     {"s.yaml:2:17: sweep: lease: empty range: from 5s to 5s (from must be below to)"}},
    {"UpsideDown", "sweep:\n  lease: {from: 30s, to: 10s, steps: 3}\n  replicas: [1]\n",
     {"s.yaml:2:17: sweep: lease: upside-down range: from 30s to 10s (from must be below to)"}},
    {"OneStep", "sweep:\n  lease: {from: 5s, to: 10s, steps: 1}\n  replicas: [1]\n",
     {"s.yaml:2:37: sweep: lease: steps must be a whole number from 2 to 1000, got 1"}},
    {"MixedTypes", "sweep:\n  lease: [5s, 10, x]\n  replicas: [1]\n",
     {"s.yaml:2:15: sweep: lease: mixed value types: 10 is a number, 5s is a duration",
      "s.yaml:2:19: sweep: lease: mixed value types: x is text, 5s is a duration"}},
    {"RangeOfMixedKinds", "sweep:\n  lease: {from: 5s, to: 10, steps: 2}\n  replicas: [1]\n",
     {"s.yaml:2:25: sweep: lease: a range goes between two durations or two numbers, got 5s and 10"}},
    {"ValueTwice", "sweep:\n  lease: [5s, 5s]\n  replicas: [1]\n",
     {"s.yaml:2:15: sweep: lease: the value 5s appears twice"}},
    {"CalledN", "sweep:\n  n: [1]\n  lease: [5s]\n  replicas: [1]\n",
     {"s.yaml:2:3: sweep: a parameter may not be called n: {{n}} is the workload's own placeholder"}},
    {"AllAtOnce", "sweep:\n  lease: {from: 9s, to: 1s, steps: 0}\n  extra: []\nmeasure: [nope]\n",
     {"s.yaml:2:36: sweep: lease: steps must be a whole number from 2 to 1000, got 0",
      "s.yaml:3:3: sweep: parameter extra is never used as {{extra}}",
      "s.yaml:3:10: sweep: extra has no values",
      "s.yaml:4:11: measure: unknown metric \"nope\" (the metrics: failoverTime, leaderTransitions, "
      "convergenceTime, apiCalls, apiCallsByResource, apiCallsPerChange, requestsPerSecond, watchRestarts, "
      "relists, queueDepth, workDuration, checksBroken)",
      "s.yaml:10:15: {{replicas}} is not a swept parameter (sweep: extra, lease)"}},
};
INSTANTIATE_TEST_SUITE_P(Experiments, BadSweep, ::testing::ValuesIn(kBadCases),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace kubesim::sweep
