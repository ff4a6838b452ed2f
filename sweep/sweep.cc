// Expanding a file with `sweep:` and `measure:` into one scenario per grid point
// (kubesim/sweep/sweep.h); the values of `sweep:` are read in sweep_values.cc.
#include "kubesim/sweep/sweep.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "kubesim/scenarios/emit.h"
#include "kubesim/scenarios/yaml_reader.h"
#include "sweep/internal/sweep_values.h"

namespace kubesim::sweep {

namespace {

using internal::SweepParam;
using internal::SweepValue;

// "p" when `text` is exactly "{{p}}" (spaces inside the braces allowed).
std::optional<std::string> exact_placeholder(const std::string& text) {
  if (text.size() < 4 || text.compare(0, 2, "{{") != 0 || text.compare(text.size() - 2, 2, "}}") != 0 ||
      text.find("{{", 2) != std::string::npos) {
    return std::nullopt;
  }
  std::string name = text.substr(2, text.size() - 4);
  name.erase(0, name.find_first_not_of(' '));
  name.erase(name.find_last_not_of(' ') + 1);
  return name;
}

// The plain `{{p}}` that YAML reads as {{p: null}: null}: "p", else nullopt.
std::optional<std::string> flow_placeholder(const YAML::Node& node) {
  if (!node.IsMap() || node.size() != 1) return std::nullopt;
  const auto it = node.begin();
  if (!it->second.IsNull() || !it->first.IsMap() || it->first.size() != 1) return std::nullopt;
  const auto inner = it->first.begin();
  if (!inner->first.IsScalar() || !inner->second.IsNull()) return std::nullopt;
  return inner->first.Scalar();
}

// Every name in `{{…}}` inside `text`, in order.
std::vector<std::string> placeholders(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t at = text.find("{{"); at != std::string::npos; at = text.find("{{", at + 2)) {
    const std::size_t end = text.find("}}", at + 2);
    if (end == std::string::npos) break;
    if (auto name = exact_placeholder(text.substr(at, end + 2 - at))) names.push_back(*name);
  }
  return names;
}

struct Walk {
  const std::map<std::string, const SweepParam*>& params;
  internal::Errors& errors;
  std::set<std::string> used;

  void use(const std::string& name, const YAML::Node& node) {
    if (name == "n") return;  // the workload's own placeholder
    if (params.count(name) == 0) {
      std::string swept;
      for (const auto& [p, unused] : params) swept += (swept.empty() ? "" : ", ") + p;
      errors.add(internal::mark_of(node), "{{" + name + "}} is not a swept parameter (sweep: " +
                                              (swept.empty() ? "none" : swept) + ")");
      return;
    }
    used.insert(name);
  }
  void visit(const YAML::Node& node) {
    if (auto name = flow_placeholder(node)) return use(*name, node);
    if (node.IsScalar()) {
      for (const auto& name : placeholders(node.Scalar())) use(name, node);
    } else if (node.IsMap()) {
      for (const auto& kv : node) visit(kv.second);
    } else if (node.IsSequence()) {
      for (const auto& item : node) visit(item);
    }
  }
};

// A copy of `node` with every placeholder of `values` replaced.
YAML::Node substitute(const YAML::Node& node, const std::map<std::string, const SweepValue*>& values) {
  auto exact = [&](const std::string& name) -> std::optional<YAML::Node> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    YAML::Node value(it->second->text);
    if (it->second->quoted) value.SetTag("!");
    return value;
  };
  if (auto name = flow_placeholder(node)) {
    if (auto v = exact(*name)) return *v;
  }
  if (node.IsScalar()) {
    if (auto name = exact_placeholder(node.Scalar())) {
      if (auto v = exact(*name)) return *v;
    }
    std::string text = node.Scalar();
    for (const auto& [name, value] : values) {
      for (const std::string& form : {"{{" + name + "}}", "{{ " + name + " }}"}) {
        for (auto at = text.find(form); at != std::string::npos; at = text.find(form, at)) {
          text.replace(at, form.size(), value->text);
          at += value->text.size();
        }
      }
    }
    YAML::Node out(text);
    out.SetTag(node.Tag());
    return out;
  }
  if (node.IsMap()) {
    YAML::Node out(YAML::NodeType::Map);
    for (const auto& kv : node) out[YAML::Clone(kv.first)] = substitute(kv.second, values);
    return out;
  }
  if (node.IsSequence()) {
    YAML::Node out(YAML::NodeType::Sequence);
    for (const auto& item : node) out.push_back(substitute(item, values));
    return out;
  }
  return YAML::Clone(node);
}

// Each place of a point's expanded document (line, column) → the experiment file's place of the
// node written there.
using Origins = std::map<std::pair<int, int>, scenarios::Mark>;

// Pairs the expanded document's nodes (loaded back from its text, so with its places) with the
// body's (the file's nodes, with the file's places): map keys by their text, sequence items by
// index; a placeholder that became a scalar pairs with the node it replaced.
void trace_origins(const YAML::Node& original, const YAML::Node& expanded, Origins& out) {
  const scenarios::Mark from = internal::mark_of(original), to = internal::mark_of(expanded);
  if (from.line > 0 && to.line > 0) out.emplace(std::make_pair(to.line, to.column), from);
  if (original.IsMap() && expanded.IsMap()) {
    for (const auto& kv : expanded) {
      if (!kv.first.IsScalar()) continue;
      for (const auto& o : original) {
        if (!o.first.IsScalar() || o.first.Scalar() != kv.first.Scalar()) continue;
        trace_origins(o.first, kv.first, out);
        trace_origins(o.second, kv.second, out);
        break;
      }
    }
  } else if (original.IsSequence() && expanded.IsSequence()) {
    for (std::size_t i = 0; i < std::min(original.size(), expanded.size()); ++i) {
      trace_origins(original[i], expanded[i], out);
    }
  }
}

// The file's place of a place in the expanded document: that of the node written there, else of
// the last node written before it.
scenarios::Mark origin_of(const Origins& origins, scenarios::Mark mark) {
  auto it = origins.upper_bound({mark.line, mark.column});
  if (it == origins.begin()) return mark;
  return std::prev(it)->second;
}

// "lease=5s, replicas=3"
std::string point_text(const SweepPoint& point) {
  std::string text;
  for (const auto& [name, value] : point) text += (text.empty() ? "" : ", ") + name + "=" + value;
  return text;
}

// The point's scenario, its checks placed in the experiment file; or its errors as
// "FILE:LINE:COL: in the point P=V, …: message", placed in the experiment file too.
void parse_point(const YAML::Node& body, const std::vector<SweepParam>& params,
                 const std::vector<std::size_t>& choice, const scenarios::Registry& registry,
                 const std::string& file, const std::string& name, ExpandResult& out) {
  std::map<std::string, const SweepValue*> values;
  SweepPoint point;
  for (std::size_t i = 0; i < params.size(); ++i) {
    values[params[i].name] = &params[i].values[choice[i]];
    point.emplace_back(params[i].name, params[i].values[choice[i]].text);
  }
  YAML::Node doc = substitute(body, values);
  doc["name"] = name + point_suffix(point);
  const std::string text = scenarios::emit_scenario(doc);
  scenarios::ParseResult parsed = scenarios::parse_scenario(text, file, registry);
  Origins origins;
  trace_origins(body, internal::load_yaml(text).document, origins);
  for (auto& e : parsed.errors) {
    const std::string where = point.empty() ? "" : "in the point " + point_text(point) + ": ";
    out.errors.push_back(scenarios::ParseError{file, e.mark.line > 0 ? origin_of(origins, e.mark) : e.mark,
                                    where + e.message});
  }
  if (parsed.scenario) {
    for (auto& check : parsed.scenario->checks) check.mark = origin_of(origins, check.mark);
    out.experiment->points.push_back(std::move(point));
    out.experiment->scenarios.push_back(std::move(*parsed.scenario));
  }
}

}  // namespace

std::string point_suffix(const SweepPoint& point) {
  if (point.empty()) return "";
  std::string text = "[";
  for (const auto& [name, value] : point) {
    text += (text.size() > 1 ? "," : "") + name + "=" + value;
  }
  return text + "]";
}

bool is_experiment(std::string_view text) {
  internal::LoadedYaml yaml = internal::load_yaml(text);
  if (yaml.error || !yaml.document.IsMap()) return false;
  return yaml.document["sweep"].IsDefined() || yaml.document["measure"].IsDefined();
}

ExpandResult expand_experiment(std::string_view text, const std::string& file,
                               const scenarios::Registry& registry) {
  ExpandResult out;
  internal::LoadedYaml yaml = internal::load_yaml(text);
  if (yaml.error || !yaml.document.IsMap()) return ExpandResult{std::nullopt, scenarios::parse_scenario(text, file, registry).errors};
  internal::Errors errors;
  YAML::Node body(YAML::NodeType::Map);
  YAML::Node sweep, measure;
  for (const auto& kv : yaml.document) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (key == "sweep") {
      sweep = kv.second;
    } else if (key == "measure") {
      measure = kv.second;
    } else {
      body[kv.first] = kv.second;
    }
  }
  Experiment experiment;
  experiment.file = file;
  const std::vector<SweepParam> params = internal::read_sweep(sweep, errors);
  experiment.measures = internal::read_measure(measure, errors);
  std::map<std::string, const SweepParam*> by_name;
  for (const auto& p : params) {
    by_name[p.name] = &p;
    experiment.parameters.push_back(p.name);
  }
  Walk walk{by_name, errors, {}};
  walk.visit(body);
  for (const auto& p : params) {
    if (walk.used.count(p.name) == 0) {
      errors.add(p.mark, "sweep: parameter " + p.name + " is never used as {{" + p.name + "}}");
    }
  }
  if (!errors.empty()) return ExpandResult{std::nullopt, errors.sorted(file)};
  experiment.name = body["name"].IsScalar() ? body["name"].Scalar() : "";
  out.experiment = std::move(experiment);
  std::vector<std::size_t> choice(params.size(), 0);
  while (true) {
    parse_point(body, params, choice, registry, file, out.experiment->name, out);
    std::size_t i = params.size();
    while (i > 0 && ++choice[i - 1] == params[i - 1].values.size()) choice[--i] = 0;
    if (i == 0) break;
  }
  if (!out.errors.empty()) out.experiment.reset();
  return out;
}

}  // namespace kubesim::sweep
