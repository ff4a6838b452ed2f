// The relist family (explore/perturb.h): a deletion an informer learns only from a re-list.
//
// A watch that ends resumes from the last resourceVersion it saw; when the server's history no
// longer reaches back that far (etcd compacted it), the resume is answered 410 Gone and the
// reflector lists again. A deletion that happened in between shows only as an object missing
// from the list, and the informer hands it to the delete handlers as a DeletedFinalStateUnknown
// tombstone (client-go's DeltaFIFO.Replace), which a handler must unwrap. Real clusters show it
// whenever a controller is cut off from the API server for longer than etcd keeps the history
// it needs: a network partition of its node, and a compaction meanwhile.
//
// A target is a replica that watches a resource and a deletion of an object of that resource (in
// a namespace the watch covers) by another — the workload or another replica — a second or more
// after the watch opened and the object was made (so that the object is in the replica's cache),
// with three seconds left before duration − settle (learn_relists). A candidate:
//   - partitions the replica from `lead` before the deletion (not before that second), for
//     long enough that its watch ends (kWatchCut: the in-process client ends a watch
//     partitioned for watch_partition_timeout, and notices within watch_partition_check; a live
//     replica's watches are cut at once); when that does not fit before duration − settle, and
//     on the second pass, the partition lasts until three seconds after the deletion and an API
//     server restart at its start cuts the watch (and every other, which resume);
//   - compacts the history right after the deletion (a trigger on the deleting replica's
//     request; a second after it for the workload's, which keeps its own times), while the
//     replica is still cut off.
// When the link heals the replica's watch resumes from before the deletion, gets 410 Gone, and
// its informer lists again. Leads of 1 s, then 3 s, then drawn from 100 ms to 5 s.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "explore/internal/perturb.h"
#include "kubesim/fakeapi/inprocess_client.h"

namespace kubesim::explore {

std::string RelistTarget::text() const { return replica + " cut off over " + deletion.text(); }

std::vector<RelistTarget> learn_relists(const std::vector<fakeapi::RecordedCall>& calls,
                                        const std::vector<std::string>& replicas, sim::Time before) {
  const std::set<std::string> wanted(replicas.begin(), replicas.end());
  // (replica, resource) -> the namespaces it watched ("" for all), each with when it first did.
  std::map<std::pair<std::string, std::string>, std::map<std::string, sim::Time>> watched;
  for (const fakeapi::RecordedCall& call : calls) {
    if (call.verb != fakeapi::Verb::kWatch || wanted.count(call.process) == 0) continue;
    auto [it, fresh] = watched[{call.process, resource_text(call.resource)}].emplace(call.ns, call.received);
    if (!fresh) it->second = std::min(it->second, call.received);
  }
  // When `replica` first watched `resource` in a way that covers namespace `ns`.
  const auto watching = [&](const std::string& replica, const std::string& resource,
                            const std::string& ns) -> std::optional<sim::Time> {
    auto w = watched.find({replica, resource});
    if (w == watched.end()) return std::nullopt;
    std::optional<sim::Time> since;
    for (const std::string& covering : {std::string(), ns}) {
      if (auto it = w->second.find(covering); it != w->second.end()) since = std::min(since.value_or(it->second), it->second);
    }
    return since;
  };
  std::map<std::tuple<std::string, fakeapi::Verb, std::string>, int> seen;  // as a trigger counts
  std::map<std::pair<std::string, std::string>, sim::Time> created;  // (resource, object) -> when
  std::vector<RelistTarget> out;
  for (const fakeapi::RecordedCall& call : calls) {
    if (!api::is_write(call.verb)) continue;
    const int count = ++seen[{call.process, call.verb, call.resource.resource}];
    const WritePoint d = point_of(call, count);
    if (call.verb == fakeapi::Verb::kCreate && call.ok()) created[{d.resource, d.object}] = d.at;
    if (call.verb != fakeapi::Verb::kDelete || !call.ok() || call.answered >= before) continue;
    const auto made = created.find({d.resource, d.object});
    for (const std::string& replica : replicas) {
      if (replica == call.process) continue;
      auto since = watching(replica, d.resource, call.ns);
      if (!since) continue;
      if (made != created.end()) since = std::max(*since, made->second);
      if (*since < d.at) out.push_back(RelistTarget{replica, *since, d});
    }
  }
  return out;
}

namespace {

using namespace std::chrono_literals;

// How long a partition lasts to end the replica's open watches (see the file's header).
const sim::Duration kWatchCut = [] {
  const fakeapi::InProcessClientOptions client;
  return client.watch_partition_timeout + client.watch_partition_check + 5s;
}();
// How long after its watch opened and the object was made the replica is taken to hold the
// object in its cache (its list or the event has crossed the link), so that a partition from
// then on hides the deletion.
constexpr sim::Duration kInCache = 1s;
// After the deletion: the workload's compaction, and the end of a short partition.
constexpr sim::Duration kCompactAfter = 1s;
constexpr sim::Duration kHealAfter = 3s;

YAML::Node at_entry(sim::Duration at, const std::string& action, const YAML::Node& value) {
  YAML::Node e;
  e["at"] = api::format_go_duration(at);
  e[action] = value;
  return e;
}

// The targets of a seed that leave room for the perturbation before duration − settle.
std::vector<const RelistTarget*> targets_of(const Space& space, std::uint64_t seed) {
  std::vector<const RelistTarget*> out;
  auto it = space.relists.find(seed);
  if (it == space.relists.end()) return out;
  for (const RelistTarget& t : it->second) {
    if (t.seen + kInCache <= t.deletion.at && t.deletion.at + kHealAfter <= limit_of(space)) out.push_back(&t);
  }
  return out;
}

// The compaction right after the deletion: on a trigger when a replica deleted it.
YAML::Node compaction(const Space& space, const WritePoint& deletion) {
  const YAML::Node compact = flow(YAML::Node(YAML::NodeType::Map));
  if (std::find(space.replicas.begin(), space.replicas.end(), deletion.replica) != space.replicas.end()) {
    return entry_after(deletion, "compact", compact);
  }
  return at_entry(floor_ms(deletion.at) + kCompactAfter, "compact", compact);
}

}  // namespace

void relist_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  c.seed = space.seeds[j % space.seeds.size()];
  const std::vector<const RelistTarget*> targets = targets_of(space, c.seed);
  if (targets.empty()) return;
  const std::size_t m = j / space.seeds.size();
  const std::size_t pass = m / targets.size();
  const RelistTarget& t = *(pass < 2 ? targets[m % targets.size()] : targets[rng.uniform(targets.size())]);
  const sim::Duration lead = pass == 0 ? 1s : pass == 1 ? 3s : draw_ms(rng, 100ms, 5s);
  // From `lead` before the deletion, but once the object is in the replica's cache.
  const sim::Duration deleted = floor_ms(t.deletion.at);
  const sim::Duration from = std::min(deleted, std::max(deleted - lead, floor_ms(t.seen) + kInCache));
  const bool long_fits = sim::Time{} + from + kWatchCut <= limit_of(space);
  const bool cut_by_partition = long_fits && (pass == 0 || (pass >= 2 && rng.bernoulli(0.5)));
  YAML::Node partition;
  partition["process"] = t.replica;
  partition["for"] = api::format_go_duration(cut_by_partition ? kWatchCut : window(space, sim::Time{} + from, deleted - from + kHealAfter));
  c.timeline.push_back(at_entry(from, "partition", flow(partition)));
  if (!cut_by_partition) c.timeline.push_back(at_entry(from, "apiserver", YAML::Node("restart")));
  c.timeline.push_back(compaction(space, t.deletion));
  c.points.push_back(t.text());
}

}  // namespace kubesim::explore
