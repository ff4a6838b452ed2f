// The command line with the real parser and runner, on the tiny scenario files in testdata/:
// a passing election, a scenario that fails every seed at its end, and broken files.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kubesim/runner/runner.h"
#include "kubesim/scenarios/parse.h"
#include "kubesim/tools/cli.h"
#include "tests/tools/stubs.h"
#include "tests/tools/xml_check.h"

namespace kubesim::tools {
namespace {

using nlohmann::json;
using testing::read_file;
using testing::ScratchDir;

const std::string kData = std::filesystem::path(__FILE__).parent_path().string() + "/testdata";
const std::string kElection = kData + "/election.yaml";
const std::string kMissing = kData + "/missing-configmap.yaml";

struct Ran {
  int code = -1;
  std::string out, err;
};

Ran run(std::vector<std::string> args) {
  static const scenarios::Registry registry = scenarios::Registry::with_builtins();
  std::ostringstream out, err;
  CliEnvironment env;
  env.load = scenarios::parse_source;
  env.run = [](const scenarios::Scenario& s, const scenarios::Registry& r, const runner::RunOptions& o) { return runner::run_seed(s, r, o); };
  env.out = &out;
  env.err = &err;
  args.insert(args.begin(), "kubesim");
  Ran r;
  r.code = run_command_line(args, registry, env);
  r.out = out.str();
  r.err = err.str();
  return r;
}

TEST(EndToEndTest, APassingScenarioExitsZero) {
  const Ran r = run({"run", kElection});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "PASS tiny-election (3 seeds)\n1 passed, 0 failed\n");
  EXPECT_EQ(r.err, "");
}

TEST(EndToEndTest, AFailurePrintsTheCheckItsTimeAndAReplayThatReproducesIt) {
  const Ran r = run({"run", kElection, kMissing});
  EXPECT_EQ(r.code, 1);
  const std::string head = "PASS tiny-election (3 seeds)\n"
                           "FAIL missing-configmap: 2 of 2 seeds broke checks\n"
                           "  scenario missing-configmap (" + kMissing + "), seed 1\n"
                           "  broke " + kMissing + ":14:7: {count: {resource: configmaps, "
                           "namespace: team-a}, equals: 1}\n"
                           "  at 30s of virtual time\n";
  EXPECT_EQ(r.out.substr(0, head.size()), head) << r.out;
  // Then the runner's detail lines (its wording), and the trace tail.
  EXPECT_NE(r.out.find("\n    count of configmaps in team-a is 0"), std::string::npos);
  EXPECT_NE(r.out.find("\n  last trace lines before it:\n    {"), std::string::npos);
  const std::string tail = "  replay: kubesim run " + kMissing + " --seed 1\n1 passed, 1 failed\n";
  ASSERT_GE(r.out.size(), tail.size());
  EXPECT_EQ(r.out.substr(r.out.size() - tail.size()), tail) << r.out;
  // The replay command runs that seed alone and breaks the same check the same way.
  const Ran replay = run({"run", kMissing, "--seed", "1"});
  EXPECT_EQ(replay.code, 1);
  const std::string block = r.out.substr(r.out.find("  scenario missing-configmap"),
                                         r.out.find("1 passed") - r.out.find("  scenario missing"));
  EXPECT_EQ(replay.out, "FAIL missing-configmap: 1 of 1 seed broke checks\n" + block +
                            "0 passed, 1 failed\n");
}

TEST(EndToEndTest, BrokenFilesRunNothingAndSayWhereEachErrorIs) {
  const Ran r = run({"run", kElection, kData + "/broken"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  std::istringstream lines(r.err);
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  ASSERT_EQ(got.size(), 4u) << r.err;
  EXPECT_EQ(got[0].rfind(kData + "/broken/a-unknown-key.yaml:3:1: unknown key \"sedes\"", 0), 0u);
  EXPECT_EQ(got[1].rfind(kData + "/broken/b-bad-duration.yaml:2:11: duration: ", 0), 0u);
  // A live scenario found in a directory is skipped, not an error; named, it is an error.
  EXPECT_EQ(got[2], "skipped " + kData + "/broken/c-exec.yaml: scenario broken-c runs exec processes (process \"op\"), "
                    "which only kubesim run --live starts");
  EXPECT_EQ(got[3], "kubesim run: 2 errors; nothing was run");
  const Ran named = run({"run", kData + "/broken/c-exec.yaml"});
  EXPECT_EQ(named.code, 2);
  EXPECT_EQ(named.err, kData + "/broken/c-exec.yaml:6:11: exec processes run only with --live\n"
                       "kubesim run: 1 error; nothing was run\n");
}

// A folder of virtual scenarios and one live one: the virtual ones run, the live one is named
// as skipped, and why.
TEST(EndToEndTest, AFolderWithALiveScenarioRunsTheVirtualOnes) {
  ScratchDir dir;
  dir.write("a-virtual.yaml", "name: virtual\nduration: 10s\nseeds: 1\n");
  dir.write("b-live.yaml", "name: live\nduration: 10s\nprocesses:\n  - name: op\n    replicas: 1\n"
                           "    exec: {command: [python3, op.py]}\n");
  const Ran r = run({"run", dir.path("")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "PASS virtual (1 seed)\n1 passed, 0 failed\n");
  EXPECT_NE(r.err.find("skipped " + dir.path("b-live.yaml") + ": scenario live runs exec processes (process \"op\"), "
                       "which only kubesim run --live starts\n"),
            std::string::npos)
      << r.err;
  std::filesystem::remove(dir.path("a-virtual.yaml"));
  const Ran none = run({"run", dir.path("")});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("kubesim run: every scenario was skipped; nothing was run (run them with --live)"),
            std::string::npos) << none.err;
}

// Cluster objects the server refuses are found when the file is read (a dry run on a fresh
// server), at the object's place, exit 2: not as a runtime error of every seed.
TEST(EndToEndTest, ClusterObjectsTheServerRefusesAreErrorsOfTheFile) {
  ScratchDir dir;
  // A one-minute scenario named NAME whose cluster holds these objects, one a line from line 5.
  const auto file = [&](const std::string& name, const std::vector<std::string>& objects) {
    std::string text = "name: " + name + "\nduration: 1m\ncluster:\n  objects:\n";
    for (const auto& o : objects) text += "    - " + o + "\n";
    return dir.write(name + ".yaml", text);
  };
  const std::string refused = file("refused", {"{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}}",
                                               "{apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: gone}}"});
  const Ran r = run({"run", refused});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, refused + ":6:7: cluster.objects[1] (ConfigMap gone/b): namespaces \"gone\" not found\n"
                   "kubesim run: 1 error; nothing was run\n");
  const std::string data = file("data", {"{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {n: 1}}"});
  const Ran d = run({"run", data});
  EXPECT_EQ(d.code, 2);
  EXPECT_EQ(d.err.rfind(data + ":5:7: cluster.objects[0] (ConfigMap a): ", 0), 0u) << d.err;
}

// A check that could never see what it names — a kind not served, a field its schema lacks —
// is an error of the file at the check's place, exit 2: it would otherwise pass (a noMatch) or
// read "absent" for ever. (The built-in widget resource has a schema: spec.replicas.)
TEST(EndToEndTest, ChecksOnFieldsAndKindsThatDoNotExistAreErrorsOfTheFile) {
  ScratchDir dir;
  const std::string file = dir.write("fields.yaml", R"(name: fields
duration: 1m
cluster:
  resources:
    - {group: example.com, version: v1, kind: Widget, plural: widgets}
expect:
  always:
    - noMatch: {apiVersion: v1, kind: ConfigMap, metadata: {name: x, lables: {a: b}}, data: {k: v}}
    - noMatch: {apiVersion: example.com/v1, kind: Widget, spec: {replica: 2}}
  finally:
    - {object: configmaps/default/x, path: dta.k, equals: v}
    - {object: example.com/v1/widgets/default/w, path: spec.replicas, equals: 3}
)");
  const Ran r = run({"run", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, file + ":8:7: ConfigMap's metadata has no field \"lables\"; its fields: annotations, "
                              "creationTimestamp, deletionGracePeriodSeconds, deletionTimestamp, finalizers, "
                              "generateName, generation, labels, managedFields, name, namespace, ownerReferences, "
                              "resourceVersion, selfLink, uid; the check could never see what it names\n" +
                       file + ":9:7: Widget's spec has no field \"replica\"; its fields: replicas; the check could "
                              "never see what it names\n" +
                       file + ":11:7: path: ConfigMap has no field \"dta\"; its fields: apiVersion, binaryData, data, "
                              "immutable, kind, metadata; the check could never see what it names\n"
                              "kubesim run: 3 errors; nothing was run\n");
}

TEST(EndToEndTest, TheSameSeedGivesTheSameTraceByteForByte) {
  ScratchDir dir;
  ASSERT_EQ(run({"run", kElection, "--seed", "2", "--trace", dir.path("a.jsonl")}).code, 0);
  ASSERT_EQ(run({"run", kElection, "--seed", "2", "--trace", dir.path("b.jsonl")}).code, 0);
  ASSERT_EQ(run({"run", kElection, "--seed", "3", "--trace", dir.path("c.jsonl")}).code, 0);
  const std::string a = read_file(dir.path("a.jsonl"));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, read_file(dir.path("b.jsonl")));
  EXPECT_NE(a, read_file(dir.path("c.jsonl")));
  const std::string last = a.substr(a.rfind('\n', a.size() - 2) + 1);
  EXPECT_EQ(last.rfind("{\"traceHash\":", 0), 0u) << last;
}

json per_seed(const std::string& path) {
  json j = json::parse(read_file(path));
  j.erase("command");
  for (auto& s : j["scenarios"]) s.erase("wallSeconds");
  return j;
}

TEST(EndToEndTest, JobsAndShardsGiveTheSameResultsSeedForSeed) {
  ScratchDir dir;
  const Ran one = run({"run", kElection, kMissing, "--results", dir.path("one.json")});
  const Ran two = run({"run", kElection, kMissing, "--jobs", "2", "--results", dir.path("two.json"),
                       "--junit", dir.path("two.xml"), "--report", dir.path("two.html")});
  EXPECT_EQ(two.code, one.code);
  EXPECT_EQ(two.out, one.out);
  EXPECT_EQ(per_seed(dir.path("two.json")), per_seed(dir.path("one.json")));
  std::vector<std::string> merge = {"merge"};
  for (int k = 0; k < 3; ++k) {
    const std::string file = dir.path("shard" + std::to_string(k) + ".json");
    run({"run", kElection, kMissing, "--shard", std::to_string(k) + "/3", "--results", file});
    merge.push_back(file);
  }
  merge.insert(merge.end(), {"--results", dir.path("merged.json")});
  const Ran merged = run(merge);
  EXPECT_EQ(merged.code, one.code) << merged.err;
  EXPECT_EQ(merged.out, one.out);
  EXPECT_EQ(per_seed(dir.path("merged.json")), per_seed(dir.path("one.json")));
  // The outputs of a real run: JUnit well-formed, the report one page with real timelines.
  EXPECT_EQ(testing::xml_problem(read_file(dir.path("two.xml"))), "");
  const std::string html = read_file(dir.path("two.html"));
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("lock leases/default/ctl"), std::string::npos);
  EXPECT_NE(html.find("partition"), std::string::npos);
}

TEST(EndToEndTest, RunMainGivesAProgramTheCommandLineWithItsOwnName) {
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  std::vector<std::string> args = {"./my_controller_test", "run", kMissing, "--seed", "2"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  const int code = run_main(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.str().find("  replay: ./my_controller_test run " + kMissing + " --seed 2\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace kubesim::tools
