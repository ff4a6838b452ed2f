// FaultPlan's rules as the server holds them, and its report: how often each rule fired and, for
// watch drops and compactions, whether a client relisted after them (the recorder's log: a list,
// or a watch asking for initial events — the streaming list client-go's informers relist with).
#include <algorithm>
#include <sstream>

#include "internal/cluster_impl.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/testing/fault_plan.h"

namespace kubesim::testing {
namespace {

std::string counted(std::int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct Relists {
  std::int64_t relists = 0;
  std::int64_t watches = 0;  // watches that resumed, without initial events
};

// The relists and resumed watches of `resource` ("" any) by `process` ("" any) received after
// `since`.
Relists relists_after(const fakeapi::Recorder& recorder, const std::string& resource,
                      const std::string& process, sim::Time since) {
  Relists out;
  for (const fakeapi::RecordedCall& call : recorder.calls()) {
    if (call.received <= since || !call.subresource.empty()) continue;
    if (!resource.empty() && call.resource.resource != resource) continue;
    if (!process.empty() && call.process != process) continue;
    if (call.verb == fakeapi::Verb::kList || (call.verb == fakeapi::Verb::kWatch && call.initial_events)) {
      ++out.relists;
    } else if (call.verb == fakeapi::Verb::kWatch) {
      ++out.watches;
    }
  }
  return out;
}

}  // namespace

std::string FaultPlan::add(fakeapi::FaultRule rule, std::string description) {
  Rule entry;
  entry.description = std::move(description);
  entry.kind = rule.kind;
  entry.resource = rule.resource;
  entry.process = rule.process;
  entry.id = server_->faults().add(std::move(rule));
  std::erase_if(rules_, [&](const Rule& r) { return r.id == entry.id; });
  rules_.push_back(std::move(entry));
  return rules_.back().id;
}

void FaultPlan::note_cut(const std::string& id, std::size_t cut) {
  for (Rule& rule : rules_) {
    if (rule.id != id) continue;
    rule.cut = cut;
    rule.cut_at = server_->loop().now();
  }
}

void FaultPlan::clear() {
  for (Rule& rule : rules_) {
    if (rule.cleared) continue;
    server_->faults().remove(rule.id);
    rule.cleared = true;
  }
}

std::vector<FaultPlan::Fired> FaultPlan::fired() const {
  std::vector<Fired> out;
  for (const Rule& rule : rules_) out.push_back(Fired{rule.id, rule.description, server_->faults().fired(rule.id)});
  return out;
}

// What a drop rule's line says after its count: the watches it ended and the relists since.
std::string FaultPlan::effect(const Rule& rule, std::int64_t fired) const {
  std::string text;
  if (rule.cut_at) text += ", ended " + counted(static_cast<std::int64_t>(rule.cut), "open watch", "open watches");
  if (rule.kind != fakeapi::FaultKind::kDropWatch || (fired == 0 && rule.cut == 0)) return text;
  std::optional<sim::Time> since = server_->faults().first_fired(rule.id);
  if (rule.cut > 0 && (!since || *rule.cut_at < *since)) since = rule.cut_at;
  const Relists seen = relists_after(server_->recorder(), rule.resource, rule.process, *since);
  const std::string what = rule.resource.empty() ? std::string("any resource") : rule.resource;
  if (seen.relists > 0) return text + "; then " + counted(seen.relists, "relist", "relists") + " of " + what;
  return text + "; no relist of " + what + " after it (" + counted(seen.watches, "watch", "watches") +
         " resumed)";
}

std::string FaultPlan::report() const {
  std::ostringstream out;
  out << "fault plan: " << counted(static_cast<std::int64_t>(rules_.size()), "rule", "rules");
  if (!compactions_.empty()) out << ", " << counted(static_cast<std::int64_t>(compactions_.size()), "compaction", "compactions");
  out << "\n";
  for (const Rule& rule : rules_) {
    const std::int64_t fired = server_->faults().fired(rule.id);
    out << "  " << rule.id << ": " << rule.description << " — ";
    if (fired == 0 && rule.cut == 0) {
      out << "never fired: its fault did not happen";
    } else {
      out << "fired " << counted(fired, "time", "times") << effect(rule, fired);
    }
    if (rule.cleared) out << " (cleared)";
    out << "\n";
  }
  for (const Compaction& c : compactions_) {
    const Relists seen = relists_after(server_->recorder(), "", "", c.at);
    out << "  compaction at " << format_time(c.at) << " (revision " << c.revision << ") — ";
    if (seen.relists > 0) {
      out << "then " << counted(seen.relists, "relist", "relists") << "\n";
    } else {
      out << "no relist after it\n";
    }
  }
  return out.str();
}

}  // namespace kubesim::testing
