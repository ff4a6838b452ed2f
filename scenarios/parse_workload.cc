// The `workload:` section: traffic generators and their create/update/delete actions.
#include <charconv>
#include <cmath>

#include "kubesim/api/go_duration.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {
namespace {

// "5/s", "30/m", "0.5/h" → the interval between actions; nullopt (reported) otherwise.
std::optional<sim::Duration> parse_rate(ParseContext& ctx, const Field& field) {
  auto text = ctx.reader.scalar_text(field);
  if (!text) return std::nullopt;
  const auto bad = [&]() -> std::optional<sim::Duration> {
    ctx.reader.error(field, "\"" + *text + "\" is not a rate: write N/s, N/m or N/h (5/s)");
    return std::nullopt;
  };
  const auto slash = text->find('/');
  if (slash == std::string::npos || slash + 2 != text->size()) return bad();
  double per = 0;
  switch ((*text)[slash + 1]) {
    case 's':
      per = 1e9;
      break;
    case 'm':
      per = 60e9;
      break;
    case 'h':
      per = 3600e9;
      break;
    default:
      return bad();
  }
  double n = 0;
  const char* begin = text->data();
  const auto [end, ec] = std::from_chars(begin, begin + slash, n);
  if (ec != std::errc() || end != begin + slash || !std::isfinite(n)) return bad();
  if (n <= 0) {
    ctx.reader.error(field, "must be positive, got \"" + *text + "\"");
    return std::nullopt;
  }
  const double every = per / n;
  if (every < 1 || every > 1e18) {
    ctx.reader.error(field, "\"" + *text + "\" is out of range");
    return std::nullopt;
  }
  return sim::Duration(static_cast<sim::Duration::rep>(std::llround(every)));
}

std::optional<Pick> parse_pick(ParseContext& ctx, const Field& field) {
  auto text = ctx.reader.string(field);
  if (!text) return std::nullopt;
  if (*text == "random") return Pick::kRandom;
  if (*text == "oldest") return Pick::kOldest;
  if (*text == "newest") return Pick::kNewest;
  ctx.reader.error(field, "unknown pick \"" + *text + "\" (random, oldest or newest)");
  return std::nullopt;
}

// The target of an update or delete: resource, namespace and pick.
struct Target {
  ResourceRef resource;
  std::string ns;
  Pick pick = Pick::kRandom;
};

std::optional<Target> parse_target(ParseContext& ctx, const MapFields& f,
                                   const Field& resource_field) {
  Target t;
  auto resource = ctx.resource(resource_field);
  bool ok = resource.has_value();
  if (auto ns = ctx.reader.string(f.get("namespace"))) t.ns = *ns;
  if (const Field pick = f.get("pick")) {
    auto p = parse_pick(ctx, pick);
    if (p) t.pick = *p;
    ok = ok && p.has_value();
  }
  if (!ok) return std::nullopt;
  ctx.check_scope(f.get("namespace"), *resource);
  t.resource = resource->ref;
  return t;
}

std::optional<WorkloadAction> parse_update(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "an update", {"resource", "namespace", "pick", "set"});
  if (!f.ok()) return std::nullopt;
  auto target = parse_target(ctx, f, f.require("resource"));
  const Field set = f.require("set", "{path: value, …}, e.g. {data.tick: \"{{n}}\"}");
  UpdateAction u;
  bool ok = true;
  for (const auto& [path, value] : entries(ctx.reader, set)) {
    if (path.empty() || path.front() == '.' || path.back() == '.' ||
        path.find("..") != std::string::npos) {
      ctx.reader.error(value.key_mark, "set: \"" + path + "\" is not a dotted path (data.key)");
      ok = false;
      continue;
    }
    auto j = ctx.reader.json(value);
    if (!j) {
      ok = false;
      continue;
    }
    u.set.emplace_back(path, std::move(*j));
  }
  if (set && set.is_map() && set.value.size() == 0) {
    ctx.reader.error(set, "must set at least one path");
    ok = false;
  }
  if (!target || !ok || !set) return std::nullopt;
  u.resource = target->resource;
  u.ns = target->ns;
  u.pick = target->pick;
  return u;
}

std::optional<WorkloadAction> parse_delete(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a delete", {"resource", "namespace", "pick"});
  if (!f.ok()) return std::nullopt;
  auto target = parse_target(ctx, f, f.require("resource"));
  if (!target) return std::nullopt;
  return DeleteAction{target->resource, target->ns, target->pick};
}

std::optional<WorkloadAction> parse_workload_action(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a workload action", {"create", "update", "delete"});
  if (!f.ok()) return std::nullopt;
  const auto kinds = f.present({"create", "update", "delete"});
  if (kinds.size() != 1) {
    ctx.reader.error(f.mark(), kinds.empty()
                                   ? "action: needs one of create, update or delete"
                                   : "action: holds one of create, update or delete, not " +
                                         kinds[0].label + " and " + kinds[1].label);
    return std::nullopt;
  }
  const Field& a = kinds[0];
  if (a.label == "create") {
    auto object = ctx.object(a);
    if (!object) return std::nullopt;
    return CreateAction{std::move(*object)};
  }
  if (a.label == "update") return parse_update(ctx, a);
  return parse_delete(ctx, a);
}

void parse_entry(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a workload entry", {"every", "rate", "from", "until", "action", "expect"});
  if (!f.ok()) return;
  WorkloadEntry w;
  w.mark = field.mark();
  bool ok = true;
  const Field every = f.get("every");
  const Field rate = f.get("rate");
  if (every && rate) {
    ctx.reader.error(rate.key_mark, "rate: give either every or rate, not both");
    ok = false;
  } else if (!every && !rate) {
    ctx.reader.error(f.mark(), "a workload entry needs every (200ms) or rate (5/s)");
    ok = false;
  } else {
    auto d = every ? ctx.reader.positive_duration(every) : parse_rate(ctx, rate);
    if (d) w.every = *d;
    ok = ok && d.has_value();
  }
  if (auto d = ctx.reader.non_negative_duration(f.get("from"))) w.from = *d;
  if (auto d = ctx.reader.non_negative_duration(f.get("until"))) {
    if (*d < w.from) {
      ctx.reader.error(f.get("until"), "the window is upside down: until " +
                                           f.get("until").value.Scalar() + " is before from " +
                                           f.get("from").value.Scalar());
      ok = false;
    }
    w.until = *d;
  }
  if (const Field expect = f.get("expect")) {
    MapFields e(ctx.reader, expect, "a workload entry's expect", {"refused"});
    if (!e.ok()) {
      ok = false;
    } else if (auto b = ctx.reader.boolean(e.require("refused", "true or false"))) {
      w.expect_refused = *b;
    } else {
      ok = false;
    }
  }
  auto action = parse_workload_action(ctx, f.require("action", "{create: …}, {update: …} or {delete: …}"));
  if (!action || !ok) return;
  w.action = std::move(*action);
  ctx.scenario.workload.push_back(std::move(w));
}

}  // namespace

void parse_workload(ParseContext& ctx, const Field& field) {
  if (!ctx.reader.expect_list(field)) return;
  for (const Field& item : items(field)) parse_entry(ctx, item);
}

}  // namespace kubesim::scenarios::internal
