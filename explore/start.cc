// The start family (explore/perturb.h): faults on a replica's first list and watch of one
// resource, at its start and right after a restart.
//
// A controller must not act before every cache it reads has synced: client-go's
// WaitForCacheSync takes every informer's HasSynced for that reason. One that waits only for the
// informer whose events drive its queue, and reads another lister, acts on an empty cache
// whenever that other list is slow — a slow or failing API server at start-up, a restart during
// an incident — and nothing shows while lists are fast. A target is a replica and a resource it
// listed or watched in the reference run (learn_starts); a candidate makes that replica's first
// requests for that resource fail or wait, so that this one informer syncs seconds after the
// others:
//   - pass 0: from the start, its first list or watch request of the resource waits 5 s;
//   - pass 1: from the start, its first three such requests fail with 500 (the reflector backs
//     off 0.8–1.6 s, then 1.6–3.2 s between its lists);
//   - pass 2: the wait right after a restart: the replica crashes right after its first write
//     (or a quarter into the perturbed time, when it writes nothing) and restarts 1 s later;
//   - then drawn at random: start or restart, 500 / 503 / 429 (Retry-After 1–3 s) on 1–3
//     requests, or a wait of 1–8 s on the first.
// Every rule ends by duration − settle.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "explore/internal/perturb.h"
#include "kubesim/api/go_duration.h"

namespace kubesim::explore {

std::string StartTarget::text() const { return replica + " " + resource; }

std::vector<StartTarget> learn_starts(const std::vector<fakeapi::RecordedCall>& calls,
                                      const std::vector<std::string>& replicas) {
  std::map<std::string, std::vector<std::string>> per_replica;  // resources, in first-request order
  std::set<std::pair<std::string, std::string>> seen;
  for (const fakeapi::RecordedCall& call : calls) {
    if (call.verb != fakeapi::Verb::kList && call.verb != fakeapi::Verb::kWatch) continue;
    if (std::find(replicas.begin(), replicas.end(), call.process) == replicas.end()) continue;
    const std::string resource = resource_text(call.resource);
    if (seen.emplace(call.process, resource).second) per_replica[call.process].push_back(resource);
  }
  // Interleaved: each replica's first resource (in `replicas`' order), then each one's second, ….
  std::vector<StartTarget> out;
  for (std::size_t round = 0;; ++round) {
    bool any = false;
    for (const std::string& replica : replicas) {
      auto it = per_replica.find(replica);
      if (it == per_replica.end() || round >= it->second.size()) continue;
      out.push_back(StartTarget{replica, it->second[round]});
      any = true;
    }
    if (!any) break;
  }
  return out;
}

namespace {

using namespace std::chrono_literals;

constexpr sim::Duration kRestartAfter = 1s;

// The rule on the target's list and watch requests: what happens to them, set by the caller.
YAML::Node first_requests(const StartTarget& t) {
  YAML::Node rule;
  rule["verb"] = flow(YAML::Load("[list, watch]"));
  rule["resource"] = t.resource;
  rule["process"] = t.replica;
  return rule;
}

void fail(YAML::Node& rule, int code, int count) {
  rule["error"] = code;
  rule["count"] = count;
}

void wait(YAML::Node& rule, sim::Duration by) {
  rule["latency"] = api::format_go_duration(by);
  rule["count"] = 1;
}

// The replica's first write point in the seed, if any.
const WritePoint* first_write(const Space& space, std::uint64_t seed, const std::string& replica) {
  auto it = space.points.find(seed);
  if (it == space.points.end()) return nullptr;
  const WritePoint* first = nullptr;
  for (const WritePoint& p : it->second) {
    if (p.replica == replica && (first == nullptr || p.at < first->at)) first = &p;
  }
  return first;
}

}  // namespace

void start_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  c.seed = space.seeds[j % space.seeds.size()];
  auto found = space.starts.find(c.seed);
  if (found == space.starts.end() || found->second.empty()) return;
  const std::vector<StartTarget>& targets = found->second;
  const std::size_t m = j / space.seeds.size();
  const std::size_t pass = m / targets.size();
  const StartTarget& t = pass < 3 ? targets[m % targets.size()] : targets[rng.uniform(targets.size())];
  YAML::Node rule = first_requests(t);
  bool restart = pass == 2;
  if (pass == 0 || pass == 2) {
    wait(rule, 5s);
  } else if (pass == 1) {
    fail(rule, 500, 3);
  } else {
    restart = rng.bernoulli(0.5);
    switch (rng.uniform(4)) {
      case 0:
        fail(rule, 500, static_cast<int>(1 + rng.uniform(3)));
        break;
      case 1:
        fail(rule, 503, static_cast<int>(1 + rng.uniform(3)));
        break;
      case 2:
        fail(rule, 429, static_cast<int>(1 + rng.uniform(3)));
        rule["retryAfter"] = std::to_string(1 + rng.uniform(3)) + "s";
        break;
      default:
        wait(rule, draw_ms(rng, 1s, 8s));
        break;
    }
  }
  if (!restart) {
    rule["for"] = api::format_go_duration(window(space, sim::Time{}, 30s));
    YAML::Node e;
    e["at"] = "0s";
    e["faults"] = rules(rule);
    c.timeline.push_back(e);
    c.points.push_back(t.text() + " at start");
    return;
  }
  if (const WritePoint* p = first_write(space, c.seed, t.replica)) {
    rule["for"] = api::format_go_duration(window(space, p->at, 30s));
    c.timeline.push_back(entry_after(*p, "faults", rules(rule)));
    c.timeline.push_back(entry_after(*p, "crash", flow(crash_of(t.replica, kRestartAfter))));
    c.points.push_back(t.text() + " after a restart after " + p->text());
    return;
  }
  const sim::Duration at = std::chrono::floor<std::chrono::milliseconds>((limit_of(space) - sim::Time{}) / 4);
  if (at <= sim::Duration::zero()) return;
  rule["for"] = api::format_go_duration(window(space, sim::Time{} + at, 30s));
  YAML::Node faults;
  faults["at"] = api::format_go_duration(at);
  faults["faults"] = rules(rule);
  YAML::Node down;
  down["at"] = api::format_go_duration(at);
  down["crash"] = flow(crash_of(t.replica, kRestartAfter));
  c.timeline.push_back(faults);
  c.timeline.push_back(down);
  c.points.push_back(t.text() + " after a restart at " + api::format_go_duration(at));
}

}  // namespace kubesim::explore
