// The explorer's perturbations: the write points a reference run learns, and the candidates made
// from them — each a few ordinary timeline entries (`when:`/`at:` events, `faults:` rules) to
// append to the scenario file, so that a failing candidate is a scenario file as it stands.
//
// A candidate is a pure function of (the scenario, the learned points, the families on, its
// index): make_candidate never reads a clock or a shared generator, so the same command makes
// the same candidates whatever the number of threads. Families take turns (index modulo the
// number of families), so every family is tried within the first few runs; within a family the
// seeds take turns, and the crash, coalesce and stale families walk the points in order (the
// points are interleaved across replica, verb and resource, so the first write of each kind
// comes first), then draw them at random; the recur family walks the objects a replica wrote
// three times or more; the relist family walks the deletions another made of what a replica
// watches.
#ifndef KUBESIM_EXPLORE_INTERNAL_PERTURB_H_
#define KUBESIM_EXPLORE_INTERNAL_PERTURB_H_

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kubesim/api/go_duration.h"
#include "kubesim/fakeapi/recorder.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/rng.h"
#include "kubesim/sim/time.h"

namespace kubesim::explore {

// `t` as a duration from the start, rounded down to a whole millisecond (as timeline entries are
// written).
inline sim::Duration floor_ms(sim::Time t) {
  return std::chrono::floor<std::chrono::milliseconds>(t - sim::Time{});
}

// A duration drawn uniformly from [lo, hi), rounded down to a whole millisecond (never below
// `lo`, a whole millisecond itself), so that a candidate's file reads `2.417s`, not
// `2.417093821s`.
inline sim::Duration draw_ms(sim::Rng& rng, sim::Duration lo, sim::Duration hi) {
  return std::max<sim::Duration>(lo, std::chrono::floor<std::chrono::milliseconds>(rng.uniform_duration(lo, hi)));
}

// A resource as a file names it: the plural of a core resource, group/version/plural otherwise
// (the parser resolves both).
std::string resource_text(const api::GroupVersionResource& gvr);

// A replica's k-th request of one verb on one resource, as a `when:` trigger counts them (every
// answered request of that replica, verb and resource, whatever its outcome or subresource).
struct WritePoint {
  std::string replica;
  fakeapi::Verb verb = fakeapi::Verb::kUpdate;
  std::string resource;  // as a file names it: "configmaps", "example.com/v1/widgets"
  int count = 1;
  sim::Time at{};        // when the reference run's answer left the server
  std::string object;    // "NS/NAME" or "NAME"
  // "mirror-0 update configmaps #3"
  std::string text() const;
  bool operator==(const WritePoint&) const = default;
};

// The point of `call`, the count-th of its kind.
WritePoint point_of(const fakeapi::RecordedCall& call, int count);

// The write points (create, update, patch, delete, deletecollection) of `replicas` in `calls`
// answered before `before`, interleaved: the first point of each (replica, verb, resource) in
// the order they first appear, then the last of each, then the second of each, the second to
// last, and so on (each kind's points from both ends).
std::vector<WritePoint> learn_points(const std::vector<fakeapi::RecordedCall>& calls,
                                     const std::vector<std::string>& replicas, sim::Time before);

// When each of `replicas` sent its first list in `calls` (the run starts at 0): how long its
// informers take to list after it starts.
std::map<std::string, sim::Duration> learn_first_lists(const std::vector<fakeapi::RecordedCall>& calls,
                                                       const std::vector<std::string>& replicas);

// A deletion a replica's informer would see only by re-listing (relist.cc): `deletion` is the
// delete (its `replica` the deleter: another replica, or "workload"), and `replica` watched the
// object's resource, in all namespaces or in the object's, before it.
struct RelistTarget {
  std::string replica;
  // From when the replica could have the object: its first watch of the resource reached the
  // server, and the object's create (when the log has it) was answered.
  sim::Time seen{};
  WritePoint deletion;
  // "sync-0 cut off over workload delete configmaps #3"
  std::string text() const;
  bool operator==(const RelistTarget&) const = default;
};

// The RelistTargets in `calls`: each delete answered with success before `before` by any process
// but the watcher, paired with each of `replicas` that watched its resource before it, in the
// order of the deletions (then of `replicas`). A delete's count is as a trigger counts it.
// Targets whose deletion comes too soon after `seen` (or too late) are the candidates' to skip.
std::vector<RelistTarget> learn_relists(const std::vector<fakeapi::RecordedCall>& calls,
                                        const std::vector<std::string>& replicas, sim::Time before);

// A replica's first list or watch of one resource (start.cc): the start family's target.
struct StartTarget {
  std::string replica;
  std::string resource;  // as a file names it
  // "ctl-0 secrets"
  std::string text() const;
  bool operator==(const StartTarget&) const = default;
};

// The resources each of `replicas` listed or watched in `calls`, one target per (replica,
// resource), interleaved: each replica's first resource in `replicas`' order, then each one's
// second, and so on.
std::vector<StartTarget> learn_starts(const std::vector<fakeapi::RecordedCall>& calls,
                                      const std::vector<std::string>& replicas);

enum class Family { kCrash, kCoalesce, kStale, kRandom, kRecur, kRelist, kStart };
inline constexpr Family kFamilies[] = {Family::kCrash,  Family::kCoalesce, Family::kStale, Family::kRandom,
                                       Family::kRecur,  Family::kRelist,   Family::kStart};
std::string family_name(Family family);

// What the candidates are made from.
struct Space {
  std::vector<std::uint64_t> seeds;
  std::map<std::uint64_t, std::vector<WritePoint>> points;  // per seed, learn_points' order
  // Per seed, when each replica's first list reached the server (learn_first_lists).
  std::map<std::uint64_t, std::map<std::string, sim::Duration>> first_list;
  std::map<std::uint64_t, std::vector<RelistTarget>> relists;  // per seed, learn_relists' order
  std::map<std::uint64_t, std::vector<StartTarget>> starts;     // per seed, learn_starts' order
  std::vector<std::string> replicas;  // every replica of the scenario's processes
  // The replicas whose informers list at resourceVersion "0" (their process has watchList:
  // false): the only ones a lagging view makes stale, so the stale family's targets.
  std::vector<std::string> listing_replicas;
  std::vector<Family> families;       // the families on, in kFamilies' order
  bool coalesce = true;               // the parser knows the coalesce fault
  sim::Duration duration{};
  sim::Duration settle{};             // every perturbation ends by duration − settle
  sim::Duration renew_deadline = std::chrono::seconds(10);  // the shortest of the electors'
};

// The Space of a parsed scenario, without points (the reference runs add them).
Space make_space(const scenarios::Scenario& scenario, const std::vector<std::uint64_t>& seeds);

struct Candidate {
  std::size_t index = 0;
  Family family = Family::kCrash;
  std::uint64_t seed = 0;
  std::vector<YAML::Node> timeline;  // the entries to append to the file's timeline
  std::string text;                  // one line for people
  std::vector<std::string> points;   // the points it targets (for the table)
};

// The recur family's candidate for its j-th turn (recur.cc): errors on one replica's writes of
// one object it wrote three times or more, across a window ending before one of those writes,
// and one more error on the write after it.
void recur_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c);

// The relist family's candidate for its j-th turn (relist.cc): a replica cut off from the server
// over a deletion of an object it watches, and the history compacted behind the deletion, so
// that its informer re-lists and learns the deletion as a tombstone.
void relist_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c);

// The start family's candidate for its j-th turn (start.cc): a replica's first list and watch of
// one resource failing or slowed, at its start or right after a restart, so that one of its
// informers syncs seconds after the others.
void start_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c);

// What the families share (a duration as a file writes it is api::format_go_duration's): the end
// of the perturbations (duration − settle); a window from `from` lasting `wanted`, cut to end by
// that limit (at least 1ms); a node in flow style; a one-rule `faults:` list; a `when:` trigger
// right after a point and an entry holding one action there.
sim::Time limit_of(const Space& space);
sim::Duration window(const Space& space, sim::Time from, sim::Duration wanted);
YAML::Node flow(YAML::Node node);
YAML::Node rules(YAML::Node rule);
YAML::Node trigger(const WritePoint& p);
// A crash action's value: `{process: R, restartAfter: D}` (block style; flow() it in an entry).
YAML::Node crash_of(const std::string& replica, sim::Duration restart_after);
YAML::Node entry_after(const WritePoint& p, const std::string& action, const YAML::Node& value);

// The index-th candidate; `timeline` is empty when the family has no point to work on for its
// seed (such a candidate is not run).
Candidate make_candidate(const Space& space, std::size_t index);

// The scenario document with the candidate written in: its entries appended to `timeline` and
// `seeds: [S]`. `document` is not changed.
YAML::Node apply_candidate(const YAML::Node& document, const Candidate& candidate);

}  // namespace kubesim::explore

#endif  // KUBESIM_EXPLORE_INTERNAL_PERTURB_H_
