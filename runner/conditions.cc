#include "kubesim/runner/conditions.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "kubesim/api/go_duration.h"
#include "kubesim/api/labels.h"
#include "kubesim/api/match.h"
#include "kubesim/api/resources.h"
#include "kubesim/cluster/conditions.h"
#include "kubesim/election/record.h"
#include "kubesim/runner/world.h"
#include "runner/internal/match_tree.h"

namespace kubesim::runner {

using nlohmann::json;
using api::match_tree;
using api::short_json;
using api::TreeMatch;

namespace {

api::GroupResource lock_resource(std::string_view kind) {
  if (kind == "leases") return api::kLeases.group_resource();
  return {"", std::string(kind)};
}

// "leases/ns/name" split in three; nullopt when it is not of that form.
std::optional<scenarios::LockRef> parse_lock(const std::string& text) {
  const std::size_t a = text.find('/');
  const std::size_t b = a == std::string::npos ? a : text.find('/', a + 1);
  if (b == std::string::npos || text.find('/', b + 1) != std::string::npos) return std::nullopt;
  return scenarios::LockRef{text.substr(0, a), text.substr(a + 1, b - a - 1), text.substr(b + 1)};
}

// The holder the lock's stored record names; nullopt when the object or record does not exist.
std::optional<std::string> record_holder(World& w, const std::string& text) {
  const auto ref = parse_lock(text);
  if (!ref) return std::nullopt;
  const auto gr = lock_resource(ref->kind);
  const api::GroupVersionResource gvr{gr.group, "v1", gr.resource};
  auto got = w.server.get(gvr, ref->ns, ref->name, api::GetOptions());
  if (!got.ok()) return std::nullopt;
  if (ref->kind == "leases") {
    const json holder = got.value()->value_at("spec.holderIdentity");
    return holder.is_string() ? holder.get<std::string>() : std::string();
  }
  // As any client writes it (client-go; Python's client writes every value as a string).
  const auto raw = got.value()->annotation(election::kLeaderElectionRecordAnnotationKey);
  if (!raw) return std::nullopt;
  const auto record = election::holder_of_raw(*raw);
  if (!record) return std::nullopt;
  return record->holder;
}

std::optional<std::string> at_most_one_leader(World& w, const scenarios::AtMostOneLeader& c) {
  const auto id = w.leadership.find(c.lock);
  if (!id) return std::nullopt;
  return cluster::at_most_one_leader(w.cluster, *id);
}

std::optional<std::string> leader_elected(World& w, const scenarios::LeaderElected& c) {
  const std::optional<std::string> holder = record_holder(w, c.lock);
  std::vector<std::string> leaders;
  if (const auto id = w.leadership.find(c.lock)) {
    const cluster::LockLeadership& lock = w.leadership.lock(*id);
    for (std::size_t i : lock.open) {
      const cluster::LeaderInterval& iv = lock.intervals[i];
      if (!w.replicas[iv.replica]->process->alive()) continue;
      if (holder && *holder == iv.name) return std::nullopt;
      leaders.push_back(iv.name);
    }
  }
  const std::string record = holder ? "the record names \"" + *holder + "\"" : "the lock has no record";
  if (leaders.empty()) return "no live replica believes it leads " + c.lock + "; " + record;
  std::string who;
  for (const auto& name : leaders) who += (who.empty() ? "" : ", ") + name;
  return who + " believe" + (leaders.size() == 1 ? "s" : "") + " it leads " + c.lock + ", but " + record;
}

using KeyVersions = std::vector<std::pair<std::string, std::string>>;

KeyVersions key_versions(const std::vector<api::ObjectPtr>& objects) {
  KeyVersions out;
  out.reserve(objects.size());
  for (const auto& o : objects) out.emplace_back(o->key().str(), std::string(o->resource_version()));
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_difference(const KeyVersions& cache, const KeyVersions& server) {
  std::size_t i = 0;
  while (i < cache.size() && i < server.size() && cache[i] == server[i]) ++i;
  const auto describe = [](const KeyVersions& v, std::size_t at, const std::string& key) {
    for (std::size_t j = at; j < v.size() && v[j].first <= key; ++j) {
      if (v[j].first == key) return "resourceVersion " + v[j].second;
    }
    return std::string("absent");
  };
  std::string key = i < cache.size() ? cache[i].first : server[i].first;
  if (i < cache.size() && i < server.size()) key = std::min(cache[i].first, server[i].first);
  return key + " (cache: " + describe(cache, i, key) + "; server: " + describe(server, i, key) + ")";
}

std::optional<std::string> check_informer(World& w, const Replica& r, InformerFactory& f,
                                          const api::GroupVersionResource& gvr) {
  informer::SharedIndexInformer& inf = f.factory->informer_for(gvr);
  if (!inf.has_started() || inf.is_stopped()) return std::nullopt;
  const std::string where = r.name + ": informer " + gvr.resource + (f.ns.empty() ? "" : " in " + f.ns);
  if (!inf.has_synced()) return where + " has not synced";
  auto listed = w.server.list(gvr, f.ns, api::ListOptions());
  if (!listed.ok()) return where + ": the server cannot list it: " + listed.status().message;
  // The common answers cheaply: same size and every server object cached at its version.
  const auto& items = listed.value().items;
  const informer::Indexer& indexer = inf.get_indexer();
  bool same = indexer.size() == items.size();
  for (std::size_t i = 0; same && i < items.size(); ++i) {
    const api::ObjectPtr cached = indexer.get_by_key(items[i]->key().view());
    same = cached && cached->resource_version() == items[i]->resource_version();
  }
  if (same) return std::nullopt;
  const KeyVersions server = key_versions(items);
  const KeyVersions cache = key_versions(indexer.list());
  return where + ": its cache holds " + std::to_string(cache.size()) + " objects, the server " +
         std::to_string(server.size()) + "; first difference: " + first_difference(cache, server);
}

std::optional<std::string> informers_converged(World& w) {
  for (const auto& r : w.replicas) {
    if (!r->process->alive() || r->process->paused()) continue;
    Incarnation* inc = r->current();
    if (inc == nullptr || inc->finished) continue;
    for (InformerFactory& f : inc->factories) {
      for (const auto& gvr : f.resources()) {
        if (auto broken = check_informer(w, *r, f, gvr)) return broken;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

bool informers_lag(World& w, const fakeapi::CommittedWrite& write) {
  if (write.resource == nullptr || !write.object) return false;
  const std::string_view ns = write.object->namespace_();
  for (const auto& r : w.replicas) {
    if (!r->process->alive() || r->process->paused()) continue;
    Incarnation* inc = r->current();
    if (inc == nullptr || inc->finished) continue;
    for (InformerFactory& f : inc->factories) {
      if (!f.ns.empty() && f.ns != ns) continue;
      for (const auto& gvr : f.resources()) {
        if (gvr.group != write.resource->group || gvr.resource != write.resource->resource) continue;
        const informer::SharedIndexInformer& inf = f.factory->informer_for(gvr);
        if (inf.has_started() && !inf.is_stopped()) return true;
      }
    }
  }
  return false;
}

namespace {

std::string describe(const scenarios::CountQuery& q) {
  std::string out = q.resource.text + (q.ns.empty() ? " in all namespaces" : " in " + q.ns);
  if (!q.label_selector.empty()) out += " with labels " + q.label_selector;
  return out;
}

api::Result<std::int64_t> count(World& w, const scenarios::CountQuery& q) {
  auto counted = cluster::count(w.cluster, q.resource.gvr, q.ns, q.label_selector);
  if (!counted.ok()) return counted.status();
  return counted.value().count;
}

bool compares(scenarios::CountCompare::Op op, std::int64_t have, std::int64_t than) {
  switch (op) {
    case scenarios::CountCompare::Op::kEquals: return have == than;
    case scenarios::CountCompare::Op::kAtMost: return have <= than;
    case scenarios::CountCompare::Op::kAtLeast: return have >= than;
  }
  return false;
}

std::string want_text(scenarios::CountCompare::Op op) {
  switch (op) {
    case scenarios::CountCompare::Op::kEquals: return "want ";
    case scenarios::CountCompare::Op::kAtMost: return "want at most ";
    case scenarios::CountCompare::Op::kAtLeast: return "want at least ";
  }
  return "";
}

std::optional<std::string> count_compare(World& w, const scenarios::CountCompare& c) {
  auto have = count(w, c.count);
  if (!have.ok()) return "cannot count " + describe(c.count) + ": " + have.status().message;
  if (const auto* than = std::get_if<std::int64_t>(&c.than)) {
    if (compares(c.op, have.value(), *than)) return std::nullopt;
    return "count of " + describe(c.count) + " is " + std::to_string(have.value()) + ", " +
           want_text(c.op) + std::to_string(*than);
  }
  const scenarios::CountQuery& other = std::get<scenarios::CountQuery>(c.than);
  auto than = count(w, other);
  if (!than.ok()) return "cannot count " + describe(other) + ": " + than.status().message;
  if (compares(c.op, have.value(), than.value())) return std::nullopt;
  return "count of " + describe(c.count) + " is " + std::to_string(have.value()) + ", " +
         want_text(c.op) + "the count of " + describe(other) + ": " + std::to_string(than.value());
}

std::optional<std::string> object_path_equals(World& w, const scenarios::ObjectPathEquals& c) {
  const std::string what = c.resource.text + "/" + (c.ns.empty() ? "" : c.ns + "/") + c.name;
  auto got = w.server.get(c.resource.gvr, c.ns, c.name, api::GetOptions());
  if (!got.ok()) return what + " does not exist (" + got.status().message + ")";
  const json value = got.value()->value_at(c.path);
  if (value == c.equals) return std::nullopt;
  return what + " " + c.path + " is " + (value.is_null() ? std::string("absent") : short_json(value)) +
         ", want " + short_json(c.equals);
}

std::optional<std::string> max_leader_transitions(World& w, const scenarios::MaxLeaderTransitions& c) {
  const auto id = w.leadership.find(c.lock);
  if (!id) return std::nullopt;
  const auto& transitions = w.leadership.lock(*id).transitions;
  if (transitions.size() <= static_cast<std::size_t>(std::max(c.at_most, 0))) return std::nullopt;
  std::string out = std::to_string(transitions.size()) + " leader transitions on " + c.lock + ", at most " +
                    std::to_string(c.at_most) + " allowed:";
  for (const auto& t : transitions) out += "\n" + t.from + " -> " + t.to + " at " + api::format_go_time(t.at);
  return out;
}

std::optional<std::string> match(World& w, const scenarios::Match& c, const fakeapi::CommittedWrite* write) {
  const fakeapi::ResourceInfo* info = match_resource(w, c.tree);
  const std::string kind = c.tree.value("kind", std::string("object"));
  if (info == nullptr) {
    if (c.negate) return std::nullopt;
    return "no " + kind + " can match: the server does not serve apiVersion " +
           c.tree.value("apiVersion", std::string("?")) + ", kind " + kind;
  }
  const std::string ns = info->namespaced ? match_namespace(c.tree) : "";
  // After a write, only the written object can have changed the answer of a noMatch that held.
  if (write != nullptr && c.negate && write->type == fakeapi::ChangeType::kDeleted) return std::nullopt;
  if (write != nullptr && write->object && write->type != fakeapi::ChangeType::kDeleted) {
    const bool matched = match_tree(c.tree, write->object->json()).matched();
    if (c.negate && !matched) return std::nullopt;
    if (!c.negate && matched) return std::nullopt;
  }
  auto listed = w.server.list(info->gvr, ns, api::ListOptions());
  if (!listed.ok()) return "cannot list " + info->gvr.resource + ": " + listed.status().message;
  const auto& items = listed.value().items;
  const api::Object* closest = nullptr;
  TreeMatch best;
  for (const auto& o : items) {
    TreeMatch m = match_tree(c.tree, o->json());
    if (m.matched()) {
      if (c.negate) return o->key().str() + " matches " + short_json(c.tree, 200);
      return std::nullopt;
    }
    if (closest == nullptr || m.mismatches < best.mismatches) {
      closest = o.get();
      best = std::move(m);
    }
  }
  if (c.negate) return std::nullopt;
  const std::string where = ns.empty() ? "" : " in " + ns;
  if (closest == nullptr) return "no " + kind + " matches: there is none" + where;
  // A tree that names its object: say the object is missing rather than how another differs.
  if (const std::string name = match_name(c.tree); !name.empty()) {
    const bool named = std::any_of(items.begin(), items.end(), [&](const api::ObjectPtr& o) { return o->name() == name; });
    if (!named) return "no " + kind + " matches: " + (ns.empty() ? name : ns + "/" + name) + " does not exist";
  }
  return "no " + kind + " matches" + where + "; the closest, " + closest->key().str() + ", differs in " +
         std::to_string(best.mismatches) + " field" + (best.mismatches == 1 ? "" : "s") + ": " + best.first();
}

}  // namespace

const fakeapi::ResourceInfo* match_resource(World& w, const json& tree) {
  if (!tree.is_object() || !tree.contains("apiVersion") || !tree.contains("kind")) return nullptr;
  if (!tree["apiVersion"].is_string() || !tree["kind"].is_string()) return nullptr;
  const auto gv = api::parse_api_version(tree["apiVersion"].get<std::string>());
  if (!gv) return nullptr;
  return w.server.registry().find_kind({gv->group, gv->version, tree["kind"].get<std::string>()});
}

std::string match_namespace(const json& tree) {
  const auto m = tree.find("metadata");
  if (m == tree.end() || !m->is_object()) return "";
  const auto ns = m->find("namespace");
  return ns != m->end() && ns->is_string() ? ns->get<std::string>() : "";
}

std::string match_name(const json& tree) {
  const auto m = tree.find("metadata");
  if (m == tree.end() || !m->is_object()) return "";
  const auto name = m->find("name");
  return name != m->end() && name->is_string() ? name->get<std::string>() : "";
}

Dependencies dependencies_of(World& w, const scenarios::Condition& condition) {
  Dependencies d;
  const auto on_lock = [&](const std::string& text) {
    if (auto id = w.leadership.find(text)) {
      d.leadership = true;
      d.locks.push_back(*id);
    }
  };
  if (const auto* c = std::get_if<scenarios::AtMostOneLeader>(&condition)) {
    on_lock(c->lock);
  } else if (const auto* c = std::get_if<scenarios::LeaderElected>(&condition)) {
    on_lock(c->lock);
    if (auto ref = parse_lock(c->lock)) d.resources.push_back(lock_resource(ref->kind));
  } else if (std::holds_alternative<scenarios::InformersConverged>(condition)) {
    d.any_write = true;
  } else if (const auto* c = std::get_if<scenarios::CountCompare>(&condition)) {
    d.resources.push_back(c->count.resource.gvr.group_resource());
    if (const auto* q = std::get_if<scenarios::CountQuery>(&c->than)) d.resources.push_back(q->resource.gvr.group_resource());
  } else if (const auto* c = std::get_if<scenarios::ObjectPathEquals>(&condition)) {
    d.resources.push_back(c->resource.gvr.group_resource());
  } else if (const auto* c = std::get_if<scenarios::MaxLeaderTransitions>(&condition)) {
    on_lock(c->lock);
  } else if (const auto* c = std::get_if<scenarios::Match>(&condition)) {
    if (const auto* info = match_resource(w, c->tree)) {
      d.resources.push_back(info->group_resource());
    } else {
      d.any_write = true;  // its kind may be served later (a CRD created by a controller)
    }
  } else if (std::holds_alternative<scenarios::CallBudget>(condition)) {
    d.calls = true;
  }
  return d;
}

std::optional<std::string> evaluate_condition(World& w, const scenarios::Condition& condition,
                                              const fakeapi::CommittedWrite* write) {
  if (const auto* c = std::get_if<scenarios::AtMostOneLeader>(&condition)) return at_most_one_leader(w, *c);
  if (const auto* c = std::get_if<scenarios::LeaderElected>(&condition)) return leader_elected(w, *c);
  if (std::holds_alternative<scenarios::InformersConverged>(condition)) return informers_converged(w);
  if (const auto* c = std::get_if<scenarios::CountCompare>(&condition)) return count_compare(w, *c);
  if (const auto* c = std::get_if<scenarios::ObjectPathEquals>(&condition)) return object_path_equals(w, *c);
  if (const auto* c = std::get_if<scenarios::MaxLeaderTransitions>(&condition)) return max_leader_transitions(w, *c);
  if (const auto* c = std::get_if<scenarios::CallBudget>(&condition)) {
    cluster::CallBudget budget = call_budget(*c);
    budget.follow(w.cluster.calls());
    return budget.why();
  }
  return match(w, std::get<scenarios::Match>(condition), write);
}

cluster::CallPattern call_pattern(const scenarios::CallMatch& m) {
  cluster::CallPattern p = m.resource ? cluster::CallPattern(m.verbs, m.resource->gvr) : cluster::CallPattern(m.verbs);
  if (!m.subresource.empty()) p.subresource(m.subresource);
  if (!m.ns.empty()) p.in(m.ns);
  if (!m.name.empty()) p.named(m.name);
  if (m.whole_process) {
    p.by_group(m.process);
  } else if (!m.process.empty()) {
    p.by(m.process);
  }
  return p;
}

cluster::CallBudget call_budget(const scenarios::CallBudget& budget) {
  cluster::CallPattern pattern = call_pattern(budget.calls);
  if (budget.limit == scenarios::CallBudget::Limit::kPerSecond) return cluster::CallBudget::per_second(std::move(pattern), budget.allowed);
  return cluster::CallBudget::at_most(std::move(pattern), budget.allowed);
}

std::string lock_of(const scenarios::Condition& condition) {
  if (const auto* c = std::get_if<scenarios::AtMostOneLeader>(&condition)) return c->lock;
  if (const auto* c = std::get_if<scenarios::LeaderElected>(&condition)) return c->lock;
  if (const auto* c = std::get_if<scenarios::MaxLeaderTransitions>(&condition)) return c->lock;
  return "";
}

}  // namespace kubesim::runner
