// The report's Experiments section (scenarios/internal/experiments_html.h).
#include "report/internal/experiments_html.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "kubesim/report/chart.h"
#include "kubesim/sweep/measure.h"
#include "kubesim/sweep/sweep.h"
#include "report/internal/markup.h"

namespace kubesim::report::internal {

const char* const kExperimentsStyle = R"(
.experiment .points{overflow-x:auto}.experiment td.num{text-align:right;white-space:nowrap}
.charts{display:flex;flex-wrap:wrap;gap:12px}svg.chart{border:1px solid #ddd;max-width:100%;height:auto}
)";

namespace {

std::string h(std::string_view text) { return escape_markup(text); }

void write_points_table(const runner::RunSet& set, const std::vector<const sweep::PointSummary*>& points,
                        std::ostream& out) {
  std::vector<std::string> columns;
  for (const auto* p : points) {
    for (const auto& c : p->columns) {
      if (std::find(columns.begin(), columns.end(), c.column) == columns.end()) columns.push_back(c.column);
    }
  }
  out << "<div class=\"points\"><table>\n<tr>";
  for (const auto& [parameter, value] : points.front()->point) out << "<th>" << h(parameter) << "</th>";
  out << "<th>seeds passed</th>";
  for (const auto& c : columns) out << "<th>" << h(c) << "</th>";
  out << "</tr>\n";
  for (const auto* p : points) {
    std::size_t index = 0;
    while (index < set.scenarios.size() && set.scenarios[index].result.name != p->scenario) ++index;
    out << "<tr>";
    for (const auto& [parameter, value] : p->point) {
      out << "<td><a href=\"#s" << index << "\">" << h(value) << "</a></td>";
    }
    out << "<td class=\"num\">" << p->passed << "/" << p->seeds << "</td>";
    for (const auto& name : columns) {
      auto c = std::find_if(p->columns.begin(), p->columns.end(),
                            [&](const sweep::ColumnSummary& x) { return x.column == name; });
      if (c == p->columns.end() || c->values == 0) {
        out << "<td class=\"num muted\">–</td>";
        continue;
      }
      out << "<td class=\"num\">" << sweep::measure_text(*c->median) << "<br><span class=\"muted\">"
          << sweep::measure_text(*c->p5) << "–" << sweep::measure_text(*c->p95) << "</span></td>";
    }
    out << "</tr>\n";
  }
  out << "</table></div>\n<p class=\"muted\">Each cell: the median over the point's seeds, and under "
         "it the 5th–95th percentile.</p>\n";
}

}  // namespace

void write_experiments_html(const runner::RunSet& set, std::ostream& out) {
  const std::vector<std::string> costs = sweep::sweep_cost_lines(set);
  if (costs.empty()) return;
  std::vector<std::string> experiments;
  for (const auto& run : set.scenarios) {
    const std::string& e = run.result.experiment;
    if (!e.empty() && std::find(experiments.begin(), experiments.end(), e) == experiments.end()) {
      experiments.push_back(e);
    }
  }
  const std::vector<sweep::MeasuredRun> rows = sweep::measured_rows(set);
  const std::vector<sweep::PointSummary> summaries = sweep::summarize_points(rows);
  const std::vector<Chart> charts = experiment_charts(rows);
  out << "<h2>Experiments</h2>\n";
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    out << "<section class=\"experiment\">\n<h3>" << h(experiments[e]) << "</h3>\n<p class=\"cmd\">"
        << h(costs[e]) << "</p>\n";
    std::vector<const sweep::PointSummary*> points;
    for (const auto& p : summaries) {
      if (p.experiment == experiments[e]) points.push_back(&p);
    }
    if (points.empty()) {
      out << "<p class=\"muted\">No run of this experiment finished.</p>\n</section>\n";
      continue;
    }
    write_points_table(set, points, out);
    out << "<div class=\"charts\">\n";
    for (const auto& chart : charts) {
      if (chart.experiment == experiments[e]) out << chart.svg;
    }
    out << "</div>\n</section>\n";
  }
}

}  // namespace kubesim::report::internal
