// A replica's incarnations: what runs inside one replica's process each time it starts.
//
// ActorsKind is the cluster::ProcessKind of a scenario process's replicas. Each run makes a fresh
// Incarnation: an in-process client, the informer factories (all namespaces, and one per
// namespace an `informer:` entry names), the electors (identity = the replica's name) and the
// controllers (through the Registry). Then the informers of `informer:` entries are made, the
// factories started, and the actors started in file order: electors at once, controllers at once
// or, with onlyWhenLeader, in each term of the replica's first elector, on the leading context.
// When an election ends without the process being stopped (leadership lost) the replica exits
// and is restarted as a fresh incarnation (cluster::Cluster::exit), as kube-controller-manager
// exits and its pod restarts. A run ends only once everything the incarnation started has
// finished.
#ifndef KUBESIM_RUNNER_INTERNAL_REPLICA_H_
#define KUBESIM_RUNNER_INTERNAL_REPLICA_H_

#include "kubesim/cluster/cluster.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/task.h"

namespace kubesim::runner {

struct World;

class ActorsKind final : public cluster::ProcessKind {
 public:
  explicit ActorsKind(World& world) : world_(&world) {}
  cluster::Incarnation& begin(cluster::Replica& r) override;
  void build(cluster::Replica& r, cluster::Incarnation& inc) override;
  sim::Task<void> run(cluster::Replica* r, cluster::Incarnation* inc, sim::Context ctx) override;

 private:
  World* world_;
};

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_INTERNAL_REPLICA_H_
