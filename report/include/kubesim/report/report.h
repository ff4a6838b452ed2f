// The --report file: one self-contained HTML page (inline CSS and SVG; no script, no font, no
// image, no link to anything outside the page), legible at a glance.
//
// It holds the summary, a table of the scenarios (verdict, seeds, the first failure and its
// replay command), and for each scenario a strip of its seeds (pass / fail / found), its failing
// seeds, and the timeline picture of its report seed (the first that broke anything, else the
// first; kubesim/runner/driver.h reruns that seed to collect it). A run of experiments
// (kubesim/sweep/sweep.h) also has an Experiments section after the summary table: per
// experiment its cost line, a table of each point's metrics (median and p5–p95 over its seeds)
// and its charts (kubesim/report/chart.h).
//
// The timeline picture (timeline_svg) has a lane per lock (each leader's span in its replica's
// colour), per process (down, partitioned, paused, crashes, clock steps), for the apiserver
// (restarts, compactions, fault windows) and for watch restarts, a small line chart per work
// queue's depth, a time axis in Go duration text, a legend, and the failure as a red vertical
// line. Every shape has a <title>, which browsers show on hover.
#ifndef KUBESIM_REPORT_REPORT_H_
#define KUBESIM_REPORT_REPORT_H_

#include <ostream>
#include <string>

#include "kubesim/runner/result.h"
#include "kubesim/runner/run_set.h"

namespace kubesim::report {

// An <svg> element (no XML prolog, no namespace URI: it is meant for inline HTML).
std::string timeline_svg(const runner::Timeline& timeline);

void write_report_html(const runner::RunSet& set, std::ostream& out);

}  // namespace kubesim::report

#endif  // KUBESIM_REPORT_REPORT_H_
