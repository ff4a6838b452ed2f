// The search: reference runs, candidates in batches, the first failing one (explore.h).
#include "explore/internal/engine.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "explore/internal/shrink.h"
#include "kubesim/scenarios/parse.h"

namespace kubesim::explore {

DocRun run_text(const std::string& text, const std::string& file, std::uint64_t seed,
                const scenarios::Registry& registry, const runner::RunFunction& run, bool capture) {
  DocRun out;
  scenarios::ParseResult parsed = scenarios::parse_scenario(text, file, registry);
  if (!parsed.scenario) {
    out.parse_error = parsed.errors.empty() ? "does not parse" : parsed.errors.front().text();
    return out;
  }
  for (const scenarios::Check& c : parsed.scenario->checks) out.checks.push_back(c.text);
  runner::RunOptions options;
  options.seed = seed;
  options.trace_tail = 0;
  if (capture) options.capture = &out.capture;
  out.result = run(*parsed.scenario, registry, options);
  return out;
}

YAML::Node unperturbed(const Search& search, const YAML::Node& doc) {
  YAML::Node out = YAML::Clone(doc);
  YAML::Node timeline(YAML::NodeType::Sequence);
  if (doc["timeline"].IsSequence()) {
    for (const YAML::Node& e : doc["timeline"]) {
      if (search.original_timeline.count(YAML::Dump(e)) > 0) timeline.push_back(YAML::Clone(e));
    }
  }
  out["timeline"] = timeline;
  return out;
}

Verdict judge(const Search& search, std::uint64_t seed, const DocRun& run) {
  Verdict v;
  if (!run.result.error.empty()) {
    v.failed = true;
    v.check = "error";
    v.detail = run.result.error;
    return v;
  }
  if (!run.result.failures.empty()) {
    const runner::Failure& f = run.result.failures.front();
    v.failed = true;
    v.check = f.check;
    v.detail = f.detail;
    v.at = f.at;
    return v;
  }
  if (!search.differential) return v;
  auto ref = search.references.find(seed);
  if (ref == search.references.end()) return v;
  v.differences = compare_end_states(ref->second, run.capture, search.diff);
  if (!v.differences.empty()) {
    v.failed = true;
    v.detail = describe_differences(v.differences);
  }
  return v;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Runs f(i) for i in [0, n) on up to `jobs` threads; results by index.
template <class R, class F>
std::vector<R> in_parallel(std::size_t n, int jobs, F f) {
  std::vector<R> out(n);
  if (jobs <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) out[i] = f(i);
    return out;
  }
  std::vector<std::thread> threads;
  const std::size_t width = std::min<std::size_t>(n, static_cast<std::size_t>(jobs));
  for (std::size_t t = 0; t < width; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < n; i += width) out[i] = f(i);
    });
  }
  for (auto& th : threads) th.join();
  return out;
}

// The coalesce fault may not be known to the parser: a probe document says.
std::string coalesce_unavailable(const Search& search, const Space& space) {
  if (space.replicas.empty()) return "";
  YAML::Node rule;
  rule["verb"] = "watch";
  rule["process"] = space.replicas.front();
  rule["coalesce"] = "1s";
  rule["for"] = "1ms";
  YAML::Node rules;
  rules.push_back(rule);
  YAML::Node entry;
  entry["at"] = "0s";
  entry["faults"] = rules;
  Candidate probe;
  probe.seed = space.seeds.front();
  probe.timeline.push_back(entry);
  const std::string text = scenarios::emit_scenario(apply_candidate(search.document, probe));
  scenarios::ParseResult parsed = scenarios::parse_scenario(text, search.file, *search.registry);
  if (parsed.scenario) return "";
  return "not tried: this build's parser refuses the coalesce fault";
}

// A family with nothing to work on in any seed (no write points; for the recur family, no object
// a replica wrote three times; for the relist family, no deletion of what a replica watches) is
// left out of the turns, and the table says so.
void drop_idle_families(Space& space, ExploreReport& report) {
  std::vector<Family> on;
  for (Family f : space.families) {
    Space probe = space;
    probe.families = {f};
    bool any = false;
    for (std::size_t i = 0; i < space.seeds.size() && !any; ++i) any = !make_candidate(probe, i).timeline.empty();
    if (any) {
      on.push_back(f);
      continue;
    }
    report.families[static_cast<std::size_t>(f)].note =
        f == Family::kRecur    ? "not tried: no replica wrote one object three times"
        : f == Family::kRelist ? "not tried: no deletion of an object another replica watches"
        : f == Family::kStart  ? "not tried: no replica listed or watched anything"
                               : "not tried: nothing to work on";
  }
  space.families = std::move(on);
}

struct Judged {
  bool ran = false;
  DocRun run;
  Verdict verdict;
};

}  // namespace

// See explore.h. The steps: read; reference runs (learn); candidates in batches; finding.
ExploreReport explore(const std::string& path, const scenarios::Registry& registry, const ExploreOptions& options) {
  const auto start = Clock::now();
  ExploreReport report;
  const scenarios::Source source = scenarios::read_source(path);
  if (source.error) {
    report.errors.push_back(scenarios::ParseError{source.name(), {}, *source.error}.text());
    return report;
  }
  scenarios::ParseResult parsed = scenarios::parse_source(source, registry);
  for (const auto& e : parsed.errors) report.errors.push_back(e.text());
  if (!parsed.scenario) return report;
  const scenarios::Scenario& scenario = *parsed.scenario;
  report.scenario = scenario.name;
  Search search;
  search.file = path;
  search.registry = &registry;
  search.run = options.run ? options.run : runner::RunFunction(runner::run_seed);
  search.diff = diff_options(scenario);
  search.differential = scenario.explore.differential;
  try {
    search.document = YAML::Load(source.text);
  } catch (const YAML::Exception& e) {
    report.errors.push_back(path + ": " + e.what());
    return report;
  }
  if (search.document["timeline"].IsSequence()) {
    for (const YAML::Node& e : search.document["timeline"]) search.original_timeline.insert(YAML::Dump(e));
  }
  report.seeds = scenario.seed_numbers();
  if (options.seeds && static_cast<std::size_t>(*options.seeds) < report.seeds.size()) {
    report.seeds.resize(static_cast<std::size_t>(*options.seeds));
  }
  search.seeds = report.seeds;
  Space space = make_space(scenario, report.seeds);
  const sim::Time limit = sim::Time{} + (space.duration - space.settle);
  const std::string coalesce_note = coalesce_unavailable(search, space);
  if (!coalesce_note.empty()) {
    space.coalesce = false;
    space.families.erase(std::remove(space.families.begin(), space.families.end(), Family::kCoalesce),
                         space.families.end());
  }
  // Only informers that list at resourceVersion "0" relist from a lagging view.
  const std::string stale_note =
      space.listing_replicas.empty()
          ? "not tried: no process lists at resourceVersion 0 (watchList: false)"
          : "";
  if (!stale_note.empty()) {
    space.families.erase(std::remove(space.families.begin(), space.families.end(), Family::kStale),
                         space.families.end());
  }
  for (Family f : kFamilies) {
    const std::string note = f == Family::kCoalesce ? coalesce_note : f == Family::kStale ? stale_note : "";
    report.families.push_back(FamilyTally{family_name(f), 0, 0, 0, note});
  }
  // Reference runs.
  auto refs = in_parallel<DocRun>(report.seeds.size(), options.jobs, [&](std::size_t i) {
    DocRun r;
    runner::RunOptions o;
    o.seed = report.seeds[i];
    o.trace_tail = 0;
    o.capture = &r.capture;
    r.result = search.run(scenario, registry, o);
    return r;
  });
  report.reference_runs = refs.size();
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const std::uint64_t seed = report.seeds[i];
    const Verdict v = judge(search, seed, refs[i]);
    if (v.failed && !report.found) {
      ExploreFinding f;
      f.seed = seed;
      f.runs_to_find = i + 1;
      f.seconds_to_find = since(start);
      Candidate none;
      none.seed = seed;
      complete_finding(search, options, scenario.name, seed, apply_candidate(search.document, none), v,
                       /*perturbed=*/false, f);
      report.found = std::move(f);
    }
    space.points[seed] = learn_points(refs[i].capture.calls, space.replicas, limit);
    space.first_list[seed] = learn_first_lists(refs[i].capture.calls, space.listing_replicas);
    space.relists[seed] = learn_relists(refs[i].capture.calls, space.replicas, limit);
    space.starts[seed] = learn_starts(refs[i].capture.calls, space.replicas);
    search.references[seed] = std::move(refs[i].capture);
  }
  if (report.found) {
    report.seconds = since(start);
    return report;
  }
  drop_idle_families(space, report);
  // Candidates, in batches of `jobs`.
  std::size_t index = 0;
  std::size_t empty_in_a_row = 0;
  const std::size_t give_up = std::max<std::size_t>(1, space.families.size()) * report.seeds.size() * 2;
  std::map<std::string, std::set<std::string>> points_tried;
  while (report.runs < options.budget_runs && !report.found && empty_in_a_row < give_up) {
    if (options.budget_time && since(start) >= options.budget_time->count()) {
      report.time_ran_out = true;
      break;
    }
    std::vector<Candidate> batch;
    std::vector<std::string> texts;
    const std::size_t want = std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)),
                                                   options.budget_runs - report.runs);
    while (batch.size() < want && empty_in_a_row < give_up) {
      Candidate c = make_candidate(space, index++);
      if (c.timeline.empty()) {
        ++empty_in_a_row;
        continue;
      }
      empty_in_a_row = 0;
      texts.push_back(scenarios::emit_scenario(apply_candidate(search.document, c)));
      batch.push_back(std::move(c));
    }
    auto judged = in_parallel<Judged>(batch.size(), options.jobs, [&](std::size_t i) {
      Judged j;
      j.run = run_text(texts[i], path, batch[i].seed, registry, search.run, search.differential);
      j.ran = j.run.parsed();
      if (j.ran) j.verdict = judge(search, batch[i].seed, j.run);
      return j;
    });
    for (std::size_t i = 0; i < batch.size() && !report.found; ++i) {
      const Candidate& c = batch[i];
      FamilyTally& tally = report.families[static_cast<std::size_t>(c.family)];
      if (!judged[i].ran) {
        if (tally.note.empty()) tally.note = "refused by the parser: " + judged[i].run.parse_error;
        continue;
      }
      ++report.runs;
      ++tally.runs;
      for (const auto& p : c.points) points_tried[tally.family].insert(p);
      tally.points = points_tried[tally.family].size();
      if (!judged[i].verdict.failed) continue;
      ++tally.failures;
      ExploreFinding f;
      f.seed = c.seed;
      f.family = tally.family;
      f.perturbation = c.text;
      f.runs_to_find = report.reference_runs + report.runs;
      f.seconds_to_find = since(start);
      complete_finding(search, options, scenario.name, c.seed, apply_candidate(search.document, c),
                       judged[i].verdict, /*perturbed=*/true, f);
      report.found = std::move(f);
    }
    if (options.on_progress) options.on_progress(report.runs, options.budget_runs, report.found.has_value());
  }
  report.seconds = since(start);
  return report;
}

}  // namespace kubesim::explore
