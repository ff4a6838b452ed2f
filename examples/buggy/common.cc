// What the corpus's controllers share (buggy.h), and register_all.
#include <stdexcept>
#include <string>
#include <utility>

#include "buggy.h"
#include "kubesim/api/options.h"
#include "kubesim/api/status.h"
#include "kubesim/scenarios/controller_type.h"

namespace buggy {

using kubesim::api::ObjectPtr;
using kubesim::api::Result;
namespace scenarios = kubesim::scenarios;

std::string data_of(const kubesim::api::Object& config_map, std::string_view key) {
  const nlohmann::json data = config_map.member_value("data");
  if (!data.is_object()) return "";
  auto it = data.find(std::string(key));
  if (it == data.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

ObjectPtr config_map(std::string_view ns, std::string_view name, nlohmann::json data,
                     std::map<std::string, std::string> labels, std::string_view generate_name) {
  nlohmann::json meta = {{"namespace", std::string(ns)}};
  if (name.empty()) {
    meta["generateName"] = std::string(generate_name);
  } else {
    meta["name"] = std::string(name);
  }
  if (!labels.empty()) meta["labels"] = labels;
  nlohmann::json object = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", std::move(meta)}};
  if (!data.is_null() && !data.empty()) object["data"] = std::move(data);
  return kubesim::api::make_object(std::move(object));
}

kubesim::sim::Task<Result<ObjectPtr>> create(kubesim::sim::Context ctx, kubesim::api::Client* client,
                                             kubesim::api::GroupVersionResource resource, ObjectPtr object) {
  const std::string ns(object->namespace_());
  auto created = co_await client->create(std::move(ctx), std::move(resource), ns, std::move(object),
                                         kubesim::api::CreateOptions());
  co_return created;
}

kubesim::sim::Task<Result<ObjectPtr>> update(kubesim::sim::Context ctx, kubesim::api::Client* client,
                                             kubesim::api::GroupVersionResource resource, ObjectPtr object) {
  const std::string ns(object->namespace_());
  auto updated = co_await client->update(std::move(ctx), std::move(resource), ns, std::move(object),
                                         kubesim::api::UpdateOptions());
  co_return updated;
}

kubesim::sim::Task<bool> remove(kubesim::sim::Context ctx, kubesim::api::Client* client,
                                kubesim::api::GroupVersionResource resource, ObjectPtr object) {
  kubesim::api::DeleteOptions options;
  options.preconditions.uid = std::string(object->uid());
  auto deleted = co_await client->delete_(std::move(ctx), std::move(resource), std::string(object->namespace_()),
                                          std::string(object->name()), std::move(options));
  co_return deleted.ok() || kubesim::api::is_not_found(deleted.status());
}

namespace {

std::optional<std::string> no_params(const std::string& type, const nlohmann::json& params) {
  if (params.is_null() || (params.is_object() && params.empty())) return std::nullopt;
  return "params: " + type + " takes none, got " + params.dump();
}

void register_one(scenarios::Registry& registry, const std::string& name, const Description& about, Variant variant,
                  const MakeFn& make) {
  scenarios::ControllerType type;
  type.name = variant == Variant::kBuggy ? name : name + "-fixed";
  type.description = about.what + (variant == Variant::kBuggy ? " (planted bug: " + about.bug + ")" : " (correct)");
  type.make = [make, variant](scenarios::ControllerEnv env) { return make(env, variant); };
  type.validate = [type_name = type.name](const nlohmann::json& params) { return no_params(type_name, params); };
  registry.register_controller(std::move(type));
}

}  // namespace

void register_pair(scenarios::Registry& registry, const std::string& name, const Description& about, MakeFn make) {
  register_one(registry, name, about, Variant::kBuggy, make);
  register_one(registry, name, about, Variant::kFixed, make);
}

void register_pair_setup(scenarios::Registry& registry, const std::string& name, const Description& about,
                         SetupFn setup) {
  register_pair(registry, name, about, [setup](scenarios::ControllerEnv env, Variant variant) {
    return scenarios::manager_controller(env, [setup, variant](kubesim::controller::Manager& manager) {
      setup(manager, variant);
    });
  });
}

void register_config_map_pair(scenarios::Registry& registry, const std::string& name, const Description& about,
                              kubesim::controller::MapFn map, VariantReconcileFn reconcile) {
  auto setup = [name, map, reconcile](kubesim::controller::Manager& manager, Variant variant) {
    kubesim::controller::ControllerBuilder(manager)
        .named(name)
        .watches(kConfigMaps, map)
        .reconcile([variant, reconcile](ReconcileContext rc, ReconcileRequest request) {
          return reconcile(variant, std::move(rc), std::move(request));
        });
  };
  register_pair_setup(registry, name, about, setup);
}

void register_all(scenarios::Registry& registry) {
  register_stale_read(registry);
  register_unobserved(registry);
  register_non_idempotent(registry);
  register_replicators(registry);
  register_lost_lease(registry);
  register_name_not_uid(registry);
  register_drop_on_conflict(registry);
  register_bundles(registry);
}

}  // namespace buggy
