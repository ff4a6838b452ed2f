// The patch engine of the fake API server: JSON patch (RFC 6902), JSON merge patch (RFC 7386)
// and Kubernetes' strategic merge patch, applied to a stored object's JSON exactly as
// kube-apiserver applies them.
//
// kube-apiserver's patch handler (k8s.io/apiserver/pkg/endpoints/handlers/patch.go) runs
// evanphx/json-patch v4 for the first two and apimachinery's strategicpatch package for the
// third; this library follows those implementations, including where they depart from the RFCs:
//  - JSON patch: "replace" of a missing object member adds it, "copy" from a missing member
//    copies null, "add" to a missing parent fails, negative array indices count from the end,
//    "test" treats a missing member and null alike; a failed operation answers 422 Invalid with
//    the generic "the server rejected our request due to an error in our request".
//  - Merge patch: nulls are pruned from every object the patch inserts, also inside arrays.
//  - Strategic merge patch: see PatchSchema. Errors are 400, 422 or a 500 with no reason, as
//    interpretStrategicMergePatchError and ErrorToAPIStatus give them. The patch's fields are
//    visited in document order, the order Go's map iteration gives a small patch map most of
//    the time (Go's order is random; kubectl and client-go send sorted keys).
// Where the Go libraries panic (a JSON patch "test" or root "replace" without a value, maps used
// as merge keys, …) the answer is the apiserver panic filter's 500 InternalError.
// A malformed body answers 400 BadRequest with Go's encoding/json error text; the patch body is
// decoded as the handler does with its default fieldValidation (Warn).
//
// All functions are pure: the original is never modified, and a failure leaves nothing behind.
// What the typed decode of the result does next (defaulting, dropping unknown fields, type
// checks, name and namespace checks) is the caller's business, with two exceptions: a JSON or
// merge patch result that is not an object, or whose kind/apiVersion are not strings, is
// rejected here with the 422 the decoder's error gives; and a strategic merge patch result loses
// the directive keys and null members the patch left behind, as the typed decode drops them.
#ifndef KUBESIM_FAKEAPI_PATCH_H_
#define KUBESIM_FAKEAPI_PATCH_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/options.h"
#include "kubesim/api/result.h"
#include "kubesim/api/status.h"

namespace kubesim::fakeapi {

// The most operations one JSON patch may carry (maxJSONPatchOperations); more answer 413.
inline constexpr std::size_t kMaxJsonPatchOperations = 10000;
// The most bytes the "copy" operations of one JSON patch may add (the apiserver's default
// JSONPatchMaxCopyBytes, 3 MiB); more fail the patch.
inline constexpr std::size_t kJsonPatchMaxCopyBytes = 3 * 1024 * 1024;

// The deepest nesting a patch body may have. Go's decoder allows 10000 levels; the engine
// recurses over the patch, and 1000 keeps that well within a thread's stack even in sanitizer
// builds. Deeper bodies answer 400 with the decoder's "exceeded max depth" message.
inline constexpr std::size_t kMaxPatchNestingDepth = 1000;

// A field's `patchStrategy` struct tag in the Go API types.
enum class PatchStrategy {
  kDefault,  // no tag: objects merge key by key, lists are replaced whole
  kMerge,    // lists merge: by merge key for lists of objects, as sets for primitive lists
  kReplace,  // the field is replaced whole, objects included
};

// The strategic-merge metadata of one field: its `patchStrategy` and `patchMergeKey` tags.
struct FieldPatchMeta {
  PatchStrategy strategy = PatchStrategy::kDefault;
  // For a merge list of objects, the member that identifies an element ("name", "uid", …);
  // empty for a merge list of primitives.
  std::string merge_key;
  // The "retainKeys" strategy. Informational: like kube-apiserver, the engine applies a
  // `$retainKeys` directive wherever a patch carries one, whatever the field's tags say.
  bool retain_keys = false;

  bool operator==(const FieldPatchMeta&) const = default;
};

// Which fields of a kind merge how under a strategic merge patch: a tree of field names, where a
// list's node describes the fields of its elements (so "spec.containers.env" is the env list of
// every container). Fields it does not name get the defaults, as untagged Go fields do. A
// schema is a small immutable value once built; copying it is cheap enough for the few places
// that build one.
class PatchSchema {
 public:
  // A schema that names no field: maps merge, lists are replaced.
  PatchSchema() = default;

  // The schema of custom resources: kube-apiserver does not accept strategic merge patches for
  // them and answers 415 UnsupportedMediaType.
  static PatchSchema unsupported();

  // Declares the field at `path` (dot-separated field names, never empty) with `meta`,
  // creating the fields on the way. Returns *this for chaining.
  PatchSchema& set(std::string_view path, FieldPatchMeta meta);
  // Shorthands: a merge list keyed by `merge_key` (empty for a primitive list); a field
  // replaced whole; a field with the retainKeys strategy (and `strategy` besides).
  PatchSchema& merge_list(std::string_view path, std::string_view merge_key = "");
  PatchSchema& replace(std::string_view path);
  PatchSchema& retain_keys(std::string_view path, PatchStrategy strategy = PatchStrategy::kDefault);
  // Grafts the fields `sub` declares under `path` (the pod spec under "spec.template.spec").
  PatchSchema& graft(std::string_view path, const PatchSchema& sub);

  // False for unsupported().
  bool supports_strategic_merge() const { return supported_; }

  // The metadata of the direct field `name`; the defaults when it is not declared.
  const FieldPatchMeta& meta(std::string_view name) const;
  // The schema of the direct field `name` (of its elements, for a list); an empty schema when
  // it is not declared.
  const PatchSchema& field(std::string_view name) const;

  bool operator==(const PatchSchema&) const;

 private:
  struct Field;
  Field* find(std::string_view name);
  const Field* find(std::string_view name) const;
  Field& find_or_add(std::string_view name);
  void graft_fields(const PatchSchema& sub);

  std::vector<Field> fields_;  // in declaration order; names unique
  bool supported_ = true;
};

struct PatchSchema::Field {
  std::string name;
  FieldPatchMeta meta;
  PatchSchema schema;
};

// The strategic-merge schema of a built-in kind, from the patchStrategy/patchMergeKey tags of
// the Kubernetes API types: ObjectMeta (ownerReferences by uid, finalizers as a set) for every
// kind, plus the pod spec and template fields of Pod, PodTemplate, ReplicationController,
// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and CronJob, and the tagged fields of
// Service, Node, Namespace, ServiceAccount, PersistentVolumeClaim, the workloads' status
// conditions, webhooks, HorizontalPodAutoscaler, PodDisruptionBudget and a few more. A kind of a
// built-in group that has no tagged fields gets the metadata-only schema. A group that is not
// built into Kubernetes gets custom_resource_patch_schema(); a caller that knows a kind is a
// custom resource should use that directly. The returned schema lives as long as the program.
const PatchSchema& builtin_patch_schema(std::string_view group, std::string_view kind);
// PatchSchema::unsupported(), as a reference that lives as long as the program.
const PatchSchema& custom_resource_patch_schema();

// Applies `patch`, the raw request body of a PATCH of `type`, to `original`, the stored
// object's JSON (an object), and returns the patched JSON or the Status kube-apiserver answers.
// `schema` is used by strategic merge patches only. Server-side apply is no patch document:
// kApply and kApplyCbor answer 415 here (ApiServer serves them).
api::Result<nlohmann::json> apply_patch(const nlohmann::json& original, api::PatchType type,
                                        std::string_view patch, const PatchSchema& schema);

// application/json-patch+json. 400 for a body that is not a JSON array of operation objects
// ("error decoding patch: …"), 413 for more than kMaxJsonPatchOperations operations, 422
// Invalid with the generic message when an operation fails (a "test" that does not hold, a
// path that does not exist, an unknown op, too much copied).
api::Result<nlohmann::json> apply_json_patch(const nlohmann::json& original,
                                             std::string_view patch);

// application/merge-patch+json. 400 "error decoding patch: …" for a body that is not a JSON
// object, 400 "Invalid JSON Patch" for `null`.
api::Result<nlohmann::json> apply_merge_patch(const nlohmann::json& original,
                                              std::string_view patch);

// application/strategic-merge-patch+json. 415 when the schema does not support strategic merge
// patches, 400 for a body that is not a JSON object (`null` changes nothing) and for malformed
// $retainKeys/$deleteFromPrimitiveList/$setElementOrder directives, 422 for lists of lists, 500
// (no reason) for the other errors the strategicpatch package returns: a missing merge key, an
// unknown $patch directive, list elements of different types, …
// Directive keys and null members left in the result are removed (see the file comment).
api::Result<nlohmann::json> apply_strategic_merge_patch(const nlohmann::json& original,
                                                        std::string_view patch,
                                                        const PatchSchema& schema);

}  // namespace kubesim::fakeapi

#endif  // KUBESIM_FAKEAPI_PATCH_H_
