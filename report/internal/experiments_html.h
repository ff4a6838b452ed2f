// The report's Experiments section (kubesim/report/report.h): for each experiment of a labelled
// RunSet (kubesim/sweep/sweep.h), its cost line, a table of its points — each parameter's
// value, how many seeds passed, and each metric column's median and p5–p95 over the point's
// seeds, linked to the point's own section — and its charts (kubesim/report/chart.h) inline.
// Nothing is written for a set without experiments.
#ifndef KUBESIM_REPORT_INTERNAL_EXPERIMENTS_HTML_H_
#define KUBESIM_REPORT_INTERNAL_EXPERIMENTS_HTML_H_

#include <ostream>

#include "kubesim/runner/run_set.h"

namespace kubesim::report::internal {

// The CSS the section's classes need, for the page's <style>.
extern const char* const kExperimentsStyle;

// The scenario sections are expected to carry the ids "s0", "s1", … in the set's order.
void write_experiments_html(const runner::RunSet& set, std::ostream& out);

}  // namespace kubesim::report::internal

#endif  // KUBESIM_REPORT_INTERNAL_EXPERIMENTS_HTML_H_
