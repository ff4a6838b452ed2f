// lost-lease: an order sequencer that gives every order (a ConfigMap of namespace `orders`) the
// next number — label and data `seq` = 1, 2, 3, … — in the order it sees them, each number once.
// The next number is kept in memory: a leader loads it when it starts leading (one past the
// highest number on the server, by a fresh list, not the cache) and counts up; the Lease
// leases/orders/sequencer, which it campaigns for itself (client-go's leaderelection.RunOrDie
// in its main), makes it the only writer. A stamp carries the order's resourceVersion and says
// who stamped (data.by); a failed stamp is checked with a fresh read, so that a write whose
// answer was lost still counts: a single writer never gives a number twice, across crashes,
// restarts, partitions and errors. It is written by hand (QueueController), one worker.
//
// The bug: its OnStartedLeading starts the workers on the process's context instead of the
// leading one, and OnStoppedLeading only logs — the workers outlive the lease. A replica that
// loses the lease while it is alive (its renewals failing for longer than renewDeadline, or cut
// off from the API server) keeps stamping from its own counter while the new leader stamps from
// its; both race for each new order, and once each has won one, two orders carry the same
// number. Realistic: passing the parent context
// (or wait.NeverStop) to the controllers' Run in OnStartedLeading, and logging in
// OnStoppedLeading instead of exiting, are both common in hand-written operator mains.
// Revealed by: a partition of the leader for longer than the lease (or lease renewals failing).
// The fix: the workers run on the leading context, so they stop the instant leadership ends
// (as kube-controller-manager exits), and a new term starts them again after loading the number.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "buggy.h"
#include "kubesim/api/options.h"
#include "kubesim/api/status.h"
#include "kubesim/election/lease_lock.h"
#include "kubesim/election/leader_elector.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/sleep.h"
#include "kubesim/sim/wait_group.h"
#include "queue_controller.h"

namespace buggy {
namespace {

using kubesim::sim::Context;

constexpr const char* kOrders = "orders";
constexpr auto kRetry = std::chrono::seconds(2);

std::int64_t seq_of(const kubesim::api::Object& order) {
  const std::string seq = data_of(order, "seq");
  return seq.empty() ? 0 : std::stoll(seq);
}

class Sequencer final : public QueueController {
 public:
  Sequencer(const kubesim::scenarios::ControllerEnv& env, Variant variant)
      : QueueController(env, {}), variant_(variant), terms_(env.process.loop()) {
    auto handler = std::make_shared<kubesim::informer::ResourceEventHandlerFuncs>();
    handler->add_func = [this](const ObjectPtr& order, bool) { on_order(*order); };
    handler->update_func = [this](const ObjectPtr&, const ObjectPtr& order) { on_order(*order); };
    watch(kConfigMaps, std::move(handler));
  }

  // Campaigns, leads, and campaigns again, until ctx is done; returns once no term is running.
  Task<void> run(Context ctx) override {
    outer_ = ctx;
    while (!ctx.done()) {
      kubesim::election::LeaderElectionConfig config;
      config.lock = std::make_shared<kubesim::election::LeaseLock>(
          client(), kOrders, "sequencer", kubesim::election::ResourceLockConfig{process().name()});
      config.name = "leases/orders/sequencer";
      config.callbacks.on_started_leading = [this](Context leading) { return lead(this, std::move(leading)); };
      config.callbacks.on_stopped_leading = [] {};  // the bug's half: it only logs
      kubesim::election::LeaderElector elector(std::move(config), process());
      co_await elector.run(ctx);
      const bool more = co_await kubesim::sim::sleep_for(ctx, process().clock(), kRetry);
      if (!more) break;
    }
    co_await terms_.wait(Context());
  }

 protected:
  std::vector<std::string> keys_at_start() const override {
    std::vector<std::string> keys;
    for (const auto& order : lister(kConfigMaps, kOrders).list()) {
      if (seq_of(*order) == 0) keys.emplace_back(order->name());
    }
    return keys;
  }

  Task<bool> sync(Context ctx, std::string name) override {
    auto order = lister(kConfigMaps, kOrders).get(name);
    if (!order.ok() || seq_of(*order.value()) != 0) co_return true;
    if (next_ == 0) {
      const bool loaded = co_await load_next(this, ctx);
      if (!loaded) co_return false;
    }
    const std::int64_t seq = next_;
    ObjectPtr stamped = order.value()->edited([&](nlohmann::json& j) {
      j["metadata"]["labels"]["seq"] = std::to_string(seq);
      j["data"]["seq"] = std::to_string(seq);
      j["data"]["by"] = process().name();
    });
    auto updated = co_await update(ctx, &client(), kConfigMaps, std::move(stamped));
    if (updated.ok()) {
      ++next_;
      co_return true;
    }
    // A failed write may have landed all the same (its answer lost): the server says.
    const bool landed = co_await stamp_landed(this, ctx, name, seq);
    if (landed) ++next_;
    co_return landed;
  }

 private:
  void on_order(const kubesim::api::Object& order) {
    if (order.namespace_() == kOrders && seq_of(order) == 0) enqueue(std::string(order.name()));
  }

  // Whether the order now carries `seq`, stamped by this process. When the server cannot be
  // asked, the number is loaded again before the next stamp.
  static Task<bool> stamp_landed(Sequencer* self, Context ctx, std::string name, std::int64_t seq) {
    auto fresh = co_await self->client().get(ctx, kConfigMaps, kOrders, name, kubesim::api::GetOptions());
    if (!fresh.ok()) {
      self->next_ = 0;
      co_return false;
    }
    co_return seq_of(*fresh.value()) == seq && data_of(*fresh.value(), "by") == self->process().name();
  }

  // One past the highest number on the server (a fresh list); false when the list failed.
  static Task<bool> load_next(Sequencer* self, Context ctx) {
    auto orders = co_await self->client().list(ctx, kConfigMaps, kOrders, kubesim::api::ListOptions());
    if (!orders.ok()) co_return false;
    std::int64_t highest = 0;
    for (const auto& order : orders.value().items) highest = std::max(highest, seq_of(*order));
    self->next_ = highest + 1;
    co_return true;
  }

  // A leadership term (OnStartedLeading).
  static Task<void> lead(Sequencer* self, Context leading) {
    // The bug: the workers run on the process's context, not the leading one.
    Context work = self->variant_ == Variant::kFixed ? leading : self->outer_;
    if (self->variant_ == Variant::kBuggy && self->working_) co_return;  // still at it since an earlier term
    self->working_ = true;
    self->terms_.add(1);
    self->next_ = 0;
    co_await self->QueueController::run(work);
    self->working_ = false;
    self->terms_.done();
  }

  Variant variant_;
  Context outer_;
  bool working_ = false;
  std::int64_t next_ = 0;  // 0: to be loaded
  kubesim::sim::WaitGroup terms_;
};

}  // namespace

void register_lost_lease(kubesim::scenarios::Registry& registry) {
  register_pair(registry, "lost-lease",
                {"numbers orders (ConfigMaps of namespace orders) 1, 2, 3, … under its Lease leases/orders/sequencer",
                 "its workers outlive the lease"},
                [](kubesim::scenarios::ControllerEnv env, Variant variant) {
                  return std::make_unique<Sequencer>(env, variant);
                });
}

}  // namespace buggy
