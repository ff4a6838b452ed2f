// The outputs of experiments beyond the table: each seed's metrics and each point's parameters in
// --results (and back), three shards merged giving what the whole run gives (stdout, --csv,
// --charts), the report's Experiments section, and a point that breaks a check — named, at the
// experiment file's line, and ringed in its chart.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/sweep/cli_run.h"

namespace kubesim::sweep {
namespace {

namespace fs = std::filesystem;
using testing::kExample;
using testing::kubesim;
using testing::Outcome;
const auto read = testing::read_file;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(ExperimentOutputs, ResultsCarryEachSeedsMetricsAndThePointsParameters) {
  const fs::path dir = scratch("results-metrics");
  const Outcome o = kubesim({"run", kExample.string(), "--seeds", "1", "--results", (dir / "r.json").string()});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(read(dir / "r.json"));
  const auto& first = j["scenarios"][0];
  EXPECT_EQ(first["experiment"], "failover-vs-lease");
  EXPECT_EQ(first["point"], (nlohmann::json::parse(R"([{"parameter": "leaseDuration", "value": "5s"}])")));
  const auto& metrics = first["seeds"][0]["metrics"];
  ASSERT_TRUE(metrics.is_array());
  EXPECT_EQ(metrics[0]["column"], "failoverTime");
  EXPECT_TRUE(metrics[0]["value"].is_number()) << metrics.dump();
  EXPECT_FALSE(j.contains("interrupted"));
}

TEST(ExperimentOutputs, MetricsRoundTripThroughTheResultsJsonWithNoValueAsNull) {
  runner::ScenarioResult r;
  r.file = "e.yaml";
  r.name = "e[p=1]";
  r.experiment = "e";
  r.point = {{"p", "1"}, {"q", "x,y"}};
  runner::SeedResult seed;
  seed.seed = 7;
  seed.metrics = {{"failoverTime", std::nullopt}, {"apiCalls", 12.0}, {"rate", 0.1 + 0.2}};
  r.seeds.push_back(seed);
  const nlohmann::json j = to_json(r);
  EXPECT_TRUE(j["seeds"][0]["metrics"][0]["value"].is_null());
  auto back = runner::scenario_result_from_json(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.ok()) << back.status().message;
  EXPECT_EQ(back.value().experiment, "e");
  EXPECT_EQ(back.value().point, r.point);
  EXPECT_EQ(back.value().seeds[0].metrics, seed.metrics);  // exactly, 0.30000000000000004 too

  nlohmann::json bad = j;
  bad["seeds"][0]["metrics"][1]["value"] = "12";
  EXPECT_EQ(runner::scenario_result_from_json(bad).status().message, "seeds[0].metrics[1].value: expected a number");
  bad = j;
  bad["point"][0].erase("value");
  EXPECT_EQ(runner::scenario_result_from_json(bad).status().message, "point[0].value: missing");
  // A scenario that is no experiment's point writes neither.
  runner::ScenarioResult plain;
  plain.seeds.push_back(runner::SeedResult{});
  const nlohmann::json p = to_json(plain);
  EXPECT_FALSE(p.contains("experiment"));
  EXPECT_FALSE(p.contains("point"));
  EXPECT_FALSE(p["seeds"][0].contains("metrics"));
}

TEST(ExperimentOutputs, ThreeShardsMergedGiveWhatTheWholeRunGives) {
  const fs::path dir = scratch("merge-equals-whole");
  const Outcome whole = kubesim({"run", kExample.string(), "--jobs", "2", "--csv", (dir / "whole.csv").string(),
                                 "--charts", (dir / "whole").string()});
  ASSERT_EQ(whole.code, 0) << whole.err;
  std::vector<std::string> merge = {"merge"};
  for (int k = 0; k < 3; ++k) {
    const std::string results = (dir / ("shard" + std::to_string(k) + ".json")).string();
    const Outcome shard = kubesim({"run", kExample.string(), "--shard", std::to_string(k) + "/3",
                                   "--results", results});
    ASSERT_EQ(shard.code, 0) << shard.err;
    merge.push_back(results);
  }
  merge.insert(merge.end(), {"--csv", (dir / "merged.csv").string(), "--charts", (dir / "merged").string()});
  const Outcome merged = kubesim(merge);
  ASSERT_EQ(merged.code, 0) << merged.err;
  const std::string csv = read(dir / "whole.csv");
  EXPECT_EQ(read(dir / "merged.csv"), csv);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 10);
  EXPECT_EQ(merged.out, whole.out);  // the cost line, the scenarios, the table, the closing line
  std::size_t charts = 0;
  for (const auto& entry : fs::directory_iterator(dir / "whole")) {
    ++charts;
    EXPECT_EQ(read(dir / "merged" / entry.path().filename()), read(entry.path())) << entry.path();
  }
  EXPECT_EQ(charts, 13u);  // 13 metric columns × 1 parameter
  EXPECT_NE(merged.err.find("charts: 13 files in " + (dir / "merged").string()), std::string::npos);
}

TEST(ExperimentOutputs, TheReportHasAnExperimentsSectionWithTheTableAndTheCharts) {
  const fs::path dir = scratch("report-experiments");
  const Outcome o = kubesim({"run", kExample.string(), "--seeds", "2", "--report", (dir / "r.html").string()});
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string html = read(dir / "r.html");
  const auto section = html.find("<h2>Experiments</h2>");
  ASSERT_NE(section, std::string::npos);
  EXPECT_LT(section, html.find("<section id=\"s0\">"));
  EXPECT_NE(html.find("<p class=\"cmd\">" + kExample.string() + ": sweep: 3 points × 2 seeds = 6 runs</p>"),
            std::string::npos);
  EXPECT_NE(html.find("<th>leaseDuration</th><th>seeds passed</th><th>failoverTime</th>"), std::string::npos);
  EXPECT_NE(html.find("<td><a href=\"#s1\">10s</a></td><td class=\"num\">2/2</td>"), std::string::npos);
  std::size_t charts = 0;
  for (auto at = html.find("<svg xmlns"); at != std::string::npos; at = html.find("<svg xmlns", at + 1)) ++charts;
  EXPECT_EQ(charts, 13u);
  EXPECT_NE(html.find("<title>failoverTime vs leaseDuration</title>"), std::string::npos);
}

TEST(ExperimentOutputs, ABrokenCheckNamesThePointAndTheExperimentFilesLine) {
  const fs::path dir = scratch("broken-point");
  const fs::path file = dir / "broken.yaml";
  std::ofstream(file) << "name: broken\nduration: 20s\nseeds: 2\nsweep:\n  lease: [5s, 10s]\n"
                         "measure: [leaderTransitions]\nprocesses:\n  - name: ctl\n    run:\n"
                         "      - elector: {lock: leases/default/ctl, leaseDuration: \"{{lease}}\", "
                         "renewDeadline: 4s, retryPeriod: 1s}\nexpect:\n  finally:\n"
                         "    - {count: {resource: configmaps, namespace: default}, equals: 3}\n";
  const Outcome o = kubesim({"run", file.string(), "--csv", (dir / "x.csv").string(), "--charts",
                             (dir / "charts").string()});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.out.find("FAIL broken[lease=5s]: 2 of 2 seeds broke checks\n  scenario broken[lease=5s] (" +
                       file.string() + "), seed 1\n  broke " + file.string() + ":13:7: "),
            std::string::npos)
      << o.out;
  EXPECT_NE(read(dir / "x.csv").find("broken[lease=10s],10s,2,false,"), std::string::npos);
  const std::string chart = read(dir / "charts" / "broken--leaderTransitions--lease.svg");
  EXPECT_NE(chart.find("<title>2 of 2 seeds failed at lease=10s</title>"), std::string::npos) << chart;
}

TEST(ExperimentOutputs, AChartsDirectoryThatCannotBeMadeIsBadInput) {
  const fs::path dir = scratch("charts-bad");
  std::ofstream(dir / "file") << "x";
  const Outcome o = kubesim({"run", kExample.string(), "--charts", (dir / "file").string()});
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err.rfind("kubesim run: cannot write " + (dir / "file").string() + ": ", 0), 0u) << o.err;
}

}  // namespace
}  // namespace kubesim::sweep
