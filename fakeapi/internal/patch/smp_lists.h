// The list half of the strategic merge patch (apimachinery's mergeSlice and the functions that
// enforce element order), used by strategic_merge_patch.cc. Each function mirrors the Go
// function it is named after, errors included.
#ifndef KUBESIM_FAKEAPI_INTERNAL_PATCH_SMP_LISTS_H_
#define KUBESIM_FAKEAPI_INTERNAL_PATCH_SMP_LISTS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kubesim/api/result.h"
#include "kubesim/api/status.h"
#include "fakeapi/internal/encoding/go_compat.h"
#include "kubesim/fakeapi/patch.h"

namespace kubesim::fakeapi::internal {

// Objects keep the patch's document order: the order mergeMap visits a patch's fields in.
using Json = nlohmann::ordered_json;
using List = Json::array_t;

inline constexpr std::string_view kDirectiveMarker = "$patch";
inline constexpr std::string_view kDeleteDirective = "delete";
inline constexpr std::string_view kReplaceDirective = "replace";
inline constexpr std::string_view kMergeDirective = "merge";

// The errors of apimachinery's mergepatch package, as kube-apiserver answers them.
api::Status err_no_merge_key(const Json& m, std::string_view key);
api::Status err_bad_arg_type(std::string_view expected, const Json& actual);
api::Status err_bad_patch_type(const Json& directive, const Json& m);
api::Status err_no_list_of_lists();

// mergeMap, defined in strategic_merge_patch.cc; mergeSlice recurses into it.
api::Result<Json> merge_map(Json original, Json patch, const PatchSchema& schema);

// sliceElementType: the one Go type of all elements of the lists.
api::Result<GoType> slice_element_type(const std::vector<const List*>& lists);

// mergeSliceHandler: merges when the field's strategy is merge (or for a delete list),
// otherwise the patch list replaces the original. When `caller_view` is given (it must hold
// `original`), it receives what Go's caller sees of its original slice afterwards: deletions
// shift elements inside the shared array and appends fill the places they freed.
api::Result<List> merge_slice_handler(List original, List patch, const PatchSchema& schema,
                                      const FieldPatchMeta& meta, bool is_delete_list,
                                      List* caller_view = nullptr);

// removeDirectives: strips, recursively, maps holding "$patch"; false when `v` itself is one.
bool remove_directives(Json& v);

// partitionPrimitivesByPresentInList / partitionMapsByPresentInList: the items of `original`
// found in `partition_by` (by merge key for maps), then the others.
struct Partition {
  List present;
  List absent;
};
api::Result<Partition> partition_by_presence(const List& original, const List& partition_by,
                                             const std::string& merge_key);

// normalizeElementOrder: sorts the patch items by `patch_order` and the server-only items by
// `server_order`, then interleaves them (mergeSortedSlice).
api::Result<List> normalize_element_order(List patch, List server_only, const List& patch_order,
                                          const List& server_order, const std::string& merge_key,
                                          GoType kind);

// Go's == on two interface{} values: false for different types, equality for scalars, and a
// runtime panic for two maps or two slices (apiserver_panic()).
api::Result<bool> go_compare(const Json& a, const Json& b);
// True for the values Go cannot use as map keys or compare: maps and slices.
bool is_composite(const Json& v);

// The "$patch" member of a list element or map, when it is the given directive string.
bool has_directive(const Json& v, std::string_view directive);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_PATCH_SMP_LISTS_H_
