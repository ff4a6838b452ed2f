#include "kubesim/controller/manager.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <stdexcept>
#include <utility>

#include "internal/controller_state.h"
#include "kubesim/controller/builder.h"
#include "kubesim/election/leader_elector.h"
#include "kubesim/election/lease_lock.h"
#include "kubesim/sim/event.h"
#include "kubesim/sim/task_group.h"
#include "kubesim/sim/wait_group.h"

namespace kubesim::controller {
namespace {

// One controller's run within Manager::run; the first to throw stops the others.
sim::Task<void> run_controller(ControllerState* controller, sim::Context ctx, sim::CancelFunc stop,
                               std::shared_ptr<std::exception_ptr> failure) {
  try {
    co_await controller->run(ctx);
  } catch (...) {
    if (!*failure) *failure = std::current_exception();
    stop();
  }
}

// The leadership terms of one Manager::start: the terms still unwinding, the first exception
// the controllers threw, and how to end the election when they do.
struct Terms {
  explicit Terms(sim::Loop& loop) : leading(loop) {}
  sim::WaitGroup leading;
  std::exception_ptr failure;
  sim::CancelFunc stop_election;
};

sim::Task<void> run_term(Manager* manager, std::shared_ptr<Terms> terms, sim::Context ctx) {
  try {
    co_await manager->run(ctx);
  } catch (...) {
    if (!terms->failure) terms->failure = std::current_exception();
    terms->stop_election();
  }
}

void tell_leadership(const Manager& manager, bool leading) {
  if (manager.options().on_leadership) manager.options().on_leadership(leading);
}

// One term: the controllers run on the leading context; on_leadership(false) is told the
// instant it is done, then the workers are waited for.
sim::Task<void> lead(Manager* manager, std::shared_ptr<Terms> terms, sim::Context ctx) {
  struct Done {
    sim::WaitGroup* leading;
    ~Done() { leading->done(); }
  } done{&terms->leading};
  sim::Loop& loop = manager->process().loop();
  tell_leadership(*manager, true);
  sim::TaskGroup group(loop);
  group.spawn(run_term(manager, terms, ctx), manager->process().name() + " controllers");
  sim::Event never(loop);
  co_await never.wait(ctx);
  tell_leadership(*manager, false);
  co_await group.wait(sim::Context());
}

// Campaigns for the manager's Lease and leads until leadership is lost or `ctx` is done.
sim::Task<void> campaign(Manager* manager, sim::Context ctx) {
  const LeaderElection& options = *manager->options().leader_election;
  auto election = sim::with_cancel(ctx);
  auto terms = std::make_shared<Terms>(manager->process().loop());
  terms->stop_election = election.cancel;
  election::LeaderElectionConfig config;
  config.lock = std::make_shared<election::LeaseLock>(manager->client(), options.ns, options.name,
                                                      election::ResourceLockConfig{manager->process().name()});
  config.lease_duration = options.lease_duration;
  config.renew_deadline = options.renew_deadline;
  config.retry_period = options.retry_period;
  config.release_on_cancel = options.release_on_cancel;
  config.name = options.ns + "/" + options.name;
  config.callbacks.on_started_leading = [manager, terms](sim::Context leading) {
    // Counted before the elector spawns the term, so that no term is missed below.
    terms->leading.add(1);
    return lead(manager, terms, std::move(leading));
  };
  config.callbacks.on_stopped_leading = [] {};
  election::LeaderElector elector(std::move(config), manager->process());
  co_await elector.run(election.ctx);
  election.cancel();
  co_await terms->leading.wait(sim::Context());
  if (terms->failure) std::rethrow_exception(terms->failure);
}

}  // namespace

Manager::Manager(ManagerEnv env, ManagerOptions options) : env_(env), options_(std::move(options)) {
  if (options_.leader_election && options_.leader_election->name.empty()) {
    throw std::invalid_argument("Manager: LeaderElection needs a lock name (LeaderElection::name is empty)");
  }
}

Manager::~Manager() = default;

void Manager::informer(const api::GroupVersionResource& resource) {
  (void)env_.informers.informer_for(resource);
  if (std::find(informers_taken_.begin(), informers_taken_.end(), resource) == informers_taken_.end()) {
    informers_taken_.push_back(resource);
  }
}

sim::Task<void> Manager::run(sim::Context parent) {
  auto stop = sim::with_cancel(parent);
  auto failure = std::make_shared<std::exception_ptr>();
  sim::Loop& loop = env_.process.loop();
  sim::TaskGroup group(loop);
  for (const auto& controller : controllers_) {
    group.spawn(run_controller(controller.get(), stop.ctx, stop.cancel, failure),
                env_.process.name() + " " + controller->name());
  }
  sim::Event never(loop);
  co_await never.wait(stop.ctx);
  co_await group.wait(sim::Context());
  stop.cancel();
  if (*failure) std::rethrow_exception(*failure);
}

sim::Task<void> Manager::start(sim::Context ctx) {
  auto informers = sim::with_cancel(ctx);
  env_.informers.start(informers.ctx);
  std::exception_ptr failure;
  try {
    if (options_.leader_election) {
      co_await campaign(this, ctx);
    } else {
      co_await run(ctx);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  informers.cancel();
  co_await env_.informers.shutdown();
  if (failure) std::rethrow_exception(failure);
}

std::size_t Manager::queue_depth() const {
  std::size_t depth = 0;
  for (const auto& controller : controllers_) depth += controller->queue_depth();
  return depth;
}

std::vector<std::string> Manager::controller_names() const {
  std::vector<std::string> names;
  for (const auto& controller : controllers_) names.push_back(controller->name());
  return names;
}

Expectations& Manager::expectations(std::string_view controller) {
  for (const auto& c : controllers_) {
    if (c->name() == controller) return c->expectations();
  }
  throw std::out_of_range("Manager: no controller named \"" + std::string(controller) + "\"");
}

void Manager::add(std::unique_ptr<ControllerState> controller) { controllers_.push_back(std::move(controller)); }

}  // namespace kubesim::controller
