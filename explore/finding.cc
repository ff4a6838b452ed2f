// The finding: the differential written as a check, the shrink, NAME.min.yaml and its replay
// (explore/engine.h).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "explore/internal/engine.h"
#include "explore/internal/shrink.h"
#include "kubesim/api/go_duration.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::explore {

namespace {

using Clock = std::chrono::steady_clock;

bool broke(const DocRun& run, const std::string& check) {
  if (!run.parsed()) return false;
  if (check == "error") return !run.result.error.empty();
  return std::any_of(run.result.failures.begin(), run.result.failures.end(),
                     [&](const runner::Failure& f) { return f.check == check; });
}

const runner::Failure* failure_of(const DocRun& run, const std::string& check) {
  for (const runner::Failure& f : run.result.failures) {
    if (f.check == check) return &f;
  }
  return nullptr;
}

YAML::Node with_finally(const YAML::Node& doc, const YAML::Node& check) {
  YAML::Node out = YAML::Clone(doc);
  YAML::Node expect = out["expect"].IsMap() ? YAML::Clone(out["expect"]) : YAML::Node(YAML::NodeType::Map);
  YAML::Node finally(YAML::NodeType::Sequence);
  if (expect["finally"].IsSequence()) {
    for (const YAML::Node& c : expect["finally"]) finally.push_back(c);
  }
  finally.push_back(YAML::Clone(check));
  expect["finally"] = finally;
  out["expect"] = expect;
  return out;
}

// Writes the first difference that a check can say into the document, and checks that the run
// breaks it; the check's text, or "" when no difference can be written.
std::string pin_difference(const Search& search, std::uint64_t seed, const Verdict& verdict,
                           YAML::Node& doc, sim::Time& at) {
  const DocRun base = run_text(scenarios::emit_scenario(doc), search.file, seed, *search.registry,
                               [](const scenarios::Scenario&, const scenarios::Registry&, const runner::RunOptions&) { return runner::SeedResult(); },
                               false);
  for (const Difference& d : verdict.differences) {
    if (!d.check) continue;
    YAML::Node candidate = with_finally(doc, *d.check);
    DocRun run = run_text(scenarios::emit_scenario(candidate), search.file, seed, *search.registry, search.run, false);
    for (const std::string& text : run.checks) {
      if (std::find(base.checks.begin(), base.checks.end(), text) != base.checks.end()) continue;
      if (const runner::Failure* f = failure_of(run, text)) {
        doc = candidate;
        at = f->at;
        return text;
      }
    }
  }
  return "";
}

std::string shell_quoted(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=+:@") ==
                        std::string::npos) {
    return s;
  }
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string comment(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += "#   " + line + "\n";
  return out;
}

std::string header(const Search& search, const ExploreFinding& f) {
  std::string out = "# Found by `kubesim explore " + search.file + "` with seed " + std::to_string(f.seed) + ".\n";
  out += "# Broken: " + f.check + " at " + api::format_rounded(f.at - sim::Time{}) + "\n";
  if (!f.detail.empty()) out += comment(f.detail);
  if (f.family.empty()) {
    out += "# Without any perturbation: the scenario fails as written.\n";
  } else {
    out += "# Found by the " + f.family + " perturbation:\n" + comment(f.perturbation);
  }
  out += "# Replay: " + f.replay_command + "\n";
  return out;
}

}  // namespace

void complete_finding(const Search& search, const ExploreOptions& options, const std::string& name,
                      std::uint64_t seed, const YAML::Node& doc, const Verdict& verdict, bool perturbed,
                      ExploreFinding& f) {
  YAML::Node failing = YAML::Clone(doc);
  f.check = verdict.check;
  f.detail = verdict.detail;
  f.at = verdict.at;
  f.entries_before = scenario_entries(failing);
  std::string target = verdict.check;
  if (!verdict.differences.empty()) target = f.check = pin_difference(search, seed, verdict, failing, f.at);
  YAML::Node result = failing;
  if (!target.empty()) {
    // A found failure is a regression test only if the file without the explorer's entries is a
    // passing scenario: every check holds on the seed found and on every seed explored. A step
    // that breaks that (a workload entry another check counts on, a duration too short for an
    // eventually) is rejected, whatever it does to the check that broke.
    std::map<std::string, bool> passes_plain;  // by the unperturbed document's text
    std::size_t plain_runs = 0;
    const auto plain_passes = [&](const YAML::Node& d) {
      const std::string text = scenarios::emit_scenario(unperturbed(search, d));
      auto [it, fresh] = passes_plain.try_emplace(text, true);
      if (!fresh) return it->second;
      std::vector<std::uint64_t> seeds{seed};
      for (std::uint64_t s : search.seeds) {
        if (s != seed) seeds.push_back(s);
      }
      for (std::uint64_t s : seeds) {
        const DocRun plain = run_text(text, search.file, s, *search.registry, search.run, false);
        ++plain_runs;
        if (!plain.parsed() || !plain.result.error.empty() || !plain.result.failures.empty()) {
          it->second = false;
          break;
        }
      }
      return it->second;
    };
    StillFails fails = [&](const YAML::Node& d) {
      DocRun run = run_text(scenarios::emit_scenario(d), search.file, seed, *search.registry, search.run, false);
      if (!broke(run, target)) return false;
      return !perturbed || plain_passes(d);
    };
    ShrinkOptions shrink;
    shrink.max_runs = options.shrink_runs;
    try {
      ShrinkResult shrunk = shrink_scenario(failing, fails, shrink);
      result = shrunk.doc;
      f.shrink_runs = shrunk.runs + plain_runs;
    } catch (const std::exception& e) {
      // The failing document is still a reproduction: write it as found.
      f.shrink_error = e.what();
    }
  } else {
    f.check = "the differential (no check can say it)";
  }
  f.entries = scenario_entries(result);
  const std::filesystem::path file = std::filesystem::path(options.out_dir) / (name + ".min.yaml");
  f.min_file = file.string();
  f.replay_command = options.program + " run " + shell_quoted(f.min_file);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << header(search, f) << scenarios::emit_scenario(result);
  out.close();
  if (!out || target.empty()) return;
  const auto start = Clock::now();
  scenarios::ParseResult parsed = scenarios::load_scenario(f.min_file, *search.registry);
  if (!parsed.scenario) return;
  f.replays = true;
  for (std::uint64_t s : parsed.scenario->seed_numbers()) {
    runner::RunOptions o;
    o.seed = s;
    o.trace_tail = 0;
    const runner::SeedResult r = search.run(*parsed.scenario, *search.registry, o);
    DocRun run;
    run.result = r;
    f.replays = f.replays && broke(run, target);
  }
  f.replay_seconds = std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace kubesim::explore
