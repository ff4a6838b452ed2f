// unobserved: a job-completion notifier, and the job runner its scenarios need.
//
// job-runner (a helper type, not a bug): plays the kubelet for "jobs" — ConfigMaps of namespace
// `jobs` whose data.phase it moves Pending → Running → Succeeded, each job staying Running for
// 2 s. Level-based: after a restart a Running job finishes 2 s later.
//
// unobserved — the notifier posts one notice (a ConfigMap of the job's name in namespace
// `notices`) for every job that succeeded, as a Slack/webhook notifier or a TTL-after-finished
// cleaner hooks job completion. It is written by hand on an informer (QueueController).
// The bug: it is edge-triggered: its update handler queues a job only when it sees the
// transition itself, old phase Running and new phase Succeeded. A job whose Running state it
// never saw — the watch delivered Pending and then Succeeded (events coalesced by a lagging
// watch, a re-list after a dropped watch), or the controller was down while the job ran and its
// first list shows it Succeeded — never gets its notice. Realistic: "if old.Status.Phase !=
// new.Status.Phase && new.Status.Phase == Succeeded" style handlers that act on the diff are
// the edge-triggered design Kubernetes' own guidelines warn against (level, not edge).
// Revealed by: coalesced watch events (a lagging watch), or a crash of the notifier while a job
// runs (its restart lists it finished).
// The fix: level-based — every add or update of a job in phase Succeeded queues it, and a
// started (or restarted) controller queues every finished job; the notice's fixed name makes
// posting it idempotent.
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "buggy.h"
#include "kubesim/api/status.h"
#include "kubesim/scenarios/controller_type.h"
#include "queue_controller.h"

namespace buggy {
namespace {


constexpr const char* kJobs = "jobs";
constexpr const char* kNotices = "notices";
constexpr auto kRunFor = std::chrono::seconds(2);

// --- job-runner ---

struct Runner {
  // When this process saw each job start running (monotonic); a restart forgets, and counts
  // from when it next sees the job.
  std::map<std::string, kubesim::sim::Time> started;
};

Task<ReconcileResult> run_job(std::shared_ptr<Runner> runner, ReconcileContext rc, ReconcileRequest request) {
  const ObjectPtr job = rc.get(kConfigMaps, kJobs, request.name);
  if (job == nullptr) co_return ReconcileResult::done();
  const std::string phase = data_of(*job, "phase");
  std::string next;
  kubesim::sim::Duration wait{};
  if (phase.empty() || phase == "Pending") {
    next = "Running";
    wait = kRunFor;
  } else if (phase == "Running") {
    const auto now = rc.clock().now();
    const auto since = runner->started.emplace(request.name, now).first->second;
    if (now - since < kRunFor) co_return ReconcileResult::requeue_after(kRunFor - (now - since));
    next = "Succeeded";
  } else {
    co_return ReconcileResult::done();
  }
  ObjectPtr moved = job->edited([&](nlohmann::json& j) { j["data"]["phase"] = next; });
  auto updated = co_await update(rc.ctx(), &rc.client(), kConfigMaps, std::move(moved));
  if (!updated.ok()) co_return ReconcileResult::fail(updated.status());
  if (next == "Running") runner->started[request.name] = rc.clock().now();
  if (next == "Succeeded") runner->started.erase(request.name);
  co_return wait.count() > 0 ? ReconcileResult::requeue_after(wait) : ReconcileResult::done();
}

void setup_runner(kubesim::controller::Manager& manager) {
  auto runner = std::make_shared<Runner>();
  kubesim::controller::ControllerBuilder(manager)
      .named("job-runner")
      .watches(kConfigMaps,
               [](const kubesim::api::Object& object) -> std::vector<ReconcileRequest> {
                 if (object.namespace_() != kJobs) return {};
                 return {ReconcileRequest{"", std::string(object.name())}};
               })
      .reconcile([runner](ReconcileContext rc, ReconcileRequest request) {
        return run_job(runner, std::move(rc), std::move(request));
      });
}

// --- the notifier ---

bool succeeded(const kubesim::api::Object& object) {
  return object.namespace_() == kJobs && data_of(object, "phase") == "Succeeded";
}

class Notifier final : public QueueController {
 public:
  Notifier(const kubesim::scenarios::ControllerEnv& env, Variant variant)
      : QueueController(env, {}), variant_(variant) {
    auto handler = std::make_shared<kubesim::informer::ResourceEventHandlerFuncs>();
    handler->add_func = [this](const ObjectPtr& object, bool) {
      if (variant_ == Variant::kFixed && succeeded(*object)) enqueue(std::string(object->name()));
    };
    handler->update_func = [this](const ObjectPtr& old_object, const ObjectPtr& object) {
      if (!succeeded(*object)) return;
      // The bug: only the transition itself counts.
      if (variant_ == Variant::kBuggy && data_of(*old_object, "phase") != "Running") return;
      enqueue(std::string(object->name()));
    };
    watch(kConfigMaps, std::move(handler));
  }

 protected:
  std::vector<std::string> keys_at_start() const override {
    std::vector<std::string> keys;
    if (variant_ == Variant::kBuggy) return keys;  // it waits for transitions
    for (const auto& job : lister(kConfigMaps, kJobs).list()) {
      if (succeeded(*job)) keys.emplace_back(job->name());
    }
    return keys;
  }

  Task<bool> sync(kubesim::sim::Context ctx, std::string name) override {
    auto job = lister(kConfigMaps, kJobs).get(name);
    if (!job.ok() || !succeeded(*job.value())) co_return true;
    if (lister(kConfigMaps, kNotices).get(name).ok()) co_return true;
    ObjectPtr notice = config_map(kNotices, name, {{"job", name}});
    auto posted = co_await create(ctx, &client(), kConfigMaps, std::move(notice));
    co_return posted.ok() || kubesim::api::is_already_exists(posted.status());
  }

 private:
  Variant variant_;
};

}  // namespace

void register_unobserved(kubesim::scenarios::Registry& registry) {
  registry.register_controller(kubesim::scenarios::controller_type(
      "job-runner", setup_runner, "moves jobs (ConfigMaps of namespace jobs) Pending → Running → Succeeded"));
  register_pair(registry, "unobserved",
                {"posts a notice ConfigMap for every job that succeeded",
                 "edge-triggered: acts only on a seen Running → Succeeded transition"},
                [](kubesim::scenarios::ControllerEnv env, Variant variant) {
                  return std::make_unique<Notifier>(env, variant);
                });
}

}  // namespace buggy
