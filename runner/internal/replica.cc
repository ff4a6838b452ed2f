#include "runner/internal/replica.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "kubesim/election/multi_lock.h"
#include "kubesim/election/resource_lock.h"
#include "kubesim/runner/checks.h"
#include "kubesim/runner/world.h"
#include "kubesim/sim/event.h"

namespace kubesim::runner {

namespace {

// A replica's work-queue metrics when the run captures: each finished item's work duration goes
// to RunCapture::work; the other metrics are dropped.
class WorkRecorder final : public workqueue::MetricsProvider {
 public:
  WorkRecorder(std::string replica, RunCapture* capture) : replica_(std::move(replica)), capture_(capture) {}

  std::shared_ptr<workqueue::GaugeMetric> new_depth_metric(const std::string&) override { return std::make_shared<Drop>(); }
  std::shared_ptr<workqueue::CounterMetric> new_adds_metric(const std::string&) override { return std::make_shared<Drop>(); }
  std::shared_ptr<workqueue::HistogramMetric> new_latency_metric(const std::string&) override {
    return std::make_shared<Drop>();
  }
  std::shared_ptr<workqueue::HistogramMetric> new_work_duration_metric(const std::string&) override {
    return std::make_shared<Work>(replica_, capture_);
  }
  std::shared_ptr<workqueue::SettableGaugeMetric> new_unfinished_work_seconds_metric(const std::string&) override {
    return std::make_shared<Drop>();
  }
  std::shared_ptr<workqueue::SettableGaugeMetric> new_longest_running_processor_seconds_metric(
      const std::string&) override {
    return std::make_shared<Drop>();
  }
  std::shared_ptr<workqueue::CounterMetric> new_retries_metric(const std::string&) override {
    return std::make_shared<Drop>();
  }

 private:
  struct Drop final : workqueue::GaugeMetric, workqueue::CounterMetric, workqueue::HistogramMetric,
                      workqueue::SettableGaugeMetric {
    void inc() override {}
    void dec() override {}
    void observe(double) override {}
    void set(double) override {}
  };
  struct Work final : workqueue::HistogramMetric {
    Work(std::string replica, RunCapture* capture) : replica_(std::move(replica)), capture_(capture) {}
    void observe(double seconds) override { capture_->work.emplace_back(replica_, seconds); }
    std::string replica_;
    RunCapture* capture_;
  };

  std::string replica_;
  RunCapture* capture_;
};

sim::Task<void> lead_main(World* w, Replica* r, Incarnation* inc, std::size_t elector, sim::Context ctx);

// --- building an incarnation ---------------------------------------------------------------------

InformerFactory make_factory(Incarnation& inc, const Replica& r, std::string ns) {
  InformerFactory f;
  f.ns = std::move(ns);
  f.client = std::make_unique<FactoryClient>(*inc.client);
  informer::SharedInformerFactoryOptions options;
  options.ns = f.ns;
  options.informer.use_watch_list = r.spec->watch_list;
  options.informer.process = r.process->name();
  for (const scenarios::Actor& actor : r.spec->run) {
    const auto* spec = std::get_if<scenarios::InformerSpec>(&actor);
    if (spec == nullptr || spec->ns != f.ns) continue;
    if (std::find(f.declared.begin(), f.declared.end(), spec->resource.gvr) == f.declared.end()) {
      f.declared.push_back(spec->resource.gvr);
    }
    if (spec->resync > sim::Duration::zero()) options.custom_resync[spec->resource.gvr] = spec->resync;
  }
  f.factory = std::make_unique<informer::SharedInformerFactory>(*f.client, r.process->clock(), std::move(options));
  return f;
}

void make_factories(Incarnation& inc, const Replica& r) {
  inc.factories.push_back(make_factory(inc, r, ""));
  for (const scenarios::Actor& actor : r.spec->run) {
    const auto* spec = std::get_if<scenarios::InformerSpec>(&actor);
    if (spec == nullptr || spec->ns.empty()) continue;
    const bool known = std::any_of(inc.factories.begin(), inc.factories.end(),
                                   [&](const InformerFactory& f) { return f.ns == spec->ns; });
    if (!known) inc.factories.push_back(make_factory(inc, r, spec->ns));
  }
}

std::shared_ptr<election::ResourceLock> make_lock(api::Client& client, const scenarios::LockRef& ref,
                                                  const std::string& identity) {
  auto lock = election::new_lock(ref.kind, client, ref.ns, ref.name, election::ResourceLockConfig{identity});
  if (!lock.ok()) throw std::runtime_error("lock " + ref.text() + ": " + lock.status().message);
  return std::move(lock).value();
}

sim::Task<void> start_leading(World* w, Replica* r, Incarnation* inc, std::size_t elector, sim::Context ctx) {
  auto term = std::make_unique<LeaderTerm>();
  term->world = w;
  term->replica = r;
  LeaderTerm& t = *term;
  inc->terms.push_back(std::move(term));
  w->leader_started(t, elector);
  if (!ctx.add_waiter(&t)) w->leader_ended(t);  // already over
  inc->leading.add(1);
  return lead_main(w, r, inc, elector, std::move(ctx));
}

void make_electors(World& w, Replica& r, Incarnation& inc) {
  for (std::size_t e = 0; e < r.electors.size(); ++e) {
    const scenarios::ElectorSpec& spec = *r.electors[e];
    election::LeaderElectionConfig config;
    config.lock = make_lock(*inc.client, spec.lock.primary, r.name);
    if (spec.lock.secondary) {
      config.lock = std::make_shared<election::MultiLock>(config.lock,
                                                          make_lock(*inc.client, *spec.lock.secondary, r.name));
    }
    config.lease_duration = spec.lease_duration;
    config.renew_deadline = spec.renew_deadline;
    config.retry_period = spec.retry_period;
    config.release_on_cancel = spec.release_on_cancel;
    config.cancel_before_release = spec.cancel_before_release;
    config.release_only_if_holder = spec.release_only_if_holder;
    config.name = spec.lock.primary.text();
    World* world = &w;
    Replica* replica = &r;
    Incarnation* incarnation = &inc;
    config.callbacks.on_started_leading = [world, replica, incarnation, e](sim::Context ctx) {
      return start_leading(world, replica, incarnation, e, std::move(ctx));
    };
    config.callbacks.on_stopped_leading = [] {};
    inc.electors.push_back(std::make_unique<election::LeaderElector>(std::move(config), *r.process));
  }
}

void make_controllers(World& w, Replica& r, Incarnation& inc) {
  for (const scenarios::ControllerSpec* spec : r.controllers) {
    const std::string who = "controller \"" + spec->type + "\" of " + r.name;
    const scenarios::ControllerType* type = w.registry.find(spec->type);
    if (type == nullptr) throw std::runtime_error(who + ": the type is not registered");
    if (spec->only_when_leader && r.electors.empty()) {
      throw std::runtime_error(who + ": onlyWhenLeader, but the process runs no elector");
    }
    std::unique_ptr<scenarios::Controller> controller;
    try {
      if (w.options.capture != nullptr && !r.work_metrics) {
        r.work_metrics = std::make_unique<WorkRecorder>(r.name, w.options.capture);
      }
      controller = type->make(scenarios::ControllerEnv{*r.process, *inc.client, *inc.factories[0].factory, spec->params,
                                            spec->workers, r.work_metrics.get()});
    } catch (const std::exception& e) {
      throw std::runtime_error(who + ": " + e.what());
    }
    if (!controller) throw std::runtime_error(who + ": the type made no controller");
    inc.controllers.push_back(std::move(controller));
    inc.running.push_back(0);
  }
}

// --- running it ----------------------------------------------------------------------------------

sim::Task<void> controller_main(Replica* r, Incarnation* inc, std::size_t c, sim::Context ctx) {
  struct Running {
    int* n;
    ~Running() { --*n; }
  };
  ++inc->running[c];
  Running running{&inc->running[c]};
  std::optional<std::string> failure;
  try {
    co_await inc->controllers[c]->run(ctx);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (failure) throw std::runtime_error("controller \"" + r->controllers[c]->type + "\" of " + r->name + ": " + *failure);
}

sim::Task<void> elector_main(World* w, Replica* r, Incarnation* inc, std::size_t e, sim::Context ctx) {
  co_await inc->electors[e]->run(ctx);
  if (ctx.done() || w->closing()) co_return;
  w->trace(r->name, "replica.exit",
           {{"incarnation", inc->number}, {"lock", r->electors[e]->lock.primary.text()},
            {"why", "its leader election ended"}});
  w->cluster.exit(*r, inc->number);
}

// One term: runs the onlyWhenLeader controllers (gated by the replica's first elector) on the
// leading context until it is done, then waits for them.
sim::Task<void> lead_main(World* w, Replica* r, Incarnation* inc, std::size_t elector, sim::Context ctx) {
  struct Done {
    sim::WaitGroup* leading;
    ~Done() { leading->done(); }
  } done{&inc->leading};
  sim::TaskGroup group(w->loop);
  if (elector == 0) {
    for (std::size_t c = 0; c < r->controllers.size(); ++c) {
      if (r->controllers[c]->only_when_leader) {
        group.spawn(controller_main(r, inc, c, ctx), r->name + " " + r->controllers[c]->type);
      }
    }
  }
  sim::Event never(w->loop);
  co_await never.wait(ctx);
  co_await group.wait(sim::Context());
}

void start_actors(World& w, Replica& r, Incarnation& inc, const sim::Context& ctx) {
  for (auto& f : inc.factories) {
    for (const auto& gvr : f.declared) (void)f.factory->informer_for(gvr);
    f.factory->start(ctx);
  }
  std::size_t e = 0;
  std::size_t c = 0;
  for (const scenarios::Actor& actor : r.spec->run) {
    if (std::holds_alternative<scenarios::ElectorSpec>(actor)) {
      inc.group.spawn(elector_main(&w, &r, &inc, e, ctx), r.name + " elector");
      ++e;
    } else if (const auto* spec = std::get_if<scenarios::ControllerSpec>(&actor)) {
      if (!spec->only_when_leader) inc.group.spawn(controller_main(&r, &inc, c, ctx), r.name + " " + spec->type);
      ++c;
    }
  }
}

}  // namespace

cluster::Incarnation& ActorsKind::begin(cluster::Replica& r) { return r.begin_incarnation<Incarnation>(world_->loop); }

void ActorsKind::build(cluster::Replica& replica, cluster::Incarnation& incarnation) {
  auto& r = static_cast<Replica&>(replica);
  auto& inc = static_cast<Incarnation&>(incarnation);
  inc.client = std::make_unique<fakeapi::InProcessClient>(world_->server, *r.process);
  make_factories(inc, r);
  make_electors(*world_, r, inc);
  make_controllers(*world_, r, inc);
}

sim::Task<void> ActorsKind::run(cluster::Replica* replica, cluster::Incarnation* incarnation, sim::Context ctx) {
  auto* r = static_cast<Replica*>(replica);
  auto* inc = static_cast<Incarnation*>(incarnation);
  start_actors(*world_, *r, *inc, ctx);
  co_await inc->group.wait(sim::Context());
  co_await inc->leading.wait(sim::Context());
  for (auto& f : inc->factories) co_await f.factory->shutdown();
}

// --- leadership ----------------------------------------------------------------------------------

void LeaderTerm::fire() { world->leader_ended(*this); }

void World::leader_started(LeaderTerm& term, std::size_t elector) {
  Replica& r = *term.replica;
  term.id = cluster.start_term(r, r.lock_ids[elector],
                               {{"lock", r.electors[elector]->lock.primary.text()}, {"incarnation", r.process->incarnation()}});
}

void World::leader_ended(LeaderTerm& term) {
  cluster.end_term(term.id, {{"lock", leadership.lock(leadership.locks_of(term.id).front()).text}});
}

void World::term_started(cluster::Replica& r, std::size_t term) {
  if (term_spans_.size() <= term) term_spans_.resize(term + 1);
  for (std::size_t id : leadership.locks_of(term)) {
    term_spans_[term].push_back(picture.open("lock " + leadership.lock(id).text, "leader", r.name, loop.now()));
  }
}

void World::term_ended(cluster::Replica&, std::size_t term) {
  for (std::size_t span : term_spans_[term]) picture.close(span, loop.now());
}

}  // namespace kubesim::runner
