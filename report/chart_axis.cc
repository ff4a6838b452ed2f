// The charts' linear axes (scenarios/internal/chart_axis.h).
#include "report/internal/chart_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kubesim::report::internal {

namespace {

// How far a quotient may stray from a whole number of steps and still count as one: far above a
// rounding error, far below anything a chart can show.
constexpr double kTolerance = 1e-9;
constexpr int kMantissas[] = {1, 2, 5};
constexpr int kFurthestExponent = 330;  // beyond the doubles either way
constexpr double kMostSteps = 1000;

// 10^e (e >= 0) by multiplication: exact up to 10^22, and beyond it the same double in every
// build, unlike std::pow, which a compiler may fold at compile time or leave to the library.
double power_of_ten(int e) {
  double p = 1;
  for (int i = 0; i < e; ++i) p *= 10;
  return p;
}

// n × 10^exponent for a whole number n: one correctly rounded operation while |exponent| <= 22.
double scaled(double n, int exponent) {
  return exponent >= 0 ? n * power_of_ten(exponent) : n / power_of_ten(-exponent);
}

// The candidate steps in increasing order: index 3k + j is kMantissas[j] × 10^k.
struct Step {
  int mantissa = 1, exponent = 0;
  double value() const { return scaled(mantissa, exponent); }
};

Step candidate(int index) {
  const int k = index >= 0 ? index / 3 : -((-index + 2) / 3);
  return Step{kMantissas[index - 3 * k], k};
}

bool covers(int index, double raw) { return candidate(index).value() >= raw * (1 - kTolerance); }

// The smallest candidate step at least `raw` (finite, > 0). log10 only guesses where to start;
// the comparisons of neighbouring candidates decide, so a guess off by one at an exact power of
// ten changes nothing.
Step step_for(double raw) {
  const double guess = std::clamp(std::floor(std::log10(raw)), -double{kFurthestExponent},
                                  double{kFurthestExponent});
  int index = 3 * static_cast<int>(guess);
  while (!covers(index, raw)) ++index;
  while (covers(index - 1, raw)) --index;
  return candidate(index);
}

}  // namespace

Axis nice_axis(double lo, double hi, double room) {
  if (!(hi > lo)) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double span = hi - lo;
  const Step step = step_for(span / kAxisTicks);
  Axis a;
  a.mantissa = step.mantissa;
  a.exponent = step.exponent;
  a.step = step.value();
  const double first = std::floor(lo / a.step + kTolerance);
  const double last = std::ceil((hi + span * room) / a.step - kTolerance);
  // A whole count of steps (a handful; the bound only guards against a range so far from 0 that
  // first + 1 == first).
  const double steps = std::min(last - first, kMostSteps);
  for (double i = 0; i <= steps; i += 1) {
    const double tick = scaled((first + i) * step.mantissa, step.exponent);
    a.ticks.push_back(tick == 0 ? 0 : tick);  // no -0
  }
  a.lo = a.ticks.front();
  a.hi = a.ticks.back();
  return a;
}

std::string coordinate_text(double v) {
  const long long millionths = std::llround(v * 1e6);
  const long long magnitude = (std::llabs(millionths) + 50'000) / 100'000;  // tenths, half away from 0
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%lld.%lld", millionths < 0 && magnitude > 0 ? "-" : "",
                magnitude / 10, magnitude % 10);
  return buf;
}

}  // namespace kubesim::report::internal
