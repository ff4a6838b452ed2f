#include "kubesim/report/junit.h"

#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>

#include "kubesim/api/go_duration.h"
#include "kubesim/report/summary.h"
#include "report/internal/markup.h"

namespace kubesim::report {

namespace {

using internal::escape_markup;

std::string quoted_attr(std::string_view text) { return "\"" + escape_markup(text, true) + "\""; }

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

// The one-line message of a failing seed: what broke, when, where, and how to replay it.
std::string failure_message(const runner::ScenarioResult& result, const runner::SeedResult& seed,
                            const std::string& program) {
  std::string what = "the run failed: " + seed.error;
  if (const runner::Failure* f = counting_failure(result, seed)) {
    what = f->check + " broke at " + api::format_rounded(f->at.time_since_epoch()) + " (" +
           scenarios::place(result.file, f->mark) + ")";
  }
  return what + "; replay: " + result.replay_command(seed.seed, program);
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
};

Counts count(const runner::ScenarioRun& run, const runner::Shard& shard) {
  Counts c;
  const runner::ScenarioResult& r = run.result;
  c.tests = static_cast<int>(r.seeds.size());
  for (const auto& seed : r.seeds) {
    if (!runner::seed_failed(r, seed)) continue;
    if (counting_failure(r, seed) != nullptr) {
      ++c.failures;
    } else {
      ++c.errors;
    }
  }
  if (!r.must_find.empty() && !r.seeds.empty()) {
    ++c.tests;
    const Verdict v = verdict(run, shard);
    if (v == Verdict::kUndecided) ++c.skipped;
    if (v == Verdict::kFail && !first_failing_seed(r)) ++c.failures;
  }
  c.time = std::accumulate(run.wall_seconds.begin(), run.wall_seconds.end(), 0.0);
  return c;
}

// What a seed's system-out says beside its verdict: "vacuous: FILE:LINE:COL: CHECK: WHY\n" per
// vacuous check, and "workload: 40 written, 2 failed\n" for a scenario with a workload.
std::string seed_notes(const runner::ScenarioResult& r, const runner::SeedResult& seed) {
  std::string out;
  for (const runner::Vacuous& v : seed.vacuous) {
    out += "vacuous: " + scenarios::place(r.file, v.mark) + ": " + v.check + ": " + v.why + "\n";
  }
  runner::WriteTotals totals;
  totals.add(seed.writes);
  if (totals.any) out += "workload: " + totals.text() + "\n";
  return out;
}

void write_seed(const runner::ScenarioRun& run, std::size_t i, const std::string& program,
                std::ostream& out) {
  const runner::ScenarioResult& r = run.result;
  const runner::SeedResult& seed = r.seeds[i];
  const double wall = i < run.wall_seconds.size() ? run.wall_seconds[i] : 0.0;
  out << "    <testcase name=" << quoted_attr("seed " + std::to_string(seed.seed))
      << " classname=" << quoted_attr(r.name) << " time=\"" << seconds(wall) << "\"";
  if (runner::seed_failed(r, seed)) {
    std::ostringstream story;
    print_seed_failure(r, seed, program, story, "");
    const runner::Failure* f = counting_failure(r, seed);
    const char* element = f != nullptr ? "failure" : "error";
    const std::string type = f != nullptr ? f->condition : "error";
    out << ">\n      <" << element << " message=" << quoted_attr(failure_message(r, seed, program))
        << " type=" << quoted_attr(type) << ">" << escape_markup(story.str()) << "</" << element << ">\n";
    if (!seed_notes(r, seed).empty()) out << "      <system-out>" << escape_markup(seed_notes(r, seed)) << "</system-out>\n";
    out << "    </testcase>\n";
  } else if (runner::seed_found(r, seed)) {
    out << ">\n      <system-out>"
        << escape_markup("found what mustFind lists; replay: " +
                         r.replay_command(seed.seed, program) + "\n" + seed_notes(r, seed))
        << "</system-out>\n    </testcase>\n";
  } else if (!seed_notes(r, seed).empty()) {
    out << ">\n      <system-out>" << escape_markup(seed_notes(r, seed)) << "</system-out>\n    </testcase>\n";
  } else {
    out << "/>\n";
  }
}

void write_must_find(const runner::ScenarioRun& run, const runner::Shard& shard, std::ostream& out) {
  const runner::ScenarioResult& r = run.result;
  out << "    <testcase name=\"mustFind\" classname=" << quoted_attr(r.name) << " time=\"0.000\"";
  const Verdict v = verdict(run, shard);
  if (v == Verdict::kUndecided) {
    out << ">\n      <skipped message=" << quoted_attr(verdict_line(run, shard)) << "/>\n    </testcase>\n";
  } else if (v == Verdict::kFail && !first_failing_seed(r)) {
    out << ">\n      <failure message=" << quoted_attr(verdict_line(run, shard))
        << " type=\"mustFind\"/>\n    </testcase>\n";
  } else {
    out << "/>\n";
  }
}

}  // namespace

void write_junit(const runner::RunSet& set, std::ostream& out) {
  Counts all;
  std::vector<Counts> each;
  for (const auto& run : set.scenarios) {
    each.push_back(count(run, set.shard));
    all.tests += each.back().tests;
    all.failures += each.back().failures;
    all.errors += each.back().errors;
    all.time += each.back().time;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"kubesim\" tests=\"" << all.tests << "\" failures=\"" << all.failures
      << "\" errors=\"" << all.errors << "\" time=\"" << seconds(all.time) << "\">\n";
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    const runner::ScenarioRun& run = set.scenarios[s];
    if (run.result.seeds.empty()) continue;
    const Counts& c = each[s];
    out << "  <testsuite name=" << quoted_attr(run.result.name) << " tests=\"" << c.tests
        << "\" failures=\"" << c.failures << "\" errors=\"" << c.errors << "\" skipped=\""
        << c.skipped << "\" time=\"" << seconds(c.time) << "\" file=" << quoted_attr(run.result.file)
        << ">\n";
    // A live scenario says so: its times are real and its seeds do not replay.
    // The workload's actions by outcome over the seeds, as "kubesim.workload".
    const runner::WriteTotals writes = run.result.writes();
    // How many checks held vacuously in some seed, as "kubesim.vacuous".
    const std::size_t vacuous = vacuous_checks(run.result).size();
    if (!run.result.description.empty() || run.result.live() || writes.any || vacuous > 0) {
      out << "    <properties>\n";
      if (!run.result.description.empty()) {
        out << "      <property name=\"description\" value=" << quoted_attr(run.result.description) << "/>\n";
      }
      if (run.result.live()) out << "      <property name=\"kubesim.live\" value=\"true\"/>\n";
      if (writes.any) out << "      <property name=\"kubesim.workload\" value=" << quoted_attr(writes.text()) << "/>\n";
      if (vacuous > 0) out << "      <property name=\"kubesim.vacuous\" value=\"" << vacuous << "\"/>\n";
      out << "    </properties>\n";
    }
    for (std::size_t i = 0; i < run.result.seeds.size(); ++i) write_seed(run, i, set.program, out);
    if (!run.result.must_find.empty()) write_must_find(run, set.shard, out);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace kubesim::report
