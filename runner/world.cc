#include "kubesim/runner/world.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

#include "kubesim/api/resources.h"
#include "kubesim/fakeapi/field_paths.h"
#include "kubesim/runner/checks.h"
#include "kubesim/runner/workload.h"
#include "kubesim/scenarios/controllers.h"
#include "runner/internal/replica.h"
#include "runner/internal/timeline.h"

namespace kubesim::runner {

using nlohmann::json;

// --- FactoryClient: forwards, without a coroutine frame of its own -----------------------------

void FactoryClient::saw(const api::GroupVersionResource& resource) {
  if (std::find(resources_.begin(), resources_.end(), resource) == resources_.end()) {
    resources_.push_back(resource);
  }
}

sim::Task<api::Response> FactoryClient::send(sim::Context ctx, api::Request request) {
  if (request.verb == api::Verb::kList || request.verb == api::Verb::kWatch) saw(request.resource);
  return inner_->send(std::move(ctx), std::move(request));
}

std::vector<api::GroupVersionResource> InformerFactory::resources() const {
  std::vector<api::GroupVersionResource> out = declared;
  for (const auto& r : client->resources()) {
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  return out;
}

InformerFactory& Incarnation::factory_for(std::string_view ns) {
  for (auto& f : factories) {
    if (f.ns == ns) return f;
  }
  throw std::logic_error("no informer factory for namespace " + std::string(ns));
}

// --- World ---------------------------------------------------------------------------------------

sim::LoopOptions loop_options(const scenarios::Scenario& scenario, std::uint64_t seed) {
  sim::LoopOptions options;
  options.seed = seed;
  options.shuffle = scenario.shuffle;
  return options;
}

fakeapi::ServerOptions server_options(const scenarios::ClusterSpec& cluster) {
  fakeapi::ServerOptions options;
  options.compaction_interval = cluster.compaction;
  options.watch.bookmark_interval = cluster.bookmarks;
  return options;
}

World::World(const scenarios::Scenario& scenario_, const scenarios::Registry& registry_, const RunOptions& options_,
             std::ostream* trace_sink)
    : World(scenario_, registry_, options_, trace_sink, loop_options(scenario_, options_.seed)) {}

World::World(const scenarios::Scenario& scenario_, const scenarios::Registry& registry_, const RunOptions& options_,
             std::ostream* trace_sink, const sim::LoopOptions& loop_)
    : scenario(scenario_),
      registry(registry_),
      options(options_),
      cluster(cluster::Options{loop_, server_options(scenario_.cluster)}),
      loop(cluster.loop()),
      server(cluster.server()),
      end(sim::Time{} + scenario_.duration),
      leadership(cluster.leadership()),
      picture(options_.timeline),
      actors(std::make_unique<ActorsKind>(*this)) {
  loop.trace().enable(trace_sink);
  cluster.set_observer(this);
}

// The processes go before the checks, the picture and the leadership record that their
// coroutines' last acts may still reach.
World::~World() { cluster.destroy_replicas(sim::Duration::zero()); }

void World::trace(std::string_view process, std::string_view kind, const json& fields) {
  cluster.trace(process, kind, fields);
}

Replica* World::find_replica(std::string_view name) {
  for (Replica* r : replicas) {
    if (r->name == name) return r;
  }
  return nullptr;
}

sim::Process* World::find_process(std::string_view name) {
  cluster::Replica* r = cluster.find(name);
  return r == nullptr ? nullptr : r->process.get();
}

ProcessLane* World::find_lane(std::string_view name) {
  if (Replica* r = find_replica(name)) return &r->lane;
  if (workload && workload->name == name) return &workload->lane;
  return nullptr;
}

void World::setup() {
  trace("runner", "scenario.start", {{"name", scenario.name}, {"seed", options.seed}});
  make_cluster();
  make_replicas();
  if (!scenario.workload.empty()) make_workload(*this);
  make_lanes();
  checker = std::make_unique<Checker>(*this);  // the cluster checks it after writes and terms
  setup_timeline(*this);
}

namespace {

bool is_builtin_widget(const std::vector<const scenarios::CustomResource*>& versions) {
  return versions.size() == 1 && versions[0]->group == scenarios::kWidgets.group &&
         versions[0]->version == scenarios::kWidgets.version && versions[0]->plural == scenarios::kWidgets.resource &&
         versions[0]->kind == "Widget";
}

// A CustomResourceDefinition serving `versions` (one group and plural; the first is stored), each
// with the /status subresource and a schema that keeps unknown fields.
json crd_for(const std::vector<const scenarios::CustomResource*>& versions) {
  if (is_builtin_widget(versions)) return scenarios::widget_crd();
  const scenarios::CustomResource& first = *versions.front();
  std::string singular = first.kind;
  for (char& c : singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  json schema = {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  json list = json::array();
  for (const scenarios::CustomResource* r : versions) {
    list.push_back({{"name", r->version},
                    {"served", true},
                    {"storage", r == &first},
                    {"subresources", {{"status", json::object()}}},
                    {"schema", {{"openAPIV3Schema", schema}}}});
  }
  json names = {{"plural", first.plural}, {"singular", singular}, {"kind", first.kind},
                {"listKind", first.kind + "List"}};
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", first.plural + "." + first.group}}},
          {"spec",
           {{"group", first.group},
            {"scope", first.namespaced ? "Namespaced" : "Cluster"},
            {"names", std::move(names)},
            {"versions", std::move(list)}}}};
}

std::string describe_object(const json& j) {
  std::string kind = j.is_object() && j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>() : "object";
  std::string name;
  if (j.is_object() && j.contains("metadata") && j["metadata"].is_object()) {
    const json& m = j["metadata"];
    if (m.contains("namespace") && m["namespace"].is_string()) name = m["namespace"].get<std::string>() + "/";
    if (m.contains("name") && m["name"].is_string()) name += m["name"].get<std::string>();
  }
  return name.empty() ? kind : kind + " " + name;
}

}  // namespace

std::optional<ClusterRefusal> create_cluster(fakeapi::ApiServer& server, const scenarios::ClusterSpec& cluster) {
  std::vector<std::vector<const scenarios::CustomResource*>> crds;
  for (const auto& r : cluster.resources) {
    auto same = std::find_if(crds.begin(), crds.end(), [&](const auto& c) {
      return c.front()->group == r.group && c.front()->plural == r.plural;
    });
    if (same != crds.end()) {
      same->push_back(&r);
    } else {
      crds.push_back({&r});
    }
  }
  for (const auto& versions : crds) {
    json crd = crd_for(versions);
    const std::string name = crd["metadata"]["name"].get<std::string>();
    auto made = server.create(api::kCustomResourceDefinitions, "", api::make_object(std::move(crd)),
                              api::CreateOptions());
    if (!made.ok()) {
      return ClusterRefusal{versions.front()->mark,
                            "cluster.resources: CustomResourceDefinition " + name + ": " + made.status().message};
    }
  }
  const auto& objects = cluster.objects;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const scenarios::Mark mark = i < cluster.object_marks.size() ? cluster.object_marks[i] : scenarios::Mark{};
    const std::string where = "cluster.objects[" + std::to_string(i) + "] (" + describe_object(objects[i]) + "): ";
    auto object = api::Object::from_json(objects[i]);
    if (!object.ok()) return ClusterRefusal{mark, where + object.status().message};
    const api::ObjectPtr& o = object.value();
    const auto gv = api::parse_api_version(o->api_version());
    const fakeapi::ResourceInfo* info =
        gv ? server.registry().find_kind({gv->group, gv->version, std::string(o->kind())}) : nullptr;
    if (info == nullptr) {
      return ClusterRefusal{mark, where + "the server does not serve apiVersion \"" + std::string(o->api_version()) +
                                         "\", kind \"" + std::string(o->kind()) + "\""};
    }
    std::string ns;
    if (info->namespaced) ns = o->namespace_().empty() ? "default" : std::string(o->namespace_());
    auto made = server.create(info->gvr, ns, o, api::CreateOptions());
    if (!made.ok()) return ClusterRefusal{mark, where + made.status().message};
  }
  return std::nullopt;
}

namespace {

// The problems of a match tree's fields, from `info`'s schema: each key of an object member that
// the schema lacks (lists, maps and open values are not looked into).
void tree_fields(const fakeapi::ResourceInfo& info, const json& tree, std::vector<std::string>& path,
                 std::vector<std::string>& problems) {
  for (const auto& [key, value] : tree.items()) {
    path.push_back(key);
    const fakeapi::FieldLookup found = fakeapi::lookup_field(info, path);
    if (found.verdict == fakeapi::FieldLookup::Verdict::kUnknown) {
      problems.push_back(found.problem);
    } else if (found.verdict == fakeapi::FieldLookup::Verdict::kKnown && found.type == fakeapi::FieldType::kObject &&
               value.is_object()) {
      tree_fields(info, value, path, problems);
    }
    path.pop_back();
  }
}

// Why a check's condition cannot be judged on `server`: a match's kind it does not serve, a
// field its kind's schema does not have. Empty when it can.
std::vector<std::string> unjudgeable(const fakeapi::ApiServer& server, const scenarios::Condition& condition) {
  std::vector<std::string> problems;
  if (const auto* p = std::get_if<scenarios::ObjectPathEquals>(&condition)) {
    if (const fakeapi::ResourceInfo* info = server.registry().find(p->resource.gvr)) {
      const fakeapi::FieldLookup found = fakeapi::lookup_field(*info, p->path);
      if (found.verdict == fakeapi::FieldLookup::Verdict::kUnknown) problems.push_back("path: " + found.problem);
    }
  } else if (const auto* m = std::get_if<scenarios::Match>(&condition)) {
    const std::string kind = m->tree.value("kind", std::string());
    const std::string version = m->tree.value("apiVersion", std::string());
    const auto gv = api::parse_api_version(version);
    const fakeapi::ResourceInfo* info = gv ? server.registry().find_kind({gv->group, gv->version, kind}) : nullptr;
    if (info == nullptr) {
      problems.push_back(std::string(m->negate ? "noMatch" : "match") + ": the server does not serve kind " + kind +
                         " of apiVersion " + version + " (declare it in cluster.resources)");
    } else {
      std::vector<std::string> path;
      tree_fields(*info, m->tree, path, problems);
    }
  }
  return problems;
}

}  // namespace

std::vector<ClusterRefusal> dry_run_cluster(const scenarios::Scenario& scenario) {
  sim::Loop loop(loop_options(scenario, 1));
  fakeapi::ApiServer server(loop, server_options(scenario.cluster));
  std::vector<ClusterRefusal> out;
  if (auto refused = create_cluster(server, scenario.cluster)) out.push_back(std::move(*refused));
  for (const scenarios::Check& check : scenario.checks) {
    for (std::string& problem : unjudgeable(server, check.condition)) {
      out.push_back(ClusterRefusal{check.mark, problem + "; the check could never see what it names"});
    }
  }
  return out;
}

Timeline World::finish_picture(sim::Time stopped) {
  for (const CountedFault& f : counted_faults) {
    sim::Time to = std::min(f.until, stopped);
    if (server.faults().fired(f.rule) >= f.count) to = std::min(to, *server.faults().last_fired(f.rule));
    picture.close(f.span, to);
  }
  return picture.finish(scenario.duration, stopped);
}

void World::make_cluster() {
  if (auto refused = create_cluster(server, scenario.cluster)) throw std::runtime_error(refused->message);
}

void World::make_replicas() {
  sim::Rng rng = loop.rng().fork();
  for (const scenarios::ProcessSpec& spec : scenario.processes) {
    if (spec.exec && exec_kind == nullptr) {
      throw std::runtime_error("process \"" + spec.name +
                               "\" runs a command (exec), which only live mode (kubesim run --live) starts");
    }
    const scenarios::LatencySpec latency = spec.latency.value_or(scenario.network);
    cluster::ProcessKind& kind = spec.exec ? *exec_kind : *actors;
    for (Replica* r : cluster.add_group<Replica>(spec.name, spec.replicas, latency.min, latency.max - latency.min, kind)) {
      r->spec = &spec;
      const sim::Duration skew = rng.uniform_duration(spec.clock.skew.min, spec.clock.skew.max);
      const double drift = spec.clock.drift.min + (spec.clock.drift.max - spec.clock.drift.min) * rng.uniform_real();
      if (1.0 + drift <= 0) throw std::runtime_error("process \"" + spec.name + "\": a drift of " + std::to_string(drift) + " stops the clock");
      cluster.set_clock_offset(*r, skew);
      if (drift != 0) cluster.set_clock_rate(*r, 1.0 + drift);
      trace(r->name, "replica.clock", {{"skewNs", skew.count()}, {"drift", drift}});
      if (spec.exec && spec.exec->lock) r->lock_ids.push_back({leadership.add_lock(spec.exec->lock->text())});
      for (const scenarios::Actor& actor : spec.run) {
        if (const auto* e = std::get_if<scenarios::ElectorSpec>(&actor)) {
          r->electors.push_back(e);
          std::vector<std::size_t> ids = {leadership.add_lock(e->lock.primary.text())};
          if (e->lock.secondary) ids.push_back(leadership.add_lock(e->lock.secondary->text()));
          r->lock_ids.push_back(std::move(ids));
        } else if (const auto* c = std::get_if<scenarios::ControllerSpec>(&actor)) {
          r->controllers.push_back(c);
        }
      }
      replicas.push_back(r);
    }
  }
}

void World::make_lanes() {
  if (!picture.enabled()) return;
  for (std::size_t i = 0; i < leadership.lock_count(); ++i) picture.add_lane("lock " + leadership.lock(i).text);
  for (const auto& r : replicas) picture.add_lane("process " + r->name);
  if (workload) picture.add_lane("process " + workload->name);
  picture.add_lane("apiserver");
  for (const auto& r : replicas) {
    if (r->has_controllers()) picture.add_lane("queue " + r->name);
  }
}

// The depth of every replica whose process is up and runs a controller: the sum of its running
// controllers' queues.
void World::sample_queues() {
  for (Replica* r : replicas) {
    Incarnation* inc = r->current();
    if (!r->has_controllers() || inc == nullptr || !r->process->alive()) continue;
    double depth = 0;
    bool any = false;
    for (std::size_t c = 0; c < inc->controllers.size(); ++c) {
      if (inc->running[c] == 0) continue;
      any = true;
      depth += static_cast<double>(inc->controllers[c]->queue_depth());
    }
    if (any) picture.sample("queue " + r->name, loop.now(), depth);
  }
}

// A timer for the samples would change the run: in shuffle mode (the default) the Loop draws
// from the seed's generator to order every instant with more than one item ready, and a sample
// falling on the instant of another timer (the workload's `every:` ticks fall on whole seconds)
// would add an item, hence a draw, and reorder that instant and everything after it. Stopping
// the Loop between instants instead changes nothing: run_until(a) then run_until(b) runs the
// same items in the same order as run_until(b).
void World::run_until(sim::Time deadline) {
  while (next_sample_ && *next_sample_ <= deadline) {
    loop.run_until(*next_sample_);
    sample_queues();
    const sim::Time next = *next_sample_ + std::chrono::seconds(1);
    next_sample_ = next <= end ? std::optional<sim::Time>(next) : std::nullopt;
  }
  loop.run_until(deadline);
}

void World::start() {
  for (Replica* replica : replicas) cluster.start(*replica);
  if (workload) start_workload(*this);
  checker->begin();
  const bool any = std::any_of(replicas.begin(), replicas.end(), [](const auto& r) { return r->has_controllers(); });
  if (picture.enabled() && any && loop.now() + std::chrono::seconds(1) <= end) {
    next_sample_ = loop.now() + std::chrono::seconds(1);
  }
}

bool World::teardown() {
  return cluster.teardown(cluster::TeardownOptions{}, [this] { return !workload || workload->group.size() == 0; });
}

}  // namespace kubesim::runner
