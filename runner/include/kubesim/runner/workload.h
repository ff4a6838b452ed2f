// The workload: traffic generators, run by an extra process named "workload" with the scenario's
// default network latency and its own in-process client, so its requests are recorded, can be
// faulted and can be cut off by a partition like anyone's.
//
// Each entry acts every `every` of true time over [from, until) (until: the end of the run),
// each action a task of its own, so a slow answer never delays the next one. {{n}} in a string
// value is the entry's 1-based action count. create sends the object (generateName works);
// update and delete pick an existing object of the resource and namespace as the server holds
// it now (a PickIndex, not a request): at random, the oldest or the newest (by creationTimestamp,
// then key). A random pick draws from a stream of its own, named by the run's seed, the entry's
// index and the action's n (sim::Rng::split), never from the Loop's Rng: a fault, a latency or
// another entry drawing more or less does not change it, only the objects present do. update
// sets the dotted paths and sends the object with the resourceVersion it was read at. The server
// traces every write; an action that writes nothing (a failure — conflict, fault, partition — or
// nothing to pick) is traced here. None is an error.
#ifndef KUBESIM_RUNNER_WORKLOAD_H_
#define KUBESIM_RUNNER_WORKLOAD_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/gvk.h"
#include "kubesim/api/object.h"
#include "kubesim/scenarios/scenario.h"
#include "kubesim/sim/rng.h"

namespace kubesim::runner {

struct World;

// The objects of one resource and namespace ("" for all) that update and delete entries pick
// from, kept as the server's committed writes change them, so that a pick costs a lookup rather
// than a list of the namespace. It holds exactly what a list would return: an object is in it
// from its create until its deletion is committed (finalizers included).
class PickIndex {
 public:
  PickIndex(api::GroupVersionResource resource, std::string ns)
      : resource_(std::move(resource)), ns_(std::move(ns)) {}

  const api::GroupVersionResource& resource() const { return resource_; }
  const std::string& ns() const { return ns_; }
  // Whether an object of `resource` in `ns` belongs here.
  bool covers(const api::GroupResource& resource, std::string_view ns) const;
  void add(api::ObjectPtr object);
  void remove(std::string_view key);
  std::size_t size() const { return objects_.size(); }
  // The key of the object to act on: uniform at random (drawing from `rng`), or the oldest or
  // newest by creationTimestamp, then key. Nullopt when there is none.
  std::optional<std::string> pick(scenarios::Pick how, sim::Rng& rng) const;

 private:
  api::GroupVersionResource resource_;
  std::string ns_;
  // The objects, in no particular (but a fixed) order; the views below point into them.
  std::vector<api::ObjectPtr> objects_;
  std::set<std::pair<std::string_view, std::string_view>> by_age_;  // (creationTimestamp, key)
  // key -> index in objects_; never iterated, so its order does not matter.
  std::unordered_map<std::string_view, std::size_t> where_;
};

// Makes the workload process, its link and its client (World::workload).
void make_workload(World& world);
// Starts the workload process.
void start_workload(World& world);

// `value` with every "{{n}}" in its strings replaced by n.
nlohmann::json substitute_n(const nlohmann::json& value, std::int64_t n);

// A create action's object as compact text, keys in order, {{n}} still in it: written once, so
// that each create replaces the placeholders in the text and builds an Object that keeps it
// (Object::from_string) without a tree. Empty when the object must be built as a tree each time
// (not an object, a {{n}} in a key, or a byte past ASCII, which the text would hold changed).
std::string create_text(const nlohmann::json& object);
// The object of a create action's n-th action: from `text` (create_text(object)) when it is not
// empty, else from_json(substitute_n(object, n)); the same object, or the same error, either way.
api::Result<api::ObjectPtr> object_to_create(const std::string& text, const nlohmann::json& object,
                                             std::int64_t n);

}  // namespace kubesim::runner

#endif  // KUBESIM_RUNNER_WORKLOAD_H_
