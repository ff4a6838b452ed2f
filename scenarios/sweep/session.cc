// Experiments in `kubesim run` (kubesim/scenarios/sweep.h): expanding the files, measuring the
// runs, and the rows the outputs read.
#include <fstream>
#include <sstream>

#include "kubesim/scenarios/sweep.h"

namespace kubesim::scenarios {

std::vector<std::string> Experiments::expand(const std::vector<std::string>& files,
                                             const Registry& registry) {
  std::vector<std::string> out;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || !is_experiment(text.str())) {
      out.push_back(file);
      continue;
    }
    ExpandResult expanded = expand_experiment(text.str(), file, registry);
    std::vector<ParseResult>& queue = queue_[file];
    if (!expanded.experiment) {
      queue.push_back(ParseResult{std::nullopt, std::move(expanded.errors)});
      out.push_back(file);
      continue;
    }
    Experiment& e = *expanded.experiment;
    for (std::size_t i = 0; i < e.scenarios.size(); ++i) {
      by_name_[e.scenarios[i].name] = Owner{experiments_.size(), i};
      queue.push_back(ParseResult{e.scenarios[i], {}});
      out.push_back(file);
    }
    experiments_.push_back(std::move(e));
  }
  return out;
}

LoadFunction Experiments::loader() {
  return [this](const std::string& path, const Registry& registry) {
    auto it = queue_.find(path);
    if (it == queue_.end()) return load_(path, registry);
    std::size_t& next = next_[path];
    return it->second[std::min(next++, it->second.size() - 1)];
  };
}

void Experiments::print_cost(const Plan& plan, std::ostream& out) const {
  for (std::size_t e = 0; e < experiments_.size(); ++e) {
    std::size_t points = 0, runs = 0, seeds = 0;
    for (std::size_t s = 0; s < plan.scenarios.size(); ++s) {
      auto it = by_name_.find(plan.scenarios[s].name);
      if (it == by_name_.end() || it->second.experiment != e) continue;
      ++points;
      seeds = plan.seeds[s].size();
      runs += plan.seeds[s].size();
    }
    out << experiments_[e].file << ": sweep: " << points << (points == 1 ? " point" : " points")
        << " × " << seeds << (seeds == 1 ? " seed" : " seeds") << " = " << runs
        << (runs == 1 ? " run" : " runs") << "\n";
  }
}

RunFunction Experiments::measuring(RunFunction run) {
  return [this, run = std::move(run)](const Scenario& scenario, const Registry& registry,
                                      const RunOptions& options) {
    auto it = by_name_.find(scenario.name);
    if (it == by_name_.end()) return run(scenario, registry, options);
    RunOptions measured = options;
    measured.timeline = true;
    RunCapture capture;
    if (measured.capture == nullptr) measured.capture = &capture;
    SeedResult result = run(scenario, registry, measured);
    Metrics metrics = measure_run(scenario, result, *measured.capture,
                                  experiments_[it->second.experiment].measures);
    if (!options.timeline) result.timeline.reset();
    std::lock_guard lock(mutex_);
    metrics_[{scenario.name, options.seed}] = std::move(metrics);
    return result;
  };
}

std::vector<MeasuredRun> Experiments::rows(const RunSet& set) const {
  std::vector<MeasuredRun> rows;
  std::lock_guard lock(mutex_);
  for (const auto& run : set.scenarios) {
    auto it = by_name_.find(run.result.name);
    if (it == by_name_.end()) continue;
    const Experiment& e = experiments_[it->second.experiment];
    for (const auto& seed : run.result.seeds) {
      MeasuredRun row{run.result.name, e.name, e.points[it->second.point], seed.seed,
                      !seed_failed(run.result, seed), {}};
      auto m = metrics_.find({run.result.name, seed.seed});
      if (m != metrics_.end()) row.metrics = m->second;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace kubesim::scenarios
