// stale-read: a warm-pool controller, shaped as the ReplicaSet controller: each example.com/v1
// Pool keeps spec.replicas member ConfigMaps it controls in its namespace (warm, pre-made
// resources that clients take by deleting one — a pool of pre-provisioned volumes, VMs, test
// databases). Members are never deleted by the controller: a surplus member is capacity paid
// for and not asked for, which is what the scenario's checks count.
//
// The bug: it counts the members its informer cache shows and creates the difference with
// generateName (POOL-xxxxx), and nothing keeps it from acting on a cache that has not yet seen
// its own last creates: a sync retried right after a failed create (a 500 on the third of three
// creates requeues the key 5 ms later, before the watch has delivered the first two), a
// restarted replica whose informers list from a lagging watch cache — each sees too few members
// and creates again. The ReplicaSet controller guards against exactly this with its
// Expectations; a controller written without them has this bug.
// Revealed by: anything that makes a sync run on a cache that lags the controller's own creates
// — a stalled or lagging watch while Pools are touched, a partition, an error on one of several
// creates under network latency (the sync is retried 5 ms later).
// The fix: members get deterministic names POOL-0 … POOL-(n-1), as a StatefulSet's pods, so a
// create the cache has not seen yet comes back AlreadyExists instead of making a second member.
// (Expectations alone would not survive a restart onto a stale cache: they live in memory.)
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "buggy.h"
#include "kubesim/api/status.h"

namespace buggy {
namespace {


const kubesim::api::GroupVersionResource kPools{"example.com", "v1", "pools"};

std::int64_t replicas_of(const kubesim::api::Object& pool) {
  const nlohmann::json replicas = pool.value_at("spec.replicas");
  return replicas.is_number_integer() ? replicas.get<std::int64_t>() : 0;
}

ObjectPtr member(const kubesim::api::Object& pool, const std::string& name) {
  ObjectPtr object = config_map(pool.namespace_(), name, nullptr, {{"pool", std::string(pool.name())}},
                                std::string(pool.name()) + "-");
  return object->edited([&](nlohmann::json& j) {
    j["metadata"]["ownerReferences"] = nlohmann::json::array({kubesim::controller::owner_reference(pool)});
  });
}

// The names the pool's members should have that the cache does not show: for the buggy version
// `missing` nameless ones (generateName), for the fixed one the free slots POOL-i.
std::vector<std::string> to_create(const ReconcileContext& rc, const kubesim::api::Object& pool, Variant variant) {
  const auto members = rc.owned_by(kConfigMaps, pool);
  const std::int64_t replicas = replicas_of(pool);
  std::vector<std::string> names;
  if (variant == Variant::kBuggy) {
    for (auto i = static_cast<std::int64_t>(members.size()); i < replicas; ++i) names.emplace_back();
    return names;
  }
  for (std::int64_t i = 0; i < replicas; ++i) {
    std::string name = std::string(pool.name()) + "-" + std::to_string(i);
    if (rc.get(kConfigMaps, pool.namespace_(), name) == nullptr) names.push_back(std::move(name));
  }
  return names;
}

Task<ReconcileResult> reconcile(Variant variant, ReconcileContext rc, ReconcileRequest request) {
  const ObjectPtr pool = rc.get(kPools, request.ns, request.name);
  if (pool == nullptr || pool->deletion_timestamp()) co_return ReconcileResult::done();
  for (const auto& name : to_create(rc, *pool, variant)) {
    auto created = co_await create(rc.ctx(), &rc.client(), kConfigMaps, member(*pool, name));
    if (!created.ok() && !kubesim::api::is_already_exists(created.status())) {
      co_return ReconcileResult::fail(created.status());
    }
  }
  co_return ReconcileResult::done();
}

void setup(kubesim::controller::Manager& manager, Variant variant) {
  kubesim::controller::ControllerBuilder(manager)
      .named("warm-pool")
      .for_(kPools)
      .owns(kConfigMaps)
      .reconcile([variant](ReconcileContext rc, ReconcileRequest request) {
        return reconcile(variant, std::move(rc), std::move(request));
      });
}

}  // namespace

void register_stale_read(kubesim::scenarios::Registry& registry) {
  register_pair_setup(registry, "stale-read",
                      {"keeps spec.replicas member ConfigMaps per example.com/v1 Pool",
                       "counts from a cache that may not show its own creates, and creates with generateName"},
                      setup);
}

}  // namespace buggy
