// `sweep:` and `measure:` (scenarios/internal/sweep_values.h).
#include "sweep/internal/sweep_values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

#include "kubesim/api/go_duration.h"
#include "kubesim/sweep/measure.h"

namespace kubesim::sweep::internal {

namespace {

enum class Kind { kNumber, kDuration, kText };

const char* kind_name(Kind kind) {
  return kind == Kind::kNumber ? "a number" : kind == Kind::kDuration ? "a duration" : "text";
}

std::optional<double> number_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

Kind kind_of(const YAML::Node& node) {
  if (node.Tag() == "!") return Kind::kText;
  if (number_of(node.Scalar())) return Kind::kNumber;
  if (api::parse_go_duration(node.Scalar()).ok()) return Kind::kDuration;
  return Kind::kText;
}

// A number as the range writes it: whole numbers without a point, others in up to 6 digits.
std::string number_text(double value) {
  char buf[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  }
  return buf;
}

std::vector<SweepValue> read_list(const std::string& name, const YAML::Node& list, Errors& errors) {
  std::vector<SweepValue> values;
  if (list.size() == 0) {
    errors.add(mark_of(list), "sweep: " + name + " has no values");
    return values;
  }
  std::optional<Kind> first;
  std::set<std::string> seen;
  for (const auto& item : list) {
    if (!item.IsScalar()) {
      errors.add(mark_of(item), "sweep: " + name + ": a value is a duration, a number or text");
      continue;
    }
    const Kind kind = kind_of(item);
    if (!first) first = kind;
    if (kind != *first) {
      errors.add(mark_of(item), "sweep: " + name + ": mixed value types: " + item.Scalar() + " is " +
                                    kind_name(kind) + ", " + list[0].Scalar() + " is " +
                                    kind_name(*first));
    }
    if (!seen.insert(item.Scalar()).second) {
      errors.add(mark_of(item), "sweep: " + name + ": the value " + item.Scalar() + " appears twice");
    }
    values.push_back(SweepValue{item.Scalar(), kind == Kind::kText && item.Tag() == "!"});
  }
  return values;
}

std::vector<SweepValue> read_range(const std::string& name, const YAML::Node& range, Errors& errors) {
  std::vector<SweepValue> values;
  for (const auto& kv : range) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (key != "from" && key != "to" && key != "steps") {
      errors.add(mark_of(kv.first), "sweep: " + name + ": unknown key " + key +
                                        " in a range (from, to, steps)");
    }
  }
  const YAML::Node from = range["from"], to = range["to"], steps = range["steps"];
  for (const char* key : {"from", "to", "steps"}) {
    if (!range[key].IsDefined() || !range[key].IsScalar()) {
      errors.add(mark_of(range), "sweep: " + name + ": a range needs " + key);
      return values;
    }
  }
  const auto count = number_of(steps.Scalar());
  if (!count || *count != std::floor(*count) || *count < 2 || *count > 1000) {
    errors.add(mark_of(steps), "sweep: " + name + ": steps must be a whole number from 2 to 1000, got " +
                                   steps.Scalar());
    return values;
  }
  const Kind kind = kind_of(from);
  if (kind == Kind::kText || kind_of(to) != kind) {
    errors.add(mark_of(to), "sweep: " + name + ": a range goes between two durations or two numbers, "
                                "got " + from.Scalar() + " and " + to.Scalar());
    return values;
  }
  const double a = kind == Kind::kNumber ? *number_of(from.Scalar())
                                         : api::parse_go_duration(from.Scalar()).value().count();
  const double b = kind == Kind::kNumber ? *number_of(to.Scalar())
                                         : api::parse_go_duration(to.Scalar()).value().count();
  if (a >= b) {
    errors.add(mark_of(from), "sweep: " + name + ": " + (a == b ? "empty" : "upside-down") +
                                  " range: from " + from.Scalar() + " to " + to.Scalar() +
                                  " (from must be below to)");
    return values;
  }
  const int n = static_cast<int>(*count);
  for (int i = 0; i < n; ++i) {
    const double v = a + (b - a) * i / (n - 1);
    values.push_back(SweepValue{kind == Kind::kNumber
                                    ? number_text(v)
                                    : api::format_go_duration(sim::Duration(static_cast<sim::Duration::rep>(std::llround(v)))),
                                false});
  }
  return values;
}

}  // namespace

std::vector<SweepParam> read_sweep(const YAML::Node& sweep, Errors& errors) {
  std::vector<SweepParam> params;
  if (!sweep.IsDefined() || sweep.IsNull()) return params;
  if (!sweep.IsMap()) {
    errors.add(mark_of(sweep), "sweep: a mapping of parameters to their values ({leaseDuration: [5s, 10s]})");
    return params;
  }
  for (const auto& kv : sweep) {
    SweepParam p{kv.first.IsScalar() ? kv.first.Scalar() : "", mark_of(kv.first), {}};
    if (p.name.empty() || p.name.find_first_of("{} ,=[]") != std::string::npos) {
      errors.add(p.mark, "sweep: a parameter name is a word without braces, spaces, commas, = or []");
      continue;
    }
    if (p.name == "n") {
      errors.add(p.mark, "sweep: a parameter may not be called n: {{n}} is the workload's own placeholder");
      continue;
    }
    if (kv.second.IsSequence()) {
      p.values = read_list(p.name, kv.second, errors);
    } else if (kv.second.IsMap()) {
      p.values = read_range(p.name, kv.second, errors);
    } else {
      errors.add(mark_of(kv.second), "sweep: " + p.name +
                                         ": a list of values or a range {from, to, steps}");
    }
    params.push_back(std::move(p));
  }
  return params;
}

std::vector<std::string> read_measure(const YAML::Node& measure, Errors& errors) {
  std::vector<std::string> names;
  if (!measure.IsDefined() || measure.IsNull()) return names;
  if (!measure.IsSequence()) {
    errors.add(mark_of(measure), "measure: a list of metric names ([failoverTime, apiCalls])");
    return names;
  }
  std::string known;
  for (const auto& m : metric_names()) known += (known.empty() ? "" : ", ") + m;
  for (const auto& item : measure) {
    const std::string name = item.IsScalar() ? item.Scalar() : "";
    bool found = false;
    for (const auto& m : metric_names()) found = found || m == name;
    if (!found) {
      errors.add(mark_of(item), "measure: unknown metric \"" + name + "\" (the metrics: " + known + ")");
    } else if (std::find(names.begin(), names.end(), name) != names.end()) {
      errors.add(mark_of(item), "measure: " + name + " is listed twice");
    } else {
      names.push_back(name);
    }
  }
  return names;
}

}  // namespace kubesim::sweep::internal
