// Controllers written as controller-runtime writes them, on kubesim's informers, work queue and
// leader election — the same controller runs in a SimCluster test (kubesim::testing), in a
// scenario file (kubesim/scenarios/controller_type.h; the built-in controller types are written
// this way too) and in a benchmark. A Manager (manager.h) runs them.
//
//   void setup(kubesim::controller::Manager& mgr) {
//     kubesim::controller::ControllerBuilder(mgr)
//         .named("widgets").for_(kWidgets).owns(kConfigMaps).workers(2)
//         .reconcile(reconcile_widget);
//   }
//   kubesim::sim::Task<ReconcileResult> reconcile_widget(ReconcileContext rc, ReconcileRequest req);
//
// What a controller built here does, as controller-runtime's does:
//   - for_(R): every add, update and delete of an R queues that object's "namespace/name";
//     owns(O): an O's events queue the key of the object its controller owner reference names,
//     when that owner is of the for_ kind (same group and kind, any version; before any for_
//     object is seen, the kind's guessed plural must be for_'s resource, as client-go guesses
//     it); watches(X, map): X's events queue what `map` returns. A controller named() may
//     leave for_ out and take its keys from watches() alone (controller-runtime's builder
//     without For), when its key is not one object's.
//   - a rate-limiting work queue (client-go's default controller rate limiter, on the process's
//     clock) and `workers` worker coroutines, each reconciling one key at a time; a key is never
//     reconciled by two workers at once.
//   - the result: done → forget; requeue() or an error → add_rate_limited (exponential backoff);
//     requeue_after(d) → forget, then add_after(d).
//   - before the workers start, the controller waits until every informer it uses has synced.
//   - owns(O) also feeds the controller's Expectations: an O added marks a creation observed for
//     its owner's key, an O deleted a deletion observed (kube-controller-manager's pattern).
//   - a reconcile that throws stops its controller's workers and the manager's other
//     controllers; Manager::run (and start) rethrows the first exception once all have stopped.
//
// Coroutine rules (GCC 12): a reconcile function is a named coroutine taking its parameters by
// value — ReconcileContext and ReconcileRequest are cheap to copy for that reason. A capturing
// lambda may *call* one, but must not itself be a coroutine.
#ifndef KUBESIM_CONTROLLER_BUILDER_H_
#define KUBESIM_CONTROLLER_BUILDER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/client.h"
#include "kubesim/api/gvk.h"
#include "kubesim/api/labels.h"
#include "kubesim/api/object.h"
#include "kubesim/api/status.h"
#include "kubesim/sim/context.h"
#include "kubesim/sim/process.h"
#include "kubesim/sim/task.h"
#include "kubesim/sim/time.h"
#include "kubesim/controller/expectations.h"
#include "kubesim/controller/manager.h"

namespace kubesim::controller {

// What a reconcile is asked to bring to its desired state (controller-runtime's reconcile.Request).
struct ReconcileRequest {
  std::string ns;  // "" for a cluster-scoped object
  std::string name;
  // "namespace/name", or "name" when cluster-scoped: the work queue key and Expectations key.
  std::string key() const;
  // Parses a key; a key with more than one '/' is refused (nullopt).
  static std::optional<ReconcileRequest> from_key(std::string_view key);
  bool operator==(const ReconcileRequest&) const = default;
};

// What a reconcile returns: controller-runtime's (Result, error) in one value.
struct ReconcileResult {
  enum class Kind { kDone, kRequeue, kRequeueAfter, kError };
  Kind kind = Kind::kDone;
  sim::Duration after{};  // kRequeueAfter
  std::string error;      // kError: what went wrong, for the trace

  static ReconcileResult done() { return {}; }
  // Requeue with the rate limiter's backoff (Result{Requeue: true}).
  static ReconcileResult requeue() { return {Kind::kRequeue, {}, {}}; }
  // Forget the backoff, reconcile again after `d` (Result{RequeueAfter: d}).
  static ReconcileResult requeue_after(sim::Duration d) { return {Kind::kRequeueAfter, d, {}}; }
  // A failure: requeued with backoff, as a returned error is.
  static ReconcileResult fail(std::string error) { return {Kind::kError, {}, std::move(error)}; }
  static ReconcileResult fail(const api::Status& status);
};

class ControllerState;

// What a reconcile is handed: its context (done when the controller stops or leadership is
// lost), the process's API client and clock, reads from the manager's informer caches, and the
// controller's Expectations. A cheap value; valid while the controller's run lasts.
class ReconcileContext {
 public:
  ReconcileContext(sim::Context ctx, ControllerState* state) : ctx_(std::move(ctx)), state_(state) {}

  const sim::Context& ctx() const { return ctx_; }
  api::Client& client() const;
  sim::Process& process() const;
  const sim::Clock& clock() const;
  Expectations& expectations() const;
  // The cached object, or null when the cache does not have it. `resource` must be one the
  // controller declared (for_, owns, watches) or took with Manager::informer(); another one
  // throws std::logic_error naming it.
  api::ObjectPtr get(const api::GroupVersionResource& resource, std::string_view ns,
                     std::string_view name) const;
  // Cached objects in `ns` ("" = all namespaces) whose labels match `selector`, in key order.
  std::vector<api::ObjectPtr> list(const api::GroupVersionResource& resource, std::string_view ns,
                                   const api::LabelSelector& selector = {}) const;
  // Cached objects of `owned` in `owner`'s namespace whose controller owner reference has
  // `owner`'s uid, in key order.
  std::vector<api::ObjectPtr> owned_by(const api::GroupVersionResource& owned, const api::Object& owner) const;

 private:
  sim::Context ctx_;
  ControllerState* state_;
};

using ReconcileFn = std::function<sim::Task<ReconcileResult>(ReconcileContext rc, ReconcileRequest request)>;
// For watches(): the keys an object's event should queue (none, one, several).
using MapFn = std::function<std::vector<ReconcileRequest>(const api::Object& object)>;

// A controller owner reference to `owner` (controller: true, blockOwnerDeletion: true), as
// metav1.NewControllerRef makes it, as JSON to put in metadata.ownerReferences.
nlohmann::json owner_reference(const api::Object& owner);
// `name` as a label value: itself when it fits a label value's 63 characters, else its first 54
// characters, a '-' and 8 hex digits of a hash of the whole name (distinct long names stay
// distinct), as Kubernetes controllers shorten names they put in labels. Object names may be
// 253 characters long, so a controller that labels what it owns with its owner's name needs this.
std::string label_value(std::string_view name);

// Builds one controller into a Manager. reconcile() completes it; a builder never completed adds
// nothing. reconcile() throws std::invalid_argument when for_() was not given (a controller
// named() with watches() may do without), owns() was given without for_(), a name is used twice
// in the manager, or workers < 1.
class ControllerBuilder {
 public:
  explicit ControllerBuilder(Manager& manager) : manager_(&manager) {}

  ControllerBuilder& named(std::string name);  // default: the for_ resource's plural
  ControllerBuilder& for_(const api::GroupVersionResource& resource);
  ControllerBuilder& owns(const api::GroupVersionResource& resource);
  ControllerBuilder& watches(const api::GroupVersionResource& resource, MapFn map);
  ControllerBuilder& workers(int n);  // default 1
  void reconcile(ReconcileFn fn);

 private:
  Manager* manager_;
  std::string name_;
  std::optional<api::GroupVersionResource> for_resource_;
  std::vector<api::GroupVersionResource> owns_;
  std::vector<std::pair<api::GroupVersionResource, MapFn>> watches_;
  int workers_ = 1;
};

}  // namespace kubesim::controller

#endif  // KUBESIM_CONTROLLER_BUILDER_H_
