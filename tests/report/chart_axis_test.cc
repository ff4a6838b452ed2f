// The charts' numbers: the step and ticks of an axis at ranges that are exactly a whole number of
// candidate steps (where floor(log10(x)) and a rounding either way used to decide), one ulp either
// side of them, tiny and huge ranges, the room above the values; ticks that are the doubles
// nearest their decimals; coordinates that print the same one ulp either side of a tie.
#include "report/internal/chart_axis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kubesim/report/chart.h"

namespace kubesim::report::internal {
namespace {

struct AxisCase {
  double lo, hi, room;
  int mantissa, exponent;
  std::vector<double> ticks;
};

TEST(ChartAxis, StepsAndTicksAtExactBoundaries) {
  const AxisCase cases[] = {
      {0, 1, 0, 2, -1, {0, 0.2, 0.4, 0.6, 0.8, 1}},
      {0, 10, 0, 2, 0, {0, 2, 4, 6, 8, 10}},
      {0, 0.5, 0, 1, -1, {0, 0.1, 0.2, 0.3, 0.4, 0.5}},
      {0, 40, 0, 1, 1, {0, 10, 20, 30, 40}},
      {0, 50, 0, 1, 1, {0, 10, 20, 30, 40, 50}},
      {0, 0.3, 0, 1, -1, {0, 0.1, 0.2, 0.3}},
      {0, 0.7, 0, 2, -1, {0, 0.2, 0.4, 0.6, 0.8}},
      {0, 5, 0, 1, 0, {0, 1, 2, 3, 4, 5}},
      {5, 60, 0, 2, 1, {0, 20, 40, 60}},
      {0.6, 1.4, 0, 2, -1, {0.6, 0.8, 1, 1.2, 1.4}},
      {-1, 1, 0, 5, -1, {-1, -0.5, 0, 0.5, 1}},
      {0, 1e-12, 0, 2, -13, {0, 2e-13, 4e-13, 6e-13, 8e-13, 1e-12}},
      {0, 1e12, 0, 2, 11, {0, 2e11, 4e11, 6e11, 8e11, 1e12}},
      {0, 3e-7, 0, 1, -7, {0, 1e-7, 2e-7, 3e-7}},
      {0, 7e15, 0, 2, 15, {0, 2e15, 4e15, 6e15, 8e15}},
      // The y axis of a chart: the step from the values, the top past 6 % of the range above them.
      {0, 1, 0.06, 2, -1, {0, 0.2, 0.4, 0.6, 0.8, 1, 1.2}},
      {0, 40, 0.06, 1, 1, {0, 10, 20, 30, 40, 50}},
      {0, 0.5, 0.06, 1, -1, {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6}},
      {0, 0.9, 0.06, 2, -1, {0, 0.2, 0.4, 0.6, 0.8, 1}},
      // One value: widened around it.
      {0, 0, 0, 5, -1, {-1, -0.5, 0, 0.5, 1}},
      {5, 5, 0, 2, -1, {4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6}},
  };
  for (const AxisCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.lo << "–" << c.hi << " room " << c.room);
    const Axis a = nice_axis(c.lo, c.hi, c.room);
    EXPECT_EQ(a.mantissa, c.mantissa);
    EXPECT_EQ(a.exponent, c.exponent);
    EXPECT_EQ(a.ticks, c.ticks);  // exactly: each tick is the double nearest its decimal
    EXPECT_EQ(a.lo, c.ticks.front());
    EXPECT_EQ(a.hi, c.ticks.back());
  }
}

// Every range that is exactly kAxisTicks candidate steps gets that step, with kAxisTicks + 1 ticks,
// and so does the same range one ulp wider or narrower: what a build that rounds one operation
// differently computes.
TEST(ChartAxis, ARangeOfWholeStepsKeepsItsStepOneUlpEitherSide) {
  for (int exponent = -20; exponent <= 20; ++exponent) {
    for (int mantissa : {1, 2, 5}) {
      const double step = exponent >= 0 ? mantissa * std::pow(10.0, exponent)
                                        : mantissa / std::pow(10.0, -exponent);
      const double hi = step * kAxisTicks;
      for (double h : {hi, std::nextafter(hi, 0.0), std::nextafter(hi, 2 * hi)}) {
        SCOPED_TRACE(::testing::Message() << "0–" << h);
        const Axis a = nice_axis(0, h);
        EXPECT_EQ(a.mantissa, mantissa);
        EXPECT_EQ(a.exponent, exponent);
        EXPECT_EQ(a.ticks.size(), static_cast<std::size_t>(kAxisTicks) + 1);
      }
    }
  }
}

TEST(ChartAxis, ARangeJustPastWholeStepsTakesTheNextStep) {
  const Axis a = nice_axis(0, 1.001);
  EXPECT_EQ(a.mantissa, 5);
  EXPECT_EQ(a.exponent, -1);
  EXPECT_EQ(a.ticks, (std::vector<double>{0, 0.5, 1, 1.5}));
}

TEST(ChartAxis, CoordinatesPrintTheSameOneUlpEitherSideOfATie) {
  const struct {
    double v;
    const char* text;
  } cases[] = {{130.25, "130.3"}, {62, "62.0"}, {359.96, "360.0"}, {-0.04, "0.0"},
               {-0.55, "-0.6"},   {0, "0.0"},   {420, "420.0"},    {76.04, "76.0"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.v);
    EXPECT_EQ(coordinate_text(c.v), c.text);
    EXPECT_EQ(coordinate_text(std::nextafter(c.v, -1e9)), c.text);
    EXPECT_EQ(coordinate_text(std::nextafter(c.v, 1e9)), c.text);
  }
}

// Through the chart: a metric from 0 to 1 (checksBroken) is drawn on 0, 0.2, …, 1.2.
TEST(ChartAxis, AZeroToOneMetricHasTicksOfAFifth) {
  std::vector<sweep::MeasuredRun> rows;
  for (const char* lease : {"10s", "20s"}) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const bool passed = std::string(lease) == "10s" || seed == 1;
      rows.push_back(sweep::MeasuredRun{std::string("exp[lease=") + lease + "]", "exp", {{"lease", lease}}, seed,
                                 passed, sweep::Metrics{{"checksBroken", passed ? 0.0 : 1.0}}});
    }
  }
  rows.push_back(sweep::MeasuredRun{"exp[lease=30s]", "exp", {{"lease", "30s"}}, 1, false,
                             sweep::Metrics{{"checksBroken", 1.0}}});
  const std::string svg = chart_svg(rows, "exp", "checksBroken", "lease");
  std::vector<std::string> labels;
  const std::string open = "text-anchor=\"end\">";
  for (auto at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    labels.push_back(svg.substr(at + open.size(), svg.find('<', at) - at - open.size()));
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1", "1.2"})) << svg;
}

TEST(ChartAxis, AMetricThatIsZeroEverywhereIsDrawnFromZeroToOne) {
  const std::vector<sweep::MeasuredRun> rows = {
      sweep::MeasuredRun{"exp[n=1]", "exp", {{"n", "1"}}, 1, true, sweep::Metrics{{"checksBroken", 0.0}}},
      sweep::MeasuredRun{"exp[n=2]", "exp", {{"n", "2"}}, 1, true, sweep::Metrics{{"checksBroken", 0.0}}}};
  const std::string svg = chart_svg(rows, "exp", "checksBroken", "n");
  EXPECT_NE(svg.find("text-anchor=\"end\">0</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("text-anchor=\"end\">1.2</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("text-anchor=\"end\">-"), std::string::npos) << svg;
}

}  // namespace
}  // namespace kubesim::report::internal
