#include "kubesim/report/summary.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "kubesim/api/go_duration.h"

namespace kubesim::report {

namespace {

std::string seeds_text(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " seed" : " seeds");
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// The listed checks some seed broke, in mustFind order, and how many seeds broke one.
std::pair<std::vector<std::string>, std::size_t> found(const runner::ScenarioResult& result) {
  std::vector<std::string> names;
  std::size_t seeds = 0;
  for (const auto& seed : result.seeds) {
    if (runner::seed_found(result, seed)) ++seeds;
  }
  for (const auto& name : result.must_find) {
    const bool broke = std::any_of(result.seeds.begin(), result.seeds.end(), [&](const auto& s) {
      return std::any_of(s.failures.begin(), s.failures.end(),
                         [&](const runner::Failure& f) { return f.condition == name; });
    });
    if (broke) names.push_back(name);
  }
  return {names, seeds};
}

std::string none_of_text(const std::vector<std::string>& must_find) {
  return must_find.size() == 1 ? "no " + must_find.front() : "none of " + joined(must_find);
}

void print_lines(const std::string& text, const std::string& indent, std::ostream& out) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out << indent << line << "\n";
}

// "1 check vacuous, workload: 400 written, 3 failed": what a scenario's line adds, or "".
std::string extras_text(const runner::ScenarioResult& result) {
  std::string out;
  if (const std::size_t n = vacuous_checks(result).size(); n > 0) {
    out = std::to_string(n) + (n == 1 ? " check" : " checks") + " vacuous";
  }
  const runner::WriteTotals totals = result.writes();
  if (totals.any) out += (out.empty() ? "" : ", ") + std::string("workload: ") + totals.text();
  return out;
}

}  // namespace

std::vector<VacuousCheck> vacuous_checks(const runner::ScenarioResult& result) {
  std::vector<VacuousCheck> out;
  for (const runner::SeedResult& seed : result.seeds) {
    for (const runner::Vacuous& v : seed.vacuous) {
      auto same = std::find_if(out.begin(), out.end(), [&](const VacuousCheck& c) {
        return c.first->mark.line == v.mark.line && c.first->mark.column == v.mark.column && c.first->check == v.check;
      });
      if (same == out.end()) {
        out.push_back(VacuousCheck{&v, 1});
      } else {
        ++same->seeds;
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const VacuousCheck& a, const VacuousCheck& b) {
    return std::pair(a.first->mark.line, a.first->mark.column) < std::pair(b.first->mark.line, b.first->mark.column);
  });
  return out;
}

Verdict verdict(const runner::ScenarioRun& run, const runner::Shard& shard) {
  const runner::ScenarioResult& result = run.result;
  if (result.seeds.empty()) return Verdict::kNotRun;
  if (result.passed()) return Verdict::kPass;
  if (!result.must_find.empty() && !shard.whole() && !first_failing_seed(result)) {
    return Verdict::kUndecided;
  }
  return Verdict::kFail;
}

const runner::Failure* counting_failure(const runner::ScenarioResult& result, const runner::SeedResult& seed) {
  for (const auto& f : seed.failures) {
    if (result.must_find.empty() ||
        std::find(result.must_find.begin(), result.must_find.end(), f.condition) ==
            result.must_find.end()) {
      return &f;
    }
  }
  return nullptr;
}

std::optional<std::size_t> first_failing_seed(const runner::ScenarioResult& result) {
  for (std::size_t i = 0; i < result.seeds.size(); ++i) {
    if (runner::seed_failed(result, result.seeds[i])) return i;
  }
  return std::nullopt;
}

namespace {

// The scenario's line; `writes` (vacuous checks and the workload's counts, or "") goes in the
// parentheses of a plain pass, in its own after a found mustFind or a failure.
std::string verdict_text(const runner::ScenarioRun& run, const runner::Shard& shard, const std::string& writes) {
  const std::string after = writes.empty() ? "" : " (" + writes + ")";
  const runner::ScenarioResult& r = run.result;
  const std::size_t n = r.seeds.size();
  const std::size_t failing = static_cast<std::size_t>(std::count_if(
      r.seeds.begin(), r.seeds.end(), [&](const runner::SeedResult& s) { return runner::seed_failed(r, s); }));
  const auto [names, found_in] = found(r);
  switch (verdict(run, shard)) {
    case Verdict::kNotRun:
      return "SKIP " + r.name + ": no seed in shard " + shard.text();
    case Verdict::kUndecided:
      return "UNDECIDED " + r.name + ": found " + none_of_text(r.must_find) + " in shard " +
             shard.text() + "'s " + seeds_text(n) + "; the merged shards decide";
    case Verdict::kPass:
      if (r.must_find.empty()) return "PASS " + r.name + " (" + seeds_text(n) + (writes.empty() ? "" : ", " + writes) + ")";
      return "PASS " + r.name + ": found " + joined(names) + " in " + std::to_string(found_in) +
             " of " + seeds_text(n) + after;
    case Verdict::kFail:
      break;
  }
  if (failing == 0) return "FAIL " + r.name + ": found " + none_of_text(r.must_find) + " in " + seeds_text(n) + after;
  std::string line = "FAIL " + r.name + ": " + std::to_string(failing) + " of " + seeds_text(n) +
                     " broke checks";
  if (!r.must_find.empty()) line += " not in mustFind (" + joined(r.must_find) + ")";
  return line + after;
}

}  // namespace

std::string verdict_line(const runner::ScenarioRun& run, const runner::Shard& shard) {
  return verdict_text(run, shard, extras_text(run.result));
}

void print_seed_failure(const runner::ScenarioResult& result, const runner::SeedResult& seed,
                        const std::string& program, std::ostream& out, const std::string& indent) {
  out << indent << "scenario " << result.name << " (" << result.file << "), seed " << seed.seed
      << "\n";
  const runner::Failure* first = counting_failure(result, seed);
  if (first != nullptr) {
    out << indent << "broke " << scenarios::place(result.file, first->mark) << ": " << first->check << "\n";
    out << indent << "at " << api::format_rounded_time(first->at) << (seed.live ? " of real time (a live run)\n" : " of virtual time\n");
    print_lines(first->detail, indent + "  ", out);
  }
  if (!seed.error.empty()) {
    out << indent << "the run failed: " << seed.error << "\n";
  }
  for (const auto& f : seed.failures) {
    if (&f == first) continue;
    out << indent << "also broke " << scenarios::place(result.file, f.mark) << ": " << f.check << " at "
        << api::format_rounded_time(f.at) << "\n";
  }
  if (!seed.trace_tail.empty()) {
    out << indent << "last trace lines before it:\n";
    for (const auto& line : seed.trace_tail) out << indent << "  " << line << "\n";
  }
  if (seed.live) {
    out << indent << "live run: not replayable (real time, real processes); run it again: "
        << result.replay_command(seed.seed, program) << "\n";
    return;
  }
  out << indent << "replay: " << result.replay_command(seed.seed, program) << "\n";
}

void print_scenario(const runner::ScenarioRun& run, const runner::RunSet& set, std::ostream& out) {
  const Verdict v = verdict(run, set.shard);
  if (v == Verdict::kNotRun) return;
  out << verdict_line(run, set.shard) << "\n";
  const runner::ScenarioResult& r = run.result;
  for (const VacuousCheck& c : vacuous_checks(r)) {
    out << "  vacuous " << scenarios::place(r.file, c.first->mark) << ": " << c.first->check << ": " << c.first->why
        << " (" << c.seeds << " of " << seeds_text(r.seeds.size()) << "; --strict makes it a failure)\n";
  }
  if (v != Verdict::kFail) return;
  if (auto index = first_failing_seed(r)) {
    print_seed_failure(r, r.seeds[*index], set.program, out);
  } else {
    out << "  scenario " << r.name << " (" << r.file << ") documents a known-unsafe setup "
        << "(mustFind: " << joined(r.must_find) << "), but none of its " << seeds_text(r.seeds.size())
        << " broke it; more seeds may (--seeds N)\n";
  }
}

Tally tally(const runner::RunSet& set) {
  Tally t;
  for (const auto& run : set.scenarios) {
    switch (verdict(run, set.shard)) {
      case Verdict::kPass: ++t.passed; break;
      case Verdict::kFail: ++t.failed; break;
      case Verdict::kUndecided: ++t.undecided; break;
      case Verdict::kNotRun: break;
    }
  }
  return t;
}

std::string closing_line(const Tally& tally) {
  std::string line = std::to_string(tally.passed) + " passed, " + std::to_string(tally.failed) +
                     " failed";
  if (tally.undecided > 0) line += ", " + std::to_string(tally.undecided) + " undecided";
  return line;
}

int exit_code(const Tally& tally) { return tally.failed > 0 ? 1 : 0; }

int print_summary(const runner::RunSet& set, std::ostream& out) {
  for (const auto& run : set.scenarios) print_scenario(run, set, out);
  const Tally t = tally(set);
  out << closing_line(t) << "\n";
  return exit_code(t);
}

}  // namespace kubesim::report
