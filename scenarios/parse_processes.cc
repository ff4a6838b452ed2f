// The `processes:` section: replicas, clocks, links, exec, and the actors each runs.
#include <cmath>
#include <exception>
#include <type_traits>

#include "kubesim/api/go_duration.h"
#include "kubesim/election/config.h"
#include "scenarios/internal/parse_context.h"

namespace kubesim::scenarios::internal {
namespace {

constexpr std::int64_t kMaxReplicas = 1000;
constexpr std::int64_t kMaxWorkers = 1000;

bool valid_process_name(const std::string& name) {
  if (name.empty() || name.size() > 50) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return name.front() != '-' && name.back() != '-';
}

// One value, or [min, max]; `read` reads each.
template <class Read>
auto range_of(ParseContext& ctx, const Field& field, Read read)
    -> std::optional<Range<typename std::invoke_result_t<Read, const Field&>::value_type>> {
  using T = typename std::invoke_result_t<Read, const Field&>::value_type;
  if (field.is_list()) {
    auto list = items(field);
    if (list.size() != 2) {
      ctx.reader.error(
          field, "expected one value or [min, max], got a list of " + std::to_string(list.size()));
      return std::nullopt;
    }
    auto min = read(list[0]);
    auto max = read(list[1]);
    if (!min || !max) return std::nullopt;
    return Range<T>{*min, *max};
  }
  auto v = read(field);
  if (!v) return std::nullopt;
  return Range<T>{*v, *v};
}

std::optional<Lock> parse_lock(ParseContext& ctx, const Field& field) {
  Lock lock;
  lock.mark = field.mark();
  if (field.is_map()) {
    MapFields outer(ctx.reader, field, "a lock", {"multi"});
    MapFields multi(ctx.reader, outer.require("multi"), "a multi lock", {"primary", "secondary"});
    if (!multi.ok()) return std::nullopt;
    auto primary = ctx.lock_ref(multi.require("primary"));
    auto secondary = ctx.lock_ref(multi.require("secondary"));
    if (!primary || !secondary) return std::nullopt;
    if (primary->text() == secondary->text()) {
      ctx.reader.error(multi.get("secondary"), "must differ from the primary lock");
      return std::nullopt;
    }
    lock.primary = *primary;
    lock.secondary = *secondary;
    return lock;
  }
  if (!field.is_scalar()) {
    ctx.reader.error(field,
                     "expected a lock (leases/NAMESPACE/NAME) or {multi: {primary: …, "
                     "secondary: …}}, got " +
                         describe(field.value));
    return std::nullopt;
  }
  auto ref = ctx.lock_ref(field);
  if (!ref) return std::nullopt;
  lock.primary = *ref;
  return lock;
}

// client-go's NewLeaderElector rules on the three durations.
void check_timings(ParseContext& ctx, const MapFields& f, const ElectorSpec& e) {
  if (e.lease_duration <= e.renew_deadline) {
    const Field at = f.has("renewDeadline") ? f.get("renewDeadline") : f.get("leaseDuration");
    ctx.reader.error(at ? at.mark() : f.mark(), "leaseDuration (" + api::format_go_duration(e.lease_duration) +
                                                    ") must be greater than renewDeadline (" +
                                                    api::format_go_duration(e.renew_deadline) +
                                                    "), as client-go requires");
    return;
  }
  const auto jittered = sim::Duration(static_cast<sim::Duration::rep>(
      election::kJitterFactor * static_cast<double>(e.retry_period.count())));
  if (e.renew_deadline <= jittered) {
    const Field at = f.has("retryPeriod") ? f.get("retryPeriod") : f.get("renewDeadline");
    ctx.reader.error(at ? at.mark() : f.mark(),
                     "renewDeadline (" + api::format_go_duration(e.renew_deadline) +
                         ") must be greater than retryPeriod*JitterFactor (1.2 × " +
                         api::format_go_duration(e.retry_period) + " = " + api::format_go_duration(jittered) +
                         "), as client-go requires");
  }
}

std::optional<ElectorSpec> parse_elector(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "an elector",
              {"lock", "leaseDuration", "renewDeadline", "retryPeriod", "releaseOnCancel",
               "cancelBeforeRelease", "releaseOnlyIfHolder"});
  if (!f.ok()) return std::nullopt;
  ElectorSpec e;
  e.mark = field.mark();
  bool ok = true;
  const Field lock_field = f.require("lock", "leases/NAMESPACE/NAME");
  if (lock_field) {
    auto lock = parse_lock(ctx, lock_field);
    if (lock) e.lock = *lock;
    ok = ok && lock.has_value();
  } else {
    ok = false;
  }
  bool timings = true;
  for (auto [key, out] : {std::pair{"leaseDuration", &e.lease_duration},
                          {"renewDeadline", &e.renew_deadline},
                          {"retryPeriod", &e.retry_period}}) {
    const Field value = f.get(key);
    if (!value) continue;
    if (auto d = ctx.reader.positive_duration(value)) {
      *out = *d;
    } else {
      timings = false;
    }
  }
  if (timings) check_timings(ctx, f, e);
  if (auto b = ctx.reader.boolean(f.get("releaseOnCancel"))) e.release_on_cancel = *b;
  if (auto b = ctx.reader.boolean(f.get("cancelBeforeRelease"))) e.cancel_before_release = *b;
  if (auto b = ctx.reader.boolean(f.get("releaseOnlyIfHolder"))) e.release_only_if_holder = *b;
  if (!ok) return std::nullopt;
  return e;
}

std::optional<InformerSpec> parse_informer(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "an informer", {"resource", "namespace", "resync"});
  if (!f.ok()) return std::nullopt;
  InformerSpec i;
  i.mark = field.mark();
  auto resource = ctx.resource(f.require("resource", "a plural such as configmaps"));
  if (auto ns = ctx.reader.string(f.get("namespace"))) i.ns = *ns;
  if (auto d = ctx.reader.non_negative_duration(f.get("resync"))) i.resync = *d;
  if (!resource) return std::nullopt;
  ctx.check_scope(f.get("namespace"), *resource);
  i.resource = resource->ref;
  return i;
}

std::optional<ControllerSpec> parse_controller(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a controller", {"type", "onlyWhenLeader", "workers", "params"});
  if (!f.ok()) return std::nullopt;
  ControllerSpec c;
  c.mark = field.mark();
  if (auto b = ctx.reader.boolean(f.get("onlyWhenLeader"))) c.only_when_leader = *b;
  if (auto n = ctx.reader.integer_at_least(f.get("workers"), 1)) {
    if (*n > kMaxWorkers) {
      ctx.reader.error(f.get("workers"), "must be at most " + std::to_string(kMaxWorkers));
    } else {
      c.workers = static_cast<int>(*n);
    }
  }
  const Field params = f.get("params");
  if (params && ctx.reader.expect_map(params)) {
    if (auto j = ctx.reader.json(params)) c.params = std::move(*j);
  }
  const Field type_field = f.require("type");
  auto type = ctx.reader.string(type_field);
  if (!type) return std::nullopt;
  c.type = *type;
  const ControllerType* found = ctx.controllers.find(*type);
  if (found == nullptr) {
    const auto names = ctx.controllers.names();
    std::string message = "unknown controller type \"" + *type + "\"";
    if (auto near = closest(*type, names)) message += "; did you mean \"" + *near + "\"?";
    ctx.reader.error(type_field, message + " (registered: " +
                                     (names.empty() ? std::string("none") : join(names)) + ")");
    return std::nullopt;
  }
  if (found->validate) {
    std::optional<std::string> problem;
    try {
      problem = found->validate(c.params);
    } catch (const std::exception& e) {
      problem = std::string("the validator failed: ") + e.what();
    }
    if (problem) {
      const Field at = params ? params : type_field;
      ctx.reader.error(at.mark(), *type + ": " + *problem);
    }
  }
  return c;
}

// Reads one `run:` entry into p.run; `elector` is the place of the process's elector, if any.
void parse_actor(ParseContext& ctx, const Field& field, ProcessSpec& p,
                 std::optional<Mark>& elector) {
  MapFields f(ctx.reader, field, "a run entry", {"elector", "informer", "controller"});
  if (!f.ok()) return;
  const auto kinds = f.present({"elector", "informer", "controller"});
  if (kinds.size() != 1) {
    ctx.reader.error(f.mark(), kinds.empty()
                                   ? "a run entry needs one of elector, informer or controller"
                                   : "a run entry holds one actor; write " + kinds[0].label +
                                         " and " + kinds[1].label + " as separate entries");
    return;
  }
  const Field& actor = kinds[0];
  if (actor.label == "elector") {
    if (elector) {
      ctx.reader.error(actor.key_mark, "a process runs at most one elector (the first is at " +
                                           mark_text(*elector) + ")");
      return;
    }
    elector = actor.key_mark;
    if (auto e = parse_elector(ctx, actor)) p.run.emplace_back(std::move(*e));
  } else if (actor.label == "informer") {
    if (auto i = parse_informer(ctx, actor)) p.run.emplace_back(std::move(*i));
  } else if (auto c = parse_controller(ctx, actor)) {
    p.run.emplace_back(std::move(*c));
  }
}

std::optional<ExecSpec> parse_exec(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "exec", {"command", "env", "lock"});
  if (!f.ok()) return std::nullopt;
  ExecSpec e;
  e.mark = field.mark();
  const Field command = f.require("command", "[program, arguments…]");
  auto words = ctx.reader.strings(command, false);
  if (words && words->empty()) ctx.reader.error(command, "must name a program");
  if (words) e.command = *words;
  for (const auto& [key, value] : entries(ctx.reader, f.get("env"))) {
    if (auto v = ctx.reader.scalar_text(value)) e.env.emplace_back(key, *v);
  }
  if (const Field lock = f.get("lock")) e.lock = ctx.lock_ref(lock);
  return e;
}

ClockSpec parse_clock(ParseContext& ctx, const Field& field) {
  ClockSpec clock;
  MapFields f(ctx.reader, field, "clock", {"skew", "drift"});
  if (!f.ok()) return clock;
  if (const Field skew = f.get("skew")) {
    auto range = range_of(ctx, skew, [&](const Field& v) { return ctx.reader.duration(v); });
    if (range && range->min > range->max) {
      ctx.reader.error(skew, "the range is upside down: " + items(skew)[0].value.Scalar() + " > " +
                                 items(skew)[1].value.Scalar());
    } else if (range) {
      clock.skew = *range;
    }
  }
  if (const Field drift = f.get("drift")) {
    auto range = range_of(ctx, drift, [&](const Field& v) -> std::optional<double> {
      auto d = ctx.reader.number(v);
      if (d && (*d <= -1 || *d >= 1)) {
        ctx.reader.error(v, "must be between -1 and 1 (a rate error: 0.01 is 1 % fast)");
        return std::nullopt;
      }
      return d;
    });
    if (range && range->min > range->max) {
      ctx.reader.error(drift, "the range is upside down: " + items(drift)[0].value.Scalar() +
                                  " > " + items(drift)[1].value.Scalar());
    } else if (range) {
      clock.drift = *range;
    }
  }
  return clock;
}

void parse_process(ParseContext& ctx, const Field& field) {
  MapFields f(ctx.reader, field, "a process",
              {"name", "replicas", "clock", "network", "watchList", "run", "exec"});
  if (!f.ok()) return;
  ProcessSpec p;
  p.mark = field.mark();
  const Field name_field = f.require("name");
  if (auto name = ctx.reader.string(name_field)) {
    if (!valid_process_name(*name)) {
      ctx.reader.error(name_field, "\"" + *name +
                                       "\" is not a process name: lowercase letters, digits and "
                                       "'-', starting and ending with a letter or digit");
    } else {
      p.name = *name;
      for (const auto& other : ctx.scenario.processes) {
        if (other.name == p.name) {
          ctx.reader.error(name_field, "duplicate process name \"" + p.name + "\" (first at " +
                                           mark_text(other.mark) + ")");
          p.name.clear();
          break;
        }
      }
    }
  }
  if (auto n = ctx.reader.integer_at_least(f.get("replicas"), 1)) {
    if (*n > kMaxReplicas) {
      ctx.reader.error(f.get("replicas"), "must be at most " + std::to_string(kMaxReplicas));
    } else {
      p.replicas = static_cast<int>(*n);
    }
  }
  p.clock = parse_clock(ctx, f.get("clock"));
  MapFields network(ctx.reader, f.get("network"), "a process's network", {"latency"});
  if (network.ok()) p.latency = parse_latency(ctx, network.get("latency"));
  if (auto b = ctx.reader.boolean(f.get("watchList"))) p.watch_list = *b;
  if (f.has("watchList") && f.has("exec")) {
    ctx.reader.error(f.get("watchList").key_mark,
                     "watchList sets kubesim's own informers; a real program (exec) lists as it lists");
  }
  if (f.has("run") && f.has("exec")) {
    ctx.reader.error(f.get("exec").key_mark,
                     "a process either runs actors (run) or is a real program (exec), not both");
  }
  if (ctx.reader.expect_list(f.get("run"))) {
    std::optional<Mark> elector;
    for (const Field& item : items(f.get("run"))) parse_actor(ctx, item, p, elector);
    for (const auto& actor : p.run) {
      const auto* c = std::get_if<ControllerSpec>(&actor);
      if (c != nullptr && c->only_when_leader && !elector) {
        ctx.reader.error(c->mark, "onlyWhenLeader: process \"" + p.name +
                                      "\" runs no elector; add one to its run list");
      }
    }
  }
  if (f.has("exec")) p.exec = parse_exec(ctx, f.get("exec"));
  ctx.scenario.processes.push_back(std::move(p));
}

}  // namespace

void parse_processes(ParseContext& ctx, const Field& field) {
  if (!ctx.reader.expect_list(field)) return;
  for (const Field& item : items(field)) parse_process(ctx, item);
}

}  // namespace kubesim::scenarios::internal
