// The shrinker's removals: timeline events, fault rules, workload entries, processes, their
// actors and the cluster's objects, each list delta-debugging style — the whole list, then halves,
// quarters, … and finally one entry at a time.
#include <algorithm>
#include <functional>

#include "explore/internal/shrink_search.h"

namespace kubesim::explore::shrink {
namespace {

std::string text_of(const YAML::Node& map, const char* key) {
  const YAML::Node v = child(map, key);
  if (v.IsScalar()) return v.Scalar();
  if (!v.IsSequence()) return "";
  std::string out;
  for (const auto& item : v)
    out += (out.empty() ? "" : "/") + (item.IsScalar() ? item.Scalar() : "…");
  return out;
}

std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!w.empty()) out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

std::string describe_event(const YAML::Node& event) {
  for (const char* action : {"partition", "crash", "pause", "skew"}) {
    if (event.IsMap() && child(event, action).IsDefined())
      return join_words({action, text_of(child(event, action), "process")});
  }
  if (event.IsMap() && child(event, "apiserver").IsDefined()) return "apiserver restart";
  if (event.IsMap() && child(event, "compact").IsDefined()) return "compact";
  if (event.IsMap() && child(event, "faults").IsSequence()) {
    const std::size_t n = child(event, "faults").size();
    return "faults: " + std::to_string(n) + (n == 1 ? " rule" : " rules");
  }
  return "event";
}

std::string describe_rule(const YAML::Node& rule) {
  std::vector<std::string> words = {text_of(rule, "verb"), text_of(rule, "resource")};
  for (const char* kind : {"error", "latency", "drop", "stall", "gone", "staleBy", "coalesce"}) {
    if (!rule.IsMap() || !child(rule, kind).IsDefined()) continue;
    words.emplace_back(kind);
    if (std::string v = text_of(rule, kind); v != "true") words.push_back(v);
  }
  if (const std::string p = text_of(rule, "process"); !p.empty()) words.push_back("on " + p);
  return join_words(words);
}

std::string describe_workload(const YAML::Node& entry) {
  const YAML::Node action = child(entry, "action");
  if (!action.IsMap() || action.size() != 1) return "workload";
  const std::string verb = action.begin()->first.Scalar();
  const YAML::Node what = action.begin()->second;
  return join_words({verb, verb == "create" ? text_of(what, "kind") : text_of(what, "resource")});
}

std::string describe_actor(const YAML::Node& actor) {
  if (!actor.IsMap() || actor.size() != 1) return "actor";
  const std::string kind = actor.begin()->first.Scalar();
  const YAML::Node spec = actor.begin()->second;
  const char* key = kind == "elector" ? "lock" : kind == "informer" ? "resource" : "type";
  std::string what = text_of(spec, key);
  if (kind == "elector" && what.empty()) what = "multi";
  return join_words({kind, what});
}

std::string describe_object(const YAML::Node& object) {
  const YAML::Node meta = child(object, "metadata");
  std::string name = text_of(meta, "name");
  if (name.empty()) name = text_of(meta, "generateName") + "…";
  const std::string ns = text_of(meta, "namespace");
  return join_words({text_of(object, "kind"), ns.empty() ? name : ns + "/" + name});
}

// One list of the document to shrink.
struct Removal {
  Path list;
  std::function<std::string(const YAML::Node&)> describe;
  // Edits a copy whose list would be left empty instead (removes the list's owner); returns what
  // to add to the step. Empty function: the list is written empty ([]), its key kept, so that a
  // predicate may still ask for it (yaml-cpp throws on most questions about a missing key).
  std::function<std::string(YAML::Node& doc)> emptied;
};

std::string range_text(std::size_t start, std::size_t end) {
  return end - start == 1 ? "[" + std::to_string(start) + "]"
                          : "[" + std::to_string(start) + ".." + std::to_string(end - 1) + "]";
}

// The candidate without entries [start, end) of the list, and its step.
std::pair<YAML::Node, std::string> without(const Search& s, const Removal& r, std::size_t start,
                                           std::size_t end) {
  const YAML::Node list = find(s.doc(), r.list);
  YAML::Node c = s.copy();
  const YAML::Node copy_list = find(c, r.list);
  YAML::Node kept(YAML::NodeType::Sequence);
  std::vector<std::string> what;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i < start || i >= end) {
      kept.push_back(copy_list[i]);
    } else if (what.size() < 4) {
      what.push_back(r.describe(list[i]));
    } else if (what.size() == 4) {
      what.emplace_back("…");
    }
  }
  std::string step = "removed " + path_text(r.list) + range_text(start, end) + " (";
  for (std::size_t i = 0; i < what.size(); ++i) step += (i ? ", " : "") + what[i];
  step += ")";
  if (kept.size() == 0 && r.emptied) {
    step += r.emptied(c);
  } else {
    YAML::Node target = find(c, r.list);
    target = kept;
  }
  return {c, step};
}

bool remove_entries(Search& s, const Removal& r) {
  const YAML::Node list = find(s.doc(), r.list);
  if (!list.IsSequence() || list.size() == 0) return false;
  bool changed = false;
  for (std::size_t chunk = list.size(); chunk >= 1 && !s.exhausted(); chunk /= 2) {
    std::size_t start = 0;
    while (!s.exhausted()) {
      const std::size_t size = find(s.doc(), r.list).size();
      if (start >= size) break;
      const std::size_t end = std::min(start + chunk, size);
      auto [candidate, step] = without(s, r, start, end);
      if (!s.attempt(candidate, step, true)) {
        start = end;
        continue;
      }
      changed = true;
      // The list itself went (with its owner): its path may now name another one.
      if (!find(s.doc(), r.list).IsSequence() || end - start == size) return true;
    }
  }
  return changed;
}

}  // namespace

bool remove_timeline_events(Search& search) {
  return remove_entries(search, {Path{} / "timeline", describe_event, nullptr});
}

bool remove_fault_rules(Search& search) {
  bool changed = false;
  for (std::size_t i = 0; i < find(search.doc(), Path{} / "timeline").size(); ++i) {
    const Path event = Path{} / "timeline" / i;
    if (!find(search.doc(), event / "faults").IsSequence()) continue;
    auto emptied = [event, i](YAML::Node& doc) {
      const YAML::Node events = find(doc, Path{} / "timeline");
      YAML::Node kept(YAML::NodeType::Sequence);
      for (std::size_t j = 0; j < events.size(); ++j) {
        if (j != i) kept.push_back(events[j]);
      }
      YAML::Node target = find(doc, Path{} / "timeline");
      target = kept;
      return "; the emptied " + path_text(event) + " went";
    };
    changed = remove_entries(search, {event / "faults", describe_rule, emptied}) || changed;
  }
  return changed;
}

bool remove_workload_entries(Search& search) {
  return remove_entries(search, {Path{} / "workload", describe_workload, nullptr});
}

bool remove_processes_and_actors(Search& search) {
  auto describe_process = [](const YAML::Node& p) { return "process " + text_of(p, "name"); };
  bool changed = remove_entries(search, {Path{} / "processes", describe_process, nullptr});
  for (std::size_t i = 0; i < find(search.doc(), Path{} / "processes").size(); ++i) {
    const Path run = Path{} / "processes" / i / "run";
    if (find(search.doc(), run).IsSequence())
      changed = remove_entries(search, {run, describe_actor, nullptr}) || changed;
  }
  return changed;
}

bool remove_cluster_objects(Search& search) {
  return remove_entries(search, {Path{} / "cluster" / "objects", describe_object, nullptr});
}

}  // namespace kubesim::explore::shrink
