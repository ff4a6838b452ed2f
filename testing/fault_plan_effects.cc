// The effect lines of FaultPlan's report: what the components saw after a rule first fired — the
// relists and tombstones a watch drop aims at (a stall: the watch started again), the failed
// requests of an error rule and whether their callers retried them, and the leadership lost
// after a fault (the aim of one on leases). Each line says what was seen, or plainly that it was
// not.
#include <map>
#include <sstream>
#include <vector>

#include "internal/cluster_impl.h"
#include "internal/fault_plan_text.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/testing/fault_plan.h"

namespace kubesim::testing {
namespace {

using fakeapi::FaultKind;
using fakeapi::RecordedCall;
using internal::counted;
using internal::process_name;

// Lists name at most this many examples (calls: kCallsShown), then how many more there are.
constexpr std::size_t kShown = 5;
constexpr std::size_t kCallsShown = 3;

// "widgets-0 (1), widgets-1 (2)"
std::string by_process(const std::map<std::string, std::int64_t>& counts) {
  std::string out;
  for (const auto& [process, n] : counts) {
    out += (out.empty() ? "" : ", ") + process_name(process) + " (" + std::to_string(n) + ")";
  }
  return out;
}

// The items joined by ", ", the first `shown` of them, then "and N more".
std::string examples(const std::vector<std::string>& items, std::size_t shown = kShown) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < shown; ++i) out += (i == 0 ? "" : ", ") + items[i];
  if (items.size() > shown) out += ", and " + std::to_string(items.size() - shown) + " more";
  return out;
}

struct Relists {
  std::map<std::string, std::int64_t> by_process;
  std::int64_t total = 0;
  std::int64_t watches = 0;  // watches that resumed, without initial events
};

// The relists (a list, or a watch asking for initial events: the streaming list client-go's
// informers relist with) and resumed watches of `resource` ("" any) by `process` ("" any)
// received after `since`.
Relists relists_after(const fakeapi::Recorder& recorder, const std::string& resource, const std::string& process,
                      sim::Time since) {
  Relists out;
  for (const RecordedCall& call : recorder.calls()) {
    if (call.received <= since || !call.subresource.empty()) continue;
    if (!resource.empty() && call.resource.resource != resource) continue;
    if (!process.empty() && call.process != process) continue;
    if (call.verb == fakeapi::Verb::kList || (call.verb == fakeapi::Verb::kWatch && call.initial_events)) {
      ++out.total;
      ++out.by_process[call.process];
    } else if (call.verb == fakeapi::Verb::kWatch) {
      ++out.watches;
    }
  }
  return out;
}

// The same call made again: same process, verb, resource, subresource and namespace, and the
// same name when the failed call had one (a failed create names no object).
bool same_call(const RecordedCall& failed, const RecordedCall& later) {
  return later.process == failed.process && later.verb == failed.verb &&
         later.resource.resource == failed.resource.resource && later.subresource == failed.subresource &&
         later.ns == failed.ns && (failed.name.empty() || later.name == failed.name);
}

std::string call_text(const RecordedCall& call) {
  std::ostringstream out;
  fakeapi::PrintTo(call, &out);
  return out.str();
}

// A rule whose aim is the elections: it fails or slows requests on Leases.
bool aims_at_leases(FaultKind kind, const std::string& resource) {
  return (kind == FaultKind::kError || kind == FaultKind::kLatency) && resource == "leases";
}

}  // namespace

std::string FaultPlan::effects(const Rule& rule, sim::Time since) const {
  std::string out;
  if (rule.kind == FaultKind::kDropWatch || rule.kind == FaultKind::kStallWatch) out += watch_effects(rule, since);
  if (rule.kind == FaultKind::kError) out += error_effects(rule);
  return out + leadership_effects(rule, since);
}

std::string FaultPlan::watch_effects(const Rule& rule, sim::Time since) const {
  const std::string what = rule.resource.empty() ? std::string("any resource") : rule.resource;
  const Relists seen = relists_after(server_->recorder(), rule.resource, rule.process, since);
  const bool stall = rule.kind == FaultKind::kStallWatch;
  std::string out;
  if (seen.total > 0) {
    out += "    then " + counted(seen.total, "relist", "relists") + " of " + what + ": " +
           by_process(seen.by_process) + "\n";
  } else if (stall && seen.watches > 0) {
    out += "    then the clients watched " + what + " again: " + counted(seen.watches, "watch", "watches") +
           " resumed from where they were\n";
  } else if (stall) {
    out += "    no client watched " + what + " again: the stall went unnoticed\n";
  } else if (seen.watches > 0) {
    out += "    no relist of " + what + " followed: the clients resumed " +
           counted(seen.watches, "watch", "watches") + " from where they were\n";
  } else {
    out += "    no relist of " + what + " followed: no client watched it again\n";
  }
  if (!tracked_) return out;
  std::vector<std::string> delivered;
  for (const Tombstone& t : tombstones_) {
    if (t.at <= since || (!rule.resource.empty() && t.resource != rule.resource)) continue;
    if (!rule.process.empty() && t.process != rule.process) continue;
    delivered.push_back(t.key + " to " + t.process + " at " + cluster::format_instant(t.at));
  }
  if (delivered.empty()) return out + "    no deletion of " + what + " reached an informer as a tombstone\n";
  return out + "    then " + counted(static_cast<std::int64_t>(delivered.size()), "tombstone", "tombstones") + " of " +
         what + " delivered: " + examples(delivered) + "\n";
}

std::string FaultPlan::error_effects(const Rule& rule) const {
  std::map<std::string, std::int64_t> failed_by;
  std::vector<RecordedCall> pending;  // failed, not yet seen made again and answered ok
  std::int64_t failed = 0;
  for (const RecordedCall& call : server_->recorder().calls()) {
    if (call.fault == rule.id) {
      ++failed;
      ++failed_by[call.process];
      pending.push_back(call);
    } else if (call.ok()) {
      std::erase_if(pending, [&](const RecordedCall& f) { return same_call(f, call); });
    }
  }
  if (failed == 0) return "    none of its failed requests is in the call log\n";
  std::string out = "    failed " + counted(failed, "request", "requests") + ": " + by_process(failed_by) + "\n";
  std::vector<std::string> not_retried;
  for (const RecordedCall& call : pending) not_retried.push_back(call_text(call));
  const auto retried = failed - static_cast<std::int64_t>(pending.size());
  if (pending.empty()) {
    return out + (failed == 1 ? "    retried: made again by its process and answered ok\n"
                              : "    retried: all made again by their process and answered ok\n");
  }
  if (retried == 0) {
    return out + "    not retried: none was made again by its process and answered ok: " +
           examples(not_retried, kCallsShown) + "\n";
  }
  return out + "    retried: " + std::to_string(retried) + " of " + std::to_string(failed) +
         " made again by their process and answered ok; not retried: " + examples(not_retried, kCallsShown) + "\n";
}

std::string FaultPlan::leadership_effects(const Rule& rule, sim::Time since) const {
  if (!tracked_) return {};
  std::vector<std::string> changes;
  bool lost = false;
  for (const LeadershipChange& c : leadership_) {
    if (c.at <= since) continue;
    lost = lost || !c.leading;
    changes.push_back(c.process + (c.leading ? " took " : " lost ") + c.lock + " at " + cluster::format_instant(c.at));
  }
  if (aims_at_leases(rule.kind, rule.resource)) {
    if (lost) return "    then " + examples(changes) + "\n";
    return "    no leader lost a lease after it\n";
  }
  if (!lost) return {};
  return "    leadership changed after it: " + examples(changes) + "\n";
}

std::string FaultPlan::relists_since(sim::Time since) const {
  const Relists seen = relists_after(server_->recorder(), "", "", since);
  if (seen.total == 0) return "no relist after it";
  return "then " + counted(seen.total, "relist", "relists") + ": " + by_process(seen.by_process);
}

}  // namespace kubesim::testing
