// write_report_html: the --report page (kubesim/report/report.h).
#include <algorithm>
#include <numeric>
#include <sstream>

#include "kubesim/api/go_duration.h"
#include "kubesim/report/report.h"
#include "kubesim/report/summary.h"
#include "report/internal/experiments_html.h"
#include "report/internal/markup.h"

namespace kubesim::report {

namespace {

using internal::escape_markup;

constexpr std::size_t kFailingRows = 50;  // failing seeds listed per scenario

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;max-width:1160px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}h3{font-size:14px;margin:14px 0 6px}
.muted{color:#666}.cmd{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border-bottom:1px solid #e3e3e3;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.badge{display:inline-block;min-width:44px;text-align:center;border-radius:3px;padding:1px 6px;
font-weight:600;font-size:12px;color:#fff}
.PASS{background:#2e7d32}.FAIL{background:#c62828}.UNDECIDED,.SKIP{background:#757575}
.seeds{display:flex;flex-wrap:wrap;gap:2px;margin:6px 0}
.chip{font-size:10px;min-width:22px;text-align:center;padding:1px 2px;border-radius:2px;color:#fff}
.chip.pass{background:#81c784}.chip.fail{background:#e53935}.chip.found{background:#fb8c00}
pre{background:#f7f7f7;padding:8px;overflow-x:auto;font-size:12px}
svg.timeline{border:1px solid #ddd;max-width:100%;height:auto}
)";

std::string h(std::string_view text) { return escape_markup(text); }

std::string badge(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "<span class=\"badge PASS\">PASS</span>";
    case Verdict::kFail: return "<span class=\"badge FAIL\">FAIL</span>";
    case Verdict::kUndecided: return "<span class=\"badge UNDECIDED\">UNDECIDED</span>";
    case Verdict::kNotRun: break;
  }
  return "<span class=\"badge SKIP\">SKIP</span>";
}

// "check at 1m2s (FILE:L:C)" or the run's error, for a failing seed.
std::string failure_cell(const runner::ScenarioResult& r, const runner::SeedResult& seed) {
  if (const runner::Failure* f = counting_failure(r, seed)) {
    return "<code>" + h(f->check) + "</code> at " + h(api::format_rounded_time(f->at)) + " <span class=\"muted\">(" +
           h(scenarios::place(r.file, f->mark)) + ")</span>";
  }
  return "the run failed: " + h(seed.error);
}

void write_overview(const runner::RunSet& set, std::ostream& out) {
  const Tally t = tally(set);
  std::size_t seeds = 0;
  for (const auto& run : set.scenarios) seeds += run.result.seeds.size();
  std::string command;
  for (const auto& word : set.command) command += (command.empty() ? "" : " ") + word;
  out << "<h1>kubesim report</h1>\n<p><strong>" << h(closing_line(t)) << "</strong> &middot; "
      << seeds << " seeds" << (set.shard.whole() ? "" : " &middot; shard " + set.shard.text())
      << "</p>\n<p class=\"muted cmd\">" << h(command) << "</p>\n";
  out << "<table>\n<tr><th></th><th>scenario</th><th>seeds</th><th>first failure</th>"
      << "<th>replay</th></tr>\n";
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    const runner::ScenarioRun& run = set.scenarios[s];
    const runner::ScenarioResult& r = run.result;
    const Verdict v = verdict(run, set.shard);
    out << "<tr><td>" << badge(v) << "</td><td><a href=\"#s" << s << "\">" << h(r.name)
        << "</a><br><span class=\"muted\">" << h(r.file) << "</span></td><td>"
        << r.seeds.size() << "</td><td>";
    // The seed to look at: the first that failed, else (mustFind) the first that found it.
    std::optional<std::size_t> shown = first_failing_seed(r);
    if (shown) {
      out << "seed " << r.seeds[*shown].seed << ": " << failure_cell(r, r.seeds[*shown]);
    } else if (v == Verdict::kFail || v == Verdict::kUndecided) {
      out << h(verdict_line(run, set.shard));
    } else if (!r.must_find.empty()) {
      shown = runner::report_seed_index(r);
      const runner::Failure& f = r.seeds[*shown].failures.front();
      out << "found in seed " << r.seeds[*shown].seed << ": <code>" << h(f.check) << "</code> at "
          << h(api::format_rounded_time(f.at));
    }
    out << "</td><td class=\"cmd\">"
        << (shown ? h(r.replay_command(r.seeds[*shown].seed, set.program)) : "") << "</td></tr>\n";
  }
  out << "</table>\n";
}

void write_seed_strip(const runner::ScenarioResult& r, std::ostream& out) {
  out << "<div class=\"seeds\">";
  for (const auto& seed : r.seeds) {
    const bool failed = runner::seed_failed(r, seed), found = runner::seed_found(r, seed);
    const char* cls = failed ? "fail" : found ? "found" : "pass";
    const char* what = failed ? "failed" : found ? "found what mustFind lists" : "passed";
    out << "<span class=\"chip " << cls << "\" title=\"seed " << seed.seed << ": " << what << "\">"
        << seed.seed << "</span>";
  }
  out << "</div>\n";
}

void write_failing_seeds(const runner::ScenarioResult& r, const std::string& program, std::ostream& out) {
  std::vector<const runner::SeedResult*> failing;
  for (const auto& seed : r.seeds) {
    if (runner::seed_failed(r, seed)) failing.push_back(&seed);
  }
  if (failing.empty()) return;
  out << "<table>\n<tr><th>seed</th><th>first broken check</th><th>replay</th></tr>\n";
  for (std::size_t i = 0; i < failing.size() && i < kFailingRows; ++i) {
    out << "<tr><td>" << failing[i]->seed << "</td><td>" << failure_cell(r, *failing[i])
        << "</td><td class=\"cmd\">" << h(r.replay_command(failing[i]->seed, program))
        << "</td></tr>\n";
  }
  if (failing.size() > kFailingRows) {
    out << "<tr><td colspan=\"3\" class=\"muted\">and " << failing.size() - kFailingRows
        << " more failing seeds</td></tr>\n";
  }
  out << "</table>\n";
}

// The report seed's timeline, with its first counting failure marked if the runner did not.
void write_timeline(const runner::ScenarioResult& r, const std::string& program, std::ostream& out) {
  const runner::SeedResult& seed = r.seeds[runner::report_seed_index(r).value_or(0)];
  out << "<h3>Timeline of seed " << seed.seed << "</h3>\n";
  if (!seed.timeline) {
    out << "<p class=\"muted\">No timeline was recorded for this seed.</p>\n";
  } else {
    runner::Timeline timeline = *seed.timeline;
    const bool marked = std::any_of(timeline.marks.begin(), timeline.marks.end(),
                                    [](const runner::TimelineMark& m) { return m.kind == "failure"; });
    if (!marked && !seed.failures.empty()) {
      const runner::Failure& f = seed.failures.front();
      timeline.marks.push_back(runner::TimelineMark{"", "failure", f.check, f.at});
    }
    out << timeline_svg(timeline) << "\n";
  }
  if (seed.broke_any()) {
    std::ostringstream story;
    print_seed_failure(r, seed, program, story, "");
    out << "<pre>" << h(story.str()) << "</pre>\n";
  }
}

void write_scenario(const runner::RunSet& set, std::size_t s, std::ostream& out) {
  const runner::ScenarioRun& run = set.scenarios[s];
  const runner::ScenarioResult& r = run.result;
  out << "<section id=\"s" << s << "\">\n<h2>" << badge(verdict(run, set.shard)) << " "
      << h(r.name) << "</h2>\n<p class=\"muted\">" << h(r.file)
      << (r.live() ? " — a live run: real time and real processes; its seeds do not replay" : "")
      << "</p>\n";
  if (!r.description.empty()) out << "<p>" << h(r.description) << "</p>\n";
  out << "<p>" << h(verdict_line(run, set.shard)) << "</p>\n";
  const auto vacuous = vacuous_checks(r);
  if (!vacuous.empty()) {
    out << "<p>Held vacuously (tested nothing; <code>--strict</code> fails them):</p>\n<ul class=\"vacuous\">\n";
    for (const auto& c : vacuous) {
      out << "<li><code>" << h(scenarios::place(r.file, c.first->mark)) << ": " << h(c.first->check) << "</code>: "
          << h(c.first->why) << " (" << c.seeds << " of " << r.seeds.size() << " seeds)</li>\n";
    }
    out << "</ul>\n";
  }
  if (r.seeds.empty()) {
    out << "</section>\n";
    return;
  }
  write_seed_strip(r, out);
  write_failing_seeds(r, set.program, out);
  write_timeline(r, set.program, out);
  out << "</section>\n";
}

}  // namespace

void write_report_html(const runner::RunSet& set, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>kubesim report</title>\n<style>" << kStyle << internal::kExperimentsStyle
      << "</style>\n</head>\n<body>\n";
  write_overview(set, out);
  internal::write_experiments_html(set, out);
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) write_scenario(set, s, out);
  out << "</body>\n</html>\n";
}

}  // namespace kubesim::report
