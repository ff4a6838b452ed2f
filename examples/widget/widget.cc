#include "widget.h"

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/options.h"

namespace widgets {

using kubesim::api::Object;
using kubesim::api::ObjectPtr;
using kubesim::api::Result;
using kubesim::api::Status;
using kubesim::sim::Task;
using kubesim::controller::ReconcileContext;
using kubesim::controller::ReconcileRequest;
using kubesim::controller::ReconcileResult;

namespace {

bool is_widget(const kubesim::api::OwnerReference* owner) {
  return owner != nullptr && owner->kind == "Widget" && owner->api_version == "example.com/v1";
}

// The names a Widget's ConfigMaps must have: NAME-0 … NAME-(replicas-1).
std::map<std::string, std::int64_t> wanted_names(const Object& widget) {
  std::map<std::string, std::int64_t> names;
  for (std::int64_t i = 0; i < replicas_of(widget); ++i) {
    names.emplace(std::string(widget.name()) + "-" + std::to_string(i), i);
  }
  return names;
}

Task<Result<void>> create(ReconcileContext rc, ObjectPtr config_map) {
  const std::string ns(config_map->namespace_());
  auto created = co_await rc.client().create(rc.ctx(), kConfigMaps, ns, std::move(config_map),
                                             kubesim::api::CreateOptions());
  if (created.ok()) co_return Result<void>();
  co_return std::move(created).status();
}

// Deletes what a Widget that is gone, or an earlier one of its name, or this one beyond its
// replicas, controls: one kind of write per pass, as the ReplicaSet controller does.
Task<std::optional<Status>> delete_extra(ReconcileContext rc, std::string key, std::vector<ObjectPtr> extra) {
  std::optional<Status> failure;
  rc.expectations().expect_deletions(key, static_cast<std::int64_t>(extra.size()));
  for (auto& config_map : extra) {
    auto removed = co_await remove(rc, std::move(config_map));
    if (removed.ok()) continue;
    rc.expectations().deletion_observed(key);  // no event will say it
    failure = std::move(removed).status();
  }
  co_return failure;
}

Task<std::optional<Status>> create_missing(ReconcileContext rc, std::string key, ObjectPtr widget,
                                           std::vector<std::string> missing) {
  std::optional<Status> failure;
  rc.expectations().expect_creations(key, static_cast<std::int64_t>(missing.size()));
  for (const auto& name : missing) {
    auto created = co_await create(rc, owned_config_map(*widget, name));
    if (created.ok()) continue;
    // An AlreadyExists that is ours will also be seen; lowering twice is harmless.
    rc.expectations().creation_observed(key);
    if (!kubesim::api::is_already_exists(created.status())) failure = std::move(created).status();
  }
  co_return failure;
}

Task<ReconcileResult> reconcile(ReconcileContext rc, ReconcileRequest request) {
  const std::string key = request.key();
  const ObjectPtr widget = rc.get(kWidgets, request.ns, request.name);
  std::vector<ObjectPtr> extra;
  std::int64_t ready = 0;
  const auto wanted = widget ? wanted_names(*widget) : std::map<std::string, std::int64_t>();
  for (auto& config_map : controlled_by(rc, request.ns, request.name)) {
    if (config_map->deletion_timestamp()) continue;
    const bool mine = widget != nullptr && config_map->controller_of()->uid == widget->uid();
    if (mine && wanted.count(std::string(config_map->name())) != 0) {
      ++ready;
    } else {
      extra.push_back(std::move(config_map));
    }
  }
  if (widget == nullptr || widget->deletion_timestamp()) {
    rc.expectations().remove(key);
    auto failure = co_await delete_extra(rc, key, std::move(extra));
    co_return failure ? ReconcileResult::fail(*failure) : ReconcileResult::done();
  }
  // Until the cache shows this controller's own last writes, it would act on a stale picture.
  if (!rc.expectations().satisfied(key)) co_return ReconcileResult::done();
  std::optional<Status> failure;
  if (!extra.empty()) {
    auto deleted = co_await delete_extra(rc, key, std::move(extra));
    failure = std::move(deleted);
  } else {
    std::vector<std::string> missing;
    for (const auto& [name, index] : wanted) {
      // A name taken by a ConfigMap this Widget does not control is left alone.
      if (rc.get(kConfigMaps, request.ns, name) == nullptr) missing.push_back(name);
    }
    if (!missing.empty()) {
      auto created = co_await create_missing(rc, key, widget, std::move(missing));
      failure = std::move(created);
    }
  }
  auto written = co_await write_ready(rc, widget, ready);
  if (!written.ok() && !failure) failure = std::move(written).status();
  co_return failure ? ReconcileResult::fail(*failure) : ReconcileResult::done();
}

}  // namespace

std::int64_t replicas_of(const Object& widget) {
  const nlohmann::json replicas = widget.value_at("spec.replicas");
  if (!replicas.is_number_integer()) return 0;
  return std::max<std::int64_t>(0, replicas.get<std::int64_t>());
}

std::vector<ObjectPtr> controlled_by(const ReconcileContext& rc, std::string_view ns, std::string_view name) {
  std::vector<ObjectPtr> out;
  for (auto& config_map : rc.list(kConfigMaps, ns)) {
    const kubesim::api::OwnerReference* owner = config_map->controller_of();
    if (is_widget(owner) && owner->name == name) out.push_back(std::move(config_map));
  }
  return out;
}

ObjectPtr owned_config_map(const Object& widget, std::string_view name, std::string_view generate_name) {
  nlohmann::json meta = {{"namespace", std::string(widget.namespace_())},
                         {"labels", {{kWidgetLabel, kubesim::controller::label_value(widget.name())}}},
                         {"ownerReferences", nlohmann::json::array({kubesim::controller::owner_reference(widget)})}};
  if (name.empty()) {
    meta["generateName"] = std::string(generate_name);
  } else {
    meta["name"] = std::string(name);
  }
  return kubesim::api::make_object({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(meta)}});
}

Task<Result<void>> remove(ReconcileContext rc, ObjectPtr config_map) {
  kubesim::api::DeleteOptions options;
  options.preconditions.uid = std::string(config_map->uid());
  auto deleted = co_await rc.client().delete_(rc.ctx(), kConfigMaps, std::string(config_map->namespace_()),
                                              std::string(config_map->name()), std::move(options));
  if (deleted.ok() || kubesim::api::is_not_found(deleted.status())) co_return Result<void>();
  co_return std::move(deleted).status();
}

Task<Result<void>> write_ready(ReconcileContext rc, ObjectPtr widget, std::int64_t ready) {
  const nlohmann::json shown = widget->value_at("status.readyReplicas");
  if (shown.is_number_integer() && shown.get<std::int64_t>() == ready) co_return Result<void>();
  ObjectPtr next = widget->edited([&](nlohmann::json& j) { j["status"]["readyReplicas"] = ready; });
  auto updated = co_await rc.client().update_status(rc.ctx(), kWidgets, std::string(widget->namespace_()),
                                                    std::move(next), kubesim::api::UpdateOptions());
  if (updated.ok()) co_return Result<void>();
  co_return std::move(updated).status();
}

void setup(kubesim::controller::Manager& manager) {
  kubesim::controller::ControllerBuilder(manager)
      .named("widgets")
      .for_(kWidgets)
      .owns(kConfigMaps)
      .workers(2)
      .reconcile(reconcile);
}

}  // namespace widgets
