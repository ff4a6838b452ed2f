// The `expect:` section (always, eventually, consistently, finally) and `mustFind:`.
#include <algorithm>

#include "kubesim/api/go_duration.h"
#include "kubesim/api/labels.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {
namespace {

const std::vector<std::string> kConditions = {
    "atMostOneLeader", "leaderElected", "informersConverged",
    "count",           "object",        "maxLeaderTransitions",
    "match",           "noMatch",       "calls"};

// A calls budget's limits: beside `calls:`, as a count's are beside `count:`, or inside it.
const std::vector<std::string> kCallLimits = {"atMost", "perSecond"};

// The keys a check takes beside its condition, and the conditions that take each.
struct ConditionKey {
  const char* key;
  std::vector<std::string> takers;
  const char* who;
};
const ConditionKey kConditionKeys[] = {
    {"equals", {"count", "object"}, "count and object checks"},
    {"atMost", {"count", "calls"}, "count and calls checks"},
    {"atLeast", {"count"}, "count checks"},
    {"path", {"object"}, "object checks"},
    {"perSecond", {"calls"}, "calls checks"},
};

struct Section {
  const char* key;
  const char* what;  // for messages
  CheckKind kind;
  std::vector<std::string> timing;  // the keys that place it in time
};

const std::vector<Section> kSections = {
    {"always", "an always check", CheckKind::kAlways, {}},
    {"eventually", "an eventually check", CheckKind::kEventually, {"after", "within"}},
    {"consistently", "a consistently check", CheckKind::kConsistently, {"after", "for"}},
    {"finally", "a finally check", CheckKind::kFinally, {}},
};

std::optional<std::string> held_lock(ParseContext& ctx, const Field& field) {
  auto lock = ctx.lock_ref(field);
  if (!lock) return std::nullopt;
  ctx.check_lock_held(field, lock->text());
  return lock->text();
}

std::optional<CountQuery> parse_count(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a count", {"resource", "namespace", "labelSelector"});
  if (!f.ok()) return std::nullopt;
  CountQuery q;
  auto resource = ctx.resource(f.require("resource"));
  if (auto ns = ctx.reader.string(f.get("namespace"))) q.ns = *ns;
  const Field selector = f.get("labelSelector");
  if (auto s = ctx.reader.string(selector)) {
    auto parsed = api::parse_label_selector(*s);
    if (!parsed) {
      ctx.reader.error(selector,
                       "\"" + *s + "\" is not a label selector: " + parsed.error().message);
    } else {
      q.label_selector = *s;
    }
  }
  if (!resource) return std::nullopt;
  ctx.check_scope(f.get("namespace"), *resource);
  q.resource = resource->ref;
  return q;
}

// The number or {count: …} a count is compared with.
std::optional<std::variant<std::int64_t, CountQuery>> parse_count_operand(ParseContext& ctx,
                                                                          const Field& field) {
  if (!field) return std::nullopt;
  if (field.is_map()) {
    MapFields f(ctx.reader, field, field.label, {"count"});
    auto q = parse_count(ctx, f.require("count"));
    if (!q) return std::nullopt;
    return *q;
  }
  if (!field.is_scalar()) {
    ctx.reader.error(field, "expected a number or {count: …}, got " + describe(field.value));
    return std::nullopt;
  }
  auto n = ctx.reader.integer_at_least(field, 0);
  if (!n) return std::nullopt;
  return *n;
}

const std::vector<std::string> kCountOps = {"equals", "atMost", "atLeast"};

std::optional<CountCompare> parse_count_check(ParseContext& ctx, const MapFields& f, const Field& c) {
  auto q = parse_count(ctx, c);
  const auto given = f.present(kCountOps);
  if (given.empty()) {
    ctx.reader.error(f.mark(), "a count check needs one of equals, atMost, atLeast (a number or "
                               "{count: …})");
    return std::nullopt;
  }
  if (given.size() > 1) {
    ctx.reader.error(given[1].key_mark, "a count check compares once, not " + given[0].label +
                                            " and " + given[1].label + "; write two checks");
    return std::nullopt;
  }
  auto than = parse_count_operand(ctx, given[0]);
  if (!q || !than) return std::nullopt;
  const auto op = given[0].label == "equals"   ? CountCompare::Op::kEquals
                  : given[0].label == "atMost" ? CountCompare::Op::kAtMost
                                               : CountCompare::Op::kAtLeast;
  return CountCompare{*q, op, *than};
}

std::optional<Match> parse_match(ParseContext& ctx, const Field& field, bool negate) {
  auto tree = ctx.reader.json(field);
  if (!tree) return std::nullopt;
  if (!tree->is_object()) {
    ctx.reader.error(field, "expected a partial object (a mapping with apiVersion and kind), got " +
                                describe(field.value));
    return std::nullopt;
  }
  const auto api_version = tree->value("apiVersion", nlohmann::json());
  const auto kind = tree->value("kind", nlohmann::json());
  if (!api_version.is_string() || !kind.is_string()) {
    ctx.reader.error(field, "a partial object needs apiVersion and kind (strings)");
    return std::nullopt;
  }
  if (!ctx.resource_of_kind(api_version.get<std::string>(), kind.get<std::string>())) {
    ctx.reader.error(field, "no resource has kind " + kind.get<std::string>() + " in " +
                                api_version.get<std::string>() +
                                " (declare custom resources in cluster.resources)");
    return std::nullopt;
  }
  return Match{std::move(*tree), negate};
}

// A number of calls, from 0 to a billion.
std::optional<std::int64_t> parse_call_limit(ParseContext& ctx, const Field& field) {
  auto n = ctx.reader.integer_at_least(field, 0);
  if (n && *n > 1'000'000'000) {
    ctx.reader.error(field, "must be at most 1000000000");
    return std::nullopt;
  }
  return n;
}

std::optional<CallBudget> parse_calls(ParseContext& ctx, const MapFields& f, const Field& c) {
  std::vector<std::string> keys = kRequestKeys;
  keys.insert(keys.end(), kCallLimits.begin(), kCallLimits.end());
  MapFields m(ctx.reader, c, "a calls pattern", keys);
  if (!m.ok()) return std::nullopt;
  RequestMatch match;
  bool ok = read_request_match(ctx, m, /*whole_process=*/true, match);
  if (c.value.size() == m.present(kCallLimits).size()) {  // (unknown keys were reported)
    ctx.reader.error(c, "name at least one of " + join(kRequestKeys) +
                            " (a budget on every call of every process, the workload's too, is rarely what is meant)");
    ok = false;
  }
  if (match.resource && m.has("namespace") && !match.resource->namespaced) {
    ctx.check_scope(m.get("namespace"), *match.resource);
    ok = false;
  }
  std::vector<Field> limits = f.present(kCallLimits);
  for (const Field& inside : m.present(kCallLimits)) limits.push_back(inside);
  if (limits.empty()) {
    ctx.reader.error(f.mark(), "a calls check needs atMost (calls in all) or perSecond (calls in any one second)");
    return std::nullopt;
  }
  if (limits.size() > 1) {
    ctx.reader.error(limits[1].key_mark, "a calls check has one limit, not " + limits[0].label + " and " +
                                             limits[1].label + "; write two checks");
    return std::nullopt;
  }
  auto allowed = parse_call_limit(ctx, limits[0]);
  if (!ok || !allowed) return std::nullopt;
  CallMatch calls{match.verbs, std::nullopt, match.subresource, match.ns, match.name, match.process, match.whole_process};
  if (match.resource) calls.resource = match.resource->ref;
  const auto limit = limits[0].label == "perSecond" ? CallBudget::Limit::kPerSecond : CallBudget::Limit::kAtMost;
  return CallBudget{std::move(calls), limit, *allowed};
}

std::optional<Condition> parse_condition(ParseContext& ctx, const MapFields& f, const Field& c) {
  if (c.label == "atMostOneLeader" || c.label == "leaderElected") {
    auto lock = held_lock(ctx, c);
    if (!lock) return std::nullopt;
    if (c.label == "atMostOneLeader") return AtMostOneLeader{*lock};
    return LeaderElected{*lock};
  }
  if (c.label == "informersConverged") {
    auto b = ctx.reader.boolean(c);
    if (b && !*b) ctx.reader.error(c, "only true is a check; leave the check out instead");
    const bool any = std::any_of(
        ctx.scenario.processes.begin(), ctx.scenario.processes.end(), [](const ProcessSpec& p) {
          return p.exec || std::any_of(p.run.begin(), p.run.end(), [](const Actor& a) {
                   return !std::holds_alternative<ElectorSpec>(a);
                 });
        });
    if (!any)
      ctx.reader.error(c.key_mark,
                       "informersConverged: no process runs an informer or a controller");
    if (!b || !*b) return std::nullopt;
    return InformersConverged{};
  }
  if (c.label == "count") return parse_count_check(ctx, f, c);
  if (c.label == "calls") return parse_calls(ctx, f, c);
  if (c.label == "object") {
    auto path = ctx.object_path(c);
    const Field path_field = f.require("path", "a dotted path such as data.k");
    auto dotted = ctx.reader.string(path_field);
    if (dotted && (dotted->empty() || dotted->front() == '.' || dotted->back() == '.' ||
                   dotted->find("..") != std::string::npos)) {
      ctx.reader.error(path_field, "\"" + *dotted + "\" is not a dotted path (data.k)");
      dotted.reset();
    }
    auto equals = ctx.reader.json(f.require("equals"));
    if (!path || !dotted || !equals) return std::nullopt;
    return ObjectPathEquals{path->resource.ref, path->ns, path->name, *dotted, *equals};
  }
  if (c.label == "maxLeaderTransitions") {
    MapFields m(ctx.reader, c, "maxLeaderTransitions", {"lock", "atMost"});
    if (!m.ok()) return std::nullopt;
    auto lock = held_lock(ctx, m.require("lock"));
    auto at_most = ctx.reader.integer_at_least(m.require("atMost"), 0);
    if (at_most && *at_most > 1'000'000'000) {
      ctx.reader.error(m.get("atMost"), "must be at most 1000000000");
      at_most.reset();
    }
    if (!lock || !at_most) return std::nullopt;
    return MaxLeaderTransitions{*lock, static_cast<int>(*at_most)};
  }
  auto match = parse_match(ctx, c, c.label == "noMatch");
  if (!match) return std::nullopt;
  return *match;
}

// Reports `after` past the scenario's end: such a check could never be met.
void check_after(ParseContext& ctx, const Field& field, sim::Duration after) {
  if (ctx.duration_known && after > ctx.scenario.duration) {
    ctx.reader.error(field, field.value.Scalar() + " is past the scenario's duration (" +
                                ctx.duration_text + ")");
  }
}

// Reports a window that ends past the scenario's end: the part past it is never checked, so the
// check could pass without its window having been tested. An `after` already past the end was
// reported by check_after.
void check_window_end(ParseContext& ctx, const Field& field, sim::Duration after, sim::Duration length) {
  if (!ctx.duration_known || after > ctx.scenario.duration || after + length <= ctx.scenario.duration) return;
  ctx.reader.error(field, "the check's window [" + api::format_go_duration(after) + ", " +
                              api::format_go_duration(after + length) + "] ends past the scenario's duration (" +
                              ctx.duration_text + "); end it by then, or make the scenario longer");
}

void parse_check(ParseContext& ctx, const Section& section, const Field& field) {
  std::vector<std::string> keys = section.timing;
  keys.insert(keys.end(), kConditions.begin(), kConditions.end());
  for (const ConditionKey& key : kConditionKeys) keys.emplace_back(key.key);
  MapFields f(ctx.reader, field, section.what, keys);
  if (!f.ok()) return;
  Check check;
  check.kind = section.kind;
  check.mark = field.mark();
  check.text = ctx.reader.flow_text(field.value);
  const auto conditions = f.present(kConditions);
  if (conditions.size() != 1) {
    ctx.reader.error(conditions.empty() ? f.mark() : conditions[1].key_mark,
                     conditions.empty()
                         ? "a check needs one of " + join(kConditions)
                         : "a check holds one condition, not " + conditions[0].label + " and " +
                               conditions[1].label + "; write two checks");
    return;
  }
  const std::string& name = conditions[0].label;
  ctx.conditions_written.push_back(name);
  for (const ConditionKey& key : kConditionKeys) {
    if (f.has(key.key) && std::find(key.takers.begin(), key.takers.end(), name) == key.takers.end()) {
      ctx.reader.error(f.get(key.key).key_mark, std::string(key.key) + ": only " + key.who + " take it");
    }
  }
  bool ok = true;
  if (name == "calls" && section.kind == CheckKind::kEventually) {
    // Spent calls are never given back: it would hold at its window's first instant or never.
    ctx.reader.error(conditions[0].key_mark, "calls: a budget once spent stays spent, so an eventually check of it "
                                             "would hold at its first instant or never; write it under always, "
                                             "consistently or finally");
    ok = false;
  }
  if (section.kind == CheckKind::kEventually || section.kind == CheckKind::kConsistently) {
    if (auto d = ctx.reader.non_negative_duration(f.get("after"))) {
      check.after = *d;
      check_after(ctx, f.get("after"), *d);
    }
    const bool eventually = section.kind == CheckKind::kEventually;
    const Field window =
        f.require(eventually ? "within" : "for", eventually ? "how long it may take, e.g. 30s"
                                                            : "how long it must hold, e.g. 30s");
    auto d = ctx.reader.positive_duration(window);
    if (d) {
      (eventually ? check.within : check.length) = *d;
      check_window_end(ctx, window, check.after, *d);
    }
    ok = ok && d.has_value();
  }
  auto condition = parse_condition(ctx, f, conditions[0]);
  if (!condition || !ok) return;
  check.condition = std::move(*condition);
  ctx.scenario.checks.push_back(std::move(check));
}

}  // namespace

void parse_expect(ParseContext& ctx, const Field& field) {
  std::vector<std::string> keys;
  for (const auto& s : kSections) keys.emplace_back(s.key);
  MapFields f(ctx.reader, field, "expect", keys);
  if (!f.ok()) return;
  // Checks keep file order across the sections.
  for (const Field& list : f.fields()) {
    const auto section = std::find_if(kSections.begin(), kSections.end(),
                                      [&](const Section& s) { return list.label == s.key; });
    if (!ctx.reader.expect_list(list)) continue;
    for (const Field& item : items(list)) parse_check(ctx, *section, item);
  }
}

void parse_must_find(ParseContext& ctx, const Field& field) {
  if (!field) return;
  if (!field.is_list() && !field.is_scalar()) {
    ctx.reader.error(field, "expected a list of check names, got " + describe(field.value));
    return;
  }
  std::vector<Field> names = field.is_list() ? items(field) : std::vector<Field>{field};
  std::vector<std::string> used = ctx.conditions_written;
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (const Field& item : names) {
    auto name = ctx.reader.string(item);
    if (!name) continue;
    if (std::find(kConditions.begin(), kConditions.end(), *name) == kConditions.end()) {
      std::string message = "unknown check \"" + *name + "\"";
      if (auto near = closest(*name, kConditions)) message += "; did you mean \"" + *near + "\"?";
      ctx.reader.error(item, message + " (" + join(kConditions) + ")");
      continue;
    }
    if (std::find(used.begin(), used.end(), *name) == used.end()) {
      ctx.reader.error(item, "no check of the scenario uses " + *name +
                                 (used.empty() ? std::string(" (it has no checks)")
                                               : " (checks use: " + join(used) + ")"));
      continue;
    }
    ctx.scenario.must_find.push_back(*name);
  }
}

}  // namespace kubesim::scenarios::internal
