// The scenario's `seeds` (a count or a list of seeds) and `explore:` (how `kubesim explore` treats
// the scenario: docs/explore.md).
#include <set>
#include <string>
#include <vector>

#include "kubesim/api/go_duration.h"
#include "kubesim/scenarios/yaml_reader.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {

namespace {

constexpr std::int64_t kMaxSeeds = 1'000'000'000;

const std::vector<std::string> kExploreKeys = {"free", "settle", "differential"};

void parse_seed_list(ParseContext& ctx, const Field& field) {
  const std::vector<Field> list = items(field);
  if (list.empty()) {
    ctx.reader.error(field, "the list is empty; list at least one seed, or give a count");
    return;
  }
  std::set<std::int64_t> seen;
  std::vector<std::uint64_t> seeds;
  for (const Field& item : list) {
    auto seed = ctx.reader.integer_at_least(item, 0);
    if (!seed) continue;
    if (!seen.insert(*seed).second) {
      ctx.reader.error(item, "seed " + std::to_string(*seed) + " is listed twice");
      continue;
    }
    seeds.push_back(static_cast<std::uint64_t>(*seed));
  }
  ctx.scenario.seed_list = seeds;
  ctx.scenario.seeds = static_cast<int>(seeds.size());
}

// A dotted path: segments separated by dots, none empty.
bool dotted_path(const std::string& path) {
  if (path.empty() || path.front() == '.' || path.back() == '.') return false;
  return path.find("..") == std::string::npos;
}

}  // namespace

void parse_seeds(ParseContext& ctx, const Field& field) {
  if (!field) return;
  if (field.is_list()) {
    parse_seed_list(ctx, field);
    return;
  }
  if (!field.is_scalar()) {
    ctx.reader.error(field, "expected a count or a list of seeds, got " + describe(field.value));
    return;
  }
  if (auto n = ctx.reader.integer_at_least(field, 1)) {
    if (*n > kMaxSeeds) {
      ctx.reader.error(field, "must be at most " + std::to_string(kMaxSeeds));
    } else {
      ctx.scenario.seeds = static_cast<int>(*n);
    }
  }
}

void parse_explore(ParseContext& ctx, const Field& field) {
  if (!field) return;
  MapFields map(ctx.reader, field, "explore", kExploreKeys);
  if (!map.ok()) return;
  ExploreSpec& spec = ctx.scenario.explore;
  spec.mark = map.mark();
  if (Field free = map.get("free")) {
    if (auto paths = ctx.reader.strings(free, /*allow_single=*/false)) {
      const std::vector<Field> list = items(free);
      for (std::size_t i = 0; i < paths->size(); ++i) {
        if (!dotted_path((*paths)[i])) {
          ctx.reader.error(list[i], quote((*paths)[i]) +
                                        " is not a dotted path (status.lastSync, metadata.annotations.*)");
          continue;
        }
        spec.free.push_back((*paths)[i]);
      }
    }
  }
  const Field settle = map.get("settle");
  if (auto d = ctx.reader.non_negative_duration(settle)) {
    if (ctx.duration_known && *d >= ctx.scenario.duration) {
      ctx.reader.error(settle, api::format_go_duration(*d) + " is not shorter than the scenario's duration (" +
                                   ctx.duration_text + ")");
    } else {
      spec.settle = *d;
    }
  }
  if (auto b = ctx.reader.boolean(map.get("differential"))) spec.differential = *b;
}

}  // namespace kubesim::scenarios::internal
