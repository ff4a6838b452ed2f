// Every chart of the experiments in a set of rows, and their files (kubesim/report/chart.h).
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "kubesim/report/chart.h"
#include "report/internal/names.h"

namespace kubesim::report {

std::vector<Chart> experiment_charts(const std::vector<sweep::MeasuredRun>& rows) {
  std::vector<std::string> experiments;
  for (const auto& run : rows) internal::add_once(experiments, run.experiment);
  std::vector<Chart> charts;
  for (const auto& e : experiments) {
    std::vector<std::string> metrics, parameters;
    for (const auto& run : rows) {
      if (run.experiment != e) continue;
      for (const auto& [p, v] : run.point) internal::add_once(parameters, p);
      for (const auto& [m, v] : run.metrics) internal::add_once(metrics, m);
    }
    for (const auto& m : metrics) {
      for (const auto& p : parameters) charts.push_back(Chart{e, m, p, chart_svg(rows, e, m, p)});
    }
  }
  return charts;
}

std::string chart_file_name(const Chart& chart) {
  const auto safe = [](const std::string& name) {
    std::string out = name.empty() ? "_" : name;
    for (char& c : out) {
      const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                         c == '.' || c == '_' || c == '-';
      if (!plain) c = '_';
    }
    if (out.front() == '.') out.front() = '_';
    return out;
  };
  return safe(chart.experiment) + "--" + safe(chart.metric) + "--" + safe(chart.parameter) + ".svg";
}

std::vector<std::string> write_chart_files(const std::vector<sweep::MeasuredRun>& rows,
                                           const std::string& dir, std::string& error) {
  namespace fs = std::filesystem;
  std::vector<std::string> written;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot write " + dir + ": " + ec.message();
    return written;
  }
  for (const Chart& chart : experiment_charts(rows)) {
    const std::string path = (fs::path(dir) / chart_file_name(chart)).string();
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << chart.svg;
    out.close();
    if (!out) {
      error = "cannot write " + path + (errno != 0 ? std::string(": ") + std::strerror(errno) : "");
      return written;
    }
    written.push_back(path);
  }
  return written;
}

}  // namespace kubesim::report
