// The differential oracle: what it ignores (system fields, generated names and uids wherever they
// appear, locks, Events, free paths, what a workload's updates set), and a real difference found, with
// the check that carries it into a scenario file.
#include "explore/internal/differential.h"

#include <gtest/gtest.h>

#include "kubesim/api/resources.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::explore {
namespace {

using nlohmann::json;

json config_map(const std::string& ns, const std::string& name, json data) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"namespace", ns}, {"name", name}, {"uid", "u-" + name}, {"resourceVersion", "7"}}},
          {"data", std::move(data)}};
}

runner::RunCapture capture(std::vector<json> config_maps) {
  runner::RunCapture c;
  for (auto& j : config_maps) c.objects.push_back(runner::RunCapture::Object{api::kConfigMaps, std::move(j)});
  return c;
}

std::string emitted(const YAML::Node& node) {
  YAML::Emitter out;
  out << node;
  return out.c_str();
}

DiffOptions no_options() { return DiffOptions(); }

TEST(Differential, SameStateHasNoDifference) {
  const runner::RunCapture a = capture({config_map("dst", "x", {{"k", "v"}})});
  EXPECT_TRUE(compare_end_states(a, a, no_options()).empty());
}

TEST(Differential, SystemFieldsAreIgnored) {
  json x = config_map("dst", "x", {{"k", "v"}});
  json y = x;
  y["metadata"]["uid"] = "other";
  y["metadata"]["resourceVersion"] = "99";
  y["metadata"]["creationTimestamp"] = "2026-01-01T00:00:00Z";
  y["metadata"]["generation"] = 3;
  y["metadata"]["managedFields"] = json::array({{{"manager", "m"}}});
  x["metadata"]["ownerReferences"] = json::array({{{"kind", "ConfigMap"}, {"name", "o"}, {"uid", "1"}}});
  y["metadata"]["ownerReferences"] = json::array({{{"kind", "ConfigMap"}, {"name", "o"}, {"uid", "2"}}});
  EXPECT_TRUE(compare_end_states(capture({x}), capture({y}), no_options()).empty());
}

TEST(Differential, GeneratedNamesAreMaskedWhereverTheyAppear) {
  // A source made by generateName, a child named after it (generateName of the source's name),
  // and a third object naming both in its data and in a key.
  auto world = [](const std::string& src, const std::string& child) {
    json s = config_map("src", src, {{"k", "v"}});
    s["metadata"]["generateName"] = "s-";
    s["metadata"]["annotations"] = {{"child", child}};
    json c = config_map("dst", child, {{"of", src}});
    c["metadata"]["generateName"] = src + "-";
    json index = config_map("dst", "index", {{src, "child " + child}});
    runner::RunCapture out = capture({s, c, index});
    out.generated_names = {{src, "s-"}, {child, src + "-"}};
    return out;
  };
  EXPECT_TRUE(compare_end_states(world("s-abcde", "s-abcde-fghij"), world("s-zzzzz", "s-zzzzz-yyyyy"),
                                 no_options())
                  .empty());
}

TEST(Differential, LocksEventsAndFreePathsAreIgnored) {
  runner::RunCapture a = capture({config_map("dst", "x", {{"k", "v"}})});
  runner::RunCapture b = a;
  a.objects[0].object["status"] = {{"lastSync", "1"}};
  b.objects[0].object["status"] = {{"lastSync", "2"}};
  a.objects[0].object["metadata"]["annotations"] = {{"a", "1"}};
  b.objects[0].object["metadata"]["annotations"] = {{"a", "2"}};
  a.objects.push_back({api::kLeases, {{"metadata", {{"namespace", "ns"}, {"name", "lock"}}}, {"spec", {{"holderIdentity", "a-0"}}}}});
  b.objects.push_back({api::kLeases, {{"metadata", {{"namespace", "ns"}, {"name", "lock"}}}, {"spec", {{"holderIdentity", "a-1"}}}}});
  b.objects.push_back({api::kEvents, {{"metadata", {{"namespace", "ns"}, {"name", "e1"}}}}});
  DiffOptions options;
  options.free = {"status.lastSync", "metadata.annotations.*"};
  options.locks = {"leases/ns/lock"};
  EXPECT_TRUE(compare_end_states(a, b, options).empty());
  // Without the options, the ConfigMap and the lock differ (Events are never compared).
  const auto diffs = compare_end_states(a, b, no_options());
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].text, "configmaps/dst/x: metadata.annotations.a is \"2\", \"1\" in the unperturbed run");
  EXPECT_EQ(diffs[1].text,
            "coordination.k8s.io/v1/leases/ns/lock: spec.holderIdentity is \"a-1\", \"a-0\" in the unperturbed run");
}

TEST(Differential, AFieldThatDiffersIsFoundAndWrittenAsAMatch) {
  const auto diffs = compare_end_states(capture({config_map("dst", "x", {{"k", "a"}})}),
                                        capture({config_map("dst", "x", {{"k", "b"}})}), no_options());
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].text, "configmaps/dst/x: data.k is \"b\", \"a\" in the unperturbed run");
  ASSERT_TRUE(diffs[0].check.has_value());
  EXPECT_EQ(emitted(*diffs[0].check),
            "{match: {apiVersion: v1, data: {k: a}, kind: ConfigMap, metadata: {name: x, namespace: dst}}}");
}

TEST(Differential, AnExtraGeneratedObjectIsACountDifference) {
  json child = config_map("dst", "c-aaaaa", {{"of", "s"}});
  child["metadata"]["generateName"] = "c-";
  json twin = config_map("dst", "c-bbbbb", {{"of", "s"}});
  twin["metadata"]["generateName"] = "c-";
  const auto diffs = compare_end_states(capture({child}), capture({child, twin}), no_options());
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].text, "configmaps/dst/c-*: 2 objects, 1 in the unperturbed run");
  ASSERT_TRUE(diffs[0].check.has_value());
  EXPECT_EQ(emitted(*diffs[0].check), "{count: {resource: configmaps, namespace: dst}, equals: 1}");
}

// A claim, and volumes named after its uid that record it (the fixed provisioner's pvc-<uid>).
runner::RunCapture claim_world(const std::string& uid, int volumes) {
  json claim = config_map("claims", "c1", {{"size", "1Gi"}});
  claim["metadata"]["uid"] = uid;
  std::vector<json> objects{claim};
  for (int i = 0; i < volumes; ++i) {
    json volume = config_map("volumes", "pvc-" + uid + (i == 0 ? "" : "-" + std::to_string(i)), {{"claim", uid}});
    volume["metadata"]["uid"] = "v" + std::to_string(i) + "-" + uid;
    objects.push_back(volume);
  }
  return capture(objects);
}

TEST(Differential, UidsInStringsStandForTheirObjects) {
  const std::string a = "0b6f5c3e-7d1a-4f7e-9c2b-1a2b3c4d5e6f";
  const std::string b = "5d0e9a71-33c4-4b8d-a6f0-9e8d7c6b5a43";
  EXPECT_TRUE(compare_end_states(claim_world(a, 1), claim_world(b, 1), no_options()).empty());
  // A second volume is still a difference; its key names the claim, and no check names a uid.
  const auto diffs = compare_end_states(claim_world(a, 1), claim_world(b, 2), no_options());
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].text, "configmaps/volumes/pvc-<uid of configmaps/claims/c1>-1: not in the unperturbed run");
  ASSERT_TRUE(diffs[0].check.has_value());
  EXPECT_EQ(emitted(*diffs[0].check), "{count: {resource: configmaps, namespace: volumes}, equals: 1}");
  // A uid of an object that is not there is text like any other.
  runner::RunCapture c = claim_world(a, 1);
  c.objects.erase(c.objects.begin());
  EXPECT_EQ(compare_end_states(c, claim_world(b, 1), no_options()).size(), 3u);
}

TEST(Differential, MissingAndExtraObjects) {
  const auto diffs = compare_end_states(capture({config_map("dst", "a", {}), config_map("dst", "b", {})}),
                                        capture({config_map("dst", "b", {}), config_map("dst", "c", {})}),
                                        no_options());
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].text, "configmaps/dst/a: missing");
  EXPECT_EQ(diffs[1].text, "configmaps/dst/c: not in the unperturbed run");
  // The count is the same: a match and a noMatch say it.
  EXPECT_EQ(emitted(*diffs[0].check), "{match: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: dst}}}");
  EXPECT_EQ(emitted(*diffs[1].check), "{noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: dst}}}");
  EXPECT_EQ(describe_differences(diffs, 1),
            "end state differs from the unperturbed run: configmaps/dst/a: missing (1 more)");
}

TEST(Differential, OptionsFromTheScenario) {
  const char* text = R"(name: s
duration: 1m
explore: {free: [status.lastSync]}
cluster:
  objects:
    - {apiVersion: v1, kind: Namespace, metadata: {name: src}}
processes:
  - name: ctl
    run:
      - elector: {lock: {multi: {primary: leases/src/l, secondary: configmaps/src/l}}}
workload:
  - every: 1s
    action: {update: {resource: configmaps, namespace: src, pick: random, set: {data.a: "{{n}}"}}}
  - every: 1s
    action: {update: {resource: configmaps, namespace: src, pick: oldest, set: {data.b: "{{n}}"}}}
)";
  scenarios::ParseResult r = scenarios::parse_scenario(text, "s.yaml", scenarios::Registry::with_builtins());
  ASSERT_TRUE(r.scenario.has_value()) << r.errors.front().text();
  const DiffOptions options = diff_options(*r.scenario);
  // What a random pick sets is free; what a deterministic pick sets is compared.
  EXPECT_EQ(options.free, (std::vector<std::string>{"status.lastSync", "data.a"}));
  EXPECT_EQ(options.locks, (std::vector<std::string>{"leases/src/l", "configmaps/src/l"}));
}

}  // namespace
}  // namespace kubesim::explore
