// apiextensions-apiserver's defaulting of custom resources: a field the CRD's structural schema
// gives a `default` is set to it when the object lacks the field (or has it null and the schema
// does not say nullable), at every level the schema describes. A null the schema neither allows
// nor defaults is dropped before (PruneNonNullableNullsWithoutDefaults).
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_DEFAULTS_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_DEFAULTS_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::internal {

// Applies the defaults of `schema` (the served version's openAPIV3Schema; null: none) to `obj`.
void default_custom_resource(const nlohmann::json& schema, nlohmann::json& obj);

// Drops from `obj` every null member whose schema (a property's, or additionalProperties') is
// neither nullable nor has a default, at every level the schema describes.
void drop_non_nullable_nulls(const nlohmann::json& schema, nlohmann::json& obj);

// What kube-apiserver's decoder makes of a custom resource: pruned (prune.h, naming the dropped
// fields in `pruned` when given), its non-nullable nulls dropped, then defaulted.
void decode_custom_resource(const nlohmann::json& schema, nlohmann::json& obj,
                            std::vector<std::string>* pruned);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_DEFAULTS_H_
