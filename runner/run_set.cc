#include "kubesim/runner/run_set.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "kubesim/api/status.h"
#include "runner/internal/names.h"
#include "runner/internal/results_json.h"

namespace kubesim::runner {

using nlohmann::json;
using namespace internal;  // NOLINT: the results JSON readers

namespace {

constexpr const char* kKind = "KubesimResults";
constexpr int kVersion = 1;

// A whole decimal number in [0, limit], nothing else.
std::optional<long> read_count(const std::string& text, long limit) {
  if (text.empty() || text.size() > 9 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  long value = std::strtol(text.c_str(), nullptr, 10);
  if (value > limit) return std::nullopt;
  return value;
}

ScenarioRun scenario_run_from(const json& j, const std::string& path) {
  auto result = scenario_result_from_json(j);
  if (!result.ok()) results_json_fail(path, result.status().message);
  ScenarioRun run;
  run.result = std::move(result).value();
  const std::string planned = json_path(path, "plannedSeeds");
  const json& seeds = json_array(json_field(j, path, "plannedSeeds"), planned);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    run.planned_seeds.push_back(json_uint(seeds[i], json_path(planned, i)));
  }
  if (auto it = j.find("wallSeconds"); it != j.end()) {
    const std::string wall = json_path(path, "wallSeconds");
    json_array(*it, wall);
    for (std::size_t i = 0; i < it->size(); ++i) {
      run.wall_seconds.push_back(json_number((*it)[i], json_path(wall, i)));
    }
  }
  if (run.wall_seconds.size() != run.result.seeds.size()) {
    run.wall_seconds.assign(run.result.seeds.size(), 0.0);
  }
  // Every seed run must be one of the plan's, in the plan's order.
  std::size_t next = 0;
  for (const auto& seed : run.result.seeds) {
    while (next < run.planned_seeds.size() && run.planned_seeds[next] != seed.seed) ++next;
    if (next == run.planned_seeds.size()) {
      results_json_fail(path, "seed " + std::to_string(seed.seed) +
                                  " is not among plannedSeeds, or out of their order");
    }
    ++next;
  }
  return run;
}

RunSet run_set_from(const json& j) {
  json_object(j, "");
  if (j.value("kind", "") != kKind) results_json_fail("kind", "not a kubesim results file");
  if (json_int(json_field(j, "", "version"), "version") != kVersion) {
    results_json_fail("version", "version " + std::to_string(kVersion) + " is the one understood");
  }
  RunSet set;
  set.program = json_string(json_field(j, "", "program"), "program");
  const json& command = json_array(json_field(j, "", "command"), "command");
  for (std::size_t i = 0; i < command.size(); ++i) {
    set.command.push_back(json_string(command[i], json_path("command", i)));
  }
  const json& shard = json_field(j, "", "shard");
  set.shard.index = static_cast<int>(json_int(json_field(shard, "shard", "index"), "shard.index"));
  set.shard.count = static_cast<int>(json_int(json_field(shard, "shard", "count"), "shard.count"));
  if (set.shard.count < 1 || set.shard.index < 0 || set.shard.index >= set.shard.count) {
    results_json_fail("shard", "not a shard K/N with 0 <= K < N");
  }
  const json& scenarios = json_array(json_field(j, "", "scenarios"), "scenarios");
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    set.scenarios.push_back(scenario_run_from(scenarios[i], json_path("scenarios", i)));
  }
  if (auto it = j.find("interrupted"); it != j.end()) {
    set.interrupted = RunSet::Interruption{
        json_uint(json_field(*it, "interrupted", "finished"), "interrupted.finished"),
        json_uint(json_field(*it, "interrupted", "planned"), "interrupted.planned")};
  }
  return set;
}

// Why `b`'s plan is not `a`'s, or "" when they are the same.
std::string plan_difference(const RunSet& a, const RunSet& b) {
  if (a.shard.count != b.shard.count) {
    return "shard " + b.shard.text() + " and shard " + a.shard.text() + " cut the run differently";
  }
  if (a.scenarios.size() != b.scenarios.size()) {
    return "shard " + b.shard.text() + " ran " + std::to_string(b.scenarios.size()) +
           " scenarios, shard " + a.shard.text() + " " + std::to_string(a.scenarios.size());
  }
  for (std::size_t i = 0; i < a.scenarios.size(); ++i) {
    const auto& x = a.scenarios[i];
    const auto& y = b.scenarios[i];
    if (x.result.name != y.result.name || x.result.file != y.result.file) {
      return "shard " + b.shard.text() + " ran scenario \"" + y.result.name + "\" (" +
             y.result.file + ") where shard " + a.shard.text() + " ran \"" + x.result.name +
             "\" (" + x.result.file + ")";
    }
    if (x.planned_seeds != y.planned_seeds || x.result.must_find != y.result.must_find) {
      return "shard " + b.shard.text() + " planned other seeds of scenario \"" + y.result.name +
             "\" than shard " + a.shard.text();
    }
  }
  return "";
}

api::Result<RunSet> merge_checked(const std::vector<RunSet>& shards,
                                  std::vector<std::string> command) {
  const RunSet& first = shards.front();
  RunSet merged;
  merged.program = first.program;
  merged.command = std::move(command);
  for (const auto& s : first.scenarios) {
    ScenarioRun run;
    run.result = s.result;
    run.result.seeds.clear();
    run.planned_seeds = s.planned_seeds;
    merged.scenarios.push_back(std::move(run));
  }
  for (std::size_t i = 0; i < merged.scenarios.size(); ++i) {
    ScenarioRun& run = merged.scenarios[i];
    // seed → (its result, wall seconds), from whichever shard ran it.
    std::map<std::uint64_t, std::pair<const SeedResult*, double>> found;
    for (const auto& shard : shards) {
      const ScenarioRun& part = shard.scenarios[i];
      for (std::size_t k = 0; k < part.result.seeds.size(); ++k) {
        const SeedResult& seed = part.result.seeds[k];
        if (!found.emplace(seed.seed, std::make_pair(&seed, part.wall_seconds[k])).second) {
          return api::new_bad_request("seed " + std::to_string(seed.seed) + " of scenario \"" +
                                      run.result.name + "\" is in more than one shard");
        }
      }
    }
    for (std::uint64_t seed : run.planned_seeds) {
      auto it = found.find(seed);
      if (it == found.end()) {
        return api::new_bad_request("seed " + std::to_string(seed) + " of scenario \"" +
                                    run.result.name + "\" is in no shard");
      }
      run.result.seeds.push_back(*it->second.first);
      run.wall_seconds.push_back(it->second.second);
    }
    const auto keep = report_seed_index(run.result);
    for (std::size_t k = 0; k < run.result.seeds.size(); ++k) {
      if (k != keep) run.result.seeds[k].timeline.reset();
    }
  }
  return merged;
}

}  // namespace

std::optional<std::size_t> report_seed_index(const ScenarioResult& result) {
  if (result.seeds.empty()) return std::nullopt;
  for (std::size_t i = 0; i < result.seeds.size(); ++i) {
    if (result.seeds[i].broke_any()) return i;
  }
  return 0;
}

bool seed_failed(const ScenarioResult& scenario, const SeedResult& seed) {
  if (!seed.error.empty()) return true;
  if (scenario.must_find.empty()) return !seed.failures.empty();
  return std::any_of(seed.failures.begin(), seed.failures.end(), [&](const Failure& f) {
    return !internal::listed(scenario.must_find, f.condition);
  });
}

bool seed_found(const ScenarioResult& scenario, const SeedResult& seed) {
  return std::any_of(seed.failures.begin(), seed.failures.end(), [&](const Failure& f) {
    return internal::listed(scenario.must_find, f.condition);
  });
}

std::optional<Shard> parse_shard(const std::string& text, std::string& error) {
  const auto slash = text.find('/');
  std::optional<long> k, n;
  if (slash != std::string::npos) {
    k = read_count(text.substr(0, slash), 1'000'000);
    n = read_count(text.substr(slash + 1), 1'000'000);
  }
  if (!k || !n) {
    error = "--shard " + text + ": expected K/N, two whole numbers such as 0/4";
    return std::nullopt;
  }
  if (*n < 1) {
    error = "--shard " + text + ": N, the number of shards, must be at least 1";
    return std::nullopt;
  }
  if (*k >= *n) {
    const std::string shards = std::to_string(*n);
    error = "--shard " + text + ": K must be at least 0 and less than N (" +
            (*n == 1 ? std::string("the only shard of 1 is 0/1")
                     : "the shards of " + shards + " are 0/" + shards + " to " + std::to_string(*n - 1) + "/" + shards) +
            ")";
    return std::nullopt;
  }
  return Shard{static_cast<int>(*k), static_cast<int>(*n)};
}

json to_json(const RunSet& set) {
  json scenarios = json::array();
  for (const auto& s : set.scenarios) {
    json j = to_json(s.result);
    j["plannedSeeds"] = s.planned_seeds;
    j["wallSeconds"] = s.wall_seconds;
    scenarios.push_back(std::move(j));
  }
  json j{{"kind", kKind},
         {"version", kVersion},
         {"program", set.program},
         {"command", set.command},
         {"shard", {{"index", set.shard.index}, {"count", set.shard.count}}},
         {"scenarios", std::move(scenarios)}};
  if (set.interrupted) {
    j["interrupted"] = {{"finished", set.interrupted->finished}, {"planned", set.interrupted->planned}};
  }
  return j;
}

api::Result<RunSet> run_set_from_json(const json& j) {
  try {
    return run_set_from(j);
  } catch (const ResultsJsonError& e) {
    return api::new_bad_request(e.what());
  }
}

api::Result<RunSet> merge_run_sets(const std::vector<RunSet>& shards,
                                   std::vector<std::string> command) {
  if (shards.empty()) return api::new_bad_request("no results to merge");
  const RunSet& first = shards.front();
  std::set<int> indices;
  for (const auto& shard : shards) {
    if (std::string why = plan_difference(first, shard); !why.empty()) {
      return api::new_bad_request("the results are not shards of one run: " + why);
    }
    if (!indices.insert(shard.shard.index).second) {
      return api::new_bad_request("shard " + shard.shard.text() + " is given more than once");
    }
    if (shard.interrupted) {
      return api::new_bad_request("shard " + shard.shard.text() + " was interrupted after " +
                                  std::to_string(shard.interrupted->finished) + " of " +
                                  std::to_string(shard.interrupted->planned) +
                                  " runs: run it again for the whole shard");
    }
  }
  for (int k = 0; k < first.shard.count; ++k) {
    if (indices.count(k) == 0) {
      return api::new_bad_request("shard " + Shard{k, first.shard.count}.text() +
                                  " is missing: the merge would not be the whole run");
    }
  }
  return merge_checked(shards, std::move(command));
}

}  // namespace kubesim::runner
