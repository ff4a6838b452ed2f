#include "kubesim/scenarios/junit.h"

#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>

#include "kubesim/api/go_duration.h"
#include "scenarios/internal/markup.h"
#include "kubesim/scenarios/summary.h"

namespace kubesim::scenarios {

namespace {

using internal::escape_markup;

std::string attr(std::string_view text) { return "\"" + escape_markup(text, true) + "\""; }

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

std::string place(const std::string& file, const Mark& mark) {
  if (mark.line == 0) return file;
  return file + ":" + std::to_string(mark.line) + ":" + std::to_string(mark.column);
}

// The one-line message of a failing seed: what broke, when, where, and how to replay it.
std::string failure_message(const ScenarioResult& result, const SeedResult& seed,
                            const std::string& program) {
  std::string what = "the run failed: " + seed.error;
  if (const Failure* f = counting_failure(result, seed)) {
    what = f->check + " broke at " + api::format_go_duration(f->at.time_since_epoch()) + " (" +
           place(result.file, f->mark) + ")";
  }
  return what + "; replay: " + result.replay_command(seed.seed, program);
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
};

Counts count(const ScenarioRun& run, const Shard& shard) {
  Counts c;
  const ScenarioResult& r = run.result;
  c.tests = static_cast<int>(r.seeds.size());
  for (const auto& seed : r.seeds) {
    if (!seed_failed(r, seed)) continue;
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

void write_seed(const ScenarioRun& run, std::size_t i, const std::string& program,
                std::ostream& out) {
  const ScenarioResult& r = run.result;
  const SeedResult& seed = r.seeds[i];
  const double wall = i < run.wall_seconds.size() ? run.wall_seconds[i] : 0.0;
  out << "    <testcase name=" << attr("seed " + std::to_string(seed.seed))
      << " classname=" << attr(r.name) << " time=\"" << seconds(wall) << "\"";
  if (seed_failed(r, seed)) {
    std::ostringstream story;
    print_seed_failure(r, seed, program, story, "");
    const Failure* f = counting_failure(r, seed);
    const char* element = f != nullptr ? "failure" : "error";
    const std::string type = f != nullptr ? f->condition : "error";
    out << ">\n      <" << element << " message=" << attr(failure_message(r, seed, program))
        << " type=" << attr(type) << ">" << escape_markup(story.str()) << "</" << element
        << ">\n    </testcase>\n";
  } else if (seed_found(r, seed)) {
    out << ">\n      <system-out>"
        << escape_markup("found what mustFind lists; replay: " +
                         r.replay_command(seed.seed, program) + "\n")
        << "</system-out>\n    </testcase>\n";
  } else {
    out << "/>\n";
  }
}

void write_must_find(const ScenarioRun& run, const Shard& shard, std::ostream& out) {
  const ScenarioResult& r = run.result;
  out << "    <testcase name=\"mustFind\" classname=" << attr(r.name) << " time=\"0.000\"";
  const Verdict v = verdict(run, shard);
  if (v == Verdict::kUndecided) {
    out << ">\n      <skipped message=" << attr(verdict_line(run, shard)) << "/>\n    </testcase>\n";
  } else if (v == Verdict::kFail && !first_failing_seed(r)) {
    out << ">\n      <failure message=" << attr(verdict_line(run, shard))
        << " type=\"mustFind\"/>\n    </testcase>\n";
  } else {
    out << "/>\n";
  }
}

}  // namespace

void write_junit(const RunSet& set, std::ostream& out) {
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
    const ScenarioRun& run = set.scenarios[s];
    if (run.result.seeds.empty()) continue;
    const Counts& c = each[s];
    out << "  <testsuite name=" << attr(run.result.name) << " tests=\"" << c.tests
        << "\" failures=\"" << c.failures << "\" errors=\"" << c.errors << "\" skipped=\""
        << c.skipped << "\" time=\"" << seconds(c.time) << "\" file=" << attr(run.result.file)
        << ">\n";
    // A live scenario says so: its times are real and its seeds do not replay.
    if (!run.result.description.empty() || run.result.live()) {
      out << "    <properties>\n";
      if (!run.result.description.empty()) {
        out << "      <property name=\"description\" value=" << attr(run.result.description) << "/>\n";
      }
      if (run.result.live()) out << "      <property name=\"kubesim.live\" value=\"true\"/>\n";
      out << "    </properties>\n";
    }
    for (std::size_t i = 0; i < run.result.seeds.size(); ++i) write_seed(run, i, set.program, out);
    if (!run.result.must_find.empty()) write_must_find(run, set.shard, out);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace kubesim::scenarios
