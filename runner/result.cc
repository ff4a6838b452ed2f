#include "kubesim/runner/result.h"

#include <algorithm>
#include <utility>

#include "kubesim/api/status.h"
#include "runner/internal/names.h"
#include "runner/internal/results_json.h"

namespace kubesim::runner {

using nlohmann::json;
using namespace internal;  // NOLINT: the results JSON readers

namespace {

// A word a POSIX shell reads back as itself, quoted only when it has to be.
std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-./:=@%+,").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

json mark_json(const scenarios::Mark& mark) { return json{{"line", mark.line}, {"column", mark.column}}; }

scenarios::Mark mark_from(const json& j, const std::string& path) {
  scenarios::Mark mark;
  mark.line = static_cast<int>(json_int(json_field(j, path, "line"), json_path(path, "line")));
  mark.column =
      static_cast<int>(json_int(json_field(j, path, "column"), json_path(path, "column")));
  return mark;
}

json failure_json(const Failure& f) {
  return json{{"check", f.check},   {"condition", f.condition}, {"mark", mark_json(f.mark)},
              {"at", api::format_go_time(f.at)}, {"detail", f.detail}};
}

Failure failure_from(const json& j, const std::string& path) {
  Failure f;
  f.check = json_string(json_field(j, path, "check"), json_path(path, "check"));
  f.condition = json_string(json_field(j, path, "condition"), json_path(path, "condition"));
  f.mark = mark_from(json_field(j, path, "mark"), json_path(path, "mark"));
  f.at = json_time(json_field(j, path, "at"), json_path(path, "at"));
  f.detail = json_string_or(j, path, "detail");
  return f;
}

json timeline_json(const Timeline& t) {
  json spans = json::array(), marks = json::array(), samples = json::array();
  for (const auto& s : t.spans) {
    spans.push_back({{"lane", s.lane}, {"kind", s.kind}, {"label", s.label},
                     {"from", api::format_go_time(s.from)}, {"to", api::format_go_time(s.to)}});
  }
  for (const auto& m : t.marks) {
    marks.push_back({{"lane", m.lane}, {"kind", m.kind}, {"label", m.label}, {"at", api::format_go_time(m.at)}});
  }
  for (const auto& s : t.samples) {
    samples.push_back({{"series", s.series}, {"at", api::format_go_time(s.at)}, {"value", s.value}});
  }
  return json{{"duration", api::format_go_duration(t.duration)},
              {"lanes", t.lanes},
              {"spans", std::move(spans)},
              {"marks", std::move(marks)},
              {"samples", std::move(samples)}};
}

// Calls read(element, element_path) for each element of the array member `key` of `j`.
template <class Read>
void each_of(const json& j, const std::string& path, std::string_view key, Read read) {
  const std::string at = json_path(path, key);
  const json& array = json_array(json_field(j, path, key), at);
  for (std::size_t i = 0; i < array.size(); ++i) read(array[i], json_path(at, i));
}

Timeline timeline_from(const json& j, const std::string& path) {
  Timeline t;
  t.duration = json_duration(json_field(j, path, "duration"), json_path(path, "duration"));
  each_of(j, path, "lanes", [&](const json& e, const std::string& p) {
    t.lanes.push_back(json_string(e, p));
  });
  each_of(j, path, "spans", [&](const json& e, const std::string& p) {
    TimelineSpan s;
    s.lane = json_string(json_field(e, p, "lane"), json_path(p, "lane"));
    s.kind = json_string(json_field(e, p, "kind"), json_path(p, "kind"));
    s.label = json_string_or(e, p, "label");
    s.from = json_time(json_field(e, p, "from"), json_path(p, "from"));
    s.to = json_time(json_field(e, p, "to"), json_path(p, "to"));
    t.spans.push_back(std::move(s));
  });
  each_of(j, path, "marks", [&](const json& e, const std::string& p) {
    TimelineMark m;
    m.lane = json_string(json_field(e, p, "lane"), json_path(p, "lane"));
    m.kind = json_string(json_field(e, p, "kind"), json_path(p, "kind"));
    m.label = json_string_or(e, p, "label");
    m.at = json_time(json_field(e, p, "at"), json_path(p, "at"));
    t.marks.push_back(std::move(m));
  });
  each_of(j, path, "samples", [&](const json& e, const std::string& p) {
    TimelineSample s;
    s.series = json_string(json_field(e, p, "series"), json_path(p, "series"));
    s.at = json_time(json_field(e, p, "at"), json_path(p, "at"));
    s.value = json_number(json_field(e, p, "value"), json_path(p, "value"));
    t.samples.push_back(std::move(s));
  });
  return t;
}

// "metrics": [{"column": "failoverTime", "value": 5.2}, {"column": …, "value": null}, …]
json metrics_json(const SeedResult& r) {
  json out = json::array();
  for (const auto& [column, value] : r.metrics) {
    out.push_back({{"column", column}, {"value", value ? json(*value) : json(nullptr)}});
  }
  return out;
}

// "point": [{"parameter": "leaseDuration", "value": "5s"}, …]
json point_json(const ScenarioResult& r) {
  json out = json::array();
  for (const auto& [parameter, value] : r.point) {
    out.push_back({{"parameter", parameter}, {"value", value}});
  }
  return out;
}

// "writes": [{"entry": 0, "verb": "create", "written": 9, "refused": 1, …}, …]
json writes_json(const std::vector<EntryWrites>& writes) {
  json out = json::array();
  for (const EntryWrites& w : writes) {
    json e{{"entry", w.entry},     {"verb", w.verb},       {"written", w.written}, {"refused", w.refused},
           {"failed", w.failed},   {"skipped", w.skipped}, {"retried", w.retried}};
    if (w.expect_refused) e["expectRefused"] = true;
    out.push_back(std::move(e));
  }
  return out;
}

json vacuous_json(const std::vector<Vacuous>& vacuous) {
  json out = json::array();
  for (const Vacuous& v : vacuous) {
    out.push_back({{"check", v.check}, {"condition", v.condition}, {"mark", mark_json(v.mark)}, {"why", v.why}});
  }
  return out;
}

Vacuous vacuous_from(const json& e, const std::string& p) {
  Vacuous v;
  v.check = json_string(json_field(e, p, "check"), json_path(p, "check"));
  v.condition = json_string(json_field(e, p, "condition"), json_path(p, "condition"));
  v.mark = mark_from(json_field(e, p, "mark"), json_path(p, "mark"));
  v.why = json_string_or(e, p, "why");
  return v;
}

EntryWrites entry_writes_from(const json& e, const std::string& p) {
  EntryWrites w;
  w.entry = json_uint(json_field(e, p, "entry"), json_path(p, "entry"));
  w.verb = json_string(json_field(e, p, "verb"), json_path(p, "verb"));
  w.written = json_uint_or(e, p, "written");
  w.refused = json_uint_or(e, p, "refused");
  w.failed = json_uint_or(e, p, "failed");
  w.skipped = json_uint_or(e, p, "skipped");
  w.retried = json_uint_or(e, p, "retried");
  if (auto it = e.find("expectRefused"); it != e.end()) {
    if (!it->is_boolean()) results_json_fail(json_path(p, "expectRefused"), "expected a boolean");
    w.expect_refused = it->get<bool>();
  }
  return w;
}

SeedResult seed_from(const json& j, const std::string& path) {
  json_object(j, path);
  SeedResult r;
  r.seed = json_uint(json_field(j, path, "seed"), json_path(path, "seed"));
  each_of(j, path, "failures", [&](const json& e, const std::string& p) {
    r.failures.push_back(failure_from(e, p));
  });
  r.error = json_string_or(j, path, "error");
  if (j.contains("traceTail")) {
    each_of(j, path, "traceTail", [&](const json& e, const std::string& p) {
      r.trace_tail.push_back(json_string(e, p));
    });
  }
  r.trace_hash = json_string_or(j, path, "traceHash");
  r.trace_events = json_uint_or(j, path, "traceEvents");
  r.requests = json_uint_or(j, path, "requests");
  if (auto it = j.find("live"); it != j.end()) {
    if (!it->is_boolean()) results_json_fail(json_path(path, "live"), "expected a boolean");
    r.live = it->get<bool>();
  }
  if (auto it = j.find("timeline"); it != j.end()) {
    r.timeline = timeline_from(*it, json_path(path, "timeline"));
  }
  if (j.contains("metrics")) {
    each_of(j, path, "metrics", [&](const json& e, const std::string& p) {
      const json& value = json_field(e, p, "value");
      r.metrics.emplace_back(json_string(json_field(e, p, "column"), json_path(p, "column")),
                             value.is_null() ? std::nullopt
                                             : std::optional(json_number(value, json_path(p, "value"))));
    });
  }
  if (j.contains("writes")) {
    each_of(j, path, "writes", [&](const json& e, const std::string& p) {
      r.writes.push_back(entry_writes_from(e, p));
    });
  }
  if (j.contains("vacuous")) {
    each_of(j, path, "vacuous", [&](const json& e, const std::string& p) {
      r.vacuous.push_back(vacuous_from(e, p));
    });
  }
  return r;
}

ScenarioResult scenario_from(const json& j, const std::string& path) {
  json_object(j, path);
  ScenarioResult r;
  r.file = json_string(json_field(j, path, "file"), json_path(path, "file"));
  r.name = json_string(json_field(j, path, "name"), json_path(path, "name"));
  r.description = json_string_or(j, path, "description");
  if (j.contains("mustFind")) {
    each_of(j, path, "mustFind", [&](const json& e, const std::string& p) {
      r.must_find.push_back(json_string(e, p));
    });
  }
  r.experiment = json_string_or(j, path, "experiment");
  if (j.contains("point")) {
    each_of(j, path, "point", [&](const json& e, const std::string& p) {
      r.point.emplace_back(json_string(json_field(e, p, "parameter"), json_path(p, "parameter")),
                           json_string(json_field(e, p, "value"), json_path(p, "value")));
    });
  }
  each_of(j, path, "seeds", [&](const json& e, const std::string& p) {
    r.seeds.push_back(seed_from(e, p));
  });
  return r;
}

}  // namespace

void WriteTotals::add(const std::vector<EntryWrites>& writes) {
  for (const EntryWrites& w : writes) {
    any = true;
    written += w.written;
    refused += w.refused;
    failed += w.failed;
    skipped += w.skipped;
    retried += w.retried;
    if (w.expect_refused) refused_expected += w.refused;
  }
}

std::string WriteTotals::text() const {
  std::string out = std::to_string(written) + " written";
  if (refused != 0) {
    out += ", " + std::to_string(refused) + " refused";
    if (refused_expected != 0) {
      out += refused_expected == refused ? " (expected)" : " (" + std::to_string(refused_expected) + " expected)";
    }
  }
  if (failed != 0) out += ", " + std::to_string(failed) + " failed";
  if (skipped != 0) out += ", " + std::to_string(skipped) + " skipped (nothing to pick)";
  if (retried != 0) out += ", " + std::to_string(retried) + (retried == 1 ? " conflict" : " conflicts") + " retried";
  return out;
}

WriteTotals ScenarioResult::writes() const {
  WriteTotals totals;
  for (const SeedResult& s : seeds) totals.add(s.writes);
  return totals;
}

bool ScenarioResult::live() const {
  return std::any_of(seeds.begin(), seeds.end(), [](const SeedResult& s) { return s.live; });
}

bool ScenarioResult::passed() const {
  if (must_find.empty()) {
    return std::none_of(seeds.begin(), seeds.end(), [](const SeedResult& s) { return s.broke_any(); });
  }
  bool found = false;
  for (const auto& seed : seeds) {
    if (!seed.error.empty()) return false;
    for (const auto& failure : seed.failures) {
      if (!internal::listed(must_find, failure.condition)) return false;
      found = true;
    }
  }
  return found;
}

std::string ScenarioResult::replay_command(std::uint64_t seed, std::string_view program) const {
  return shell_word(program) + (live() ? " run --live " : " run ") + shell_word(file) + " --seed " +
         std::to_string(seed);
}

json to_json(const SeedResult& result) {
  json failures = json::array();
  for (const auto& f : result.failures) failures.push_back(failure_json(f));
  json j{{"seed", result.seed},
         {"failures", std::move(failures)},
         {"error", result.error},
         {"traceTail", result.trace_tail},
         {"traceHash", result.trace_hash},
         {"traceEvents", result.trace_events},
         {"requests", result.requests}};
  if (result.live) j["live"] = true;  // only then: virtual runs' results stay as they were
  if (result.timeline) j["timeline"] = timeline_json(*result.timeline);
  if (!result.metrics.empty()) j["metrics"] = metrics_json(result);  // only experiments' runs
  if (!result.writes.empty()) j["writes"] = writes_json(result.writes);  // only runs with a workload
  if (!result.vacuous.empty()) j["vacuous"] = vacuous_json(result.vacuous);
  return j;
}

json to_json(const ScenarioResult& result) {
  json seeds = json::array();
  for (const auto& s : result.seeds) seeds.push_back(to_json(s));
  json j{{"file", result.file},           {"name", result.name},
         {"description", result.description}, {"mustFind", result.must_find},
         {"passed", result.passed()},      {"seeds", std::move(seeds)}};
  if (!result.experiment.empty()) {  // only experiments' points
    j["experiment"] = result.experiment;
    j["point"] = point_json(result);
  }
  return j;
}

api::Result<SeedResult> seed_result_from_json(const json& j) {
  try {
    return seed_from(j, "");
  } catch (const ResultsJsonError& e) {
    return api::new_bad_request(e.what());
  }
}

api::Result<ScenarioResult> scenario_result_from_json(const json& j) {
  try {
    return scenario_from(j, "");
  } catch (const ResultsJsonError& e) {
    return api::new_bad_request(e.what());
  }
}

}  // namespace kubesim::runner
