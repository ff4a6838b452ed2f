#include "runner/internal/timeline.h"

#include <stdexcept>
#include <string_view>

#include "kubesim/api/go_duration.h"
#include "kubesim/runner/checks.h"
#include "kubesim/runner/world.h"

namespace kubesim::runner {

using nlohmann::json;

namespace {

constexpr std::string_view kTimeline = "timeline";

cluster::Replica& process_named(World& w, const std::string& name) {
  cluster::Replica* r = w.cluster.find(name);
  if (r == nullptr) throw std::runtime_error("timeline: no process named \"" + name + "\"");
  return *r;
}

std::string describe_rule(const fakeapi::FaultRule& rule) {
  std::string verbs;
  for (fakeapi::Verb v : rule.verbs) verbs += (verbs.empty() ? "" : ",") + std::string(api::to_string(v));
  std::string out = (verbs.empty() ? "*" : verbs) + " " + (rule.resource.empty() ? "*" : rule.resource);
  if (!rule.subresource.empty()) out += "/" + rule.subresource;
  out += " " + std::string(fakeapi::to_string(rule.kind()));
  if (const auto* error = rule.as<fakeapi::ErrorFault>()) out += " " + std::to_string(error->status.code);
  return out;
}

void partition(World& w, const scenarios::PartitionEvent& e, json& fields) {
  cluster::Replica& r = process_named(w, e.process);
  ProcessLane& lane = *w.find_lane(e.process);
  fields["process"] = e.process;
  fields["for"] = api::format_go_duration(e.length);
  w.cluster.partition(r, e.length);
  if (lane.partition_span == Picture::kNoSpan) {
    lane.partition_span = w.picture.open("process " + e.process, "partition", "partitioned", w.loop.now());
  }
}

void crash(World& w, const scenarios::CrashEvent& e, json& fields) {
  cluster::Replica& r = process_named(w, e.process);
  ProcessLane& lane = *w.find_lane(e.process);
  fields["process"] = e.process;
  if (e.restart_after) fields["restartAfter"] = api::format_go_duration(*e.restart_after);
  const std::string lane_name = "process " + e.process;
  w.picture.mark(lane_name, "crash", "crash", w.loop.now());
  w.picture.close(std::exchange(lane.pause_span, Picture::kNoSpan), w.loop.now());
  if (lane.down_span == Picture::kNoSpan) lane.down_span = w.picture.open(lane_name, "down", "down", w.loop.now());
  w.cluster.crash(r, e.restart_after);
}

void end_pause(World* w, std::string name) {
  if (w->closing()) return;
  sim::Process& p = *process_named(*w, name).process;
  ProcessLane& lane = *w->find_lane(name);
  // A later pause extended it. (One ending now may not have ended yet: same-instant work runs in
  // a seeded order in shuffle mode.)
  if (p.paused() && p.paused_until() > w->loop.now()) return;
  w->picture.close(std::exchange(lane.pause_span, Picture::kNoSpan), w->loop.now());
}

void pause(World& w, const scenarios::PauseEvent& e, json& fields) {
  cluster::Replica& r = process_named(w, e.process);
  ProcessLane& lane = *w.find_lane(e.process);
  fields["process"] = e.process;
  fields["for"] = api::format_go_duration(e.length);
  if (!w.cluster.pause(r, e.length)) return;
  if (lane.pause_span == Picture::kNoSpan) {
    lane.pause_span = w.picture.open("process " + e.process, "pause", "paused", w.loop.now());
  }
  // Even with the picture off: the timer is part of the run (see World::run_until).
  World* world = &w;
  w.loop.add_timer(w.loop.now() + e.length, [world, name = e.process] { end_pause(world, name); });
}

void faults(World& w, const scenarios::FaultsEvent& e, json& fields) {
  json rules = json::array();
  for (const scenarios::FaultEntry& entry : e.rules) {
    fakeapi::FaultRule rule = entry.rule;
    rule.from = w.loop.now();
    if (entry.length) rule.until = w.loop.now() + *entry.length;
    const std::string id = w.server.faults().add(rule);
    rule.id = id;
    rules.push_back(rule.to_json());
    const sim::Time until = entry.length ? std::min(w.loop.now() + *entry.length, w.end) : w.end;
    if (rule.count) {  // it may run out before `until`: drawn to its last injection (World::finish_picture)
      w.counted_faults.push_back(
          CountedFault{w.picture.open("apiserver", "fault", describe_rule(rule), w.loop.now()), id, *rule.count, until});
    } else {
      w.picture.span("apiserver", "fault", describe_rule(rule), w.loop.now(), until);
    }
  }
  fields["rules"] = std::move(rules);
}

// Applies the action; returns the trace kind's suffix.
std::string_view apply_action(World& w, const scenarios::TimelineAction& action, json& fields) {
  if (const auto* e = std::get_if<scenarios::PartitionEvent>(&action)) {
    partition(w, *e, fields);
    return "partition";
  }
  if (const auto* e = std::get_if<scenarios::CrashEvent>(&action)) {
    crash(w, *e, fields);
    return "crash";
  }
  if (std::holds_alternative<scenarios::ApiServerRestartEvent>(action)) {
    w.picture.mark("apiserver", "restart", "API server restart", w.loop.now());
    w.server.restart();
    return "apiserver-restart";
  }
  if (std::holds_alternative<scenarios::CompactEvent>(action)) {
    w.picture.mark("apiserver", "compact", "compaction", w.loop.now());
    w.server.compact_now();
    return "compact";
  }
  if (const auto* e = std::get_if<scenarios::FaultsEvent>(&action)) {
    faults(w, *e, fields);
    return "faults";
  }
  if (const auto* e = std::get_if<scenarios::SkewEvent>(&action)) {
    w.cluster.step_clock(process_named(w, e->process), e->by);
    fields["process"] = e->process;
    fields["by"] = api::format_go_duration(e->by);
    w.picture.mark("process " + e->process, "skew", "wall clock stepped by " + api::format_go_duration(e->by), w.loop.now());
    return "skew";
  }
  pause(w, std::get<scenarios::PauseEvent>(action), fields);
  return "pause";
}

}  // namespace

void apply_event(World& w, std::size_t index, const char* cause) {
  if (w.closing()) return;
  const scenarios::TimelineEvent& event = w.scenario.timeline[index];
  json fields = {{"event", index}, {"cause", cause}};
  const std::string_view kind = apply_action(w, event.action, fields);
  w.trace(kTimeline, "timeline." + std::string(kind), fields);
  w.checker->on_event();
}

// --- what the cluster tells of the processes ------------------------------------------------------

void World::restarting(cluster::Replica& r, cluster::Restart cause) {
  ProcessLane& lane = *find_lane(r.name);
  if (cause == cluster::Restart::kAfterCrash) {
    trace(kTimeline, "timeline.restart", {{"process", r.name}});
    picture.close(std::exchange(lane.down_span, Picture::kNoSpan), loop.now());
  } else if (cause == cluster::Restart::kAfterExit) {
    const bool program = find_replica(r.name) != nullptr && find_replica(r.name)->spec->exec;
    picture.mark("process " + r.name, "restart",
                 program ? "restarted: its program had exited" : "exited: its leader election ended", loop.now());
  }
}

void World::restarted(cluster::Replica&, cluster::Restart cause) {
  if (cause == cluster::Restart::kAfterCrash) checker->on_event();
}

void World::healed(cluster::Replica& r) {
  picture.close(std::exchange(find_lane(r.name)->partition_span, Picture::kNoSpan), loop.now());
  trace(kTimeline, "timeline.heal", {{"process", r.name}});
  checker->on_event();
}

void RunFilter::add_trigger(std::size_t event) { triggers_.push_back(Armed{event, 0, false}); }

void RunFilter::complete(const fakeapi::Request& request, fakeapi::Response& response) {
  (void)response;
  if (world_->closing()) return;
  for (Armed& armed : triggers_) {
    if (armed.fired) continue;
    const scenarios::Trigger& t = *world_->scenario.timeline[armed.event].when;
    if (request.process != t.process || (t.verb && *t.verb != request.verb) ||
        (!t.resource.empty() && t.resource != request.resource.resource)) {
      continue;
    }
    if (++armed.seen < t.count) continue;
    armed.fired = true;
    World* w = world_;
    const std::size_t event = armed.event;
    w->loop.post([w, event] { apply_event(*w, event, "when"); });
  }
  if (request.verb == fakeapi::Verb::kWatch && world_->picture.enabled()) note_watch(request);
}

void RunFilter::note_watch(const fakeapi::Request& request) {
  Replica* r = world_->find_replica(request.process);
  if (r == nullptr) return;
  auto key = std::make_tuple(r->name, r->process->incarnation(), request.resource.to_string(), request.ns);
  if (++watches_[key] < 2) return;
  const std::string where = request.ns.empty() ? "" : " in " + request.ns;
  world_->picture.mark("process " + r->name, "watch-restart", request.resource.resource + where, world_->loop.now());
}

void setup_timeline(World& w) {
  const bool any_trigger = std::any_of(w.scenario.timeline.begin(), w.scenario.timeline.end(),
                                       [](const scenarios::TimelineEvent& e) { return e.when.has_value(); });
  if (any_trigger || w.picture.enabled()) {
    w.filter = std::make_shared<RunFilter>(w);
    w.server.add_filter(w.filter);
  }
  World* world = &w;
  for (std::size_t i = 0; i < w.scenario.timeline.size(); ++i) {
    const scenarios::TimelineEvent& e = w.scenario.timeline[i];
    if (e.when) {
      w.filter->add_trigger(i);
    } else if (e.at) {
      w.loop.add_timer(sim::Time{} + *e.at, [world, i] { apply_event(*world, i, "at"); });
    }
  }
}

}  // namespace kubesim::runner
