// Charts of measurements: the shapes each chart holds (a band and a line per series, a ring and a
// count for a point where a seed failed, the axes and their labels), escaping, points without a
// value, single seeds, the order of a numeric axis, the same bytes for the same rows, file names.
#include "kubesim/report/chart.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kubesim::report {
namespace {

namespace fs = std::filesystem;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// A row of experiment "exp" at the given point, with failoverTime `value` (nullopt: none).
sweep::MeasuredRun row(std::vector<std::pair<std::string, std::string>> point, std::uint64_t seed,
                std::optional<double> value, bool passed = true, const std::string& experiment = "exp",
                const std::string& metric = "failoverTime") {
  std::string name = experiment + "[";
  for (const auto& [p, v] : point) name += (name.back() == '[' ? "" : ",") + p + "=" + v;
  return sweep::MeasuredRun{name + "]", experiment, std::move(point), seed, passed,
                     sweep::Metrics{{metric, value}, {"checksBroken", passed ? 0.0 : 1.0}}};
}

// leaseDuration 5s, 10s, 20s over three seeds each; failoverTime grows with it.
std::vector<sweep::MeasuredRun> one_parameter() {
  std::vector<sweep::MeasuredRun> rows;
  for (const char* lease : {"5s", "10s", "20s"}) {
    const double base = std::stod(lease);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      rows.push_back(row({{"leaseDuration", lease}}, seed, base + static_cast<double>(seed)));
    }
  }
  return rows;
}

void expect_well_formed(const std::string& svg) {
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg;
  EXPECT_TRUE(has(svg, "</svg>\n"));
  EXPECT_EQ(count(svg, "<g"), count(svg, "</g>")) << svg;
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>")) << svg;
  for (const char* bad : {"nan", "NaN", "inf", "<script", "href", "url("}) {
    EXPECT_FALSE(has(svg, bad)) << bad << " in\n" << svg;
  }
}

TEST(Chart, OneParameterIsOneSeriesWithItsBandLineAndPointsOnANumericAxis) {
  const std::string svg = chart_svg(one_parameter(), "exp", "failoverTime", "leaseDuration");
  expect_well_formed(svg);
  EXPECT_TRUE(has(svg, "<title>failoverTime vs leaseDuration</title>"));
  EXPECT_TRUE(has(svg, ">failoverTime vs leaseDuration</text>"));
  EXPECT_EQ(count(svg, "class=\"series\""), 1u);
  EXPECT_EQ(count(svg, "<polygon class=\"band\""), 1u);
  EXPECT_EQ(count(svg, "<polyline class=\"median\""), 1u);
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 3u);
  EXPECT_EQ(count(svg, "class=\"broken\""), 0u);
  EXPECT_FALSE(has(svg, "seeds failed / seeds"));
  // Durations are seconds on the x axis; the y axis starts at 0.
  EXPECT_TRUE(has(svg, ">leaseDuration (s)</text>"));
  EXPECT_TRUE(has(svg, "rotate(-90)\" text-anchor=\"middle\">failoverTime</text>"));
  EXPECT_TRUE(has(svg, "text-anchor=\"end\">0</text>"));
  EXPECT_TRUE(has(svg, "text-anchor=\"middle\">20</text>"));
  // 10s: seeds give 11, 12, 13.
  EXPECT_TRUE(has(svg, "<title>leaseDuration=10s: median 12, p5–p95 11.1–12.9 over 3 seeds</title>"))
      << svg;
  EXPECT_TRUE(has(svg, ">median</text>"));
  EXPECT_TRUE(has(svg, "band: p5–p95 over seeds"));
}

TEST(Chart, ANumericAxisIsInValueOrderWhateverTheRowsOrder) {
  std::vector<sweep::MeasuredRun> rows = one_parameter();
  std::rotate(rows.begin(), rows.begin() + 3, rows.end());  // 10s, 20s, 5s
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "leaseDuration");
  const auto at5 = svg.find("<title>leaseDuration=5s"), at10 = svg.find("<title>leaseDuration=10s"),
             at20 = svg.find("<title>leaseDuration=20s");
  ASSERT_NE(at5, std::string::npos);
  EXPECT_LT(at5, at10);
  EXPECT_LT(at10, at20);
}

TEST(Chart, APointWhereASeedFailedGetsARedRingAndTheCount) {
  std::vector<sweep::MeasuredRun> rows = one_parameter();
  rows[4].passed = false;  // 10s, seed 2
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "leaseDuration");
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle class=\"broken\""), 1u);
  EXPECT_TRUE(has(svg, "stroke=\"#d62728\""));
  EXPECT_TRUE(has(svg, "<title>1 of 3 seeds failed at leaseDuration=10s</title>"));
  EXPECT_TRUE(has(svg, "class=\"broken-count\"") && has(svg, ">1/3</text>"));
  EXPECT_TRUE(has(svg, "seeds failed / seeds"));
}

TEST(Chart, ACountThatWouldOverlapAnotherIsLeftOutAndItsRingKeepsIt) {
  std::vector<sweep::MeasuredRun> rows;
  for (int n = 0; n < 40; ++n) rows.push_back(row({{"n", std::to_string(n)}}, 1, 1.0, false));
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "n");
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle class=\"broken\""), 40u);
  const std::size_t counts = count(svg, "class=\"broken-count\"");
  EXPECT_GT(counts, 5u);
  EXPECT_LT(counts, 40u);
  EXPECT_TRUE(has(svg, "<title>1 of 1 seeds failed at n=39</title>"));
}

TEST(Chart, TwoParametersGiveASeriesPerValueOfTheOther) {
  std::vector<sweep::MeasuredRun> rows;
  for (const char* lease : {"10s", "20s"}) {
    for (const char* renew : {"2s", "5s", "8s"}) {
      for (std::uint64_t seed = 1; seed <= 2; ++seed) {
        rows.push_back(row({{"leaseDuration", lease}, {"renewDeadline", renew}}, seed,
                           std::stod(lease) + std::stod(renew)));
      }
    }
  }
  const std::string by_lease = chart_svg(rows, "exp", "failoverTime", "leaseDuration");
  expect_well_formed(by_lease);
  EXPECT_EQ(count(by_lease, "<polygon class=\"band\""), 3u);
  EXPECT_EQ(count(by_lease, "<polyline class=\"median\""), 3u);
  for (const char* label : {">renewDeadline=2s</text>", ">renewDeadline=5s</text>", ">renewDeadline=8s</text>"}) {
    EXPECT_TRUE(has(by_lease, label)) << label;
  }
  EXPECT_TRUE(has(by_lease, "data-series=\"renewDeadline=5s\""));
  EXPECT_TRUE(has(by_lease, "stroke=\"#4e79a7\"") && has(by_lease, "stroke=\"#59a14f\"") &&
              has(by_lease, "stroke=\"#9c755f\""));
  const std::string by_renew = chart_svg(rows, "exp", "failoverTime", "renewDeadline");
  EXPECT_EQ(count(by_renew, "<polygon class=\"band\""), 2u);
  EXPECT_TRUE(has(by_renew, ">leaseDuration=20s</text>"));
  EXPECT_EQ(experiment_charts(rows).size(), 4u);  // 2 metric columns × 2 parameters
}

TEST(Chart, TextValuesAreCategoriesInGridOrderAndEveryNameIsEscaped) {
  std::vector<sweep::MeasuredRun> rows;
  for (const char* mode : {"b<a", "a&b", "\"q\""}) {
    rows.push_back(row({{"mo<de", mode}}, 1, 2.0, true, "e<x>", "m&n"));
  }
  const std::string svg = chart_svg(rows, "e<x>", "m&n", "mo<de");
  expect_well_formed(svg);
  EXPECT_TRUE(has(svg, "<title>m&amp;n vs mo&lt;de</title>"));
  EXPECT_TRUE(has(svg, ">e&lt;x&gt;: median"));
  const auto first = svg.find(">b&lt;a</text>"), second = svg.find(">a&amp;b</text>"),
             third = svg.find(">&quot;q&quot;</text>");
  ASSERT_NE(first, std::string::npos) << svg;
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  EXPECT_TRUE(has(svg, ">mo&lt;de</text>"));  // a category axis has no unit
  EXPECT_FALSE(has(svg, "b<a"));
}

TEST(Chart, SingleSeedPointsHaveANarrowBandAndNoNaN) {
  std::vector<sweep::MeasuredRun> rows = {row({{"n", "1"}}, 1, 4.0)};
  const std::string lone = chart_svg(rows, "exp", "failoverTime", "n");
  expect_well_formed(lone);
  EXPECT_EQ(count(lone, "<polygon class=\"band\""), 1u);
  EXPECT_EQ(count(lone, "<polyline"), 0u);  // one point: no line
  EXPECT_TRUE(has(lone, "median 4, p5–p95 4–4 over 1 seed<"));
  rows.push_back(row({{"n", "2"}}, 1, 4.0));  // every value the same: a flat line, still a range
  const std::string flat = chart_svg(rows, "exp", "failoverTime", "n");
  expect_well_formed(flat);
  EXPECT_EQ(count(flat, "<polyline class=\"median\""), 1u);
}

TEST(Chart, PointsWithoutAValueAreNotDrawnAndSaidSo) {
  std::vector<sweep::MeasuredRun> rows = one_parameter();
  for (std::size_t i = 0; i < 3; ++i) rows[i].metrics[0].second.reset();  // 5s: no failover
  rows[1].passed = false;
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "leaseDuration");
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 2u);
  EXPECT_TRUE(has(svg, ">not drawn: leaseDuration=5s — no value in 3 seeds (1 failed)</text>")) << svg;
  EXPECT_EQ(count(svg, "class=\"broken\""), 0u);  // nothing drawn there to ring
}

TEST(Chart, AMetricWithNoValueAnywhereSaysSoInsteadOfAxes) {
  std::vector<sweep::MeasuredRun> rows = one_parameter();
  for (auto& r : rows) r.metrics[0].second.reset();
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "leaseDuration");
  expect_well_formed(svg);
  EXPECT_TRUE(has(svg, ">failoverTime has no value in any run of this experiment: nothing to draw</text>"));
  EXPECT_EQ(count(svg, "class=\"axes\""), 0u);
  EXPECT_EQ(count(svg, "class=\"skipped\""), 3u);
}

// The number after `attribute="` in the element that holds `marker`, searching back from it.
double number_before(const std::string& svg, const std::string& marker, const std::string& attribute) {
  const auto at = svg.rfind(attribute + "=\"", svg.find(marker));
  return std::stod(svg.substr(at + attribute.size() + 2));
}

TEST(Chart, ALegendTallerThanThePlotPushesTheNotesBelowIt) {
  std::vector<sweep::MeasuredRun> rows;
  for (int b = 0; b < 21; ++b) {
    for (const char* a : {"1", "2"}) {
      const bool none = b == 20 && std::string(a) == "2";
      rows.push_back(row({{"a", a}, {"b", std::to_string(b)}}, 1,
                         none ? std::nullopt : std::optional<double>(b), b != 3));
    }
  }
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "a");
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "class=\"skipped\""), 1u);
  const double legend_end = number_before(svg, ">seeds failed / seeds</text>", "y");
  EXPECT_GT(legend_end, 420);  // 21 series reach past the plot
  EXPECT_GT(number_before(svg, ">not drawn: a=2, b=20", "y"), legend_end + 10) << svg;
  EXPECT_GT(number_before(svg, "viewBox", "height"), number_before(svg, ">not drawn: a=2, b=20", "y"));
}

TEST(Chart, ManySkippedPointsAreCounted) {
  std::vector<sweep::MeasuredRun> rows;
  for (int n = 1; n <= 9; ++n) rows.push_back(row({{"n", std::to_string(n)}}, 1, std::nullopt));
  const std::string svg = chart_svg(rows, "exp", "failoverTime", "n");
  EXPECT_EQ(count(svg, "class=\"skipped\""), 6u);
  EXPECT_TRUE(has(svg, ">and 4 more points not drawn, with no value</text>")) << svg;
}

TEST(Chart, TheSameRowsGiveTheSameBytesAndOtherExperimentsAreIgnored) {
  std::vector<sweep::MeasuredRun> rows = one_parameter();
  const std::string alone = chart_svg(rows, "exp", "failoverTime", "leaseDuration");
  rows.push_back(row({{"leaseDuration", "99s"}}, 1, 500.0, false, "other"));
  EXPECT_EQ(chart_svg(rows, "exp", "failoverTime", "leaseDuration"), alone);
  EXPECT_EQ(chart_svg(one_parameter(), "exp", "failoverTime", "leaseDuration"), alone);
}

TEST(Chart, EveryChartOfEveryExperimentInOrder) {
  std::vector<sweep::MeasuredRun> rows = one_parameter();
  rows.push_back(row({{"a", "1"}, {"b", "x"}}, 1, 1.0, true, "second"));
  rows.push_back(sweep::MeasuredRun{"third", "third", {}, 1, true, sweep::Metrics{{"failoverTime", 1.0}}});
  std::vector<std::string> names;
  for (const auto& chart : experiment_charts(rows)) names.push_back(chart_file_name(chart));
  EXPECT_EQ(names, (std::vector<std::string>{
                       "exp--failoverTime--leaseDuration.svg", "exp--checksBroken--leaseDuration.svg",
                       "second--failoverTime--a.svg", "second--failoverTime--b.svg",
                       "second--checksBroken--a.svg", "second--checksBroken--b.svg"}));
}

TEST(Chart, FileNamesArePlain) {
  EXPECT_EQ(chart_file_name(Chart{"my exp/1", "apiCalls.get", "partition.for", ""}),
            "my_exp_1--apiCalls.get--partition.for.svg");
  EXPECT_EQ(chart_file_name(Chart{"..", "m", "", ""}), "_.--m--_.svg");
}

TEST(Chart, WritesAFilePerChartAndSaysWhatCannotBeWritten) {
  const fs::path dir = fs::path(::testing::TempDir()) / "charts-test" / "nested";
  fs::remove_all(dir.parent_path());
  std::string error;
  const auto written = write_chart_files(one_parameter(), dir.string(), error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(written[0], (dir / "exp--failoverTime--leaseDuration.svg").string());
  std::ifstream in(written[0]);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), chart_svg(one_parameter(), "exp", "failoverTime", "leaseDuration"));

  const fs::path file = fs::path(::testing::TempDir()) / "charts-test" / "a-file";
  std::ofstream(file) << "x";
  error.clear();
  EXPECT_TRUE(write_chart_files(one_parameter(), file.string(), error).empty());
  EXPECT_EQ(error.rfind("cannot write " + file.string() + ": ", 0), 0u) << error;
}

}  // namespace
}  // namespace kubesim::report
