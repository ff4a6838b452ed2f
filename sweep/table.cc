// The outputs of measured runs: their rows, the CSV file and the plain-text table
// (kubesim/sweep/measure.h).
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <map>

#include "kubesim/sweep/measure.h"

namespace kubesim::sweep {

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Each name once, in first-seen order.
void add_once(std::vector<std::string>& names, const std::string& name) {
  for (const auto& n : names) {
    if (n == name) return;
  }
  names.push_back(name);
}

std::optional<double> value_of(const MeasuredRun& run, const std::string& column) {
  for (const auto& [name, value] : run.metrics) {
    if (name == column) return value;
  }
  return std::nullopt;
}

}  // namespace

std::string measure_text(double value) {
  if (value == 0) value = 0;  // no "-0"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::vector<MeasuredRun> measured_rows(const runner::RunSet& set) {
  std::vector<MeasuredRun> rows;
  for (const auto& run : set.scenarios) {
    const runner::ScenarioResult& r = run.result;
    if (r.experiment.empty()) continue;
    for (const auto& seed : r.seeds) {
      rows.push_back(MeasuredRun{r.name, r.experiment, r.point, seed.seed, !runner::seed_failed(r, seed),
                                 seed.metrics});
    }
  }
  return rows;
}

void write_csv(const std::vector<MeasuredRun>& runs, std::ostream& out) {
  std::vector<std::string> params, columns;
  for (const auto& run : runs) {
    for (const auto& [p, v] : run.point) add_once(params, p);
    for (const auto& [c, v] : run.metrics) add_once(columns, c);
  }
  out << "scenario";
  for (const auto& p : params) out << "," << csv_field(p);
  out << ",seed,passed";
  for (const auto& c : columns) out << "," << csv_field(c);
  out << "\n";
  for (const auto& run : runs) {
    out << csv_field(run.scenario);
    for (const auto& p : params) {
      std::string value;
      for (const auto& [name, v] : run.point) {
        if (name == p) value = v;
      }
      out << "," << csv_field(value);
    }
    out << "," << run.seed << "," << (run.passed ? "true" : "false");
    for (const auto& c : columns) {
      const auto v = value_of(run, c);
      out << "," << (v ? measure_text(*v) : "");
    }
    out << "\n";
  }
}

std::vector<PointSummary> summarize_points(const std::vector<MeasuredRun>& runs) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const MeasuredRun*>> by_point;
  for (const auto& run : runs) {
    add_once(order, run.scenario);
    by_point[run.scenario].push_back(&run);
  }
  std::vector<PointSummary> out;
  for (const auto& name : order) {
    const auto& point = by_point[name];
    PointSummary summary{name, point.front()->experiment, point.front()->point, point.size(), 0, {}};
    std::vector<std::string> columns;
    for (const auto* run : point) {
      summary.passed += run->passed ? 1 : 0;
      for (const auto& [c, v] : run->metrics) add_once(columns, c);
    }
    for (const auto& c : columns) {
      std::vector<double> values;
      for (const auto* run : point) {
        if (auto v = value_of(*run, c); v && std::isfinite(*v)) values.push_back(*v);
      }
      summary.columns.push_back(ColumnSummary{c, values.size(), percentile(values, 50),
                                              percentile(values, 5), percentile(values, 95)});
    }
    out.push_back(std::move(summary));
  }
  return out;
}

void write_table(const std::vector<MeasuredRun>& runs, std::ostream& out) {
  for (const auto& point : summarize_points(runs)) {
    out << point.scenario << "  (" << point.passed << "/" << point.seeds << " seeds passed)\n";
    std::size_t width = 0;
    for (const auto& c : point.columns) width = std::max(width, c.column.size());
    for (const auto& c : point.columns) {
      out << "  " << c.column << std::string(width + 2 - c.column.size(), ' ');
      if (c.values == 0) {
        out << "-\n";
        continue;
      }
      out << "median " << measure_text(*c.median) << "  p5–p95 " << measure_text(*c.p5) << "–" << measure_text(*c.p95);
      if (c.values < point.seeds) out << "  (" << c.values << " seeds)";
      out << "\n";
    }
  }
}

}  // namespace kubesim::sweep
