// apiextensions-apiserver's defaulting of custom resources: a field the CRD's structural schema
// gives a `default` is set to it when the object lacks the field (or has it null and the schema
// does not say nullable), at every level the schema describes.
#ifndef KUBESIM_FAKEAPI_INTERNAL_SCHEMA_DEFAULTS_H_
#define KUBESIM_FAKEAPI_INTERNAL_SCHEMA_DEFAULTS_H_

#include <nlohmann/json.hpp>

namespace kubesim::fakeapi::internal {

// Applies the defaults of `schema` (the served version's openAPIV3Schema; null: none) to `obj`.
void default_custom_resource(const nlohmann::json& schema, nlohmann::json& obj);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_SCHEMA_DEFAULTS_H_
