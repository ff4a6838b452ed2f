// The `cluster:` and `network:` sections, and latency ranges.
#include "kubesim/api/go_duration.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {
namespace {

void parse_custom_resource(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a custom resource",
              {"group", "version", "kind", "plural", "namespaced"});
  if (!f.ok()) return;
  CustomResource r;
  r.mark = field.mark();
  auto group = ctx.reader.string(f.require("group"));
  auto version = ctx.reader.string(f.require("version"));
  auto kind = ctx.reader.string(f.require("kind"));
  auto plural = ctx.reader.string(f.require("plural"));
  if (auto b = ctx.reader.boolean(f.get("namespaced"))) r.namespaced = *b;
  if (!group || !version || !kind || !plural) return;
  bool ok = true;
  for (const auto& [key, value] : {std::pair<const char*, const std::string*>{"group", &*group},
                                   {"version", &*version},
                                   {"kind", &*kind},
                                   {"plural", &*plural}}) {
    if (value->empty() || value->find('/') != std::string::npos) {
      ctx.reader.error(f.get(key), "must be a non-empty word without '/'");
      ok = false;
    }
  }
  if (!ok) return;
  r.group = *group;
  r.version = *version;
  r.kind = *kind;
  r.plural = *plural;
  if (r.group.find('.') == std::string::npos) {
    ctx.reader.error(f.get("group"), "a custom resource's group must contain a dot (example.com)");
    return;
  }
  if (ctx.resource_of_kind(api::GroupVersion(r.group, r.version).to_string(), r.kind)) {
    ctx.reader.error(field,
                     "kind " + r.kind + " of " + r.group + "/" + r.version + " is already defined");
    return;
  }
  for (const auto& other : ctx.scenario.cluster.resources) {
    if (other.group == r.group && other.version == r.version && other.plural == r.plural) {
      ctx.reader.error(f.get("plural"), "resource " + r.group + "/" + r.version + "/" + r.plural +
                                            " is already declared (at " + mark_text(other.mark) +
                                            ")");
      return;
    }
  }
  ctx.scenario.cluster.resources.push_back(std::move(r));
}

}  // namespace

void parse_cluster(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "cluster", {"compaction", "bookmarks", "resources", "objects"});
  if (!f.ok()) return;
  ClusterSpec& c = ctx.scenario.cluster;
  if (auto d = ctx.reader.positive_duration(f.get("compaction"))) c.compaction = *d;
  if (auto d = ctx.reader.positive_duration(f.get("bookmarks"))) c.bookmarks = *d;
  // Resources first: objects and every later section may name them.
  if (ctx.reader.expect_list(f.get("resources"))) {
    for (const Field& item : items(f.get("resources"))) parse_custom_resource(ctx, item);
  }
  if (ctx.reader.expect_list(f.get("objects"))) {
    for (const Field& item : items(f.get("objects"))) {
      if (auto object = ctx.object(item)) {
        c.objects.push_back(std::move(*object));
        c.object_marks.push_back(item.mark());
      }
    }
  }
}

void parse_network(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "network", {"latency"});
  if (!f.ok()) return;
  if (auto latency = parse_latency(ctx, f.get("latency"))) ctx.scenario.network = *latency;
}

std::optional<LatencySpec> parse_latency(ParseContext& ctx, const Field& field) {
  if (!field) return std::nullopt;
  Field min_field;
  Field max_field;
  if (field.is_scalar()) {
    auto d = ctx.reader.non_negative_duration(field);
    if (!d) return std::nullopt;
    return LatencySpec{*d, *d};
  }
  if (field.is_list()) {
    auto list = items(field);
    if (list.size() != 2) {
      ctx.reader.error(field,
                       "expected one duration, [min, max] or {min: …, max: …}, got a list of " +
                           std::to_string(list.size()));
      return std::nullopt;
    }
    min_field = list[0];
    max_field = list[1];
  } else if (field.is_map()) {
    MapFields f(ctx.reader, field, field.label, {"min", "max"});
    min_field = f.require("min");
    max_field = f.require("max");
    if (!min_field || !max_field) return std::nullopt;
  } else {
    ctx.reader.error(field, "expected one duration, [min, max] or {min: …, max: …}, got " +
                                describe(field.value));
    return std::nullopt;
  }
  auto min = ctx.reader.non_negative_duration(min_field);
  auto max = ctx.reader.non_negative_duration(max_field);
  if (!min || !max) return std::nullopt;
  if (*min > *max) {
    ctx.reader.error(field, "the range is upside down: min " + min_field.value.Scalar() +
                                " > max " + max_field.value.Scalar());
    return std::nullopt;
  }
  return LatencySpec{*min, *max};
}

}  // namespace kubesim::scenarios::internal
