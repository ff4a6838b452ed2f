// rapidcheck generators of Kubernetes values the fake API server accepts: names, labels, label
// selectors, built-in objects, objects of a CRD's schema, fault rules and workloads — for
// property tests of controllers and of kubesim itself.
//
//   RC_GTEST_PROP(WidgetProps, AnyWidgetIsAccepted, ()) {
//     const auto widget = *kubesim::testing::gen::custom_object(widgets_crd);
//     SimCluster c(ClusterOptions().crd(widgets_crd));
//     c.apply(widget);                                  // never refused
//   }
//
// Guarantees: every value a generator gives is valid — names pass api::validate_object_name for
// their kind, label keys and values pass api/validation.h, objects are created by an ApiServer
// that serves their kind (ConfigMaps, Secrets, Pods and Leases into a namespace that exists),
// fault rules survive FaultRule::from_json(rule.to_json()). Values shrink toward the simplest
// valid one — the name "a", empty maps, an object with only its required fields, 0 or the bound
// of a range nearest it, the first of a set of choices (an enum's first value, an error rule) —
// so a failing case is reported small.
//
// Not promised: coverage of every valid value (names are at most 3 labels long, label maps and
// lists stay short, strings are ASCII); a generated name may repeat, so two generated objects can
// collide (workload() decides what a repeat means).
#ifndef KUBESIM_TESTING_GENERATORS_H_
#define KUBESIM_TESTING_GENERATORS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <rapidcheck/Gen.h>

#include "kubesim/api/labels.h"
#include "kubesim/fakeapi/faults.h"
#include "kubesim/sim/time.h"

namespace kubesim::testing::gen {

using Labels = std::map<std::string, std::string>;

// --- Names and labels ---

// A DNS-1123 label (Namespace names, container names): [a-z0-9]([-a-z0-9]*[a-z0-9])?, ≤ 63.
rc::Gen<std::string> dns1123_label();
// A DNS-1123 subdomain (most object names): 1 to 3 dot-separated labels.
rc::Gen<std::string> dns1123_subdomain();
// A label (or annotation) key: a name of ≤ 63 characters of [A-Za-z0-9-_.], alphanumeric at
// both ends, with a DNS subdomain prefix and '/' in about a third of the keys.
rc::Gen<std::string> label_key();
// A label value: "" or a name as in label_key.
rc::Gen<std::string> label_value();
// A label map of at most `max_size` entries.
rc::Gen<Labels> labels(std::size_t max_size = 4);

// --- Label selectors ---

// A selector that `labels` satisfies / does not satisfy, of every operator: =, ==, !=, in,
// notin, exists, !exists (over its keys and over keys it does not have). The text forms are the
// canonical ones (LabelSelector::to_string), which parse_label_selector gives back.
rc::Gen<api::LabelSelector> selector_matching(Labels labels);
rc::Gen<api::LabelSelector> selector_not_matching(Labels labels);
rc::Gen<std::string> selector_text_matching(Labels labels);
rc::Gen<std::string> selector_text_not_matching(Labels labels);

// --- Built-in objects (JSON, as apply() and ApiServer::create take them) ---

// `ns` is the namespace of the namespaced kinds; it must exist when the object is created.
rc::Gen<nlohmann::json> config_map(std::string ns = "default");
rc::Gen<nlohmann::json> secret(std::string ns = "default");  // type Opaque, base64 data
// Never one of the namespaces a server starts with (default, kube-system, …).
rc::Gen<nlohmann::json> namespace_();
// One to three containers, each with a name and an image. The server refuses most changes
// to a Pod's spec: an update of a generated Pod by another generated Pod is refused.
rc::Gen<nlohmann::json> pod(std::string ns = "default");
rc::Gen<nlohmann::json> lease(std::string ns = "default");  // coordination.k8s.io/v1
// One of the namespaced kinds above (ConfigMap, Secret, Pod, Lease).
rc::Gen<nlohmann::json> builtin_object(std::string ns = "default");

// --- Objects of a CustomResourceDefinition's schema ---

// Bounds for what a schema leaves open.
struct SchemaOptions {
  SchemaOptions() {}
  // An integer or number with no minimum (maximum) is drawn from [-span, span] around its
  // other bound, or around 0.
  std::int64_t number_span = 100;
  std::size_t max_string_length = 16;  // below maxLength
  std::size_t max_items = 4;           // beyond minItems
  std::size_t max_properties = 3;      // of additionalProperties maps, beyond minProperties
  int max_depth = 8;                   // deeper values are left out (or minimal when required)
};

// Objects of `crd` (apiextensions.k8s.io/v1 CustomResourceDefinition, as JSON) at its storage
// version: apiVersion, kind, metadata (a subdomain name; `ns` when the CRD is namespaced; a few
// labels) and a value of every schema property, optional ones left out at random. Supported:
// type object (properties, required, additionalProperties, x-kubernetes-preserve-unknown-fields),
// array (items, minItems, maxItems), string (minLength, maxLength, enum, format date-time/date),
// integer and number (minimum, maximum, exclusive bounds, format int32/int64), boolean,
// x-kubernetes-int-or-string, enum of any type. status is left out when the version has a
// /status subresource (apply ignores it). Throws std::invalid_argument naming the schema path of
// what it cannot satisfy (pattern, oneOf/anyOf/allOf/not, other formats, an empty range).
rc::Gen<nlohmann::json> custom_object(const nlohmann::json& crd, SchemaOptions options = {},
                                      std::string ns = "default");
// A value of one openAPIV3Schema (the same rules; `path` names it in errors).
rc::Gen<nlohmann::json> schema_value(const nlohmann::json& schema, SchemaOptions options = {},
                                     std::string path = "");

// --- Fault rules ---

// What fault rules may aim at.
struct FaultSpace {
  FaultSpace() {}
  std::vector<std::string> resources;  // plural names; empty: any resource
  std::vector<std::string> processes;  // client processes; empty: any
  // Windows (from/until) are drawn in [start, start + horizon); latencies below max_latency.
  sim::Time start{};
  sim::Duration horizon = std::chrono::seconds(60);
  sim::Duration max_latency = std::chrono::seconds(5);
  // Every rule has a count in [1, max_count] (and some a window too), so a plan ends: a
  // controller can be asked to converge after it (a watch it stalled recovers only when the
  // watch times out, minutes later).
  std::int64_t max_count = 5;
};

// A rule of any kind (error, latency, dropWatch, stallWatch, forceGone, staleRead) with the
// verbs that kind acts on, the Statuses kube-apiserver sends (409, 429, 500, 503, 504).
rc::Gen<fakeapi::FaultRule> fault_rule(FaultSpace space = {});
// Up to `max_rules` rules with ids "gen-0", "gen-1", …
rc::Gen<std::vector<fakeapi::FaultRule>> fault_plan(FaultSpace space = {}, std::size_t max_rules = 4);

// --- Workloads ---

struct WorkloadStep {
  enum class Op { kCreate, kUpdate, kDelete };
  Op op = Op::kCreate;
  // The whole object for kCreate and kUpdate; apiVersion, kind and metadata (namespace, name) for
  // kDelete.
  nlohmann::json object;
};

// A sequence of at most `max_steps` steps over objects of `objects`, named from a pool of
// `pool` names ("<kind>-0", … in lower case) so that objects are created, updated and deleted
// again: a create only of an object that does not exist at that step, an update or a delete only
// of one that does (as the steps run in order on a server starting without them).
rc::Gen<std::vector<WorkloadStep>> workload(rc::Gen<nlohmann::json> objects, std::size_t pool = 3,
                                            std::size_t max_steps = 12);

std::ostream& operator<<(std::ostream& os, const WorkloadStep& step);

}  // namespace kubesim::testing::gen

namespace kubesim::fakeapi {
// Shows a rule in a rapidcheck counterexample (its JSON form).
std::ostream& operator<<(std::ostream& os, const FaultRule& rule);
}  // namespace kubesim::fakeapi

#endif  // KUBESIM_TESTING_GENERATORS_H_
