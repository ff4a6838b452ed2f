// Model-based test of the fake API server, second part (store_model_test.cc has creates, updates,
// merge patches, deletes, gets and paginated lists): random sequences of JSON patches (RFC 6902,
// with failing "test" operations and resourceVersion preconditions), strategic merge patches
// (ConfigMap data, a Deployment's containers by their merge key "name"), creates with
// generateName, delete_collection with label selectors, updates and patches of Deployments with
// and without the /status subresource, exact lists of past revisions and compaction on the
// server's virtual-time schedule, run against ApiServer and against a plain reference model.
// Both must give the same results and the same errors (code and reason). The compaction
// schedule is the server's choice: the model checks the window kube-apiserver keeps (history for
// between one and two intervals) and then holds every read to the revision the server chose.
#include "kubesim/fakeapi/server.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/fakeapi/store_model_more.h"

namespace kubesim::fakeapi {
namespace {

using namespace model_more;

class MoreHarness {
 public:
  MoreHarness() : server_(loop_, options()) {
    auto ns = server_.create(kNamespaces, "", namespace_object("other"), api::CreateOptions());
    RC_ASSERT(ns.ok());
    model_.rev = server_.revision();
    model_.written_at.assign(static_cast<std::size_t>(model_.rev) + 1, loop_.now());
  }

  void step() {
    switch (*rc::gen::inRange(0, 18)) {
      case 0:
      case 1:
        create_cm();
        break;
      case 2:
        create_generated();
        break;
      case 3:
      case 4:
        json_patch();
        break;
      case 5:
        strategic_patch_cm();
        break;
      case 6:
        update_cm();
        break;
      case 7:
        delete_collection();
        break;
      case 8:
        create_deployment();
        break;
      case 9:
        update_deployment();
        break;
      case 10:
      case 11:
        update_status();
        break;
      case 12:
        strategic_patch_deployment();
        break;
      case 13:
        delete_deployment();
        break;
      case 14:
      case 15:
        exact_list();
        break;
      case 16:
        advance_time();
        break;
      default:
        if (*rc::gen::inRange(0, 4) == 0) compact_now();
        break;
    }
    RC_ASSERT(server_.revision() == model_.rev);
  }

 private:
  static ServerOptions options() {
    ServerOptions o;
    o.compaction_interval = kInterval;
    return o;
  }

  void write() { model_.write(loop_.now()); }

  // A ConfigMap to act on: a named one that may or may not exist, or one that exists (generated
  // names included).
  std::pair<std::string, std::string> pick_cm() {
    if (!model_.state.empty() && *rc::gen::inRange(0, 3) == 0) {
      auto it = model_.state.begin();
      std::advance(it, *rc::gen::inRange<std::size_t>(0, model_.state.size()));
      const std::size_t slash = it->first.find('/');
      return {it->first.substr(0, slash), it->first.substr(slash + 1)};
    }
    return {*rc::gen::elementOf(kNamespaceNames), "cm-" + std::to_string(*rc::gen::inRange(0, 4))};
  }

  // Stores `next` for `key` as one write, unless it is the object as it stands.
  void put_cm(const std::string& key, const ConfigMapModel& current, ConfigMapModel& next) {
    if (next.data == current.data && next.color == current.color && next.finalizer == current.finalizer) return;
    if (current.terminating && !next.finalizer) {
      // The write that releases the last finalizer deletes the object; the answer is the object
      // as asked for.
      model_.state.erase(key);
    } else {
      next.rv = model_.rev + 1;
      model_.state[key] = next;
    }
    write();
  }

  void create_cm() {
    auto [ns, name] = pick_cm();
    const std::string key = ns + "/" + name;
    ConfigMapModel o;
    o.data = {{"k", *rc::gen::elementOf(kValues)}};
    o.color = *rc::gen::elementOf(kColors);
    o.finalizer = *rc::gen::inRange(0, 3) == 0;
    RC_LOG() << "create " << key << " color=" << o.color << " finalizer=" << o.finalizer << "\n";
    auto got = server_.create(kConfigMaps, ns, cm_body(ns, name, o.data, o.color, o.finalizer, ""),
                              api::CreateOptions());
    if (model_.state.count(key)) return check_error(got, 409, StatusReason::kAlreadyExists);
    check_ok(got);
    o.uid = std::string(got.value()->uid());
    o.rv = model_.rev + 1;
    model_.state[key] = o;
    write();
    check_cm(got.value(), key, o);
  }

  // generateName: a fresh name of the prefix and five random characters. The namespace is
  // admission's check, before the name is generated and validated.
  void create_generated() {
    const int where = *rc::gen::inRange(0, 4);
    const std::string ns = where < 2 ? kNamespaceNames[where] : "missing";
    // An invalid prefix in a missing namespace gets the namespace's 404: NamespaceLifecycle
    // admission runs before validation.
    const std::string prefix = *rc::gen::inRange(0, 4) == 0 ? "Gen-" : "gen-";
    RC_LOG() << "create generateName=" << prefix << " in " << ns << "\n";
    json j = cm_json(ns, "", {{"k", "0"}}, "red", false, "");
    j["metadata"]["generateName"] = prefix;
    auto got = server_.create(kConfigMaps, ns, api::make_object(std::move(j)), api::CreateOptions());
    if (ns == "missing") return check_error(got, 404, StatusReason::kNotFound);
    if (prefix == "Gen-") return check_error(got, 422, StatusReason::kInvalid);
    check_ok(got);
    const std::string name(got.value()->name());
    const std::string key = ns + "/" + name;
    RC_ASSERT(name.size() == prefix.size() + 5 && name.compare(0, prefix.size(), prefix) == 0);
    RC_ASSERT(model_.state.count(key) == 0);
    ConfigMapModel o;
    o.uid = std::string(got.value()->uid());
    o.data = {{"k", "0"}};
    o.color = "red";
    o.generate_name = prefix;
    o.rv = model_.rev + 1;
    model_.state[key] = o;
    write();
    check_cm(got.value(), key, o);
  }

  // A JSON patch of one to three operations: all apply or none; a failed one is 422 Invalid,
  // then a resourceVersion the patch set that is not the current one is 409 Conflict.
  void json_patch() {
    auto [ns, name] = pick_cm();
    const std::string key = ns + "/" + name;
    const auto it = model_.state.find(key);
    const Revision current_rv = it == model_.state.end() ? 2 : it->second.rv;
    std::vector<JsonPatchOp> ops;
    json patch = json::array();
    for (int n = *rc::gen::inRange(1, 4); n > 0; --n) {
      ops.push_back(random_json_patch_op(current_rv));
      patch.push_back(ops.back().op);
    }
    RC_LOG() << "json patch " << key << " " << patch.dump() << "\n";
    auto got = server_.patch(kConfigMaps, ns, name, api::PatchType::kJsonPatch, patch.dump(), api::PatchOptions());
    if (it == model_.state.end()) return check_error(got, 404, StatusReason::kNotFound);
    const ConfigMapModel current = it->second;
    ConfigMapModel next = current;
    PatchDoc doc{std::to_string(current.rv), !current.data.empty()};
    for (const auto& op : ops) {
      if (!op.apply(next, doc)) return check_error(got, 422, StatusReason::kInvalid);
    }
    if (doc.rv != std::to_string(current.rv)) return check_error(got, 409, StatusReason::kConflict);
    check_ok(got);
    put_cm(key, current, next);
    check_cm(got.value(), key, next);
  }

  // Strategic merge patch of ConfigMap data (no tags: a map merges key by key, and
  // "$patch: replace" replaces it whole).
  void strategic_patch_cm() {
    auto [ns, name] = pick_cm();
    const std::string key = ns + "/" + name;
    const std::string field = *rc::gen::elementOf(kFields);
    const std::string value = *rc::gen::elementOf(kValues);
    const int mode = *rc::gen::inRange(0, 3);  // set, remove, replace the map
    json data = {{field, mode == 1 ? json(nullptr) : json(value)}};
    if (mode == 2) data["$patch"] = "replace";
    const std::string patch = json{{"data", data}}.dump();
    RC_LOG() << "strategic patch " << key << " " << patch << "\n";
    auto got = server_.patch(kConfigMaps, ns, name, api::PatchType::kStrategicMergePatch, patch,
                             api::PatchOptions());
    const auto it = model_.state.find(key);
    if (it == model_.state.end()) return check_error(got, 404, StatusReason::kNotFound);
    check_ok(got);
    const ConfigMapModel current = it->second;
    ConfigMapModel next = current;
    if (mode == 1) {
      next.data.erase(field);
    } else if (mode == 0) {
      next.data[field] = value;
    } else if (!current.data.empty()) {
      // A "$patch" map for a member the document lacks is dropped whole (apimachinery's
      // removeDirectives); empty data is not stored, so the document lacks it.
      next.data = {{field, value}};
    }
    put_cm(key, current, next);
    check_cm(got.value(), key, next);
  }

  // An update that keeps the finalizers as the model has them; it must be a no-op exactly when
  // nothing the model knows changes.
  void update_cm() {
    auto [ns, name] = pick_cm();
    const std::string key = ns + "/" + name;
    const auto it = model_.state.find(key);
    const int mode = *rc::gen::inRange(0, 3);  // fresh, empty, stale
    const Revision current_rv = it == model_.state.end() ? 1 : it->second.rv;
    const std::string rv = mode == 0 ? std::to_string(current_rv) : mode == 1 ? "" : std::to_string(current_rv - 1);
    ConfigMapModel next = it == model_.state.end() ? ConfigMapModel() : it->second;
    if (*rc::gen::inRange(0, 2) == 0) next.data = {{"k", *rc::gen::elementOf(kValues)}};
    RC_LOG() << "update " << key << " rv=" << rv << "\n";
    json body = cm_json(ns, name, next.data, next.color, next.finalizer, rv);
    if (!next.generate_name.empty()) body["metadata"]["generateName"] = next.generate_name;
    auto got = server_.update(kConfigMaps, ns, api::make_object(std::move(body)), api::UpdateOptions());
    if (it == model_.state.end()) return check_error(got, 404, StatusReason::kNotFound);
    if (mode == 2) return check_error(got, 409, StatusReason::kConflict);
    check_ok(got);
    const ConfigMapModel current = it->second;
    put_cm(key, current, next);
    check_cm(got.value(), key, next);
  }

  // Each selected object is deleted (or marked, while it has its finalizer) in key order, one
  // write each; an unparsable selector is 400 and deletes nothing.
  void delete_collection() {
    const int scope = *rc::gen::inRange(0, 3);
    const std::string ns = scope < 2 ? kNamespaceNames[scope] : "";
    const int selector = *rc::gen::inRange(0, 4);
    api::ListOptions list_options;
    list_options.label_selector = selector_text(selector);
    RC_LOG() << "delete collection ns=" << ns << " selector=" << list_options.label_selector << "\n";
    auto got = server_.delete_collection(kConfigMaps, ns, api::DeleteOptions(), list_options);
    if (selector == 3) return check_error(got, 400, StatusReason::kBadRequest);
    check_ok(got);
    const State before = model_.state;
    for (const auto& [key, o] : before) {
      if ((!ns.empty() && key.compare(0, ns.size() + 1, ns + "/") != 0) || !selected(o, selector)) continue;
      if (!o.finalizer) {
        model_.state.erase(key);
      } else if (!o.terminating) {
        model_.state[key].terminating = true;
        model_.state[key].rv = model_.rev + 1;
      } else {
        continue;
      }
      write();
    }
  }

  void create_deployment() {
    const std::string name = "deploy-" + std::to_string(*rc::gen::inRange(0, 3));
    DeploymentModel d;
    d.replicas = *rc::gen::inRange(0, 3);
    d.containers = {{*rc::gen::elementOf(kContainerNames), *rc::gen::elementOf(kImages)}};
    RC_LOG() << "create deployment " << name << "\n";
    // The status a client sends with a create is dropped.
    auto got = server_.create(kDeployments, "default", deployment_body(name, d.replicas, d.containers, {2, 1}, ""),
                              api::CreateOptions());
    if (model_.deployments.count(name)) return check_error(got, 409, StatusReason::kAlreadyExists);
    check_ok(got);
    d.uid = std::string(got.value()->uid());
    d.rv = model_.rev + 1;
    model_.deployments[name] = d;
    write();
    check_deployment(got.value(), name, d);
  }

  std::string pick_deployment() { return "deploy-" + std::to_string(*rc::gen::inRange(0, 3)); }

  // The resourceVersion an update sends: fresh, empty or stale (mode 0, 1, 2).
  std::string update_rv(int mode, const DeploymentModel* d) const {
    const Revision rv = d != nullptr ? d->rv : 1;
    return mode == 0 ? std::to_string(rv) : mode == 1 ? "" : std::to_string(rv - 1);
  }

  // Stores `next` as one write unless nothing changed; a spec change bumps the generation.
  void put_deployment(const std::string& name, DeploymentModel& next) {
    const DeploymentModel& current = model_.deployments.at(name);
    const bool spec_changed = next.replicas != current.replicas || next.containers != current.containers;
    if (!spec_changed && next.status == current.status) return;
    if (spec_changed) next.generation = current.generation + 1;
    next.rv = model_.rev + 1;
    model_.deployments[name] = next;
    write();
  }

  // An update of the main resource: the spec changes, the status sent is ignored (even when it
  // would not be valid); negative replicas are 422 after the resourceVersion check.
  void update_deployment() {
    const std::string name = pick_deployment();
    const auto it = model_.deployments.find(name);
    const DeploymentModel* current = it == model_.deployments.end() ? nullptr : &it->second;
    const int mode = *rc::gen::inRange(0, 3);
    DeploymentModel next = current != nullptr ? *current : DeploymentModel();
    next.replicas = *rc::gen::inRange(-1, 3);
    if (next.containers.empty()) next.containers = {{"main", "nginx"}};
    const std::pair<int, int> status{*rc::gen::inRange(0, 3), *rc::gen::inRange(0, 3)};
    RC_LOG() << "update deployment " << name << " replicas=" << next.replicas << " rv=" << update_rv(mode, current) << "\n";
    auto got = server_.update(kDeployments, "default",
                              deployment_body(name, next.replicas, next.containers, status, update_rv(mode, current)),
                              api::UpdateOptions());
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    if (mode == 2) return check_error(got, 409, StatusReason::kConflict);
    if (next.replicas < 0) return check_error(got, 422, StatusReason::kInvalid);
    check_ok(got);
    put_deployment(name, next);
    check_deployment(got.value(), name, next);
  }

  // A write through /status (an update or a merge patch): the status changes, the spec sent is
  // ignored; readyReplicas above replicas is 422. ConfigMaps have no /status: 404.
  void update_status() {
    const std::string name = pick_deployment();
    const auto it = model_.deployments.find(name);
    const DeploymentModel* current = it == model_.deployments.end() ? nullptr : &it->second;
    const int mode = *rc::gen::inRange(0, 4);  // update with a fresh, empty or stale rv; patch
    // Zeros included: the typed object's omitempty drops them, so an all-zero status written to
    // a new Deployment is no write at all.
    const std::pair<int, int> status{*rc::gen::inRange(0, 3), *rc::gen::inRange(0, 3)};
    const int spec_replicas = *rc::gen::inRange(-1, 3);
    RC_LOG() << "update status " << name << " mode=" << mode << " status=" << status.first << "/" << status.second << "\n";
    if (*rc::gen::inRange(0, 8) == 0) {
      auto got = server_.update(kConfigMaps, "default", cm_body("default", "cm-0", {}, "", false, ""),
                                api::UpdateOptions(), api::Subresource::kStatus);
      return check_error(got, 404, StatusReason::kNotFound);
    }
    api::Result<api::ObjectPtr> got = api::Status();
    if (mode < 3) {
      const Containers containers = current != nullptr ? current->containers : Containers{{"main", "nginx"}};
      got = server_.update(kDeployments, "default",
                           deployment_body(name, spec_replicas, containers, status, update_rv(mode, current)),
                           api::UpdateOptions(), api::Subresource::kStatus);
    } else {
      const json patch = {{"spec", {{"replicas", spec_replicas}}},
                          {"status", {{"replicas", status.first}, {"readyReplicas", status.second}}}};
      got = server_.patch(kDeployments, "default", name, api::PatchType::kMergePatch, patch.dump(),
                          api::PatchOptions(), api::Subresource::kStatus);
    }
    if (current == nullptr) return check_error(got, 404, StatusReason::kNotFound);
    if (mode == 2) return check_error(got, 409, StatusReason::kConflict);
    if (status.second > status.first) return check_error(got, 422, StatusReason::kInvalid);
    check_ok(got);
    DeploymentModel next = *current;
    next.status = status;
    put_deployment(name, next);
    check_deployment(got.value(), name, next);
  }

  // Strategic merge patch of the containers, merge key "name": a container that exists is
  // merged in place, a new one goes first (the apimachinery order: patch items not in the live
  // list come before it), "$patch: delete" removes one. No container left is 422. A status in
  // the patch of the main resource is ignored.
  void strategic_patch_deployment() {
    const std::string name = pick_deployment();
    const std::string container = *rc::gen::elementOf(kContainerNames);
    const std::string image = *rc::gen::elementOf(kImages);
    const bool remove = *rc::gen::inRange(0, 3) == 0;
    const json element = remove ? json{{"$patch", "delete"}, {"name", container}}
                                : json{{"name", container}, {"image", image}};
    json patch = {{"spec", {{"template", {{"spec", {{"containers", json::array({element})}}}}}}}};
    if (*rc::gen::inRange(0, 3) == 0) patch["status"] = {{"replicas", 2}};
    RC_LOG() << "strategic patch deployment " << name << " " << patch.dump() << "\n";
    auto got = server_.patch(kDeployments, "default", name, api::PatchType::kStrategicMergePatch, patch.dump(),
                             api::PatchOptions());
    const auto it = model_.deployments.find(name);
    if (it == model_.deployments.end()) return check_error(got, 404, StatusReason::kNotFound);
    DeploymentModel next = it->second;
    Containers& cs = next.containers;
    auto found = std::find_if(cs.begin(), cs.end(), [&](const auto& c) { return c.first == container; });
    if (remove) {
      if (found != cs.end()) cs.erase(found);
    } else if (found != cs.end()) {
      found->second = image;
    } else {
      cs.insert(cs.begin(), {container, image});
    }
    if (cs.empty()) return check_error(got, 422, StatusReason::kInvalid);
    check_ok(got);
    put_deployment(name, next);
    check_deployment(got.value(), name, next);
  }

  void delete_deployment() {
    const std::string name = pick_deployment();
    RC_LOG() << "delete deployment " << name << "\n";
    auto got = server_.delete_(kDeployments, "default", name, api::DeleteOptions());
    const auto it = model_.deployments.find(name);
    if (it == model_.deployments.end()) return check_error(got, 404, StatusReason::kNotFound);
    check_ok(got);
    DeploymentModel last = it->second;
    last.rv = model_.rev + 1;
    model_.deployments.erase(it);
    write();
    check_deployment(got.value(), name, last);
  }

  // The whole ConfigMap list at a recent revision: 410 once compacted, the state then otherwise.
  void exact_list() {
    const Revision r = std::max<Revision>(1, model_.rev - *rc::gen::inRange(0, 15));
    api::ListOptions options;
    options.resource_version = std::to_string(r);
    options.resource_version_match = api::ResourceVersionMatch::kExact;
    RC_LOG() << "exact list rv=" << r << " (compacted " << model_.compacted << ")\n";
    auto got = server_.list(kConfigMaps, "", options);
    if (r < model_.compacted) return check_error(got, 410, StatusReason::kExpired);
    check_ok(got);
    const State& s = model_.at(r);
    RC_ASSERT(got.value().items.size() == s.size());
    auto want = s.begin();
    for (const auto& item : got.value().items) {
      check_cm(item, want->first, want->second);
      ++want;
    }
  }

  // Virtual time passes. A revision is compacted no sooner than one interval after the write
  // that superseded it, and no later than two (or when compacted on demand).
  void advance_time() {
    const auto by = std::chrono::seconds(*rc::gen::inRange(1, 13));
    loop_.run_until(loop_.now() + by);
    const sim::Time now = loop_.now();
    const Revision c = server_.store().compacted();
    RC_LOG() << "advance " << by.count() << "s to " << (now - sim::Time{}) / std::chrono::seconds(1) << "s: compacted "
             << c << "\n";
    RC_ASSERT(c >= model_.compacted && c <= model_.rev);
    const auto& at = model_.written_at;
    if (c > model_.compacted_on_demand) RC_ASSERT(at[c] + kInterval <= now);
    Revision must = 0;  // the newest revision written at least two intervals ago
    for (Revision s = 1; s <= model_.rev && at[s] + 2 * kInterval <= now; ++s) must = s;
    RC_ASSERT(c >= must);
    model_.compacted = c;
  }

  void compact_now() {
    RC_LOG() << "compact at " << model_.rev << "\n";
    server_.compact_now();
    model_.compacted = model_.compacted_on_demand = model_.rev;
    RC_ASSERT(server_.store().compacted() == model_.compacted);
  }

  sim::Loop loop_;
  ApiServer server_;
  Model model_;
};

RC_GTEST_PROP(ServerModelMoreTest, AgreesWithTheReferenceModel, ()) {
  MoreHarness h;
  const int steps = *rc::gen::inRange(1, 200);
  for (int i = 0; i < steps; ++i) h.step();
}

}  // namespace
}  // namespace kubesim::fakeapi
