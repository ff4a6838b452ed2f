// The outputs of measured runs: the CSV file and the plain-text table (kubesim/scenarios/measure.h).
#include <cstdio>
#include <iomanip>
#include <map>

#include "kubesim/scenarios/measure.h"

namespace kubesim::scenarios {

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Up to 6 significant digits, without a trailing exponent for ordinary values.
std::string number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
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
      out << "," << (v ? number(*v) : "");
    }
    out << "\n";
  }
}

void write_table(const std::vector<MeasuredRun>& runs, std::ostream& out) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const MeasuredRun*>> by_point;
  for (const auto& run : runs) {
    add_once(order, run.scenario);
    by_point[run.scenario].push_back(&run);
  }
  for (const auto& name : order) {
    const auto& point = by_point[name];
    std::size_t passed = 0;
    for (const auto* run : point) passed += run->passed ? 1 : 0;
    out << name << "  (" << passed << "/" << point.size() << " seeds passed)\n";
    std::vector<std::string> columns;
    for (const auto* run : point) {
      for (const auto& [c, v] : run->metrics) add_once(columns, c);
    }
    std::size_t width = 0;
    for (const auto& c : columns) width = std::max(width, c.size());
    for (const auto& c : columns) {
      std::vector<double> values;
      for (const auto* run : point) {
        if (auto v = value_of(*run, c)) values.push_back(*v);
      }
      out << "  " << c << std::string(width + 2 - c.size(), ' ');
      if (values.empty()) {
        out << "-\n";
        continue;
      }
      out << "median " << number(*percentile(values, 50)) << "  p5–p95 "
          << number(*percentile(values, 5)) << "–" << number(*percentile(values, 95));
      if (values.size() < point.size()) out << "  (" << values.size() << " seeds)";
      out << "\n";
    }
  }
}

}  // namespace kubesim::scenarios
