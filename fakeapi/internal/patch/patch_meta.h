// The patch engine's internals, shared by patch.cc and the per-type files: the three
// algorithms on parsed documents, and the Statuses kube-apiserver builds for their errors.
#ifndef KUBESIM_FAKEAPI_INTERNAL_PATCH_PATCH_META_H_
#define KUBESIM_FAKEAPI_INTERNAL_PATCH_PATCH_META_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi::internal {

// Applies the operations of a decoded JSON patch (an array whose elements are objects or null)
// to `doc` in place, as evanphx/json-patch v4's Patch.Apply does, with at most `max_copy_bytes`
// added by "copy" operations. Returns nullopt on success, or the library's error text for the
// first operation that fails ("add operation does not apply: doc is missing path: …"); `doc`
// is then partly patched and must be thrown away.
// The error text when the library hits a nil pointer (a Go panic): "replace" of the root or
// "test" without a value, or a "test" comparing arrays with a null at the same position.
inline constexpr std::string_view kGoNilDereference =
    "runtime error: invalid memory address or nil pointer dereference";
std::optional<std::string> apply_json_patch_operations(nlohmann::json& doc,
                                                       const nlohmann::json& operations,
                                                       std::size_t max_copy_bytes);

// evanphx/json-patch v4's MergePatch of an object patch into an object document, in place.
void merge_patch_object(nlohmann::json& doc, const nlohmann::json& patch);

// apimachinery's StrategicMergeMapPatch of an object patch into an object, with the Status
// kube-apiserver answers for its errors. The patch's fields are visited in document order. The
// result still holds the directive keys and nulls the patch left behind; remove_patch_leftovers
// takes them out.
api::Result<nlohmann::ordered_json> strategic_merge_map(nlohmann::ordered_json original,
                                                        nlohmann::ordered_json patch,
                                                        const PatchSchema& schema);
// Removes, recursively, the members the typed decode of a strategic merge patch's result would
// drop: strategic-merge directive keys and members whose value is null.
void remove_patch_leftovers(nlohmann::ordered_json& v);

// json.Marshal of a decoded value, for messages: compact, sorted keys, <, >, & escaped.
std::string go_marshal(const nlohmann::json& v);

// errors.NewGenericServerResponse(422, …): 422 Invalid, "the server rejected our request due
// to an error in our request", empty details. kube-apiserver answers failed JSON patch
// operations and some strategic merge errors with it.
api::Status generic_unprocessable_entity();
// What ErrorToAPIStatus makes of an error that is not a Status: 500, no reason, the text.
api::Status plain_server_error(std::string message);
// What the client sees when the handler panics (WithPanicRecovery's plain-text 500): a Go
// runtime error in the patch libraries, e.g. a nil dereference on a "test" without a value.
api::Status apiserver_panic();

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_PATCH_PATCH_META_H_
