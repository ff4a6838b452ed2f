// The numbers of the experiment charts (kubesim/report/chart.h): linear axes — a range widened
// to whole steps of 1, 2 or 5 × 10^k, with a tick at each step — and coordinates as text.
//
// What it promises: the same range gives the same axis in every build. The step is the smallest
// candidate m × 10^k (m in {1, 2, 5}) with at least (hi − lo) / kAxisTicks, compared with a
// relative tolerance of 1e-9, so a range that is a whole number of candidate steps (0–1, 0–10,
// 0–0.5) gets that step even when the division rounds either way; a first guess of k from log10
// is corrected by comparing neighbouring candidates, so it never decides on its own. Every step
// and tick is one correctly rounded operation on whole numbers (n·m × 10^k, or n·m / 10^−k), so a
// tick is the double nearest its decimal (0.6, not 0.6000000000000001) whatever the tick's index.
// A range with lo == hi is widened around it (by 1 at 0, else by a tenth of |lo| each side).
// Inputs must be finite.
//
// A coordinate is written with one decimal, rounded half away from 0 from its value rounded to
// millionths, so two builds that compute it one ulp apart (a compiler that contracts a * b + c
// into a fused multiply-add, say) still write the same text at a tie such as 130.25.
#ifndef KUBESIM_REPORT_INTERNAL_CHART_AXIS_H_
#define KUBESIM_REPORT_INTERNAL_CHART_AXIS_H_

#include <string>
#include <vector>

namespace kubesim::report::internal {

inline constexpr int kAxisTicks = 5;  // the most steps a range takes before the step grows

struct Axis {
  double lo = 0, hi = 1;      // the first and the last tick
  double step = 1;            // mantissa × 10^exponent
  int mantissa = 1;           // 1, 2 or 5
  int exponent = 0;
  std::vector<double> ticks;  // lo, lo + step, …, hi
};

// The axis over [lo, hi], its top extended to the first tick at or above hi + (hi − lo) × room
// (room for labels above the highest value; the step is chosen from [lo, hi] alone).
Axis nice_axis(double lo, double hi, double room = 0);

// `v` (finite, |v| < 10^12) with one decimal: "130.3" for 130.25, "-0.6" for -0.55, "0.0" for -0.04.
std::string coordinate_text(double v);

}  // namespace kubesim::report::internal

#endif  // KUBESIM_REPORT_INTERNAL_CHART_AXIS_H_
