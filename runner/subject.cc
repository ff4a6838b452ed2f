// What a check is about, and whether it existed: the subject of a check and the vacuity tests
// over it (kubesim/runner/conditions.h).
#include <algorithm>
#include <string>

#include "kubesim/api/labels.h"
#include "kubesim/api/options.h"
#include "kubesim/runner/conditions.h"
#include "kubesim/runner/world.h"
#include "runner/internal/match_tree.h"

namespace kubesim::runner {

std::string Subject::absence() const {
  std::string out;
  for (const Objects& o : objects) {
    std::string one = o.gvr.resource;
    if (!o.name.empty()) one += " " + (o.ns.empty() ? o.name : o.ns + "/" + o.name);
    else if (!o.ns.empty()) one += " in " + o.ns;
    if (!o.selector.empty()) one += " with labels " + o.selector;
    out += (out.empty() ? "no " : " nor ") + one;
  }
  if (!lock.empty()) out += (out.empty() ? "" : ", and ") + std::string("no replica leading ") + lock;
  if (calls) {
    // "any call on configmaps by ctl-0" → "no call on configmaps by ctl-0".
    const std::string any = calls->describe();
    out += (out.empty() ? "no " : ", and no ") + (any.starts_with("any ") ? any.substr(4) : any);
  }
  return out;
}

Subject subject_of(World& w, const scenarios::Condition& condition) {
  Subject s;
  const auto query = [&](const scenarios::CountQuery& q) {
    s.objects.push_back(Subject::Objects{q.resource.gvr, q.ns, "", q.label_selector});
  };
  if (const auto* c = std::get_if<scenarios::AtMostOneLeader>(&condition)) {
    s.lock = c->lock;
  } else if (const auto* c = std::get_if<scenarios::MaxLeaderTransitions>(&condition)) {
    s.lock = c->lock;
  } else if (const auto* c = std::get_if<scenarios::CountCompare>(&condition)) {
    query(c->count);
    if (const auto* q = std::get_if<scenarios::CountQuery>(&c->than)) query(*q);
  } else if (const auto* c = std::get_if<scenarios::ObjectPathEquals>(&condition)) {
    s.objects.push_back(Subject::Objects{c->resource.gvr, c->ns, c->name, ""});
  } else if (const auto* c = std::get_if<scenarios::Match>(&condition)) {
    if (const auto* info = match_resource(w, c->tree)) {
      s.objects.push_back(Subject::Objects{info->gvr, info->namespaced ? match_namespace(c->tree) : "", match_name(c->tree), ""});
    }
  } else if (const auto* c = std::get_if<scenarios::CallBudget>(&condition)) {
    s.calls = call_budget(*c).subject();
  }
  return s;
}

bool objects_present(World& w, const Subject& subject) {
  for (const Subject::Objects& o : subject.objects) {
    if (!o.name.empty()) {
      if (w.server.get(o.gvr, o.ns, o.name, api::GetOptions()).ok()) return true;
      continue;
    }
    api::ListOptions options;
    options.label_selector = o.selector;
    options.limit = 1;
    auto listed = w.server.list(o.gvr, o.ns, options);
    if (listed.ok() && !listed.value().items.empty()) return true;
  }
  return false;
}

bool objects_written(const Subject& subject, const fakeapi::CommittedWrite& write) {
  if (write.resource == nullptr || !write.object || write.type == fakeapi::ChangeType::kDeleted) return false;
  for (const Subject::Objects& o : subject.objects) {
    if (write.resource->resource != o.gvr.resource || write.resource->group != o.gvr.group) continue;
    if (!o.ns.empty() && write.object->namespace_() != o.ns) continue;
    if (!o.name.empty() && write.object->name() != o.name) continue;
    if (!o.selector.empty()) {
      const auto selector = api::parse_label_selector(o.selector);
      const api::Object& object = *write.object;
      if (!selector.ok() || !selector.value().matches([&object](std::string_view key) { return object.label(key); })) continue;
    }
    return true;
  }
  return false;
}

bool lock_led(World& w, const Subject& subject, sim::Time from, sim::Time to) {
  if (subject.lock.empty()) return false;
  const auto id = w.leadership.find(subject.lock);
  if (!id) return false;
  const cluster::LockLeadership& lock = w.leadership.lock(*id);
  for (std::size_t i = 0; i < lock.intervals.size(); ++i) {
    const cluster::LeaderInterval& iv = lock.intervals[i];
    const bool open = std::find(lock.open.begin(), lock.open.end(), i) != lock.open.end();
    if (iv.from <= to && (open || iv.to >= from)) return true;
  }
  return false;
}

}  // namespace kubesim::runner
