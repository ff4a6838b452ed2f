// The metrics of one run (kubesim/sweep/measure.h), from its timeline picture and capture.
#include "kubesim/sweep/measure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "kubesim/fakeapi/request.h"

namespace kubesim::sweep {

namespace {

constexpr std::string_view kLockLane = "lock ";
constexpr std::string_view kWorkloadProcess = "workload";  // the runner's workload process
const std::vector<fakeapi::Verb> kVerbs = {
    fakeapi::Verb::kGet,    fakeapi::Verb::kList,  fakeapi::Verb::kWatch,
    fakeapi::Verb::kCreate, fakeapi::Verb::kUpdate, fakeapi::Verb::kPatch,
    fakeapi::Verb::kDelete, fakeapi::Verb::kDeleteCollection};

double seconds(sim::Duration d) { return std::chrono::duration<double>(d).count(); }

// Each lock's leader terms, by lane.
std::map<std::string, std::vector<const runner::TimelineSpan*>> terms_by_lock(const runner::Timeline& t) {
  std::map<std::string, std::vector<const runner::TimelineSpan*>> out;
  for (const auto& s : t.spans) {
    if (s.kind == "leader" && s.lane.rfind(kLockLane, 0) == 0) out[s.lane].push_back(&s);
  }
  for (auto& [lane, spans] : out) {
    std::stable_sort(spans.begin(), spans.end(),
                     [](const runner::TimelineSpan* a, const runner::TimelineSpan* b) { return a->from < b->from; });
  }
  return out;
}

// Every leaderless gap after a lock had its first leader: from the instant the last leader lost it
// to the next leader's start (or the run's end when none came).
std::vector<double> failovers(const runner::Timeline& t) {
  std::vector<double> gaps;
  const sim::Time end = sim::Time(t.duration);
  for (const auto& [lane, spans] : terms_by_lock(t)) {
    sim::Time covered = spans.front()->to;
    for (std::size_t i = 1; i < spans.size(); ++i) {
      if (spans[i]->from > covered) gaps.push_back(seconds(spans[i]->from - covered));
      covered = std::max(covered, spans[i]->to);
    }
    if (covered < end) gaps.push_back(seconds(end - covered));
  }
  return gaps;
}

double transitions(const runner::Timeline& t) {
  double n = 0;
  for (const auto& [lane, spans] : terms_by_lock(t)) n += static_cast<double>(spans.size() - 1);
  return n;
}

// The last instant something was done to the run: a fault span's start or end, a crash, a
// restart, a clock skew, a compaction. The run's start when nothing was.
sim::Time last_fault(const runner::Timeline& t) {
  static const std::set<std::string> kSpanKinds = {"partition", "down", "pause", "fault"};
  static const std::set<std::string> kMarkKinds = {"crash", "restart", "skew", "compact"};
  sim::Time last{};
  const sim::Time end = sim::Time(t.duration);
  for (const auto& s : t.spans) {
    if (kSpanKinds.count(s.kind) == 0) continue;
    last = std::max(last, s.from);
    if (s.to < end) last = std::max(last, s.to);
  }
  for (const auto& m : t.marks) {
    if (kMarkKinds.count(m.kind) > 0) last = std::max(last, m.at);
  }
  return last;
}

// The scenario's replicas and the objects its electors lock, to tell a controller's calls from
// leadership's.
struct Callers {
  Callers(const scenarios::Scenario& scenario, const runner::Timeline& t) {
    for (const auto& p : scenario.processes) {
      for (int i = 0; i < p.replicas; ++i) replicas.insert(p.name + "-" + std::to_string(i));
    }
    for (const auto& lane : t.lanes) {
      if (lane.rfind(kLockLane, 0) == 0) locks.insert(lane.substr(kLockLane.size()));
    }
  }
  bool replica(const fakeapi::RecordedCall& call) const { return replicas.count(call.process) > 0; }
  // A call of a replica, not on a Lease nor on a lock.
  bool controller(const fakeapi::RecordedCall& call) const {
    return replica(call) && call.resource.resource != "leases" &&
           locks.count(call.resource.resource + "/" + call.ns + "/" + call.name) == 0;
  }
  std::set<std::string> replicas, locks;
};

// From the last fault to the last successful write a replica made, leadership records excluded;
// 0 when none came after it.
double convergence(const scenarios::Scenario& scenario, const runner::Timeline& t, const runner::RunCapture& capture) {
  const Callers callers(scenario, t);
  const sim::Time fault = last_fault(t);
  sim::Time last = fault;
  for (const auto& call : capture.calls) {
    if (call.ok() && api::is_write(call.verb) && callers.controller(call)) last = std::max(last, call.answered);
  }
  return seconds(last - fault);
}

// The replicas' calls, leadership records excluded, per successful write of the workload; none
// when the workload wrote nothing.
std::optional<double> calls_per_change(const scenarios::Scenario& scenario, const runner::Timeline& t, const runner::RunCapture& capture) {
  const Callers callers(scenario, t);
  double calls = 0, changes = 0;
  for (const auto& call : capture.calls) {
    if (callers.controller(call)) calls += 1;
    if (call.process == kWorkloadProcess && call.ok() && api::is_write(call.verb)) changes += 1;
  }
  if (changes == 0) return std::nullopt;
  return calls / changes;
}

// Lists (a list call, or a watch that streams its list first) a replica made of a resource in a
// namespace after it had watched that resource there, in the same incarnation: a reflector
// listing again because its watch failed or its resourceVersion expired. A crash or a restart
// starts a new incarnation, whose first list is not a relist.
double relists(const scenarios::Scenario& scenario, const runner::Timeline& t, const runner::RunCapture& capture) {
  const Callers callers(scenario, t);
  std::map<std::string, std::vector<sim::Time>> starts;  // replica → its incarnations' starts
  for (const auto& m : t.marks) {
    if ((m.kind == "crash" || m.kind == "restart") && m.lane.rfind("process ", 0) == 0) {
      starts[m.lane.substr(8)].push_back(m.at);
    }
  }
  auto incarnation = [&starts](const fakeapi::RecordedCall& call) {
    const auto& s = starts[call.process];
    return std::count_if(s.begin(), s.end(), [&call](sim::Time at) { return at <= call.received; });
  };
  std::vector<const fakeapi::RecordedCall*> calls;
  for (const auto& call : capture.calls) {
    if (callers.replica(call) && (call.verb == fakeapi::Verb::kList || call.verb == fakeapi::Verb::kWatch)) {
      calls.push_back(&call);
    }
  }
  std::stable_sort(calls.begin(), calls.end(), [](const auto* a, const auto* b) { return a->received < b->received; });
  std::set<std::tuple<std::string, std::ptrdiff_t, std::string, std::string>> watched;
  double n = 0;
  for (const auto* call : calls) {
    auto key = std::make_tuple(call->process, incarnation(*call), call->resource.to_string(), call->ns);
    const bool lists = call->verb == fakeapi::Verb::kList || call->initial_events;
    if (lists && watched.count(key) > 0) n += 1;
    if (call->verb == fakeapi::Verb::kWatch) watched.insert(key);
  }
  return n;
}

void add_api_calls(const runner::SeedResult& result, const runner::RunCapture& capture, Metrics& out) {
  out.emplace_back("apiCalls", static_cast<double>(result.requests));
  std::map<fakeapi::Verb, double> by_verb;
  for (const auto& call : capture.calls) by_verb[call.verb] += 1;
  for (fakeapi::Verb verb : kVerbs) {
    out.emplace_back("apiCalls." + std::string(api::to_string(verb)), by_verb[verb]);
  }
}

void add_calls_by_resource(const runner::RunCapture& capture, Metrics& out) {
  std::map<std::string, double> by_resource;
  for (const auto& call : capture.calls) by_resource[call.resource.resource] += 1;
  for (const auto& [resource, n] : by_resource) out.emplace_back("apiCallsByResource." + resource, n);
}

void add_percentiles(const std::string& metric, const std::vector<double>& values, Metrics& out) {
  out.emplace_back(metric + ".p50", percentile(values, 50));
  out.emplace_back(metric + ".p95", percentile(values, 95));
}

}  // namespace

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> kNames = {
      "failoverTime",      "leaderTransitions", "convergenceTime", "apiCalls",
      "apiCallsByResource", "apiCallsPerChange", "requestsPerSecond", "watchRestarts",
      "relists",           "queueDepth",        "workDuration",    "checksBroken"};
  return kNames;
}

std::vector<std::string> metric_columns(const std::string& metric) {
  if (metric == "apiCalls") {
    std::vector<std::string> columns = {"apiCalls"};
    for (fakeapi::Verb verb : kVerbs) columns.push_back("apiCalls." + std::string(api::to_string(verb)));
    return columns;
  }
  if (metric == "queueDepth" || metric == "workDuration") return {metric + ".p50", metric + ".p95"};
  if (metric == "apiCallsByResource") return {};
  return {metric};
}

std::optional<double> percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  const auto low = static_cast<std::size_t>(std::floor(rank));
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

Metrics measure_run(const scenarios::Scenario& scenario, const runner::SeedResult& result, const runner::RunCapture& capture,
                    const std::vector<std::string>& measures) {
  static const runner::Timeline kNone;
  const runner::Timeline& t = result.timeline ? *result.timeline : kNone;
  Metrics out;
  for (const auto& m : measures) {
    if (m == "failoverTime") {
      const std::vector<double> gaps = failovers(t);
      out.emplace_back(m, gaps.empty() ? std::nullopt
                                       : std::optional<double>(*std::max_element(gaps.begin(), gaps.end())));
    } else if (m == "leaderTransitions") {
      out.emplace_back(m, transitions(t));
    } else if (m == "convergenceTime") {
      out.emplace_back(m, convergence(scenario, t, capture));
    } else if (m == "apiCalls") {
      add_api_calls(result, capture, out);
    } else if (m == "requestsPerSecond") {
      const double d = seconds(scenario.duration);
      out.emplace_back(m, d > 0 ? static_cast<double>(result.requests) / d : 0.0);
    } else if (m == "watchRestarts") {
      out.emplace_back(m, static_cast<double>(std::count_if(
                              t.marks.begin(), t.marks.end(),
                              [](const runner::TimelineMark& k) { return k.kind == "watch-restart"; })));
    } else if (m == "queueDepth") {
      std::vector<double> depths;
      for (const auto& s : t.samples) {
        if (s.series.rfind("queue ", 0) == 0) depths.push_back(s.value);
      }
      add_percentiles(m, depths, out);
    } else if (m == "workDuration") {
      std::vector<double> durations;
      for (const auto& [replica, d] : capture.work) durations.push_back(d);
      add_percentiles(m, durations, out);
    } else if (m == "apiCallsByResource") {
      add_calls_by_resource(capture, out);
    } else if (m == "apiCallsPerChange") {
      out.emplace_back(m, calls_per_change(scenario, t, capture));
    } else if (m == "relists") {
      out.emplace_back(m, relists(scenario, t, capture));
    } else if (m == "checksBroken") {
      out.emplace_back(m, static_cast<double>(result.failures.size() + (result.error.empty() ? 0 : 1)));
    }
  }
  return out;
}

}  // namespace kubesim::sweep
