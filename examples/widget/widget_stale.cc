// The Widget controller with a planted stale-cache bug, for the test that shows the fixture finds
// it. It is written as the ReplicaSet controller would be without its Expectations: it counts
// the ConfigMaps its cache shows for a Widget and makes the difference with generateName
// (NAME-xxxxx), so nothing on the server stops a second ConfigMap for the same slot.
//
// The bug: a reconcile that runs before the cache has seen the creates of the last one (queued by
// the first create's event while the last was under way, a requeue, a new leader whose watch
// lags) counts too few and creates again. With no latency it converges and looks right; under network latency, dropped
// watches or a leader change a Widget briefly owns more than spec.replicas ConfigMaps, until a
// later pass deletes the surplus. widget.cc's guard is `rc.expectations().satisfied(key)`.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kubesim/api/options.h"
#include "widget.h"

namespace widgets_stale {
namespace {

using kubesim::api::ObjectPtr;
using kubesim::api::Status;
using kubesim::sim::Task;
using kubesim::controller::ReconcileContext;
using kubesim::controller::ReconcileRequest;
using kubesim::controller::ReconcileResult;

Task<std::optional<Status>> remove_all(ReconcileContext rc, std::vector<ObjectPtr> config_maps) {
  std::optional<Status> failure;
  for (auto& config_map : config_maps) {
    auto removed = co_await widgets::remove(rc, std::move(config_map));
    if (!removed.ok()) failure = std::move(removed).status();
  }
  co_return failure;
}

Task<std::optional<Status>> create_n(ReconcileContext rc, ObjectPtr widget, std::int64_t n) {
  std::optional<Status> failure;
  for (std::int64_t i = 0; i < n; ++i) {
    ObjectPtr config_map = widgets::owned_config_map(*widget, "", std::string(widget->name()) + "-");
    auto created = co_await rc.client().create(rc.ctx(), widgets::kConfigMaps, std::string(widget->namespace_()),
                                               std::move(config_map), kubesim::api::CreateOptions());
    if (!created.ok()) failure = std::move(created).status();
  }
  co_return failure;
}

Task<ReconcileResult> reconcile(ReconcileContext rc, ReconcileRequest request) {
  const ObjectPtr widget = rc.get(widgets::kWidgets, request.ns, request.name);
  std::vector<ObjectPtr> mine;
  std::vector<ObjectPtr> extra;
  for (auto& config_map : widgets::controlled_by(rc, request.ns, request.name)) {
    if (config_map->deletion_timestamp()) continue;
    const bool owned = widget != nullptr && config_map->controller_of()->uid == widget->uid();
    (owned ? mine : extra).push_back(std::move(config_map));
  }
  if (widget == nullptr || widget->deletion_timestamp()) {
    auto failure = co_await remove_all(rc, std::move(extra));
    co_return failure ? ReconcileResult::fail(*failure) : ReconcileResult::done();
  }
  // It reports what it sees, then acts on it. The planted bug: `mine` is the cache's count,
  // which may not include the last pass's creates yet.
  auto written = co_await widgets::write_ready(rc, widget, static_cast<std::int64_t>(mine.size()));
  std::optional<Status> failure;
  if (!written.ok()) failure = std::move(written).status();
  const auto diff = widgets::replicas_of(*widget) - static_cast<std::int64_t>(mine.size());
  if (diff < 0) extra.insert(extra.end(), mine.end() + diff, mine.end());  // surplus: the last by name go
  auto removed = co_await remove_all(rc, std::move(extra));
  if (!failure) failure = std::move(removed);
  if (diff > 0) {
    auto created = co_await create_n(rc, widget, diff);
    if (!failure) failure = std::move(created);
  }
  co_return failure ? ReconcileResult::fail(*failure) : ReconcileResult::done();
}

}  // namespace

void setup(kubesim::controller::Manager& manager) {
  kubesim::controller::ControllerBuilder(manager)
      .named("widgets")
      .for_(widgets::kWidgets)
      .owns(widgets::kConfigMaps)
      .workers(2)
      .reconcile(reconcile);
}

}  // namespace widgets_stale
