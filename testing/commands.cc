// rc::state commands over a SimCluster (kubesim/testing/commands.h).
#include "kubesim/testing/commands.h"

#include <cassert>
#include <chrono>
#include <utility>

#include "kubesim/api/gvk.h"
#include "kubesim/api/match.h"
#include "kubesim/api/status.h"
#include "kubesim/fakeapi/patch.h"
#include "kubesim/fakeapi/server.h"
#include "testing/internal/generators.h"

namespace kubesim::testing {
namespace {

using nlohmann::json;

// What the model keeps of a written object: everything but the status.
json written(json object) {
  object.erase("status");
  return object;
}

// The RFC 7386 merge patch that turns `from` into `to` (neither holds a null).
json merge_patch_between(const json& from, const json& to) {
  json patch = json::object();
  for (const auto& [k, v] : from.items()) {
    if (!to.contains(k)) patch[k] = nullptr;
  }
  for (const auto& [k, v] : to.items()) {
    const auto old = from.find(k);
    if (old == from.end()) {
      patch[k] = v;
    } else if (old->is_object() && v.is_object()) {
      json inner = merge_patch_between(*old, v);
      if (!inner.empty()) patch[k] = std::move(inner);
    } else if (*old != v) {
      patch[k] = v;
    }
  }
  return patch;
}

// RFC 7386: applies `patch` to `target` (a patch made by merge_patch_between always applies).
void merge_into(json& target, const json& patch) {
  auto merged = fakeapi::apply_merge_patch(target, patch.dump());
  assert(merged.ok());
  target = std::move(merged.value());
}

struct Where {
  api::GroupVersionResource resource;
  std::string ns;
  std::string name;
};

Where where(const SimCluster& cluster, const json& object) {
  const auto gvk = api::gvk_from_api_version_and_kind(object.value("apiVersion", ""), object.value("kind", ""));
  const auto* info = cluster.server().registry().find_kind(gvk);
  if (info == nullptr) {
    RC_FAIL("the cluster serves no " + object.value("apiVersion", "") + " " + object.value("kind", ""));
  }
  const json& m = object.at("metadata");
  return {info->gvr, m.value("namespace", ""), m.value("name", "")};
}

// Only inside rc::gen::exec: a key of the model (discards the command when there is none).
std::string some_key(const ClusterModel& model) {
  RC_PRE(!model.objects_written.empty());
  std::vector<std::string> keys;
  for (const auto& [k, v] : model.objects_written) keys.push_back(k);
  return *gen::internal::pick(keys);
}

// Only inside rc::gen::exec: a new object of `source` in the place of `object`.
json replacement(const ClusterModel& model, const ModelObject& object) {
  json next = written(*model.sources()[object.source]);
  const json& place = object.object["metadata"];
  next["metadata"]["name"] = place["name"];
  next["metadata"].erase("namespace");
  if (place.contains("namespace")) next["metadata"]["namespace"] = place["namespace"];
  return next;
}

// Fails the case with "<what>: <the server's message>" unless `r` succeeded.
template <class T>
void assert_ok(const api::Result<T>& r, const std::string& what) {
  if (!r.ok()) RC_FAIL(what + ": " + r.status().message);
}

// Fails the case with "<what>: <key> is not as written: <first difference>" unless `stored`
// shows what `expected` gives.
void assert_stored(const json& expected, const api::Object& stored, const std::string& what) {
  const api::TreeMatch m = api::match_tree(expected, stored.json());
  if (!m.matched()) RC_FAIL(what + ": " + model_key(expected) + " is not as written: " + m.first());
}

}  // namespace

std::string model_key(const json& object) {
  const json& m = object.at("metadata");
  return object.value("apiVersion", "") + "/" + object.value("kind", "") + "/" + m.value("namespace", "") + "/" +
         m.value("name", "");
}

// --- ApplyObject ---

ApplyObject::ApplyObject(const ClusterModel& model) {
  RC_PRE(!model.sources().empty());
  if (!model.objects_written.empty() && *rc::gen::arbitrary<bool>()) {
    const ModelObject& old = model.objects_written.at(some_key(model));
    source_ = old.source;
    object_ = replacement(model, old);
    return;
  }
  // Any source alike, whatever the size (inRange favours the first ones at small sizes).
  source_ = *rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, model.sources().size()));
  object_ = written(*model.sources()[source_]);
}

void ApplyObject::apply(ClusterModel& model) const { model.objects_written[model_key(object_)] = {source_, object_}; }

void ApplyObject::run(const ClusterModel&, SimCluster& cluster) const {
  const api::ObjectPtr stored = cluster.apply(object_);
  assert_stored(object_, *stored, "ApplyObject");
}

void ApplyObject::show(std::ostream& os) const { os << "ApplyObject " << object_.dump(); }

// --- PatchObject ---

PatchObject::PatchObject(const ClusterModel& model) : key_(some_key(model)) {
  const ModelObject& old = model.objects_written.at(key_);
  patch_ = merge_patch_between(old.object, replacement(model, old));
}

void PatchObject::checkPreconditions(const ClusterModel& model) const { RC_PRE(model.objects_written.contains(key_)); }

void PatchObject::apply(ClusterModel& model) const { merge_into(model.objects_written.at(key_).object, patch_); }

void PatchObject::run(const ClusterModel& model, SimCluster& cluster) const {
  json expected = model.objects_written.at(key_).object;
  const Where w = where(cluster, expected);
  merge_into(expected, patch_);
  const auto patched = cluster.patch(w.resource, w.ns, w.name, patch_);
  assert_ok(patched, "PatchObject " + key_);
  assert_stored(expected, **patched, "PatchObject");
}

void PatchObject::show(std::ostream& os) const { os << "PatchObject " << key_ << " " << patch_.dump(); }

// --- RemoveObject ---

RemoveObject::RemoveObject(const ClusterModel& model) : key_(some_key(model)) {}

void RemoveObject::checkPreconditions(const ClusterModel& model) const { RC_PRE(model.objects_written.contains(key_)); }

void RemoveObject::apply(ClusterModel& model) const { model.objects_written.erase(key_); }

void RemoveObject::run(const ClusterModel& model, SimCluster& cluster) const {
  const Where w = where(cluster, model.objects_written.at(key_).object);
  const auto removed = cluster.remove(w.resource, w.ns, w.name);
  assert_ok(removed, "RemoveObject " + key_);
  const auto after = cluster.get(w.resource, w.ns, w.name);
  const bool gone = after.ok() ? (*after)->deletion_timestamp().has_value() : api::is_not_found(after.status());
  if (!gone) RC_FAIL("RemoveObject " + key_ + ": still there, not marked for deletion");
}

void RemoveObject::show(std::ostream& os) const { os << "RemoveObject " << key_; }

// --- AdvanceTime ---

AdvanceTime::AdvanceTime(const ClusterModel& model) {
  const auto max_ms = std::chrono::duration_cast<std::chrono::milliseconds>(model.max_advance()).count();
  by_ = std::chrono::milliseconds(*rc::gen::inRange<std::int64_t>(1, std::max<std::int64_t>(max_ms, 1) + 1));
}

void AdvanceTime::apply(ClusterModel& model) const { model.elapsed += by_; }

void AdvanceTime::run(const ClusterModel& model, SimCluster& cluster) const {
  const sim::Time before = cluster.now();
  cluster.run_for(by_);
  RC_ASSERT(cluster.now() - before == by_);
  for (const auto& [key, object] : model.objects_written) {
    const Where w = where(cluster, object.object);
    const auto stored = cluster.get(w.resource, w.ns, w.name);
    assert_ok(stored, "AdvanceTime: " + key);
    assert_stored(object.object, **stored, "AdvanceTime");
  }
}

void AdvanceTime::show(std::ostream& os) const {
  os << "AdvanceTime " << std::chrono::duration_cast<std::chrono::milliseconds>(by_).count() << "ms";
}

// --- AddFault ---

AddFault::AddFault(const ClusterModel& model) {
  gen::FaultSpace space = model.fault_space();
  space.start = sim::Time{};
  rule_ = *gen::fault_rule(space);
}

void AddFault::apply(ClusterModel& model) const { ++model.faults_added; }

void AddFault::run(const ClusterModel& model, SimCluster& cluster) const {
  fakeapi::FaultRule rule = rule_;
  rule.id = "model-" + std::to_string(model.faults_added);
  const sim::Duration now = cluster.now().time_since_epoch();
  if (rule.from) rule.from = *rule.from + now;
  if (rule.until) rule.until = *rule.until + now;
  const std::string description = rule.to_json().dump();
  RC_ASSERT(cluster.faults().add(std::move(rule), description) == "model-" + std::to_string(model.faults_added));
}

void AddFault::show(std::ostream& os) const { os << "AddFault " << rule_; }

}  // namespace kubesim::testing
