// The reference model of store_model_more_test.cc: what the API should answer for ConfigMaps and
// Deployments, the request bodies the test sends, the checks of the server's answers against the
// model, and the random JSON-patch operations with their effect on the model.
#ifndef KUBESIM_TESTS_FAKEAPI_STORE_MODEL_MORE_H_
#define KUBESIM_TESTS_FAKEAPI_STORE_MODEL_MORE_H_

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "kubesim/fakeapi/server.h"
#include "tests/fakeapi/testing_util.h"

namespace kubesim::fakeapi::model_more {

using namespace testutil;
using api::StatusReason;
using nlohmann::json;

inline constexpr char kFinalizer[] = "example.com/hold";
inline constexpr sim::Duration kInterval = std::chrono::seconds(10);
inline const std::vector<std::string> kNamespaceNames = {"default", "other"};
inline const std::vector<std::string> kColors = {"", "red", "blue"};
inline const std::vector<std::string> kFields = {"k", "j"};
inline const std::vector<std::string> kValues = {"0", "1", "2"};
inline const std::vector<std::string> kContainerNames = {"main", "side", "extra"};
inline const std::vector<std::string> kImages = {"nginx", "busybox"};

struct ConfigMapModel {
  std::string uid;
  Revision rv = 0;
  StringMap data;
  std::string color;  // the "color" label; "" for no labels
  bool finalizer = false;
  bool terminating = false;
  std::string generate_name;  // kept by updates that send it back, as any field
};

using Containers = std::vector<std::pair<std::string, std::string>>;  // (name, image), in order

struct DeploymentModel {
  std::string uid;
  Revision rv = 0;
  std::int64_t generation = 1;
  int replicas = 0;
  Containers containers;
  // status.replicas and status.readyReplicas. The typed object's omitempty makes zero and
  // absent the same value.
  std::pair<int, int> status{0, 0};
};

using State = std::map<std::string, ConfigMapModel>;  // by "ns/name"

// What the API should answer: the reference. Deployments live in "default" and are not listed.
struct Model {
  Revision rev = 0;
  Revision compacted = 0;
  Revision compacted_on_demand = 0;
  State state;
  std::map<std::string, DeploymentModel> deployments;  // by name
  std::vector<std::pair<Revision, State>> history{{0, State()}};
  std::vector<sim::Time> written_at;  // by revision

  void write(sim::Time now) {
    ++rev;
    history.emplace_back(rev, state);
    written_at.push_back(now);
  }
  const State& at(Revision r) const {
    auto it = std::upper_bound(history.begin(), history.end(), r,
                               [](Revision v, const auto& entry) { return v < entry.first; });
    return std::prev(it)->second;
  }
};

inline bool selected(const ConfigMapModel& o, int selector) {
  return selector == 0 || (selector == 1) == (o.color == "red");
}

inline std::string selector_text(int selector) {
  static const char* const kTexts[] = {"", "color=red", "color!=red", "color in (red"};
  return kTexts[selector];
}

// A ConfigMap write: data always present, labels and finalizers only when set.
inline json cm_json(const std::string& ns, const std::string& name, const StringMap& data,
             const std::string& color, bool finalizer, const std::string& rv) {
  json meta = {{"namespace", ns}};
  if (!name.empty()) meta["name"] = name;
  if (!color.empty()) meta["labels"] = {{"color", color}};
  if (finalizer) meta["finalizers"] = json::array({kFinalizer});
  if (!rv.empty()) meta["resourceVersion"] = rv;
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", std::move(meta)},
          {"data", data.empty() ? json::object() : json(data)}};
}

inline api::ObjectPtr cm_body(const std::string& ns, const std::string& name, const StringMap& data,
                       const std::string& color, bool finalizer, const std::string& rv) {
  return api::make_object(cm_json(ns, name, data, color, finalizer, rv));
}

inline json containers_json(const Containers& containers) {
  json out = json::array();
  for (const auto& [name, image] : containers) out.push_back({{"name", name}, {"image", image}});
  return out;
}

inline api::ObjectPtr deployment_body(const std::string& name, int replicas, const Containers& containers,
                               std::pair<int, int> status, const std::string& rv) {
  json meta = {{"name", name}, {"namespace", "default"}};
  if (!rv.empty()) meta["resourceVersion"] = rv;
  const json labels = {{"app", name}};
  json spec = {{"replicas", replicas},
               {"selector", {{"matchLabels", labels}}},
               {"template", {{"metadata", {{"labels", labels}}}, {"spec", {{"containers", containers_json(containers)}}}}}};
  return api::make_object({{"apiVersion", "apps/v1"},
                           {"kind", "Deployment"},
                           {"metadata", std::move(meta)},
                           {"spec", std::move(spec)},
                           {"status", {{"replicas", status.first}, {"readyReplicas", status.second}}}});
}

inline void check_cm(const api::ObjectPtr& got, const std::string& key, const ConfigMapModel& want) {
  RC_ASSERT(got != nullptr);
  RC_ASSERT(got->key().str() == key);
  RC_ASSERT(got->resource_version() == std::to_string(want.rv));
  RC_ASSERT(got->uid() == want.uid);
  StringMap data;
  if (got->json().contains("data")) {
    for (const auto& [k, v] : got->json()["data"].items()) data[k] = v.get<std::string>();
  }
  RC_ASSERT(data == want.data);
  RC_ASSERT(std::string(got->label("color").value_or("")) == want.color);
  RC_ASSERT(got->has_finalizer(kFinalizer) == want.finalizer);
  RC_ASSERT(got->finalizers().size() == (want.finalizer ? 1u : 0u));
  RC_ASSERT(got->deletion_timestamp().has_value() == want.terminating);
}

inline void check_deployment(const api::ObjectPtr& got, const std::string& name, const DeploymentModel& want) {
  RC_ASSERT(got != nullptr);
  RC_ASSERT(got->key().str() == "default/" + name);
  RC_ASSERT(got->resource_version() == std::to_string(want.rv));
  RC_ASSERT(got->uid() == want.uid);
  RC_ASSERT(got->generation() == want.generation);
  const json& j = got->json();
  RC_ASSERT(j["spec"]["replicas"] == want.replicas);
  // Stored as the Go type renders, defaulted (SetDefaults_Container): each container's resources
  // struct appears, empty, with the pull policy of an untagged image and the termination message
  // defaults.
  json containers = containers_json(want.containers);
  for (json& c : containers) {
    c["resources"] = json::object();
    c["imagePullPolicy"] = "Always";
    c["terminationMessagePath"] = "/dev/termination-log";
    c["terminationMessagePolicy"] = "File";
  }
  RC_ASSERT(j["spec"]["template"]["spec"]["containers"] == containers);
  const json status = j.value("status", json::object());
  RC_ASSERT(std::make_pair(status.value("replicas", 0), status.value("readyReplicas", 0)) == want.status);
  // Go's omitempty: a zero count is not stored (spec.replicas, a pointer, keeps its 0 above).
  for (const char* count : {"replicas", "readyReplicas"}) RC_ASSERT(status.value(count, 1) != 0);
}

template <class T>
inline void check_ok(const api::Result<T>& got) {
  if (!got.ok()) RC_LOG() << "  -> " << got.status() << "\n";
  RC_ASSERT(got.ok());
}

template <class T>
inline void check_error(const api::Result<T>& got, int code, StatusReason reason) {
  RC_ASSERT(!got.ok());
  RC_LOG() << "  -> " << got.status() << "\n";
  RC_ASSERT(got.status().code == code);
  RC_ASSERT(got.status().reason == reason);
}

// A JSON patch operation on a ConfigMap and what it does to the model and to the patched
// document (its resourceVersion, and whether it has a "data" member: an empty map is not
// stored, as Go's omitempty leaves it out, so a document whose data is empty has none, and an
// operation on a member of it fails); false when the operation fails.
struct PatchDoc {
  std::string rv;
  bool has_data = false;
};

struct JsonPatchOp {
  json op;
  std::function<bool(ConfigMapModel&, PatchDoc&)> apply;
};

inline JsonPatchOp random_json_patch_op(Revision current_rv) {
  const std::string field = *rc::gen::elementOf(kFields);
  const std::string value = *rc::gen::elementOf(kValues);
  const std::string path = "/data/" + field;
  switch (*rc::gen::inRange(0, 7)) {
    case 0:  // a member that is missing fails the test
      return {{{"op", "test"}, {"path", path}, {"value", value}},
              [=](ConfigMapModel& o, PatchDoc&) { return o.data.count(field) && o.data[field] == value; }};
    case 1:
      return {{{"op", "add"}, {"path", path}, {"value", value}},
              [=](ConfigMapModel& o, PatchDoc& doc) { return doc.has_data && (o.data[field] = value, true); }};
    case 2:  // json-patch v4 (kube-apiserver's): a missing object member is added
      return {{{"op", "replace"}, {"path", path}, {"value", value}},
              [=](ConfigMapModel& o, PatchDoc& doc) { return doc.has_data && (o.data[field] = value, true); }};
    case 3:  // removing the last member leaves "data": {} in the document until it is stored
      return {{{"op", "remove"}, {"path", path}},
              [=](ConfigMapModel& o, PatchDoc&) { return o.data.erase(field) == 1; }};
    case 4:
      // Removing the one finalizer leaves "finalizers": [], which is not stored (typed
      // ObjectMeta's omitempty), so a later update without the field changes nothing.
      return {{{"op", "remove"}, {"path", "/metadata/finalizers/0"}},
              [](ConfigMapModel& o, PatchDoc&) { return std::exchange(o.finalizer, false); }};
    default: {  // the resourceVersion precondition, as a test or set for the update to check
      const std::string rv = std::to_string(*rc::gen::inRange(0, 2) == 0 ? current_rv - 1 : current_rv);
      if (*rc::gen::inRange(0, 2) == 0) {
        return {{{"op", "test"}, {"path", "/metadata/resourceVersion"}, {"value", rv}},
                [=](ConfigMapModel&, PatchDoc& doc) { return doc.rv == rv; }};
      }
      return {{{"op", "replace"}, {"path", "/metadata/resourceVersion"}, {"value", rv}},
              [=](ConfigMapModel&, PatchDoc& doc) { return doc.rv = rv, true; }};
    }
  }
}

}  // namespace kubesim::fakeapi::model_more

#endif  // KUBESIM_TESTS_FAKEAPI_STORE_MODEL_MORE_H_
