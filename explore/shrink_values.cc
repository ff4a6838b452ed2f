// The shrinker's values: the scenario's duration, replicas, the times and counts of timeline
// events, fault rules and workload entries (each a search on the value, see Search), and the
// random choices pinned to one.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

#include "explore/internal/shrink_search.h"

namespace kubesim::explore::shrink {
namespace {

constexpr std::int64_t kMillisecond = 1'000'000;
constexpr std::int64_t kSecond = 1'000 * kMillisecond;

// Whole seconds for values of a second or more, whole milliseconds below.
std::int64_t quantum(std::int64_t value) { return value >= kSecond ? kSecond : kMillisecond; }

// A copy of the document with `key` of the map at `map` set to `value` (placed after the first
// present of `after` when the key is new).
YAML::Node set_key(const Search& s, const Path& map, const std::string& key,
                   const YAML::Node& value, const std::vector<std::string>& after = {}) {
  YAML::Node c = s.copy();
  YAML::Node target = find(c, map);
  target = with_key(target, key, value, after);
  return c;
}

std::size_t size_at(const Search& s, const Path& path) {
  const YAML::Node n = find(s.doc(), path);
  return n.IsSequence() ? n.size() : 0;
}

// Shrinks the duration at map.key between `lo` and its value (or `absent` when the key is left
// out, written then after `after`).
bool reduce_duration(Search& s, const Path& map, const std::string& key, std::int64_t lo,
                     std::optional<std::int64_t> absent = std::nullopt,
                     const std::vector<std::string>& after = {}) {
  if (!find(s.doc(), map).IsMap()) return false;
  const auto now = duration_at(s.doc(), map / key);
  const auto hi = now ? now : absent;
  if (!hi || (!now && find(s.doc(), map / key).IsDefined())) return false;
  const std::string name = path_text(map / key);
  const std::string was = now ? duration_text(*now) : "(the end)";
  return s.search_down(
      name, lo, *hi, quantum(*hi),
      [&](std::int64_t v) { return set_key(s, map, key, YAML::Node(duration_text(v)), after); },
      [&](std::int64_t v) { return name + " " + was + " → " + duration_text(v); });
}

bool reduce_count(Search& s, const Path& map, const std::string& key, std::int64_t lo) {
  const auto now = integer_at(s.doc(), map / key);
  if (!now) return false;
  const std::string name = path_text(map / key);
  return s.search_down(
      name, lo, *now, 1,
      [&](std::int64_t v) { return set_key(s, map, key, YAML::Node(std::to_string(v))); },
      [&](std::int64_t v) {
        return name + " " + std::to_string(*now) + " → " + std::to_string(v);
      });
}

// The shortest duration the parser or the checks allow: the latest timeline `at`, the end of
// every check's window, and a second past `explore.settle` (which must be shorter).
std::int64_t duration_floor(const YAML::Node& doc) {
  std::int64_t floor = 0;
  if (const auto settle = duration_at(doc, Path{} / "explore" / "settle"))
    floor = *settle + kSecond;
  for (std::size_t i = 0; i < find(doc, Path{} / "timeline").size(); ++i)
    floor = std::max(floor, duration_at(doc, Path{} / "timeline" / i / "at").value_or(0));
  for (const auto* kind : {"always", "eventually", "consistently", "finally"}) {
    const Path list = Path{} / "expect" / kind;
    for (std::size_t i = 0; i < find(doc, list).size(); ++i) {
      const auto after = duration_at(doc, list / i / "after").value_or(0);
      const auto window = std::max(duration_at(doc, list / i / "within").value_or(0),
                                   duration_at(doc, list / i / "for").value_or(0));
      floor = std::max(floor, after + window);
    }
  }
  return floor;
}

// Every scalar of the document but its processes, to see which replicas it names.
void scalars(const YAML::Node& node, std::vector<std::string>& out, int depth = 0) {
  if (depth > 64) return;
  if (node.IsScalar()) out.push_back(node.Scalar());
  if (node.IsSequence()) {
    for (const auto& item : node) scalars(item, out, depth + 1);
  }
  if (node.IsMap()) {
    for (const auto& kv : node) {
      if (depth == 0 && kv.first.Scalar() == "processes") continue;
      scalars(kv.second, out, depth + 1);
    }
  }
}

// The text of a range ([a, b] or {min: a, max: b}) and its two ends; nullopt for one value.
std::optional<std::pair<YAML::Node, YAML::Node>> range_ends(const YAML::Node& range) {
  if (range.IsSequence() && range.size() == 2 && range[0].IsScalar() && range[1].IsScalar())
    return std::pair{YAML::Clone(range[0]), YAML::Clone(range[1])};
  if (range.IsMap() && range.size() == 2 && child(range, "min").IsScalar() &&
      child(range, "max").IsScalar())
    return std::pair{YAML::Clone(child(range, "min")), YAML::Clone(child(range, "max"))};
  return std::nullopt;
}

bool pin_range(Search& s, const Path& map, const std::string& key) {
  const YAML::Node range = find(s.doc(), map / key);
  const auto ends = range_ends(range);
  if (!ends) return false;
  const std::string was =
      range.IsSequence()
          ? "[" + ends->first.Scalar() + ", " + ends->second.Scalar() + "]"
          : "{min: " + ends->first.Scalar() + ", max: " + ends->second.Scalar() + "}";
  for (const YAML::Node& end : {ends->first, ends->second}) {
    if (s.attempt(set_key(s, map, key, end),
                  path_text(map / key) + " " + was + " → " + end.Scalar())) {
      return true;
    }
  }
  return false;
}

bool pin_pick(Search& s, const Path& action) {
  const YAML::Node a = find(s.doc(), action);
  if (!a.IsMap() || a.size() != 1) return false;
  const std::string verb = a.begin()->first.Scalar();
  if (verb != "update" && verb != "delete") return false;
  const Path spec = action / verb;
  const YAML::Node pick = find(s.doc(), spec / "pick");
  if (pick.IsDefined() && !(pick.IsScalar() && pick.Scalar() == "random")) return false;
  for (const char* choice : {"oldest", "newest"}) {
    if (s.attempt(set_key(s, spec, "pick", YAML::Node(choice), {"resource", "namespace"}),
                  path_text(spec / "pick") + " random → " + choice)) {
      return true;
    }
  }
  return false;
}

bool drop_probability(Search& s, const Path& rule) {
  const YAML::Node p = find(s.doc(), rule / "probability");
  if (!p.IsDefined()) return false;
  YAML::Node c = s.copy();
  find(c, rule).remove("probability");
  return s.attempt(
      c, path_text(rule / "probability") + " " + (p.IsScalar() ? p.Scalar() : "") + " dropped (1)");
}

// An instant with a fraction of a second (as random perturbations write them) tried on the
// whole second below, then above (when that is not past the end).
bool round_instant(Search& s, const Path& event) {
  const auto at = duration_at(s.doc(), event / "at");
  const auto end = duration_at(s.doc(), Path{} / "duration");
  if (!at || !end || *at < kSecond || *at % kSecond == 0) return false;
  const std::int64_t below = *at / kSecond * kSecond;
  for (std::int64_t v : {below, below + kSecond}) {
    if (v > *end) continue;
    const std::string step =
        path_text(event / "at") + " " + duration_text(*at) + " → " + duration_text(v);
    if (s.attempt(set_key(s, event, "at", YAML::Node(duration_text(v))), step)) return true;
  }
  return false;
}

bool reduce_event_times(Search& s, const Path& event) {
  bool changed = round_instant(s, event);
  for (const char* action : {"partition", "pause"})
    changed = reduce_duration(s, event / action, "for", kSecond) || changed;
  changed = reduce_duration(s, event / "crash", "restartAfter", 0) || changed;
  for (std::size_t j = 0; j < size_at(s, event / "faults"); ++j) {
    const Path rule = event / "faults" / j;
    changed = reduce_duration(s, rule, "for", kSecond) || changed;
    changed = reduce_count(s, rule, "count", 1) || changed;
  }
  return changed;
}

// The interval of a workload's `rate: N/s` (or /m, /h), in nanoseconds.
std::optional<std::int64_t> rate_interval(const YAML::Node& rate) {
  if (!rate.IsScalar()) return std::nullopt;
  const std::string& text = rate.Scalar();
  const auto slash = text.find('/');
  if (slash == std::string::npos || slash + 2 != text.size()) return std::nullopt;
  const char unit = text.back();
  const double per = unit == 's' ? 1e9 : unit == 'm' ? 60e9 : unit == 'h' ? 3600e9 : 0;
  double n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + slash, n);
  if (per == 0 || ec != std::errc() || end != text.data() + slash || !(n > 0)) return std::nullopt;
  return std::llround(per / n);
}

// A copy of the document whose workload entry acts every `interval` (its `rate` becomes `every`).
YAML::Node acting_every(const Search& s, const Path& entry, std::int64_t interval) {
  const YAML::Node value(duration_text(interval));
  if (!find(s.doc(), entry / "rate").IsDefined()) return set_key(s, entry, "every", value);
  YAML::Node c = s.copy();
  YAML::Node target = find(c, entry);
  YAML::Node renamed(YAML::NodeType::Map);
  for (const auto& kv : target) {
    const bool rate = kv.first.IsScalar() && kv.first.Scalar() == "rate";
    renamed.force_insert(rate ? YAML::Node("every") : kv.first, rate ? value : kv.second);
  }
  target = renamed;
  return c;
}

bool reduce_workload_times(Search& s, const Path& entry) {
  if (!find(s.doc(), entry).IsMap()) return false;
  const std::int64_t from = duration_at(s.doc(), entry / "from").value_or(0);
  const auto end = duration_at(s.doc(), Path{} / "duration");
  if (!end) return false;
  const std::int64_t until_now = duration_at(s.doc(), entry / "until").value_or(*end);
  bool changed = reduce_duration(s, entry, "until", from + quantum(until_now - from), *end,
                                 {"from", "every", "rate"});
  const YAML::Node rate = find(s.doc(), entry / "rate");
  const auto every = rate.IsDefined() ? rate_interval(rate) : duration_at(s.doc(), entry / "every");
  if (!every || *every <= 0) return changed;
  const std::int64_t span = duration_at(s.doc(), entry / "until").value_or(*end) - from;
  const std::string name = path_text(entry);
  return s.search_up(
             *every, span, [&](std::int64_t v) { return acting_every(s, entry, v); },
             [&](std::int64_t v) {
               const YAML::Node r = find(s.doc(), entry / "rate");
               return r.IsDefined()
                          ? name + ".rate " + r.Scalar() + " → every " + duration_text(v)
                          : name + ".every " + duration_text(v / 2) + " → " + duration_text(v);
             }) ||
         changed;
}

}  // namespace

bool reduce_scenario_duration(Search& search) {
  const std::int64_t lo = std::max(duration_floor(search.doc()), kMillisecond);
  return reduce_duration(search, Path{}, "duration", lo);
}

bool reduce_replicas(Search& search) {
  std::vector<std::string> names;
  scalars(search.doc(), names);
  bool changed = false;
  for (std::size_t i = 0; i < size_at(search, Path{} / "processes"); ++i) {
    const Path process = Path{} / "processes" / i;
    const YAML::Node name = find(search.doc(), process / "name");
    if (!name.IsScalar()) continue;
    // The highest replica another part of the document names (NAME-k) must stay.
    const std::string prefix = name.Scalar() + "-";
    std::int64_t needed = 1;
    for (const auto& s : names) {
      const std::string_view rest = std::string_view(s).substr(std::min(s.size(), prefix.size()));
      if (!s.starts_with(prefix) || rest.empty() || rest.size() > 6 ||
          !std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        continue;
      }
      needed = std::max<std::int64_t>(needed, std::stoll(std::string(rest)) + 1);
    }
    changed = reduce_count(search, process, "replicas", needed) || changed;
  }
  return changed;
}

bool pin_random_choices(Search& search) {
  bool changed = false;
  for (std::size_t i = 0; i < size_at(search, Path{} / "timeline"); ++i) {
    const Path faults = Path{} / "timeline" / i / "faults";
    for (std::size_t j = 0; j < size_at(search, faults); ++j)
      changed = drop_probability(search, faults / j) || changed;
  }
  for (std::size_t i = 0; i < size_at(search, Path{} / "workload"); ++i)
    changed = pin_pick(search, Path{} / "workload" / i / "action") || changed;
  changed = pin_range(search, Path{} / "network", "latency") || changed;
  for (std::size_t i = 0; i < size_at(search, Path{} / "processes"); ++i) {
    const Path process = Path{} / "processes" / i;
    changed = pin_range(search, process / "network", "latency") || changed;
    changed = pin_range(search, process / "clock", "skew") || changed;
    changed = pin_range(search, process / "clock", "drift") || changed;
  }
  const YAML::Node shuffle = find(search.doc(), Path{} / "shuffle");
  if (!shuffle.IsDefined() || !shuffle.IsScalar() || shuffle.Scalar() != "false") {
    changed = search.attempt(set_key(search, Path{}, "shuffle", YAML::Node("false"),
                                     {"name", "description", "duration", "seeds"}),
                             "shuffle → false") ||
              changed;
  }
  return changed;
}

bool reduce_times_and_counts(Search& search) {
  bool changed = false;
  for (std::size_t i = 0; i < size_at(search, Path{} / "timeline"); ++i)
    changed = reduce_event_times(search, Path{} / "timeline" / i) || changed;
  for (std::size_t i = 0; i < size_at(search, Path{} / "workload"); ++i)
    changed = reduce_workload_times(search, Path{} / "workload" / i) || changed;
  return changed;
}

}  // namespace kubesim::explore::shrink
