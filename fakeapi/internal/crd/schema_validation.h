// Custom resources validated against their CRD's OpenAPI v3 schema, as kube-apiserver validates
// them: kube-openapi's SchemaValidator (pkg/validation/validate) run over the decoded object, its
// errors turned into field errors as apiextensions-apiserver's kubeOpenAPIResultToFieldErrors
// turns them, with CRDValidationRatcheting on updates.
//
// What is checked, in kube-openapi's order at each value: the type (nullable;
// x-kubernetes-int-or-string; integers where numbers are asked for; whole numbers where integers
// are), allOf/anyOf/oneOf/not, maxLength/minLength (in runes)/pattern, the format
// (schema_formats.h), int32/int64/float range and multipleOf/minimum/maximum (exclusive or not),
// minItems/maxItems/uniqueItems and items, enum, then minProperties/maxProperties,
// additionalProperties, properties and required. The messages are kube-openapi's ("spec.replicas
// in body must be of type integer: \"string\"") and the causes apiextensions-apiserver's:
// Required, NotSupported for an enum, TooLong, TooMany, TypeInvalid for a type, Invalid with the
// message for the rest, and an Invalid at "<nil>" (the status's "status" for /status) for
// messages kube-openapi gives no field (anyOf, oneOf, allOf, not, and value range checks).
// Messages repeated within one object are reported once, as kube-openapi's Result merges them.
//
// Ratcheting: on an update, an error inside a value equal to its counterpart in the stored
// object is not reported. Values correspond by property name (properties and
// additionalProperties) and, in lists with x-kubernetes-list-type map, by their map keys; other
// list items never correspond. apiVersion and kind at the root are always validated. Ratcheting
// only drops errors, so a caller may validate without the stored object first and look again
// with it only when there are errors.
//
// The uniqueness of x-kubernetes-list-type lists (schema_list_types.h) and embedded resources
// (schema_embedded.h) are checked apart.
// Not done (accepted without a word): x-kubernetes-validations (CEL rules) and the keywords CRDs
// may not use (patternProperties, dependencies, additionalItems, items as a list, $ref).
// Sibling properties are validated in key order; kube-openapi walks Go maps, whose order varies
// from one request to the next. `pattern` is an ECMAScript regular expression here (RE2 in Go):
// a leading (?i) is honoured, and a pattern that does not compile as ECMAScript is not checked.
#ifndef KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_VALIDATION_H_
#define KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_VALIDATION_H_

#include <nlohmann/json.hpp>

#include "fakeapi/internal/validation/field_errors.h"

namespace kubesim::fakeapi::internal {

// Validates the custom resource `obj`, as decoded (pruned and defaulted), against `schema` (the
// served version's openAPIV3Schema; a null schema validates nothing) and appends the errors to
// `errs`. `old` is the stored object on an update (null on a create): errors in values it holds
// unchanged are not reported.
void validate_custom_resource(const nlohmann::json& schema, const nlohmann::json& obj,
                              const nlohmann::json* old, validation::FieldErrors& errs);

// The /status subresource's check of an object that has a status: `status` alone against the
// schema's properties.status (nothing when there is none), its fields named "status.<path>"
// and its messages relative to the status ("conditions[0].type in body ..."). `old_status` is
// the stored status on a ratcheting check (null JSON when the stored object has none), null
// otherwise.
void validate_custom_resource_status(const nlohmann::json& schema, const nlohmann::json& status,
                                     const nlohmann::json* old_status,
                                     validation::FieldErrors& errs);

}  // namespace kubesim::fakeapi::internal

#endif  // KUBESIM_FAKEAPI_INTERNAL_CRD_SCHEMA_VALIDATION_H_
