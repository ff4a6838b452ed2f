#include "kubesim/controller/builder.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "internal/controller_state.h"

namespace kubesim::controller {

// --- requests and results ------------------------------------------------------------------------

namespace {

// "ns/name", or "name" for a key of no namespace, built in one allocation at most.
std::string key_of(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  if (!ns.empty()) {
    key.append(ns);
    key.push_back('/');
  }
  key.append(name);
  return key;
}

}  // namespace

std::string ReconcileRequest::key() const { return key_of(ns, name); }

std::optional<ReconcileRequest> ReconcileRequest::from_key(std::string_view key) {
  const std::size_t slash = key.find('/');
  if (slash == std::string_view::npos) return ReconcileRequest{"", std::string(key)};
  if (key.find('/', slash + 1) != std::string_view::npos) return std::nullopt;
  return ReconcileRequest{std::string(key.substr(0, slash)), std::string(key.substr(slash + 1))};
}

ReconcileResult ReconcileResult::fail(const api::Status& status) {
  std::ostringstream text;
  text << status;
  return fail(text.str());
}

nlohmann::json owner_reference(const api::Object& owner) {
  return {{"apiVersion", std::string(owner.api_version())},
          {"kind", std::string(owner.kind())},
          {"name", std::string(owner.name())},
          {"uid", std::string(owner.uid())},
          {"controller", true},
          {"blockOwnerDeletion", true}};
}

std::string label_value(std::string_view name) {
  constexpr std::size_t kMaxLabelValue = 63;
  if (name.size() <= kMaxLabelValue) return std::string(name);
  std::uint32_t hash = 2166136261u;  // FNV-1a 32 of the whole name
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 16777619u;
  }
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", hash);
  return std::string(name.substr(0, kMaxLabelValue - 9)) + "-" + hex;
}

// --- the reconcile's view ------------------------------------------------------------------------

api::Client& ReconcileContext::client() const { return state_->manager().client(); }
sim::Process& ReconcileContext::process() const { return state_->manager().process(); }
const sim::Clock& ReconcileContext::clock() const { return process().clock(); }
Expectations& ReconcileContext::expectations() const { return state_->expectations(); }

api::ObjectPtr ReconcileContext::get(const api::GroupVersionResource& resource, std::string_view ns,
                                     std::string_view name) const {
  // Read from the indexer: a Lister would build a NotFound Status for every miss.
  return state_->indexer(resource).get_by_key(key_of(ns, name));
}

std::vector<api::ObjectPtr> ReconcileContext::list(const api::GroupVersionResource& resource, std::string_view ns,
                                                   const api::LabelSelector& selector) const {
  const informer::Lister lister = state_->lister(resource);
  if (ns.empty()) return lister.list(selector);
  return lister.by_namespace(std::string(ns)).list(selector);
}

std::vector<api::ObjectPtr> ReconcileContext::owned_by(const api::GroupVersionResource& owned,
                                                       const api::Object& owner) const {
  std::vector<api::ObjectPtr> out;
  for (auto& object : list(owned, owner.namespace_())) {
    const api::OwnerReference* controller = object->controller_of();
    if (controller != nullptr && controller->uid == owner.uid()) out.push_back(std::move(object));
  }
  return out;
}

// --- the builder ---------------------------------------------------------------------------------

ControllerBuilder& ControllerBuilder::named(std::string name) {
  name_ = std::move(name);
  return *this;
}

ControllerBuilder& ControllerBuilder::for_(const api::GroupVersionResource& resource) {
  for_resource_ = resource;
  return *this;
}

ControllerBuilder& ControllerBuilder::owns(const api::GroupVersionResource& resource) {
  if (std::find(owns_.begin(), owns_.end(), resource) == owns_.end()) owns_.push_back(resource);
  return *this;
}

ControllerBuilder& ControllerBuilder::watches(const api::GroupVersionResource& resource, MapFn map) {
  watches_.emplace_back(resource, std::move(map));
  return *this;
}

ControllerBuilder& ControllerBuilder::workers(int n) {
  workers_ = n;
  return *this;
}

void ControllerBuilder::reconcile(ReconcileFn fn) {
  // Without for_, a named controller takes its keys from its watches alone.
  if (!for_resource_ && (name_.empty() || watches_.empty())) {
    throw std::invalid_argument("ControllerBuilder: for_() was not given (a controller reconciles one resource)");
  }
  ControllerSpec spec;
  spec.name = name_.empty() ? for_resource_->resource : name_;
  const std::string who = "ControllerBuilder \"" + spec.name + "\": ";
  if (!for_resource_ && !owns_.empty()) {
    throw std::invalid_argument(who + "owns() needs for_() (an owned object queues its owner, of the for_ kind)");
  }
  if (workers_ < 1) throw std::invalid_argument(who + "workers must be at least 1, not " + std::to_string(workers_));
  if (!fn) throw std::invalid_argument(who + "the reconcile function is empty");
  for (const auto& [resource, map] : watches_) {
    if (map) continue;
    throw std::invalid_argument(who + "the map function of watches(" + resource.group_resource().to_string() +
                                ") is empty");
  }
  const std::vector<std::string> names = manager_->controller_names();
  if (std::find(names.begin(), names.end(), spec.name) != names.end()) {
    throw std::invalid_argument(who + "the manager already has a controller of that name");
  }
  spec.for_ = for_resource_;
  spec.owns = owns_;
  spec.watches = watches_;
  spec.workers = workers_;
  spec.reconcile = std::move(fn);
  manager_->add(std::make_unique<ControllerState>(*manager_, std::move(spec)));
}

}  // namespace kubesim::controller
