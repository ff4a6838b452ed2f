// The candidates: perturbations written as timeline entries (explore/perturb.h).
#include <algorithm>
#include <string>

#include "explore/internal/perturb.h"
#include "kubesim/api/go_duration.h"
#include "kubesim/sim/rng.h"

namespace kubesim::explore {

sim::Time limit_of(const Space& space) { return sim::Time{} + (space.duration - space.settle); }

sim::Duration window(const Space& space, sim::Time from, sim::Duration wanted) {
  const sim::Duration left = limit_of(space) - from;
  return std::max<sim::Duration>(std::min(wanted, left), std::chrono::milliseconds(1));
}

YAML::Node flow(YAML::Node node) {
  node.SetStyle(YAML::EmitterStyle::Flow);
  return node;
}

YAML::Node rules(YAML::Node rule) {
  YAML::Node list;
  list.push_back(flow(rule));
  return list;
}

YAML::Node trigger(const WritePoint& p) {
  YAML::Node when;
  when["process"] = p.replica;
  YAML::Node after;
  after["verb"] = std::string(api::to_string(p.verb));
  after["resource"] = p.resource;
  after["count"] = p.count;
  when["after"] = after;
  return when;
}

// An entry that happens right after `p`.
YAML::Node entry_after(const WritePoint& p, const std::string& action, const YAML::Node& value) {
  YAML::Node e;
  e["when"] = trigger(p);
  e[action] = value;
  return e;
}

YAML::Node crash_of(const std::string& replica, sim::Duration restart_after) {
  YAML::Node c;
  c["process"] = replica;
  c["restartAfter"] = api::format_go_duration(restart_after);
  return c;
}

namespace {

using namespace std::chrono_literals;

// The explorer's own seed: fixed, so the same command makes the same candidates.
constexpr std::uint64_t kExplorerSeed = 0x6b756265'7369'6d21ULL;
constexpr int kMaxRandomFaults = 3;

sim::Rng rng_for(std::size_t index) {
  std::uint64_t z = kExplorerSeed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(index) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return sim::Rng(z ^ (z >> 31));
}

std::string one_line(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << node;
  return out.c_str();
}

struct Turn {
  std::uint64_t seed = 0;
  std::size_t pass = 0;  // how many times the points were walked before
  const WritePoint* point = nullptr;
};

// The family's j-th turn: seeds take turns, then the points in order, then at random.
Turn turn(const Space& space, std::size_t j, std::size_t count_of_points, sim::Rng& rng,
          const std::vector<WritePoint>& points) {
  Turn t;
  t.seed = space.seeds[j % space.seeds.size()];
  const std::size_t m = j / space.seeds.size();
  if (count_of_points == 0) return t;
  t.pass = m / count_of_points;
  t.point = t.pass < 2 ? &points[m % count_of_points] : &points[rng.uniform(count_of_points)];
  return t;
}

void crash_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  const auto& points = space.points.at(space.seeds[j % space.seeds.size()]);
  const Turn t = turn(space, j, points.size(), rng, points);
  c.seed = t.seed;
  if (t.point == nullptr) return;
  const sim::Duration restart = t.pass == 0 ? 1s : t.pass == 1 ? 5s : draw_ms(rng, 500ms, 10s);
  c.timeline.push_back(entry_after(*t.point, "crash", flow(crash_of(t.point->replica, restart))));
  c.points.push_back(t.point->text());
}

void coalesce_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  const auto& points = space.points.at(space.seeds[j % space.seeds.size()]);
  const Turn t = turn(space, j, points.size(), rng, points);
  c.seed = t.seed;
  if (t.point == nullptr) return;
  YAML::Node rule;
  rule["verb"] = "watch";
  rule["process"] = t.point->replica;
  rule["coalesce"] = api::format_go_duration(t.pass == 0 ? 3s : t.pass == 1 ? 1s : draw_ms(rng, 500ms, 5s));
  rule["for"] = api::format_go_duration(window(space, t.point->at, 20s));
  c.timeline.push_back(entry_after(*t.point, "faults", rules(rule)));
  c.points.push_back(t.point->text());
}

// The stale family's targets: each point's own replica, and for a lease write, every other
// replica (a leader change seen from the others) — replicas that list at resourceVersion "0"
// only, as only those relist from a lagging view.
std::vector<std::pair<std::string, const WritePoint*>> stale_targets(
    const Space& space, const std::vector<WritePoint>& points) {
  const auto& listing = space.listing_replicas;
  const auto lists = [&](const std::string& r) { return std::find(listing.begin(), listing.end(), r) != listing.end(); };
  std::vector<std::pair<std::string, const WritePoint*>> own, others, out;
  for (const WritePoint& p : points) {
    if (lists(p.replica)) own.emplace_back(p.replica, &p);
    if (p.resource != "coordination.k8s.io/v1/leases") continue;
    for (const std::string& r : listing) {
      if (r != p.replica) others.emplace_back(r, &p);
    }
  }
  for (std::size_t i = 0; i < std::max(own.size(), others.size()); ++i) {
    if (i < own.size()) out.push_back(own[i]);
    if (i < others.size()) out.push_back(others[i]);
  }
  return out;
}

constexpr sim::Duration kStaleRestart = 1s;

// How stale the view must be for `replica`, restarted `restart` after `point`, to relist the
// state just before the point's write: from its relist (its first list came that long after it
// started, in the reference run) back to halfway between the write before the point and the
// point (whole milliseconds).
sim::Duration just_before(const Space& space, std::uint64_t seed, const std::string& replica,
                          const WritePoint& point, sim::Duration restart) {
  sim::Time previous{};
  for (const WritePoint& p : space.points.at(seed)) {
    if (p.at < point.at && p.at > previous) previous = p.at;
  }
  sim::Duration first_list{};
  if (auto s = space.first_list.find(seed); s != space.first_list.end()) {
    if (auto r = s->second.find(replica); r != s->second.end()) first_list = r->second;
  }
  const sim::Duration by = restart + first_list + (point.at - previous) / 2;
  return std::max<sim::Duration>(std::chrono::floor<std::chrono::milliseconds>(by), 1ms);
}

void stale_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  c.seed = space.seeds[j % space.seeds.size()];
  const auto targets = stale_targets(space, space.points.at(c.seed));
  if (targets.empty()) return;
  const std::size_t m = j / space.seeds.size();
  const std::size_t pass = m / targets.size();
  const auto& [replica, point] = pass < 2 ? targets[m % targets.size()] : targets[rng.uniform(targets.size())];
  YAML::Node rule;
  YAML::Node verbs;
  verbs.push_back("get");
  verbs.push_back("list");
  rule["verb"] = flow(verbs);
  rule["process"] = replica;
  const sim::Duration by = pass == 0 ? just_before(space, c.seed, replica, *point, kStaleRestart)
                          : pass == 1 ? 30s
                                      : draw_ms(rng, 2s, 60s);
  rule["staleBy"] = api::format_go_duration(by);
  rule["for"] = api::format_go_duration(window(space, point->at, 30s));
  YAML::Node lagging = rules(rule);
  // The watch cache that answers the relist lags as much: the watch resumed from the stale list
  // delivers each event that late (newest per object), rather than the missing ones at once.
  if (space.coalesce) {
    YAML::Node watch;
    watch["verb"] = "watch";
    watch["process"] = replica;
    watch["coalesce"] = api::format_go_duration(by);
    watch["for"] = api::format_go_duration(window(space, point->at, 30s));
    lagging.push_back(flow(watch));
  }
  c.timeline.push_back(entry_after(*point, "faults", lagging));
  c.timeline.push_back(entry_after(*point, "crash", flow(crash_of(replica, kStaleRestart))));
  c.points.push_back(replica + " after " + point->text());
}

// One buggify fault: its action key and value, the replica it hits, and how long it lasts from
// `from` (cut to end by the limit).
constexpr std::uint64_t kOutage = 1;
constexpr std::uint64_t kStall = 6;
constexpr std::uint64_t kRandomKinds = 11;

std::pair<std::string, YAML::Node> random_fault(const Space& space, sim::Rng& rng, std::uint64_t kind,
                                                const std::string& replica, sim::Time from,
                                                const std::vector<WritePoint>& points) {
  const auto span = [&](sim::Duration lo, sim::Duration hi) {
    return api::format_go_duration(window(space, from, draw_ms(rng, lo, hi)));
  };
  // A resource the replica writes (its Lease among them, when it leads), if it writes any.
  std::vector<const WritePoint*> own;
  for (const WritePoint& p : points) {
    if (p.replica == replica) own.push_back(&p);
  }
  const std::string written = own.empty() ? "" : own[rng.uniform(own.size())]->resource;
  YAML::Node rule;
  rule["process"] = replica;
  switch (kind) {
    case 0: {  // a conflict on a write the replica makes
      rule["verb"] = flow(YAML::Load("[update, patch]"));
      if (!written.empty()) rule["resource"] = written;
      rule["error"] = 409;
      rule["count"] = static_cast<int>(1 + rng.uniform(3));
      rule["for"] = span(5s, 30s);
      return {"faults", rules(rule)};
    }
    case kOutage:  // a few 500s, or every write of one resource failing for a while (a Lease renewal)
      rule["error"] = 500;
      // A window of failures only on a Lease: a leader that cannot renew must stop leading, which
      // an election-aware controller survives; a long outage of other writes leaves a correct
      // controller's per-item backoff running past the end.
      if (written.size() >= 6 && written.compare(written.size() - 6, 6, "leases") == 0 && rng.bernoulli(0.5)) {
        rule["verb"] = flow(YAML::Load("[create, update, patch, delete]"));
        rule["resource"] = written;
        // A correct controller's backoff after an outage is about as long as the outage: at most
        // half the settle time, so that it recovers before the end.
        rule["for"] = span(std::min<sim::Duration>(5s, space.settle / 2), std::max<sim::Duration>(space.settle / 2, 1ms));
        return {"faults", rules(rule)};
      }
      rule["count"] = static_cast<int>(1 + rng.uniform(5));
      rule["for"] = span(5s, 30s);
      return {"faults", rules(rule)};
    case 2:
      rule["error"] = 429;
      rule["retryAfter"] = "1s";
      rule["count"] = static_cast<int>(1 + rng.uniform(5));
      rule["for"] = span(5s, 30s);
      return {"faults", rules(rule)};
    case 3:
      rule["latency"] = api::format_go_duration(draw_ms(rng, 100ms, 2s));
      rule["for"] = span(5s, 20s);
      return {"faults", rules(rule)};
    case 4: {
      YAML::Node p;
      p["process"] = replica;
      p["for"] = span(1s, 30s);
      return {"partition", flow(p)};
    }
    case 5:
      rule["verb"] = "watch";
      rule["drop"] = "afterEvents";
      rule["events"] = static_cast<int>(1 + rng.uniform(5));
      rule["count"] = static_cast<int>(1 + rng.uniform(3));
      rule["for"] = span(5s, 30s);
      return {"faults", rules(rule)};
    case kStall:  // a stalled watch stays stalled: random_candidate cuts it when the rule ends
      rule["verb"] = "watch";
      rule["stall"] = true;
      rule["for"] = span(5s, 30s);
      return {"faults", rules(rule)};
    case 7:
      return {"compact", flow(YAML::Node(YAML::NodeType::Map))};
    case 8:
      return {"apiserver", YAML::Node("restart")};
    case 9: {
      YAML::Node k;
      k["process"] = replica;
      const sim::Duration by = draw_ms(rng, 1s, 30s);
      k["by"] = api::format_go_duration(rng.bernoulli(0.5) ? by : -by);
      return {"skew", flow(k)};
    }
    default: {
      YAML::Node p;
      p["process"] = replica;
      // Shorter than the renew deadline: a pause a correct leader survives.
      p["for"] = api::format_go_duration(window(space, from, draw_ms(rng, 100ms, space.renew_deadline / 2)));
      return {"pause", flow(p)};
    }
  }
}

void random_candidate(const Space& space, std::size_t j, sim::Rng& rng, Candidate& c) {
  c.seed = space.seeds[j % space.seeds.size()];
  if (space.replicas.empty()) return;
  const auto& points = space.points.at(c.seed);
  const sim::Duration limit = space.duration - space.settle;
  if (limit <= sim::Duration::zero()) return;
  const int n = static_cast<int>(1 + rng.uniform(kMaxRandomFaults));
  for (int i = 0; i < n; ++i) {
    const std::string replica = space.replicas[rng.uniform(space.replicas.size())];
    YAML::Node e;
    sim::Time from{};
    std::string where;
    const std::uint64_t kind = rng.uniform(kRandomKinds);
    if (kind != kStall && !points.empty() && rng.bernoulli(0.5)) {
      const WritePoint& p = points[rng.uniform(points.size())];
      e["when"] = trigger(p);
      from = p.at;
      where = " after " + p.text();
    } else {
      // Whole milliseconds, so the file reads well.
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(limit).count();
      from = sim::Time{} + std::chrono::milliseconds(rng.uniform(static_cast<std::uint64_t>(ms)));
      e["at"] = api::format_go_duration(from - sim::Time{});
      where = " at " + api::format_go_duration(from - sim::Time{});
    }
    auto [action, value] = random_fault(space, rng, kind, replica, from, points);
    e[action] = value;
    c.points.push_back(action + where);
    c.timeline.push_back(e);
    if (kind == kStall) {
      // A stalled watch delivers nothing until it times out (minutes, as client-go's): an API
      // server restart when the rule ends cuts it, so that a correct controller recovers.
      YAML::Node restart;
      const auto length = api::parse_go_duration(value[0]["for"].as<std::string>());
      restart["at"] = api::format_go_duration(from - sim::Time{} + length.value());
      restart["apiserver"] = "restart";
      c.timeline.push_back(restart);
    }
  }
}

}  // namespace

Candidate make_candidate(const Space& space, std::size_t index) {
  Candidate c;
  c.index = index;
  if (space.families.empty() || space.seeds.empty()) return c;
  c.family = space.families[index % space.families.size()];
  const std::size_t j = index / space.families.size();
  sim::Rng rng = rng_for(index);
  switch (c.family) {
    case Family::kCrash:
      crash_candidate(space, j, rng, c);
      break;
    case Family::kCoalesce:
      coalesce_candidate(space, j, rng, c);
      break;
    case Family::kStale:
      stale_candidate(space, j, rng, c);
      break;
    case Family::kRandom:
      random_candidate(space, j, rng, c);
      break;
    case Family::kRecur:
      recur_candidate(space, j, rng, c);
      break;
    case Family::kRelist:
      relist_candidate(space, j, rng, c);
      break;
    case Family::kStart:
      start_candidate(space, j, rng, c);
      break;
  }
  for (const YAML::Node& e : c.timeline) c.text += (c.text.empty() ? "" : "; ") + one_line(e);
  return c;
}

YAML::Node apply_candidate(const YAML::Node& document, const Candidate& candidate) {
  YAML::Node doc = YAML::Clone(document);
  YAML::Node timeline(YAML::NodeType::Sequence);
  if (doc["timeline"].IsSequence()) {
    for (const YAML::Node& e : doc["timeline"]) timeline.push_back(e);
  }
  for (const YAML::Node& e : candidate.timeline) timeline.push_back(YAML::Clone(e));
  doc["timeline"] = timeline;
  YAML::Node seeds;
  seeds.push_back(candidate.seed);
  doc["seeds"] = flow(seeds);
  return doc;
}

}  // namespace kubesim::explore
