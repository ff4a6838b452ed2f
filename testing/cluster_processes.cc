// SimCluster's processes: controller replicas (a Manager per incarnation), their leadership, and
// what a test does to them (crash, restart, partition, pause, clock skew and drift, latency).
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "internal/cluster_impl.h"
#include "kubesim/testing/cluster.h"

namespace kubesim::testing {

namespace {

bool lock_matches(const ClusterGroup& group, std::string_view lock) {
  if (group.lock.empty()) return false;
  return lock.empty() || lock == group.lock || lock == group.election->name;
}

std::string names(const std::vector<ClusterReplica*>& replicas) {
  std::string out;
  for (const ClusterReplica* r : replicas) out += (out.empty() ? "" : ", ") + r->name;
  return out.empty() ? "none" : out;
}

}  // namespace

// One incarnation of a replica: a fresh client, informer factory and Manager, filled by the
// group's setup, run until the process stops or, under election, its leadership ends. A manager
// that returns on its own (leadership lost) exits the process, which restarts at once.
cluster::Incarnation& SimCluster::Impl::ManagerKind::begin(cluster::Replica& r) { return r.begin_incarnation<ClusterIncarnation>(); }

void SimCluster::Impl::ManagerKind::build(cluster::Replica& replica, cluster::Incarnation& incarnation) {
  SimCluster::Impl* impl = impl_;
  auto* r = static_cast<ClusterReplica*>(&replica);
  auto& inc = static_cast<ClusterIncarnation&>(incarnation);
  inc.client = std::make_unique<fakeapi::InProcessClient>(impl->server, *r->process);
  informer::SharedInformerFactoryOptions factory_options;
  factory_options.informer.process = r->process->name();
  factory_options.on_tombstone = [impl, r](const api::GroupVersionResource& resource,
                                           const informer::DeletedFinalStateUnknown& tombstone) {
    if (!impl->closing()) impl->fault_plan.note_tombstone(r->name, resource.resource, tombstone.key.str());
  };
  inc.factory = std::make_unique<informer::SharedInformerFactory>(*inc.client, r->process->clock(),
                                                                  std::move(factory_options));
  ManagerOptions options;
  options.leader_election = r->group->election;
  const int number = inc.number;
  options.on_leadership = [impl, r, number](bool leading) { impl->on_leadership(*r, number, leading); };
  inc.manager = std::make_unique<Manager>(ManagerEnv{*r->process, *inc.client, *inc.factory}, std::move(options));
  r->group->setup(*inc.manager);
}

sim::Task<void> SimCluster::Impl::ManagerKind::run(cluster::Replica* r, cluster::Incarnation* incarnation, sim::Context ctx) {
  auto* inc = static_cast<ClusterIncarnation*>(incarnation);
  co_await inc->manager->start(ctx);
  if (ctx.done() || impl_->closing()) co_return;
  impl_->trace(r->name, "replica.exit", {{"incarnation", inc->number}, {"why", "its leadership ended"}});
  impl_->cluster.exit(*r, inc->number);
}

std::vector<ClusterReplica*> SimCluster::Impl::replicas() const {
  std::vector<ClusterReplica*> out;
  for (const auto& r : cluster.replicas()) out.push_back(static_cast<ClusterReplica*>(r.get()));
  return out;
}

ClusterReplica& SimCluster::Impl::replica(std::string_view name) {
  if (cluster::Replica* r = cluster.find(name)) return static_cast<ClusterReplica&>(*r);
  throw std::invalid_argument("SimCluster: no process \"" + std::string(name) + "\" (processes: " + names(replicas()) + ")");
}

void SimCluster::Impl::on_leadership(ClusterReplica& replica, int incarnation, bool leading) {
  // A past incarnation's news is stale: its crash already ended its leadership.
  if (closing() || incarnation != replica.process->incarnation() || replica.leading() == leading) return;
  if (leading && !replica.process->alive()) return;
  const nlohmann::json fields = {{"lock", replica.group->lock}};
  if (leading) {
    replica.term = cluster.start_term(replica, {replica.group->lock_id}, fields);
  } else {
    cluster.end_term(*std::exchange(replica.term, std::nullopt), fields);
  }
}

void SimCluster::Impl::term_started(cluster::Replica& r, std::size_t) {
  const auto& replica = static_cast<ClusterReplica&>(r);
  fault_plan.note_leadership(replica.name, replica.group->lock, true);
}

void SimCluster::Impl::term_ended(cluster::Replica& r, std::size_t) {
  const auto& replica = static_cast<ClusterReplica&>(r);
  fault_plan.note_leadership(replica.name, replica.group->lock, false);
}

void SimCluster::Impl::crashed(cluster::Replica& r) {
  auto& replica = static_cast<ClusterReplica&>(r);
  if (replica.leading()) on_leadership(replica, replica.process->incarnation(), false);
}

void SimCluster::Impl::restarting(cluster::Replica& r, cluster::Restart) {
  auto& replica = static_cast<ClusterReplica&>(r);
  if (replica.leading()) on_leadership(replica, replica.process->incarnation(), false);
}

void SimCluster::Impl::healed(cluster::Replica& r) { trace(r.name, "link.heal"); }

std::vector<std::string> SimCluster::run_controller(std::string group, SetupFn setup, Replicas replicas,
                                                    std::optional<LeaderElection> election) {
  if (group.empty()) throw std::invalid_argument("run_controller: the group name is empty");
  for (const auto& g : impl_->groups) {
    if (g->name == group) throw std::invalid_argument("run_controller: the group \"" + group + "\" already runs");
  }
  if (replicas.n < 1) {
    throw std::invalid_argument("run_controller: group \"" + group + "\" needs at least 1 replica, got " +
                                std::to_string(replicas.n));
  }
  if (!setup) throw std::invalid_argument("run_controller: group \"" + group + "\" has no setup function");
  auto g = std::make_unique<ClusterGroup>();
  g->name = group;
  g->setup = std::move(setup);
  if (election) {
    if (election->name.empty()) election->name = group;
    g->lock = election->ns + "/" + election->name;
    g->lock_id = impl_->cluster.leadership().add_lock(g->lock);
    g->election = std::move(election);
  }
  ClusterGroup* made = impl_->groups.emplace_back(std::move(g)).get();
  std::vector<std::string> out;
  for (ClusterReplica* r : impl_->cluster.add_group<ClusterReplica>(group, replicas.n, impl_->options.latency_base(),
                                                                   impl_->options.latency_extra(), impl_->kind)) {
    r->group = made;
    out.push_back(r->name);
    impl_->cluster.start(*r);
  }
  return out;
}

std::vector<std::string> SimCluster::leaders(std::string_view lock) const {
  std::vector<std::string> out;
  for (const ClusterReplica* r : impl_->replicas()) {
    if (r->leading() && lock_matches(*r->group, lock)) out.push_back(r->name);
  }
  return out;
}

std::vector<std::string> SimCluster::locks() const {
  std::vector<std::string> out;
  for (const auto& g : impl_->groups) {
    if (!g->lock.empty() && std::find(out.begin(), out.end(), g->lock) == out.end()) out.push_back(g->lock);
  }
  return out;
}

std::optional<std::string> SimCluster::leader(std::string_view lock) const {
  if (lock.empty()) {
    const std::vector<std::string> locks = this->locks();
    if (locks.size() > 1) {
      std::string all;
      for (const auto& l : locks) all += (all.empty() ? "" : ", ") + l;
      throw std::invalid_argument("leader(): " + std::to_string(locks.size()) + " locks (" + all + "); name one");
    }
  }
  std::vector<std::string> now = leaders(lock);
  if (now.empty()) return std::nullopt;
  return now.front();
}

std::vector<std::string> SimCluster::processes() const {
  std::vector<std::string> out;
  for (const ClusterReplica* r : impl_->replicas()) out.push_back(r->name);
  return out;
}

sim::Process& SimCluster::process(std::string_view name) { return *impl_->replica(name).process; }

void SimCluster::crash(std::string_view process, std::optional<sim::Duration> restart_after) {
  impl_->cluster.crash(impl_->replica(process), restart_after);
}

void SimCluster::restart(std::string_view process) { impl_->cluster.restart(impl_->replica(process)); }

void SimCluster::partition(std::string_view process, sim::Duration d) {
  ClusterReplica& r = impl_->replica(process);
  if (impl_->cluster.partition(r, d)) {
    impl_->trace(r.name, "link.partition", {{"untilNs", r.partitioned_until.time_since_epoch().count()}});
  }
}

void SimCluster::pause(std::string_view process, sim::Duration d) { impl_->cluster.pause(impl_->replica(process), d); }

void SimCluster::skew(std::string_view process, sim::Duration skew) {
  ClusterReplica& r = impl_->replica(process);
  impl_->cluster.set_clock_offset(r, skew);
  impl_->trace(r.name, "clock.skew", {{"skewNs", skew.count()}});
}

void SimCluster::drift(std::string_view process, double rate) {
  ClusterReplica& r = impl_->replica(process);
  if (!(rate > 0)) {
    throw std::invalid_argument("drift: a rate of " + std::to_string(rate) + " stops " + r.name + "'s clock; it must be > 0");
  }
  impl_->cluster.set_clock_rate(r, rate);
  impl_->trace(r.name, "clock.drift", {{"rate", rate}});
}

void SimCluster::latency(std::string_view process, sim::Duration base, sim::Duration extra) {
  ClusterReplica& r = impl_->replica(process);
  impl_->cluster.set_latency(r, base, extra);
  impl_->trace(r.name, "link.latency", {{"baseNs", base.count()}, {"extraNs", extra.count()}});
}

}  // namespace kubesim::testing
