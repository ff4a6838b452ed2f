// Request validation of the fake API server: the checks kube-apiserver makes on the body of a
// create or an update before anything is stored, and the values field selectors compare.
//
// Each check answers with the Status kube-apiserver (1.34 and later) answers for the same body,
// or nullopt when the body is valid:
//   - 400 BadRequest when the body cannot be decoded as the resource's kind: not a JSON object;
//     an apiVersion or kind that names another type ("Secret in version \"v1\" cannot be handled
//     as a ConfigMap: ...", "the API version in the data (...) does not match the expected API
//     version (...)"); a JSON value of the wrong type for its Go field ("json: cannot unmarshal
//     number into Go struct field ConfigMap.data of type string"); bad base64 in a []byte field;
//     metadata.namespace other than the request's; on update, metadata.name other than the URL's;
//     with fieldValidation Strict, a field the kind's Go type does not have ("strict decoding
//     error: unknown field \"spec.foo\"", after the type errors, for kinds with a Go type table).
//   - 422 Invalid with one cause per field error, in kube-apiserver's order, when a decodable body
//     breaks a rule: ObjectMeta (name, generateName, namespace, labels, annotations, finalizers,
//     ownerReferences, and on update the immutable identity fields) for every kind, and the rules
//     of ConfigMap, Secret, Namespace, Pod, Service, Deployment, ReplicaSet, StatefulSet,
//     DaemonSet, Job and Lease (see fakeapi/internal/validation/validation_rules.h for the list of files).
//   - Custom resources get the kind check (422 "kind: Invalid value"), the ObjectMeta rules, then
//     their CRD's OpenAPI v3 schema (fakeapi/internal/crd/schema_validation.h) over the body as it
//     will be stored: pruned, defaulted, with the status the status subresource leaves it.
//     Updates ratchet: errors in values the stored object already holds are not reported; a
//     /status write checks the status alone. A CustomResourceDefinition's spec is checked by
//     Registry::parse_crd, not here.
//
// The functions are pure: they read their arguments, change nothing, and never throw, whatever
// JSON they are given. The API server fills in system fields after validate_create and restores
// the stored creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds on update, so
// these are not errors here when they differ. An empty apiVersion or kind is accepted (the
// server fills them in), for built-in kinds and custom resources alike.
//
// Not promised: kube-apiserver validates far more than is listed above (volume sources, env,
// resources, probes, security contexts, affinity, IP addresses, CronJob schedules, the CEL rules
// and list-type duplicates of custom resources, ...); such bodies are accepted here. Where kube-apiserver's own output cannot be reproduced — the random
// generated name of a generateName object, the go-cmp diff in a rejected Pod update, the
// internal Go structs some messages print — the text here differs in that part only.
#ifndef KUBESIM_FAKEAPI_VALIDATION_H_
#define KUBESIM_FAKEAPI_VALIDATION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kubesim/api/object.h"
#include "kubesim/api/options.h"
#include "kubesim/api/status.h"
#include "kubesim/fakeapi/registry.h"

namespace kubesim::fakeapi {

// Each function below that takes `warnings` appends to it, when given, the warnings
// kube-apiserver sends once the body has decoded, whatever is refused after that: under
// fieldValidation Warn (the default), one "unknown field \"spec.foo\"" per field the kind's Go
// type or the custom resource's schema does not have. A body that does not decode gets none.

// Validates the body of a create of `info` in namespace `ns` ("" for cluster-scoped resources).
// Call before filling in system fields. A body with only metadata.generateName is valid: the
// name it will get is not known yet, so the generated name itself is not checked.
std::optional<api::Status> validate_create(
    const ResourceInfo& info, const nlohmann::json& body, std::string_view ns,
    api::FieldValidation field_validation = api::FieldValidation::kUnset,
    std::vector<std::string>* warnings = nullptr);

// Validates an update (or the result of a patch) that replaces the stored `old_obj` with
// `new_obj`. `name` is the name on the URL; `status` is true for the /status subresource, where
// only the object's identity and the status rules of Deployment, ReplicaSet and StatefulSet are
// checked (the server writes nothing but the status there). `patched` says `new_obj` is the
// result of a patch, whose strict decoding error has no "cannot be handled" preamble.
std::optional<api::Status> validate_update(
    const ResourceInfo& info, const nlohmann::json& old_obj, const nlohmann::json& new_obj,
    std::string_view ns, std::string_view name, bool status,
    api::FieldValidation field_validation = api::FieldValidation::kUnset, bool patched = false,
    std::vector<std::string>* warnings = nullptr);
// The same against a stored Object, without building its whole JSON.
std::optional<api::Status> validate_update(
    const ResourceInfo& info, const api::Object& old_obj, const nlohmann::json& new_obj,
    std::string_view ns, std::string_view name, bool status,
    api::FieldValidation field_validation = api::FieldValidation::kUnset, bool patched = false,
    std::vector<std::string>* warnings = nullptr);

// What an update's handler checks before it looks for the stored object: the body decodes
// (400), has no unknown fields under Strict (400) and names the request's namespace (400).
std::optional<api::Status> validate_request(
    const ResourceInfo& info, const nlohmann::json& body, std::string_view ns,
    api::FieldValidation field_validation = api::FieldValidation::kUnset,
    std::vector<std::string>* warnings = nullptr);

// The value a field selector compares for `path` on `obj`: metadata.name, metadata.namespace and
// the kind's selectable fields, converted as kube-apiserver converts them (spec.hostNetwork and
// spec.unschedulable as "true"/"false", counters such as status.replicas in decimal with "0"
// when unset, status.successful from status.succeeded, status.podIP from status.podIPs[0],
// status.podIPs comma-separated, an Event's source from source.component or else
// reportingComponent). Any other path reads the field at that dotted path; a missing field is "".
// Defaults kube-apiserver would have stored (a pod's restartPolicy, a secret's type) are not
// applied: the value is what the object holds.
std::string field_value(const ResourceInfo& info, const nlohmann::json& obj, std::string_view path);
// The same for an Object, reading only the fields the value is made of (api::Object::value_at),
// so a stored object's whole JSON is not built.
std::string field_value(const ResourceInfo& info, const api::Object& obj, std::string_view path);

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_VALIDATION_H_
