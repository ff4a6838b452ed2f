// The recur family (explore/perturb.h): errors that recur on one object.
//
// Errors come in bursts and come back: a webhook that flaps, an etcd leader election, a quota
// that a neighbour keeps exhausting. A controller's per-item backoff must recover from a burst
// and must not let it count against the next, single error: client-go's rate limiter waits
// 5ms · 2^n after an item's n-th failure, counted until Forget (after a success) starts it again.
//
// A target is one object a replica wrote at least three times in the reference run (its Lease
// aside: the random family fails Lease writes), at times t1 < t2 < … < tL. A candidate picks
// the write f that gets the last error (the last write, on the first passes) and r = f − 1:
//   - from just after the write s (s < r) until shortly before t_r, the replica's writes of the
//     object fail with 500 (or 409), each with probability p;
//   - from just after t_r, the next such write fails once more.
// The write r comes from a change after the burst, so a correct controller succeeds there and
// its next failure waits 5ms; one that never forgets carries the burst's count into that single
// error, and waits minutes. Both rules end by duration − settle.
#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "explore/internal/perturb.h"

namespace kubesim::explore {

namespace {

using namespace std::chrono_literals;

constexpr const char* kLeases = "coordination.k8s.io/v1/leases";

// One object a replica wrote, and when (in order).
struct Target {
  std::string replica;
  std::string resource;
  std::string ns, name;
  std::vector<sim::Time> at;
};

// Every (replica, resource, object) written three times or more, in the order of its first write.
std::vector<Target> recur_targets(const std::vector<WritePoint>& points) {
  std::vector<Target> out;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  std::vector<const WritePoint*> by_time;
  for (const WritePoint& p : points) by_time.push_back(&p);
  std::stable_sort(by_time.begin(), by_time.end(), [](const auto* a, const auto* b) { return a->at < b->at; });
  for (const WritePoint* p : by_time) {
    if (p->resource == kLeases || p->object.empty()) continue;
    auto [it, fresh] = index.emplace(std::tuple{p->replica, p->resource, p->object}, out.size());
    if (fresh) {
      Target t;
      t.replica = p->replica;
      t.resource = p->resource;
      const auto slash = p->object.find('/');
      t.ns = slash == std::string::npos ? "" : p->object.substr(0, slash);
      t.name = slash == std::string::npos ? p->object : p->object.substr(slash + 1);
      out.push_back(std::move(t));
    }
    out[it->second].at.push_back(p->at);
  }
  std::erase_if(out, [](const Target& t) { return t.at.size() < 3; });
  return out;
}

// Whole milliseconds, so the file reads well.
// The rule's choice of requests: the replica's writes of the object.
YAML::Node writes_of(const Target& t) {
  YAML::Node rule;
  rule["verb"] = flow(YAML::Load("[create, update, patch, delete]"));
  rule["resource"] = t.resource;
  if (!t.ns.empty()) rule["namespace"] = t.ns;
  rule["name"] = t.name;
  rule["process"] = t.replica;
  return rule;
}

YAML::Node at_entry(sim::Duration at, YAML::Node rule) {
  YAML::Node e;
  e["at"] = api::format_go_duration(at);
  e["faults"] = rules(std::move(rule));
  return e;
}

// What one turn tries: the burst from after write s, with probability p and this code, then the
// last error on write f (indices into Target::at).
struct Shape {
  std::size_t s = 0, f = 0;
  std::string p = "1";  // as the file writes it
  int code = 500;
};

Shape shape_of(const Target& t, std::size_t pass, sim::Rng& rng) {
  const std::size_t last = t.at.size() - 1;
  Shape shape;
  shape.f = last;
  switch (pass) {
    case 0:  // an outage from the first write on
      return shape;
    case 1:  // the same with 409s (a conflict is an error to retry too)
      shape.code = 409;
      return shape;
    case 2:  // a flapping burst over the last few writes
      shape.s = last >= 4 ? last - 4 : 0;
      shape.p = "0.8";
      return shape;
    default:
      shape.f = 2 + rng.uniform(last - 1);
      shape.s = rng.uniform(shape.f - 1);
      shape.p = std::vector<std::string>{"1", "0.9", "0.7", "0.5"}[rng.uniform(4)];
      shape.code = rng.bernoulli(0.5) ? 500 : 409;
      return shape;
  }
}

}  // namespace

void recur_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  c.seed = space.seeds[j % space.seeds.size()];
  const std::vector<Target> targets = recur_targets(space.points.at(c.seed));
  if (targets.empty()) return;
  const std::size_t m = j / space.seeds.size();
  const std::size_t pass = m / targets.size();
  const Target& t = pass < 3 ? targets[m % targets.size()] : targets[rng.uniform(targets.size())];
  const Shape shape = shape_of(t, pass, rng);
  const std::size_t r = shape.f - 1;
  // The burst ends before the change that brings write r: half the gap to the write before it,
  // at most a second.
  const sim::Duration start = floor_ms(t.at[shape.s]) + 1ms;
  const sim::Duration gap = std::min<sim::Duration>(1s, (t.at[r] - t.at[r - 1]) / 2);
  const sim::Duration end = std::max(start + 1ms, floor_ms(t.at[r] - gap));
  YAML::Node burst = writes_of(t);
  burst["error"] = shape.code;
  if (shape.p != "1") burst["probability"] = shape.p;
  burst["for"] = api::format_go_duration(window(space, sim::Time{} + start, end - start));
  c.timeline.push_back(at_entry(start, burst));
  const sim::Duration again = std::min(floor_ms(t.at[r]) + 1ms, limit_of(space) - sim::Time{});
  YAML::Node last = writes_of(t);
  last["error"] = shape.code;
  last["count"] = 1;
  last["for"] = api::format_go_duration(window(space, sim::Time{} + again, space.duration));
  c.timeline.push_back(at_entry(again, last));
  c.points.push_back(t.replica + " " + t.resource + " " + (t.ns.empty() ? "" : t.ns + "/") + t.name + " write #" +
                     std::to_string(shape.f + 1));
}

}  // namespace kubesim::explore
