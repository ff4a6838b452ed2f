// Charts of an experiment's measurements: for each metric column and each swept parameter, an SVG
// of the metric against the parameter's values, drawn from the long-form rows (MeasuredRun,
// kubesim/sweep/measure.h) — one row per point and seed.
//
// A chart's x axis is the parameter: a numeric axis when every value is a duration (in seconds,
// labelled "PARAM (s)") or every value a number, else one evenly spaced category per value in
// grid order. Its y axis is the metric, from 0 (or the lowest p5 below it) to the first tick at
// least 6 % of the range above the highest p95 — 0 to 1.2 for a metric from 0 to 1, and for one
// that is 0 everywhere. Numeric axes have ticks at whole steps of 1, 2 or 5 × 10^k. Each series
// is a line through the medians over the point's seeds, with a dot per point, over a shaded band
// from the 5th to the 95th percentile.
// With one swept parameter there is one series; with more, one series per combination of the
// other parameters' values, each in its own colour. A point where some seed failed (broke a check
// or its run failed) gets a red ring and the count "failed/seeds". A point none of whose seeds has
// a value of the metric (no failover happened, say) is not drawn, and a line under the chart
// names it; a chart none of whose points has a value says so instead of axes.
//
// What it promises: the SVG is self-contained (no script, no link, no external font or image),
// carries the SVG namespace so it displays as a file of its own as well as inline in HTML,
// escapes every name it prints, and holds no NaN or infinity. The same rows give the same bytes:
// numbers are written with fixed formats, an axis's step is chosen by comparisons with a
// tolerance and its ticks computed from whole numbers (never from floor(log10(x)) alone), a
// coordinate's text does not change when its value moves by an ulp at a tie, series and points
// come in the rows' order (numeric axes sorted by value), and nothing depends on a hash map — so
// Debug and Release builds write the same bytes.
#ifndef KUBESIM_REPORT_CHART_H_
#define KUBESIM_REPORT_CHART_H_

#include <string>
#include <vector>

#include "kubesim/sweep/measure.h"

namespace kubesim::report {

struct Chart {
  std::string experiment;  // MeasuredRun::experiment
  std::string metric;      // a metric column ("failoverTime", "apiCalls.get")
  std::string parameter;   // the swept parameter on the x axis
  std::string svg;         // an <svg> element
};

// The chart of `metric` against `parameter` for the rows of `experiment` (rows of other
// experiments are ignored).
std::string chart_svg(const std::vector<sweep::MeasuredRun>& rows, const std::string& experiment,
                      const std::string& metric, const std::string& parameter);

// Every chart of every experiment in `rows`: experiments in the rows' order, then metric columns
// in the order the rows give them, then parameters in sweep order. An experiment without swept
// parameters or without metrics has none.
std::vector<Chart> experiment_charts(const std::vector<sweep::MeasuredRun>& rows);

// "EXPERIMENT--METRIC--PARAM.svg", each part with every character other than a letter, a digit,
// '.', '_' and '-' replaced by '_' (and a leading '.' too), so it is a plain file name anywhere.
std::string chart_file_name(const Chart& chart);

// Writes every chart of `rows` to DIR/chart_file_name(chart), creating DIR when missing, and
// returns the paths written in order; "cannot write PATH: reason" in `error` (and stops there) when
// a file cannot be written.
std::vector<std::string> write_chart_files(const std::vector<sweep::MeasuredRun>& rows,
                                           const std::string& dir, std::string& error);

}  // namespace kubesim::report

#endif  // KUBESIM_REPORT_CHART_H_
