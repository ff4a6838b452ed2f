// Charts of measurements against swept parameters (kubesim/report/chart.h).
#include "kubesim/report/chart.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <sstream>

#include "kubesim/api/go_duration.h"
#include "report/internal/chart_axis.h"
#include "report/internal/markup.h"
#include "report/internal/names.h"

namespace kubesim::report {

namespace {

using internal::Axis;
using internal::escape_markup;
using internal::nice_axis;

constexpr double kWidth = 720;
constexpr double kHeight = 420;
constexpr double kLeft = 76;     // y tick labels and the y axis label
constexpr double kRight = 210;   // the legend
constexpr double kTop = 58;      // title and subtitle
constexpr double kBottom = 64;   // x tick labels and the x axis label
constexpr double kNoteHeight = 16;
constexpr double kInset = 14;    // between the frame and a numeric x axis's ends
constexpr std::size_t kMaxNotes = 6;
constexpr double kCountRoom = 0.06;  // of the y range, above the highest value
constexpr const char* kBroken = "#d62728";
// Series colours; red is kept for failures.
constexpr const char* kColors[] = {"#4e79a7", "#59a14f", "#9c755f", "#76b7b2",
                                   "#edc948", "#b07aa1", "#ff9da7", "#1f4e79"};

std::string esc(std::string_view text) { return escape_markup(text); }
std::string attr(std::string_view text) { return escape_markup(text, true); }

// A coordinate: one decimal, the same text in every build (chart_axis.h).
std::string xy(double v) { return internal::coordinate_text(v); }

std::optional<double> number_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<double> seconds_of(const std::string& text) {
  auto d = api::parse_go_duration(text);
  if (!d.ok()) return std::nullopt;
  return std::chrono::duration<double>(d.value()).count();
}

const std::string& point_value(const std::vector<std::pair<std::string, std::string>>& point,
                               const std::string& parameter) {
  static const std::string kNone;
  for (const auto& [p, v] : point) {
    if (p == parameter) return v;
  }
  return kNone;
}

// One point of one series: its summary's column of the metric.
struct Cell {
  std::size_t seeds = 0, failed = 0;
  std::size_t values = 0;              // seeds with a value
  double median = 0, p5 = 0, p95 = 0;  // set when values > 0
};

struct Series {
  std::string label;        // "other=v, …"; "" when only one parameter is swept
  std::vector<Cell> cells;  // parallel to Data::x_texts
};

struct Data {
  std::vector<std::string> x_texts;  // in axis order
  std::vector<double> x_values;      // parallel, when numeric
  bool numeric = false, seconds = false;
  std::vector<Series> series;
};

// Whether every text reads as a number (or failing that, as a duration); sorts them if so.
void classify_x(Data& d) {
  std::vector<double> numbers, secs;
  for (const auto& t : d.x_texts) {
    if (auto n = number_of(t)) numbers.push_back(*n);
    if (auto s = seconds_of(t)) secs.push_back(*s);
  }
  d.numeric = numbers.size() == d.x_texts.size() || secs.size() == d.x_texts.size();
  if (!d.numeric) return;
  d.seconds = numbers.size() != d.x_texts.size();
  d.x_values = d.seconds ? secs : numbers;
  std::vector<std::size_t> order(d.x_texts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return d.x_values[a] < d.x_values[b]; });
  std::vector<std::string> texts;
  std::vector<double> values;
  for (std::size_t i : order) {
    texts.push_back(d.x_texts[i]);
    values.push_back(d.x_values[i]);
  }
  d.x_texts = std::move(texts);
  d.x_values = std::move(values);
}

Data gather(const std::vector<sweep::MeasuredRun>& rows, const std::string& experiment,
            const std::string& metric, const std::string& parameter) {
  Data d;
  std::vector<sweep::PointSummary> points;
  for (auto& p : sweep::summarize_points(rows)) {
    if (p.experiment != experiment) continue;
    internal::add_once(d.x_texts, point_value(p.point, parameter));
    points.push_back(std::move(p));
  }
  classify_x(d);
  for (const sweep::PointSummary& p : points) {
    std::string label;
    for (const auto& [name, v] : p.point) {
      if (name != parameter) label += (label.empty() ? "" : ", ") + name + "=" + v;
    }
    auto s = std::find_if(d.series.begin(), d.series.end(),
                          [&](const Series& x) { return x.label == label; });
    if (s == d.series.end()) {
      d.series.push_back(Series{label, std::vector<Cell>(d.x_texts.size())});
      s = d.series.end() - 1;
    }
    const std::string& x = point_value(p.point, parameter);
    Cell& cell = s->cells[static_cast<std::size_t>(
        std::find(d.x_texts.begin(), d.x_texts.end(), x) - d.x_texts.begin())];
    cell.seeds += p.seeds;
    cell.failed += p.seeds - p.passed;
    for (const auto& c : p.columns) {
      if (c.column != metric || c.values == 0) continue;
      cell.values = c.values;
      cell.median = *c.median;
      cell.p5 = *c.p5;
      cell.p95 = *c.p95;
    }
  }
  return d;
}

struct Frame {
  double x0 = kLeft, x1 = kWidth - kRight, y0 = kTop, y1 = kHeight - kBottom;
  Axis x, y;
  const Data* data = nullptr;

  double px(std::size_t i) const {
    if (!data->numeric) {
      return x0 + (static_cast<double>(i) + 0.5) * (x1 - x0) / static_cast<double>(data->x_texts.size());
    }
    return at_x(data->x_values[i]);
  }
  // A numeric x value's place; the ends of the axis are kInset inside the frame, so no point sits
  // on the y axis.
  double at_x(double v) const { return x0 + kInset + (v - x.lo) / (x.hi - x.lo) * (x1 - x0 - 2 * kInset); }
  double py(double v) const { return y1 - (v - y.lo) / (y.hi - y.lo) * (y1 - y0); }
};

Frame frame_for(const Data& d) {
  Frame f;
  f.data = &d;
  double lo = 0, hi = 0;
  bool any = false;
  for (const auto& s : d.series) {
    for (const auto& c : s.cells) {
      if (c.values == 0) continue;
      lo = any ? std::min(lo, c.p5) : c.p5;
      hi = any ? std::max(hi, c.p95) : c.p95;
      any = true;
    }
  }
  // The metric's axis starts at 0 (0 to 1 when every value is 0), with room above the highest
  // value for the failure counts: its step comes from the values, its top is the first tick 6 %
  // of the range above them.
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  if (hi == lo) hi = 1;
  f.y = nice_axis(lo, hi, kCountRoom);
  if (d.numeric) {
    f.x = nice_axis(*std::min_element(d.x_values.begin(), d.x_values.end()),
                    *std::max_element(d.x_values.begin(), d.x_values.end()));
  }
  return f;
}

void write_axes(const Frame& f, const std::string& metric, const std::string& x_label,
                std::ostream& out) {
  out << "<g class=\"axes\" stroke=\"#444\" stroke-width=\"1\">\n"
      << "<line x1=\"" << xy(f.x0) << "\" y1=\"" << xy(f.y1) << "\" x2=\"" << xy(f.x1) << "\" y2=\""
      << xy(f.y1) << "\"/>\n<line x1=\"" << xy(f.x0) << "\" y1=\"" << xy(f.y0) << "\" x2=\""
      << xy(f.x0) << "\" y2=\"" << xy(f.y1) << "\"/>\n</g>\n<g class=\"ticks\" fill=\"#444\">\n";
  for (double v : f.y.ticks) {
    const double y = f.py(v);
    out << "<line x1=\"" << xy(f.x0 - 5) << "\" y1=\"" << xy(y) << "\" x2=\"" << xy(f.x1)
        << "\" y2=\"" << xy(y) << "\" stroke=\"#e6e6e6\"/>\n<text x=\"" << xy(f.x0 - 8) << "\" y=\""
        << xy(y + 4) << "\" text-anchor=\"end\">" << sweep::measure_text(v) << "</text>\n";
  }
  const auto x_tick = [&](double x, const std::string& label) {
    out << "<line x1=\"" << xy(x) << "\" y1=\"" << xy(f.y1) << "\" x2=\"" << xy(x) << "\" y2=\""
        << xy(f.y1 + 5) << "\" stroke=\"#444\"/>\n<text x=\"" << xy(x) << "\" y=\"" << xy(f.y1 + 19)
        << "\" text-anchor=\"middle\">" << esc(label) << "</text>\n";
  };
  if (f.data->numeric) {
    for (double v : f.x.ticks) x_tick(f.at_x(v), sweep::measure_text(v));
  } else {
    for (std::size_t i = 0; i < f.data->x_texts.size(); ++i) x_tick(f.px(i), f.data->x_texts[i]);
  }
  out << "</g>\n<text class=\"x-label\" x=\"" << xy((f.x0 + f.x1) / 2) << "\" y=\"" << xy(f.y1 + 44)
      << "\" text-anchor=\"middle\">" << esc(x_label) << "</text>\n<text class=\"y-label\" "
      << "transform=\"translate(18 " << xy((f.y0 + f.y1) / 2) << ") rotate(-90)\" "
      << "text-anchor=\"middle\">" << esc(metric) << "</text>\n";
}

std::string point_name(const std::string& parameter, const std::string& x, const Series& s) {
  return parameter + "=" + x + (s.label.empty() ? "" : ", " + s.label);
}

// The boxes of the failure counts drawn so far: a count that would overlap one is left out (its
// ring's title still says it), so dense points stay legible.
struct Labels {
  std::vector<std::array<double, 4>> boxes;  // x0, y0, x1, y1

  // Boxes overlap when they share more than kTouch in both directions: boxes that merely touch
  // (as counts of evenly spaced points can, exactly) do not, whatever the last bit of a sum.
  static constexpr double kTouch = 0.01;

  bool place(double x, double y, std::size_t chars) {
    const std::array<double, 4> box{x, y - 10, x + 6.0 * static_cast<double>(chars), y + 2};
    for (const auto& b : boxes) {
      if (box[0] < b[2] - kTouch && b[0] < box[2] - kTouch && box[1] < b[3] - kTouch &&
          b[1] < box[3] - kTouch) {
        return false;
      }
    }
    boxes.push_back(box);
    return true;
  }
};

void write_series(const Frame& f, const Series& s, const char* color, const std::string& parameter,
                  Labels& labels, std::ostream& out) {
  std::vector<std::size_t> drawn;
  for (std::size_t i = 0; i < s.cells.size(); ++i) {
    if (s.cells[i].values > 0) drawn.push_back(i);
  }
  if (drawn.empty()) return;
  out << "<g class=\"series\" data-series=\"" << attr(s.label) << "\">\n<polygon class=\"band\" fill=\""
      << color << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"";
  const double half = drawn.size() == 1 ? 4 : 0;  // a lone point's band is a narrow bar
  std::string upper, lower;
  for (std::size_t i : drawn) {
    upper += xy(f.px(i) - half) + "," + xy(f.py(s.cells[i].p95)) + " ";
    if (half > 0) upper += xy(f.px(i) + half) + "," + xy(f.py(s.cells[i].p95)) + " ";
  }
  for (auto it = drawn.rbegin(); it != drawn.rend(); ++it) {
    if (half > 0) lower += xy(f.px(*it) + half) + "," + xy(f.py(s.cells[*it].p5)) + " ";
    lower += xy(f.px(*it) - half) + "," + xy(f.py(s.cells[*it].p5)) + " ";
  }
  out << upper << lower.substr(0, lower.size() - 1) << "\"/>\n";
  if (drawn.size() > 1) {
    out << "<polyline class=\"median\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"";
    for (std::size_t k = 0; k < drawn.size(); ++k) {
      out << (k ? " " : "") << xy(f.px(drawn[k])) << "," << xy(f.py(s.cells[drawn[k]].median));
    }
    out << "\"/>\n";
  }
  for (std::size_t i : drawn) {
    const Cell& c = s.cells[i];
    const std::string x = xy(f.px(i)), y = xy(f.py(c.median));
    out << "<circle class=\"point\" cx=\"" << x << "\" cy=\"" << y << "\" r=\"3.5\" fill=\"" << color
        << "\"><title>" << esc(point_name(parameter, f.data->x_texts[i], s)) << ": median "
        << sweep::measure_text(c.median) << ", p5–p95 " << sweep::measure_text(c.p5) << "–" << sweep::measure_text(c.p95)
        << " over " << c.values << (c.values == 1 ? " seed" : " seeds")
        << "</title></circle>\n";
    if (c.failed == 0) continue;
    out << "<circle class=\"broken\" cx=\"" << x << "\" cy=\"" << y << "\" r=\"8\" fill=\"none\" stroke=\""
        << kBroken << "\" stroke-width=\"2\"><title>" << c.failed << " of " << c.seeds
        << " seeds failed at " << esc(point_name(parameter, f.data->x_texts[i], s))
        << "</title></circle>\n";
    const std::string count = std::to_string(c.failed) + "/" + std::to_string(c.seeds);
    if (!labels.place(f.px(i) + 8, f.py(c.median) - 8, count.size())) continue;
    out << "<text class=\"broken-count\" x=\"" << xy(f.px(i) + 8) << "\" y=\"" << xy(f.py(c.median) - 8)
        << "\" font-size=\"10\" fill=\"" << kBroken << "\">" << count << "</text>\n";
  }
  out << "</g>\n";
}

void write_legend(const Data& d, bool any_failed, std::ostream& out) {
  double y = kTop + 6;
  const double x = kWidth - kRight + 16;
  out << "<g class=\"legend\">\n";
  for (std::size_t i = 0; i < d.series.size(); ++i) {
    const char* color = kColors[i % std::size(kColors)];
    out << "<rect x=\"" << xy(x) << "\" y=\"" << xy(y - 6) << "\" width=\"22\" height=\"12\" fill=\""
        << color << "\" fill-opacity=\"0.18\"/><line x1=\"" << xy(x) << "\" y1=\"" << xy(y) << "\" x2=\""
        << xy(x + 22) << "\" y2=\"" << xy(y) << "\" stroke=\"" << color << "\" stroke-width=\"2\"/>"
        << "<text x=\"" << xy(x + 30) << "\" y=\"" << xy(y + 4) << "\">"
        << esc(d.series[i].label.empty() ? "median" : d.series[i].label) << "</text>\n";
    y += 20;
  }
  out << "<text x=\"" << xy(x) << "\" y=\"" << xy(y + 4) << "\" fill=\"#666\">line: median over seeds</text>\n"
      << "<text x=\"" << xy(x) << "\" y=\"" << xy(y + 20) << "\" fill=\"#666\">band: p5–p95 over seeds</text>\n";
  if (any_failed) {
    out << "<circle cx=\"" << xy(x + 6) << "\" cy=\"" << xy(y + 36) << "\" r=\"6\" fill=\"none\" stroke=\""
        << kBroken << "\" stroke-width=\"2\"/><text x=\"" << xy(x + 18) << "\" y=\"" << xy(y + 40)
        << "\" fill=\"" << kBroken << "\">seeds failed / seeds</text>\n";
  }
  out << "</g>\n";
}

// Below the last line of the legend (write_legend): past the plot's bottom with many series.
double legend_bottom(const Data& d, bool any_failed) {
  return kTop + 6 + 20 * static_cast<double>(d.series.size()) + (any_failed ? 44 : 24);
}

// The points not drawn, one line each (at most kMaxNotes, then a count).
std::vector<std::string> skipped_notes(const Data& d, const std::string& parameter) {
  std::vector<std::string> all;
  for (const auto& s : d.series) {
    for (std::size_t i = 0; i < s.cells.size(); ++i) {
      const Cell& c = s.cells[i];
      if (c.seeds == 0 || c.values > 0) continue;
      std::string note = "not drawn: " + point_name(parameter, d.x_texts[i], s) + " — no value in " +
                         std::to_string(c.seeds) + (c.seeds == 1 ? " seed" : " seeds");
      if (c.failed > 0) note += " (" + std::to_string(c.failed) + " failed)";
      all.push_back(std::move(note));
    }
  }
  if (all.size() > kMaxNotes) {
    const std::size_t more = all.size() - (kMaxNotes - 1);
    all.resize(kMaxNotes - 1);
    all.push_back("and " + std::to_string(more) + " more points not drawn, with no value");
  }
  return all;
}

}  // namespace

std::string chart_svg(const std::vector<sweep::MeasuredRun>& rows, const std::string& experiment,
                      const std::string& metric, const std::string& parameter) {
  const Data d = gather(rows, experiment, metric, parameter);
  const std::vector<std::string> notes = skipped_notes(d, parameter);
  bool any_drawn = false, any_failed = false;
  for (const auto& s : d.series) {
    for (const auto& c : s.cells) {
      any_drawn = any_drawn || c.values > 0;
      any_failed = any_failed || (c.failed > 0 && c.values > 0);
    }
  }
  // The notes go under the plot, or under the legend when it reaches that far, so neither
  // covers the other and nothing is cut off.
  const double notes_top = any_drawn ? std::max(kHeight, legend_bottom(d, any_failed) + 18) : kHeight;
  const double height = notes_top + kNoteHeight * static_cast<double>(notes.size());
  const std::string title = metric + " vs " + parameter;
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" << xy(kWidth)
      << "\" height=\"" << xy(height) << "\" viewBox=\"0 0 " << xy(kWidth) << " " << xy(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n<title>" << esc(title) << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n<text class=\"title\" x=\""
      << xy(kLeft) << "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" << esc(title)
      << "</text>\n<text class=\"subtitle\" x=\"" << xy(kLeft) << "\" y=\"42\" fill=\"#666\">"
      << esc(experiment) << ": median and p5–p95 over each point's seeds</text>\n";
  if (any_drawn) {
    const Frame f = frame_for(d);
    write_axes(f, metric, d.seconds ? parameter + " (s)" : parameter, out);
    Labels labels;
    for (std::size_t i = 0; i < d.series.size(); ++i) {
      write_series(f, d.series[i], kColors[i % std::size(kColors)], parameter, labels, out);
    }
    write_legend(d, any_failed, out);
  } else {
    out << "<text class=\"empty\" x=\"" << xy(kLeft) << "\" y=\"" << xy(kTop + 40) << "\">" << esc(metric)
        << " has no value in any run of this experiment: nothing to draw</text>\n";
  }
  for (std::size_t i = 0; i < notes.size(); ++i) {
    out << "<text class=\"skipped\" x=\"" << xy(kLeft) << "\" y=\""
        << xy(notes_top - 6 + kNoteHeight * static_cast<double>(i)) << "\" fill=\"#666\">"
        << esc(notes[i]) << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace kubesim::report
