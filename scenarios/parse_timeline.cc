// The `timeline:` section: events at instants (`at`) or on triggers (`when`).
#include "kubesim/api/go_duration.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {
namespace {

const std::vector<std::string> kActions = {"partition", "crash", "apiserver", "compact",
                                           "faults",    "skew",  "pause"};

std::vector<std::string> event_keys() {
  std::vector<std::string> keys = {"at", "when"};
  keys.insert(keys.end(), kActions.begin(), kActions.end());
  return keys;
}

// {process: REPLICA, for: D}, as partition and pause write it.
std::optional<std::pair<std::string, sim::Duration>> process_for(ParseContext& ctx,
                                                                 const Field& field,
                                                                 const std::string& what) {
  MapFields f(ctx.reader, field, what, {"process", "for"});
  if (!f.ok()) return std::nullopt;
  auto process = ctx.replica(f.require("process"));
  auto length = ctx.reader.positive_duration(f.require("for"));
  if (!process || !length) return std::nullopt;
  return std::pair{*process, *length};
}

std::optional<TimelineAction> parse_crash(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a crash", {"process", "restartAfter"});
  if (!f.ok()) return std::nullopt;
  CrashEvent crash;
  auto process = ctx.replica(f.require("process"));
  const Field restart = f.get("restartAfter");
  auto after = ctx.reader.non_negative_duration(restart);
  if (!process || (restart && !after)) return std::nullopt;
  crash.process = *process;
  crash.restart_after = after;
  return crash;
}

std::optional<TimelineAction> parse_skew(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a skew", {"process", "by"});
  if (!f.ok()) return std::nullopt;
  auto process = ctx.replica(f.require("process"));
  auto by = ctx.reader.duration(f.require("by", "a step of the wall clock, e.g. 3s or -3s"));
  if (!process || !by) return std::nullopt;
  return SkewEvent{*process, *by};
}

std::optional<TimelineAction> parse_action(ParseContext& ctx, const Field& a) {
  if (a.label == "partition") {
    auto p = process_for(ctx, a, "a partition");
    if (!p) return std::nullopt;
    return PartitionEvent{p->first, p->second};
  }
  if (a.label == "pause") {
    auto p = process_for(ctx, a, "a pause");
    if (!p) return std::nullopt;
    return PauseEvent{p->first, p->second};
  }
  if (a.label == "crash") return parse_crash(ctx, a);
  if (a.label == "skew") return parse_skew(ctx, a);
  if (a.label == "apiserver") {
    auto what = ctx.reader.string(a);
    if (!what) return std::nullopt;
    if (*what != "restart") {
      ctx.reader.error(a, "\"" + *what + "\" is not supported: the only value is restart");
      return std::nullopt;
    }
    return ApiServerRestartEvent{};
  }
  if (a.label == "compact") {
    if (a.is_null()) return CompactEvent{};
    MapFields f(ctx.reader, a, "compact", {});
    if (!f.ok() || a.value.size() != 0) return std::nullopt;
    return CompactEvent{};
  }
  auto faults = parse_faults(ctx, a);
  if (!faults) return std::nullopt;
  return *faults;
}

std::optional<Trigger> parse_when(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "when", {"process", "after"});
  if (!f.ok()) return std::nullopt;
  Trigger t;
  auto process = ctx.replica(f.require("process"));
  MapFields after(ctx.reader, f.require("after", "{verb: update, resource: configmaps, count: 3}"),
                  "when.after", {"verb", "resource", "count"});
  bool ok = process.has_value() && after.ok();
  if (const Field verb_field = after.get("verb")) {
    auto verb_text = ctx.reader.string(verb_field);
    auto verb = verb_text ? api::parse_verb(*verb_text) : std::nullopt;
    if (verb_text && !verb) {
      ctx.reader.error(verb_field, "unknown verb \"" + *verb_text +
                                       "\" (get, list, watch, create, update, patch, delete, "
                                       "deletecollection)");
    }
    t.verb = verb;
    ok = ok && verb.has_value();
  }
  if (const Field resource = after.get("resource")) {
    auto r = ctx.resource(resource);
    if (r) t.resource = r->ref.gvr.resource;
    ok = ok && r.has_value();
  }
  if (const Field count = after.get("count")) {
    auto n = ctx.reader.integer_at_least(count, 1);
    if (n && *n > 1'000'000'000) {
      ctx.reader.error(count, "must be at most 1000000000");
      n.reset();
    }
    if (n) t.count = static_cast<int>(*n);
    ok = ok && n.has_value();
  }
  if (!ok) return std::nullopt;
  t.process = *process;
  return t;
}

void parse_event(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a timeline event", event_keys());
  if (!f.ok()) return;
  TimelineEvent e;
  e.mark = field.mark();
  bool ok = true;
  const Field at = f.get("at");
  const Field when = f.get("when");
  if (at && when) {
    ctx.reader.error(when.key_mark,
                     "when: an event happens either at an instant or when a "
                     "trigger fires, not both");
    ok = false;
  } else if (!at && !when) {
    ctx.reader.error(f.mark(),
                     "a timeline event needs at (an instant, e.g. 30s) or when (a trigger)");
    ok = false;
  } else if (at) {
    e.at = ctx.reader.non_negative_duration(at);
    if (e.at && ctx.duration_known && *e.at > ctx.scenario.duration) {
      ctx.reader.error(
          at, at.value.Scalar() + " is past the scenario's duration (" + ctx.duration_text + ")");
      ok = false;
    }
    ok = ok && e.at.has_value();
  } else {
    e.when = parse_when(ctx, when);
    ok = ok && e.when.has_value();
  }
  const auto actions = f.present(kActions);
  if (actions.size() != 1) {
    ctx.reader.error(actions.empty() ? f.mark() : actions[1].key_mark,
                     actions.empty()
                         ? "a timeline event needs an action (one of " + join(kActions) + ")"
                         : "a timeline event holds one action, not " + actions[0].label + " and " +
                               actions[1].label + "; write one event for each");
    return;
  }
  auto action = parse_action(ctx, actions[0]);
  if (!action || !ok) return;
  e.action = std::move(*action);
  ctx.scenario.timeline.push_back(std::move(e));
}

}  // namespace

void parse_timeline(ParseContext& ctx, const Field& field) {
  if (!ctx.reader.expect_list(field)) return;
  for (const Field& item : items(field)) parse_event(ctx, item);
}

}  // namespace kubesim::scenarios::internal
