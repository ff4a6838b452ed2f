// What a reference run teaches the explorer: the write points of each replica (explore/internal/perturb.h).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "explore/internal/perturb.h"
#include "kubesim/api/go_duration.h"

namespace kubesim::explore {

std::string resource_text(const api::GroupVersionResource& gvr) {
  if (gvr.group.empty()) return gvr.resource;
  return gvr.group + "/" + gvr.version + "/" + gvr.resource;
}

std::string WritePoint::text() const {
  return replica + " " + std::string(api::to_string(verb)) + " " + resource + " #" +
         std::to_string(count);
}

std::string family_name(Family family) {
  switch (family) {
    case Family::kCrash:
      return "crash";
    case Family::kCoalesce:
      return "coalesce";
    case Family::kStale:
      return "stale";
    case Family::kRandom:
      return "random";
    case Family::kRecur:
      return "recur";
    case Family::kRelist:
      return "relist";
    case Family::kStart:
      return "start";
  }
  return "?";
}

WritePoint point_of(const fakeapi::RecordedCall& call, int count) {
  WritePoint p;
  p.replica = call.process;
  p.verb = call.verb;
  p.resource = resource_text(call.resource);
  p.count = count;
  p.at = call.answered;
  p.object = call.ns.empty() ? call.name : call.ns + "/" + call.name;
  return p;
}

std::vector<WritePoint> learn_points(const std::vector<fakeapi::RecordedCall>& calls,
                                     const std::vector<std::string>& replicas, sim::Time before) {
  const std::set<std::string> wanted(replicas.begin(), replicas.end());
  using Kind = std::tuple<std::string, fakeapi::Verb, std::string>;
  std::map<Kind, int> seen;  // requests so far of each kind, as a trigger counts them
  std::map<Kind, std::size_t> group_of;
  std::vector<std::vector<WritePoint>> groups;  // per kind, in the order kinds first appear
  for (const fakeapi::RecordedCall& call : calls) {
    if (wanted.count(call.process) == 0 || !api::is_write(call.verb)) continue;
    // A trigger matches on the plural alone (any subresource, any group).
    const Kind counted{call.process, call.verb, call.resource.resource};
    const int count = ++seen[counted];
    if (call.answered >= before) continue;
    auto [it, fresh] = group_of.emplace(counted, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(point_of(call, count));
  }
  // Each kind's points from both ends: its first, its last, its second, its second to last, …
  // so that the last change of each kind is tried early too (a bug that shows only on the last
  // change is otherwise reached after every other point).
  const auto from_both_ends = [](std::size_t i, std::size_t n) { return i % 2 == 0 ? i / 2 : n - 1 - i / 2; };
  std::vector<WritePoint> out;
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const auto& g : groups) {
      if (round < g.size()) {
        out.push_back(g[from_both_ends(round, g.size())]);
        any = true;
      }
    }
    if (!any) break;
  }
  return out;
}

std::map<std::string, sim::Duration> learn_first_lists(const std::vector<fakeapi::RecordedCall>& calls,
                                                       const std::vector<std::string>& replicas) {
  std::map<std::string, sim::Duration> out;
  for (const fakeapi::RecordedCall& call : calls) {
    if (call.verb != fakeapi::Verb::kList || out.count(call.process) > 0) continue;
    if (std::find(replicas.begin(), replicas.end(), call.process) == replicas.end()) continue;
    out[call.process] = call.received - sim::Time{};
  }
  return out;
}

Space make_space(const scenarios::Scenario& scenario, const std::vector<std::uint64_t>& seeds) {
  Space space;
  space.seeds = seeds;
  space.duration = scenario.duration;
  space.settle = scenario.settle();
  space.families.assign(std::begin(kFamilies), std::end(kFamilies));
  bool any_elector = false;
  for (const scenarios::ProcessSpec& process : scenario.processes) {
    for (int i = 0; i < process.replicas; ++i) {
      space.replicas.push_back(process.name + "-" + std::to_string(i));
      if (!process.watch_list) space.listing_replicas.push_back(space.replicas.back());
    }
    for (const scenarios::Actor& actor : process.run) {
      if (const auto* e = std::get_if<scenarios::ElectorSpec>(&actor)) {
        space.renew_deadline =
            any_elector ? std::min(space.renew_deadline, e->renew_deadline) : e->renew_deadline;
        any_elector = true;
      }
    }
  }
  return space;
}

}  // namespace kubesim::explore
