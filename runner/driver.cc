// The driver's first half: finding the files, reading them, and planning the runs
// (run_plan is in driver_run.cc).
#include "kubesim/runner/driver.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>
#include <utility>

#include "kubesim/runner/world.h"

namespace kubesim::runner {

namespace fs = std::filesystem;

namespace {

bool is_scenario_file(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// A directory's scenario files, sorted; an error when it has none.
void add_directory(const std::string& dir, FileList& out, std::set<std::string>& seen) {
  std::vector<std::string> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && is_scenario_file(it->path())) {
      found.push_back(it->path().string());
    }
  }
  if (ec) {
    out.errors.push_back(dir + ": " + ec.message());
    return;
  }
  if (found.empty()) {
    out.errors.push_back(dir + ": no scenario files (*.yaml, *.yml) in this directory");
    return;
  }
  std::sort(found.begin(), found.end());
  for (auto& file : found) {
    if (!seen.insert(fs::path(file).lexically_normal().string()).second) continue;
    out.listed.insert(file);
    out.files.push_back(file);
  }
}

std::string error_at(const std::string& file, const scenarios::Mark& mark, const std::string& message) {
  return scenarios::ParseError{file, mark, message}.text();
}

// The errors a virtual run adds to a parsed scenario.
void check_virtual(const scenarios::Scenario& scenario, std::vector<std::string>& errors) {
  for (const auto& process : scenario.processes) {
    if (process.exec) {
      errors.push_back(error_at(scenario.file, process.exec->mark,
                                "exec processes run only with --live"));
    }
  }
}

}  // namespace

FileList scenario_files(const std::vector<std::string>& paths) {
  FileList out;
  std::set<std::string> seen;
  for (const auto& path : paths) {
    if (path == "-") {
      if (seen.insert(path).second) out.files.push_back(path);
      continue;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      out.errors.push_back(path + ": no such file or directory");
    } else if (fs::is_directory(status)) {
      add_directory(path, out, seen);
    } else if (seen.insert(fs::path(path).lexically_normal().string()).second) {
      out.files.push_back(path);
    }
  }
  return out;
}

std::vector<scenarios::Source> read_sources(const std::vector<std::string>& files) {
  std::vector<scenarios::Source> out;
  out.reserve(files.size());
  for (const auto& file : files) out.push_back(scenarios::read_source(file));
  return out;
}

LoadedScenarios load_scenarios(const std::vector<scenarios::Source>& sources, const scenarios::Registry& registry,
                               const LoadFunction& load, bool live, const std::set<std::string>& listed) {
  LoadedScenarios out;
  std::vector<scenarios::Scenario> scenarios;
  std::map<std::string, std::string> file_of_name;
  for (const auto& source : sources) {
    if (source.error) {
      out.errors.push_back(error_at(source.name(), scenarios::Mark{}, *source.error));
      continue;
    }
    const std::string file = source.name();
    scenarios::ParseResult parsed = load(source, registry);
    for (const auto& error : parsed.errors) out.errors.push_back(error.text());
    if (!parsed.errors.empty() || !parsed.scenario) continue;
    scenarios::Scenario& scenario = *parsed.scenario;
    if (!live) {
      // A live scenario among a directory's files: run the others, and say this one was left out.
      const auto exec = std::find_if(scenario.processes.begin(), scenario.processes.end(),
                                     [](const scenarios::ProcessSpec& p) { return p.exec.has_value(); });
      if (exec != scenario.processes.end() && listed.contains(source.path)) {
        out.skipped.push_back(file + ": scenario " + scenario.name + " runs exec processes (process \"" + exec->name +
                              "\"), which only kubesim run --live starts");
        continue;
      }
      check_virtual(scenario, out.errors);
    }
    // What the server would refuse at every run's start is an error of the file.
    for (const ClusterRefusal& refused : dry_run_cluster(scenario)) {
      out.errors.push_back(error_at(scenario.file, refused.mark, refused.message));
    }
    auto [it, fresh] = file_of_name.emplace(scenario.name, file);
    if (!fresh) {
      out.errors.push_back(file + ": scenario name \"" + scenario.name + "\" is also the name of " +
                           it->second + "'s scenario; names must be unique");
    }
    scenarios.push_back(std::move(scenario));
  }
  if (out.errors.empty()) out.scenarios = std::move(scenarios);
  return out;
}

std::vector<PlannedRun> shard_slice(const std::vector<std::vector<std::uint64_t>>& seeds,
                                    Shard shard) {
  std::vector<PlannedRun> runs;
  std::size_t number = 0;
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    for (std::uint64_t seed : seeds[s]) {
      if (number % static_cast<std::size_t>(shard.count) == static_cast<std::size_t>(shard.index)) {
        runs.push_back(PlannedRun{s, seed});
      }
      ++number;
    }
  }
  return runs;
}

Plan make_plan(std::vector<scenarios::Scenario> scenarios, const SeedChoice& choice, Shard shard) {
  Plan plan;
  plan.shard = shard;
  for (const auto& scenario : scenarios) {
    std::vector<std::uint64_t> seeds;
    if (choice.seed) {
      seeds.push_back(*choice.seed);
    } else if (choice.seeds) {
      for (int i = 1; i <= *choice.seeds; ++i) seeds.push_back(static_cast<std::uint64_t>(i));
    } else {
      seeds = scenario.seed_numbers();  // the file's count, or its list of seeds
    }
    plan.seeds.push_back(std::move(seeds));
  }
  plan.scenarios = std::move(scenarios);
  plan.runs = shard_slice(plan.seeds, shard);
  return plan;
}

}  // namespace kubesim::runner
