// timeline_svg: the report's timeline picture (kubesim/report/report.h).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "kubesim/api/go_duration.h"
#include "kubesim/report/report.h"
#include "report/internal/markup.h"

namespace kubesim::report {

namespace {

using internal::escape_markup;

constexpr double kPictureWidth = 1100;
constexpr double kLabelWidth = 210;
constexpr double kRightMargin = 24;
constexpr double kLaneHeight = 24;
constexpr double kRowHeight = 18;  // a further row of a lane whose spans overlap
constexpr double kFailureLabelHeight = 14;  // above the lanes, for "failure at …"
constexpr double kChartHeight = 40;
constexpr double kAxisHeight = 30;
// What a lane label holds at most (font-size 11 in the kLabelWidth column; the browser test
// measures it).
constexpr std::size_t kLabelChars = 32;

// Leaders, one colour per replica in order of first appearance (wrapping after eight).
constexpr const char* kReplicaColors[] = {"#4e79a7", "#59a14f", "#9c755f", "#76b7b2",
                                          "#edc948", "#ff9da7", "#1f4e79", "#8cd17d"};

struct KindStyle {
  const char* kind;
  const char* color;
  const char* legend;
};
constexpr KindStyle kSpanStyles[] = {{"partition", "#f28e2b", "partitioned"},
                                     {"down", "#3b3b3b", "down"},
                                     {"pause", "#b07aa1", "paused"},
                                     {"fault", "#e15759", "fault window"}};
constexpr KindStyle kMarkStyles[] = {{"restart", "#1f4e79", "restart"},
                                     {"compact", "#0b7a75", "compaction"},
                                     {"watch-restart", "#17becf", "watch restart"},
                                     {"crash", "#000000", "crash"},
                                     {"skew", "#b8860b", "clock step"}};
constexpr const char* kFailureColor = "#d62728";

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// "3" for a whole number, "2.5" otherwise.
std::string count_text(double v) {
  if (v == static_cast<double>(static_cast<long long>(v))) return std::to_string(static_cast<long long>(v));
  return num(v);
}

std::string esc_attr(std::string_view text) { return escape_markup(text, true); }

const char* span_color(const std::string& kind) {
  for (const auto& s : kSpanStyles) {
    if (kind == s.kind) return s.color;
  }
  return "#999999";
}
const char* mark_color(const std::string& kind) {
  for (const auto& s : kMarkStyles) {
    if (kind == s.kind) return s.color;
  }
  return "#666666";
}

// Dark text on light colours, white on dark ones.
const char* text_on(const std::string& hex) {
  unsigned r = 0, g = 0, b = 0;
  std::sscanf(hex.c_str(), "#%02x%02x%02x", &r, &g, &b);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#fff";
}

struct Lane {
  std::string name;
  bool chart = false;
  double y = 0;
  double height = 0;
};

struct Picture {
  explicit Picture(const runner::Timeline& t) : timeline(t) {}
  const runner::Timeline& timeline;
  std::vector<Lane> lanes;
  std::vector<int> span_row;  // the row of each of timeline.spans within its lane
  std::map<std::string, std::string> replica_color;
  double x0 = kLabelWidth;
  double x1 = kPictureWidth - kRightMargin;
  double lanes_top = 0;
  double lanes_bottom = 0;
  sim::Duration length{1};

  double x(sim::Time t) const {
    const double f = static_cast<double>(t.time_since_epoch().count()) /
                     static_cast<double>(length.count());
    return x0 + std::clamp(f, 0.0, 1.0) * (x1 - x0);
  }
  const Lane* lane(const std::string& name) const {
    for (const auto& l : lanes) {
      if (l.name == name) return &l;
    }
    return nullptr;
  }
};

// Packs each lane's spans into rows, so that overlapping spans (two leaders at once, a fault
// window inside another) sit one above the other; returns the rows each lane needs.
std::map<std::string, int> pack_rows(const runner::Timeline& t, std::vector<int>& span_row) {
  std::vector<std::size_t> order(t.spans.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return t.spans[a].from < t.spans[b].from;
  });
  span_row.assign(t.spans.size(), 0);
  std::map<std::string, std::vector<sim::Time>> row_ends;
  for (std::size_t i : order) {
    const runner::TimelineSpan& s = t.spans[i];
    auto& ends = row_ends[s.lane];
    std::size_t row = 0;
    while (row < ends.size() && ends[row] > s.from) ++row;
    if (row == ends.size()) ends.push_back(s.from);
    ends[row] = std::max(s.from, s.to);
    span_row[i] = static_cast<int>(row);
  }
  std::map<std::string, int> rows;
  for (const auto& [lane, ends] : row_ends) rows[lane] = static_cast<int>(ends.size());
  return rows;
}

// Places the lanes below a legend `legend_height` tall.
Picture lay_out(const runner::Timeline& t, double legend_height) {
  Picture p(t);
  p.lanes_top = legend_height;
  const std::map<std::string, int> rows = pack_rows(t, p.span_row);
  std::set<std::string> series;
  for (const auto& s : t.samples) series.insert(s.series);
  std::vector<std::string> names = t.lanes;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& s : t.spans) add(s.lane);
  for (const auto& m : t.marks) {
    if (m.kind != "failure" || !m.lane.empty()) add(m.lane);
  }
  for (const auto& s : t.samples) add(s.series);
  double y = p.lanes_top;
  for (const auto& name : names) {
    if (name.empty()) continue;
    const bool chart = series.count(name) > 0;
    const auto r = rows.find(name);
    const int extra = r == rows.end() ? 0 : r->second - 1;
    Lane lane{name, chart, y, chart ? kChartHeight : kLaneHeight + kRowHeight * extra};
    y += lane.height;
    p.lanes.push_back(lane);
  }
  p.lanes_bottom = y;
  sim::Duration end = t.duration;
  for (const auto& s : t.spans) end = std::max(end, s.to.time_since_epoch());
  for (const auto& m : t.marks) end = std::max(end, m.at.time_since_epoch());
  p.length = std::max(end, sim::Duration{1});
  for (const auto& s : t.spans) {
    if (s.kind != "leader" || p.replica_color.count(s.label) > 0) continue;
    const std::size_t n = p.replica_color.size() % std::size(kReplicaColors);
    p.replica_color[s.label] = kReplicaColors[n];
  }
  return p;
}

// The axis step: the smallest "nice" duration giving at most ten intervals.
sim::Duration tick_step(sim::Duration length) {
  using namespace std::chrono_literals;
  const sim::Duration steps[] = {1ms,  2ms,  5ms,   10ms,  20ms,  50ms, 100ms, 200ms, 500ms,
                                 1s,   2s,   5s,    10s,   15s,   30s,  1min,  2min,  5min,
                                 10min, 15min, 30min, 1h,  2h,    6h,   12h,   24h};
  for (auto step : steps) {
    if (length / step <= 10) return step;
  }
  return length / 10 + sim::Duration{1};
}

// A mark's shape centred on (x, cy): restart ▼, compaction ■, crash ✕, clock step ◆, anything
// else (watch restart) ●.
void draw_shape(const std::string& kind, double x, double cy, const std::string& title,
                std::ostream& out) {
  const char* color = mark_color(kind);
  out << "<g fill=\"" << color << "\" stroke=\"" << color << "\">" << title;
  if (kind == "restart") {
    out << "<path d=\"M" << num(x - 5) << " " << num(cy - 5) << "h10l-5 10z\"/>";
  } else if (kind == "compact") {
    out << "<rect x=\"" << num(x - 4) << "\" y=\"" << num(cy - 4) << "\" width=\"8\" height=\"8\"/>";
  } else if (kind == "crash") {
    out << "<path d=\"M" << num(x - 5) << " " << num(cy - 5) << "l10 10m0 -10l-10 10\" "
        << "stroke-width=\"2.5\" fill=\"none\"/>";
  } else if (kind == "skew") {
    out << "<path d=\"M" << num(x) << " " << num(cy - 6) << "l6 6l-6 6l-6 -6z\"/>";
  } else {
    out << "<circle cx=\"" << num(x) << "\" cy=\"" << num(cy) << "\" r=\"4\"/>";
  }
  out << "</g>";
}

struct LegendItem {
  std::string color;
  std::string text;
  std::string mark;  // a mark's kind: drawn as its shape; "": a swatch
};

std::vector<LegendItem> legend_items(const Picture& p) {
  std::vector<LegendItem> items;
  for (const auto& [replica, color] : p.replica_color) items.push_back({color, "leader " + replica, ""});
  const auto& t = p.timeline;
  auto has_span = [&](const char* kind) {
    return std::any_of(t.spans.begin(), t.spans.end(), [&](const auto& s) { return s.kind == kind; });
  };
  auto has_mark = [&](const char* kind) {
    return std::any_of(t.marks.begin(), t.marks.end(), [&](const auto& m) { return m.kind == kind; });
  };
  for (const auto& s : kSpanStyles) {
    if (has_span(s.kind)) items.push_back({s.color, s.legend, ""});
  }
  for (const auto& s : kMarkStyles) {
    if (has_mark(s.kind)) items.push_back({s.color, s.legend, s.kind});
  }
  if (has_mark("failure")) items.push_back({kFailureColor, "failure", ""});
  return items;
}

// Draws the legend in rows across the width; returns its height.
double draw_legend(const Picture& p, std::ostream& out) {
  double x = 8, y = 8;
  out << "<g class=\"legend\">";
  for (const auto& item : legend_items(p)) {
    const double width = 22 + 6.2 * static_cast<double>(item.text.size());
    if (x + width > kPictureWidth && x > 8) {
      x = 8;
      y += 18;
    }
    if (!item.mark.empty()) {
      draw_shape(item.mark, x + 5, y + 5, "", out);
    } else {
      out << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"10\" height=\"10\" fill=\""
          << item.color << "\"/>";
    }
    out << "<text x=\"" << num(x + 14) << "\" y=\"" << num(y + 9) << "\">" << esc_attr(item.text)
        << "</text>";
    x += width;
  }
  out << "</g>";
  return y + 18 + kFailureLabelHeight;
}

// `name` in at most kLabelChars characters: its first word (the lane's kind: "lock",
// "process", "queue") kept, then as much of the rest as fits — a path losing its middle segments
// first ("lock leases/…/manager"), anything else its middle characters.
std::string fit_label(const std::string& name) {
  if (name.size() <= kLabelChars) return name;
  static const std::string kEllipsis = "\xE2\x80\xA6";
  const std::size_t space = name.find(' ');
  const std::string kind = space == std::string::npos || space > kLabelChars / 2 ? "" : name.substr(0, space + 1);
  const std::string rest = name.substr(kind.size());
  const std::size_t room = kLabelChars - kind.size();  // characters, the ellipsis counting one
  const std::size_t first = rest.find('/');
  const std::size_t last = rest.rfind('/');
  if (first != std::string::npos && first != last) {
    const std::string shorter = rest.substr(0, first + 1) + kEllipsis + rest.substr(last);
    if (shorter.size() - 2 <= room) return kind + shorter;
  }
  const std::size_t head = (room - 1) / 2;
  const std::size_t tail = room - 1 - head;
  return kind + rest.substr(0, head) + kEllipsis + rest.substr(rest.size() - tail);
}

void draw_lanes_and_axis(const Picture& p, std::ostream& out) {
  for (std::size_t i = 0; i < p.lanes.size(); ++i) {
    const Lane& lane = p.lanes[i];
    out << "<rect x=\"0\" y=\"" << num(lane.y) << "\" width=\"" << num(kPictureWidth) << "\" height=\""
        << num(lane.height) << "\" fill=\"" << (i % 2 == 0 ? "#f7f7f7" : "#ffffff") << "\"/>";
    const std::string shown = fit_label(lane.name);
    const double label_y = lane.chart ? lane.y + lane.height / 2 + 4 : lane.y + kLaneHeight / 2 + 4;
    out << "<text x=\"8\" y=\"" << num(label_y) << "\"><title>"
        << esc_attr(lane.name) << "</title>" << esc_attr(shown) << "</text>";
  }
  const sim::Duration step = tick_step(p.length);
  const double axis_y = p.lanes_bottom;
  out << "<line x1=\"" << num(p.x0) << "\" y1=\"" << num(axis_y) << "\" x2=\"" << num(p.x1)
      << "\" y2=\"" << num(axis_y) << "\" stroke=\"#444\"/>";
  for (sim::Duration t{0}; t <= p.length; t += step) {
    const double x = p.x(sim::Time{t});
    out << "<line x1=\"" << num(x) << "\" y1=\"" << num(p.lanes_top) << "\" x2=\"" << num(x)
        << "\" y2=\"" << num(axis_y + 4) << "\" stroke=\"#ddd\"/>";
    out << "<text x=\"" << num(x) << "\" y=\"" << num(axis_y + 16)
        << "\" text-anchor=\"middle\">" << esc_attr(api::format_go_duration(t)) << "</text>";
  }
}

void draw_spans(const Picture& p, std::ostream& out) {
  for (std::size_t i = 0; i < p.timeline.spans.size(); ++i) {
    const runner::TimelineSpan& s = p.timeline.spans[i];
    const Lane* lane = p.lane(s.lane);
    if (lane == nullptr || lane->chart) continue;
    const double a = p.x(s.from), b = std::max(p.x(s.to), a + 1.5);
    const double top = lane->y + 4 + kRowHeight * p.span_row[i];
    const bool leader = s.kind == "leader", fault = s.kind == "fault";
    const std::string color = leader && p.replica_color.count(s.label) > 0
                                  ? p.replica_color.at(s.label)
                                  : std::string(span_color(s.kind));
    out << "<rect x=\"" << num(a) << "\" y=\"" << num(top) << "\" width=\"" << num(b - a)
        << "\" height=\"" << num(kLaneHeight - 8) << "\" rx=\"2\" fill=\"" << color << "\""
        << (fault ? " fill-opacity=\"0.55\"" : "") << "><title>"
        << esc_attr(s.kind + (s.label.empty() ? "" : " " + s.label) + ": " + api::format_go_time(s.from) + " to " +
               api::format_go_time(s.to))
        << "</title></rect>";
    if (!s.label.empty() && b - a > 6.5 * static_cast<double>(s.label.size()) + 8) {
      out << "<text x=\"" << num(a + 4) << "\" y=\"" << num(top + 12) << "\" fill=\""
          << (fault ? "#5a0d0e" : text_on(color)) << "\">" << esc_attr(s.label) << "</text>";
    }
  }
}

void draw_charts(const Picture& p, std::ostream& out) {
  for (const auto& lane : p.lanes) {
    if (!lane.chart) continue;
    std::vector<const runner::TimelineSample*> points;
    for (const auto& s : p.timeline.samples) {
      if (s.series == lane.name) points.push_back(&s);
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const auto* a, const auto* b) { return a->at < b->at; });
    double top = 1;
    for (const auto* s : points) top = std::max(top, s->value);
    const double base = lane.y + lane.height - 4, scale = (lane.height - 12) / top;
    std::string line;
    double last_y = base;
    for (const auto* s : points) {
      const double x = p.x(s->at), y = base - std::max(0.0, s->value) * scale;
      if (!line.empty()) line += num(x) + "," + num(last_y) + " ";
      line += num(x) + "," + num(y) + " ";
      last_y = y;
    }
    if (line.empty()) continue;
    out << "<polyline points=\"" << line << "\" fill=\"none\" stroke=\"#4e79a7\" "
        << "stroke-width=\"1.5\"><title>" << esc_attr(lane.name) << " (max " << num(top)
        << ")</title></polyline>";
    out << "<text x=\"" << num(p.x1 - 2) << "\" y=\"" << num(lane.y + 11)
        << "\" text-anchor=\"end\" fill=\"#666\">max " << esc_attr(count_text(top)) << "</text>";
  }
}

void draw_mark(const Picture& p, const runner::TimelineMark& m, std::ostream& out) {
  const Lane* lane = p.lane(m.lane);
  const double x = p.x(m.at);
  const std::string title = "<title>" + esc_attr(m.kind + (m.label.empty() ? "" : " " + m.label) +
                                            " at " + api::format_rounded_time(m.at)) + "</title>";
  if (m.kind == "failure") {
    out << "<line x1=\"" << num(x) << "\" y1=\"" << num(p.lanes_top - 2) << "\" x2=\"" << num(x)
        << "\" y2=\"" << num(p.lanes_bottom) << "\" stroke=\"" << kFailureColor
        << "\" stroke-width=\"2\">" << title << "</line>";
    const bool right = x < (p.x0 + p.x1) / 2;
    out << "<text x=\"" << num(right ? x + 4 : x - 4) << "\" y=\"" << num(p.lanes_top - 4)
        << "\" fill=\"" << kFailureColor << "\" font-weight=\"bold\" text-anchor=\""
        << (right ? "start" : "end") << "\">" << esc_attr("failure at " + api::format_rounded_time(m.at)) << "</text>";
    return;
  }
  if (lane == nullptr) return;
  draw_shape(m.kind, x, lane->y + kLaneHeight / 2, title, out);
}

}  // namespace

std::string timeline_svg(const runner::Timeline& timeline) {
  // The legend's height depends on the replicas, which the layout finds; draw it once to learn
  // its height, then lay the lanes out below it.
  std::ostringstream legend;
  const double legend_height = draw_legend(lay_out(timeline, 0), legend);
  const Picture p = lay_out(timeline, legend_height);
  const double height = p.lanes_bottom + kAxisHeight;
  std::ostringstream out;
  out << "<svg class=\"timeline\" width=\"" << num(kPictureWidth) << "\" height=\"" << num(height)
      << "\" viewBox=\"0 0 " << num(kPictureWidth) << " " << num(height)
      << "\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">";
  out << "<title>timeline, " << esc_attr(api::format_go_duration(timeline.duration))
      << " of virtual time</title>";
  out << legend.str();
  draw_lanes_and_axis(p, out);
  draw_spans(p, out);
  draw_charts(p, out);
  for (const auto& m : timeline.marks) {
    if (m.kind != "failure") draw_mark(p, m, out);
  }
  for (const auto& m : timeline.marks) {
    if (m.kind == "failure") draw_mark(p, m, out);
  }
  out << "</svg>";
  return out.str();
}

}  // namespace kubesim::report
