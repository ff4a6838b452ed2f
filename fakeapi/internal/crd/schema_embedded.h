// The objects a custom resource embeds (schemas with x-kubernetes-embedded-resource), checked as
// apiextensions-apiserver's objectmeta.Validate checks them on creates and updates alike: each
// needs a string apiVersion (a group/version) and a kind (mixed case, else a DNS-1035 label), and
// its metadata is validated as a new object's ObjectMeta whose names are path segments: an empty
// name is allowed, a namespace is checked only when given. The schema is walked structurally
// (properties, else additionalProperties, and items); members in key order. Not checked:
// managedFields.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_EMBEDDED_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_EMBEDDED_H_

#include <nlohmann/json.hpp>

#include "fakeapi/internal/validation/field_errors.h"

namespace kubesim::fakeapi::internal {

// Appends the errors of the resources embedded in `obj` (the whole custom resource, decoded)
// under `schema` (its openAPIV3Schema) to `errs`.
void validate_embedded_resources(const nlohmann::json& schema, const nlohmann::json& obj,
                                 validation::FieldErrors& errs);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_EMBEDDED_H_
