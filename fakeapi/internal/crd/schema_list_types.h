// The uniqueness x-kubernetes-list-type asks of a custom resource's lists, as apiextensions-
// apiserver's listtype.ValidateListSetsAndMaps checks it: the items of a "set" list are unique
// (scalars by Go type and value, objects and lists by their JSON), and the items of a "map" list
// are objects (or null) whose x-kubernetes-list-map-keys values are unique. The second appearance
// of a repeated item is reported (not the later ones): "Duplicate value: <item>" for a set, "Duplicate value:
// {\"key\":<value>}" for a map (the keys the item has; {} for none); an item of a map list that
// is not an object is "Invalid value: <item>: must be an object for an array of list-type map"
// and ends that list's check. The schema is walked structurally (properties,
// additionalProperties, items); sibling properties in key order.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_LIST_TYPES_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_LIST_TYPES_H_

#include <nlohmann/json.hpp>

#include "fakeapi/internal/validation/field_errors.h"

namespace kubesim::fakeapi::internal {

// Appends to `errs` the list-type errors of `obj` (the whole custom resource, as decoded)
// under `schema` (its openAPIV3Schema); paths start at the root ("spec.ports[1]").
void validate_list_sets_and_maps(const nlohmann::json& schema, const nlohmann::json& obj,
                                 validation::FieldErrors& errs);

// Whether validate_list_sets_and_maps would find anything.
bool has_list_set_or_map_errors(const nlohmann::json& schema, const nlohmann::json& obj);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_LIST_TYPES_H_
