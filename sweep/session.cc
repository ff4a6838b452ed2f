// Experiments in `kubesim run` (kubesim/sweep/sweep.h): expanding the files, measuring the
// runs, and the rows the outputs read.
#include <map>
#include <sstream>

#include "kubesim/sweep/sweep.h"

namespace kubesim::sweep {

std::vector<scenarios::Source> Experiments::expand(std::vector<scenarios::Source> sources,
                                                  const scenarios::Registry& registry) {
  std::vector<scenarios::Source> out;
  for (auto& source : sources) {
    if (source.error || !is_experiment(source.text)) {
      out.push_back(std::move(source));
      continue;
    }
    ExpandResult expanded = expand_experiment(source.text, source.name(), registry);
    std::vector<scenarios::ParseResult>& queue = queue_[source.path];
    scenarios::Source point{source.path, {}, std::nullopt};  // its parse is queued
    if (!expanded.experiment) {
      queue.push_back(scenarios::ParseResult{std::nullopt, std::move(expanded.errors)});
      out.push_back(point);
      continue;
    }
    Experiment& e = *expanded.experiment;
    for (std::size_t i = 0; i < e.scenarios.size(); ++i) {
      by_name_[e.scenarios[i].name] = Owner{experiments_.size(), i};
      queue.push_back(scenarios::ParseResult{e.scenarios[i], {}});
      out.push_back(point);
    }
    experiments_.push_back(std::move(e));
  }
  return out;
}

runner::LoadFunction Experiments::loader() {
  return [this](const scenarios::Source& source, const scenarios::Registry& registry) {
    auto it = queue_.find(source.path);
    if (it == queue_.end()) return load_(source, registry);
    std::size_t& next = next_[source.path];
    return it->second[std::min(next++, it->second.size() - 1)];
  };
}

std::string sweep_cost_line(const std::string& file, std::size_t points, std::size_t seeds,
                            std::size_t runs) {
  return file + ": sweep: " + std::to_string(points) + (points == 1 ? " point" : " points") +
         " × " + std::to_string(seeds) + (seeds == 1 ? " seed" : " seeds") + " = " +
         std::to_string(runs) + (runs == 1 ? " run" : " runs");
}

std::vector<std::string> sweep_cost_lines(const runner::RunSet& set) {
  std::vector<std::string> order;  // experiment names, in the set's order
  std::map<std::string, std::string> files;
  std::map<std::string, std::size_t> points, seeds, runs;
  for (const auto& run : set.scenarios) {
    const std::string& e = run.result.experiment;
    if (e.empty()) continue;
    if (files.emplace(e, run.result.file).second) order.push_back(e);
    ++points[e];
    seeds[e] = run.planned_seeds.size();
    runs[e] += run.planned_seeds.size();
  }
  std::vector<std::string> lines;
  for (const auto& e : order) lines.push_back(sweep_cost_line(files[e], points[e], seeds[e], runs[e]));
  return lines;
}

void Experiments::print_cost(const runner::Plan& plan, std::ostream& out) const {
  for (std::size_t e = 0; e < experiments_.size(); ++e) {
    std::size_t points = 0, runs = 0, seeds = 0;
    for (std::size_t s = 0; s < plan.scenarios.size(); ++s) {
      auto it = by_name_.find(plan.scenarios[s].name);
      if (it == by_name_.end() || it->second.experiment != e) continue;
      ++points;
      seeds = plan.seeds[s].size();
      runs += plan.seeds[s].size();
    }
    out << sweep_cost_line(experiments_[e].file, points, seeds, runs) << "\n";
  }
}

runner::RunFunction Experiments::measuring(runner::RunFunction run) const {
  return [this, run = std::move(run)](const scenarios::Scenario& scenario, const scenarios::Registry& registry,
                                      const runner::RunOptions& options) {
    auto it = by_name_.find(scenario.name);
    if (it == by_name_.end()) return run(scenario, registry, options);
    runner::RunOptions measured = options;
    measured.timeline = true;
    runner::RunCapture capture;
    if (measured.capture == nullptr) measured.capture = &capture;
    runner::SeedResult result = run(scenario, registry, measured);
    result.metrics = measure_run(scenario, result, *measured.capture,
                                 experiments_[it->second.experiment].measures);
    if (!options.timeline) result.timeline.reset();
    return result;
  };
}

void Experiments::label(runner::RunSet& set) const {
  for (auto& run : set.scenarios) {
    auto it = by_name_.find(run.result.name);
    if (it == by_name_.end()) continue;
    const Experiment& e = experiments_[it->second.experiment];
    run.result.experiment = e.name;
    run.result.point = e.points[it->second.point];
  }
}

}  // namespace kubesim::sweep
