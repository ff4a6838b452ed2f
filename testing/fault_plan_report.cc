// FaultPlan's rules as the server holds them, what the components told it (tombstones,
// leadership), and its report: a line per rule with how often it fired, then its effect lines
// (fault_plan_effects.cc), then a line per compaction.
#include <algorithm>
#include <sstream>

#include "internal/cluster_impl.h"
#include "internal/fault_plan_text.h"
#include "kubesim/fakeapi/server.h"
#include "kubesim/testing/fault_plan.h"

namespace kubesim::testing {

using internal::counted;

std::string FaultPlan::add(fakeapi::FaultRule rule, std::string description) {
  Rule entry;
  entry.description = std::move(description);
  entry.kind = rule.kind();
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

void FaultPlan::note_tombstone(std::string process, std::string resource, std::string key) {
  tombstones_.push_back(Tombstone{server_->loop().now(), std::move(process), std::move(resource), std::move(key)});
  if (tombstones_.size() > kNotesKept) {
    tombstones_.pop_front();
    ++notes_dropped_;
  }
}

void FaultPlan::note_leadership(std::string process, std::string lock, bool leading) {
  leadership_.push_back(LeadershipChange{server_->loop().now(), std::move(process), std::move(lock), leading});
  if (leadership_.size() > kNotesKept) {
    leadership_.pop_front();
    ++notes_dropped_;
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

std::string FaultPlan::report() const {
  std::ostringstream out;
  out << "fault plan: " << counted(static_cast<std::int64_t>(rules_.size()), "rule", "rules");
  if (!compactions_.empty()) {
    out << ", " << counted(static_cast<std::int64_t>(compactions_.size()), "compaction", "compactions");
  }
  out << "\n";
  for (const Rule& rule : rules_) {
    const std::int64_t fired = server_->faults().fired(rule.id);
    out << "  " << rule.id << ": " << rule.description << " — ";
    if (fired == 0 && rule.cut == 0) {
      out << "never fired: its fault did not happen" << (rule.cleared ? " (cleared)" : "") << "\n";
      continue;
    }
    out << "fired " << counted(fired, "time", "times");
    if (rule.cut_at) out << ", ended " << counted(static_cast<std::int64_t>(rule.cut), "open watch", "open watches");
    out << (rule.cleared ? " (cleared)" : "") << "\n";
    // Effects count from the rule's first firing, or from the watches it ended, whichever came first.
    std::optional<sim::Time> since = server_->faults().first_fired(rule.id);
    if (rule.cut > 0 && (!since || *rule.cut_at < *since)) since = rule.cut_at;
    out << effects(rule, since.value_or(sim::Time{}));
  }
  for (const Compaction& c : compactions_) {
    out << "  compaction at " << cluster::format_instant(c.at) << " (revision " << c.revision << ") — "
        << relists_since(c.at) << "\n";
  }
  if (notes_dropped_ > 0) {
    out << "  (the " << notes_dropped_ << " oldest tombstones and leadership changes were not kept: the report "
        << "counts the latest " << kNotesKept << " of each)\n";
  }
  return out.str();
}

}  // namespace kubesim::testing
