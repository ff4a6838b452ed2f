// Defaulting of built-in kinds, as kube-apiserver applies it to every decoded create, update and
// patch before validation: the tables of rule_tables.h, applied by Go type as defaulter-gen's
// SetObjectDefaults_* functions do. For an object of type T: T's SetDefaults_T steps, then the
// `+default=` markers of T's fields, then each field holding a message, in table order — a
// singular one (an absent value struct is defaulted as Go's zero struct and kept when that
// gives it members), each element of a list, each value of a map; an inlined struct's fields
// are the object's own.
//
// What it does not promise: quantities are not rounded (SetDefaults_ResourceList), and a type
// the Go type tables (encoding/types) do not describe is not looked into.
#ifndef KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_WALKER_H_
#define KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_WALKER_H_

#include <nlohmann/json.hpp>

#include "fakeapi/internal/encoding/types/schema.h"

namespace kubesim::fakeapi::defaulting {

// Whether defaulting can change an object of the Go type `spec`: some rule applies to it or to
// a type reachable from it. Constant time; false for kinds such as ConfigMap and Lease, whose
// writes may then skip defaulting (and be stored by the text fast paths).
bool has_defaults(const types::MessageSpec& spec);

// Defaults `object`, a JSON object of the Go type `spec`, in place. Idempotent: defaulting a
// defaulted object changes nothing. Members of the wrong JSON type are left for validation.
void apply_defaults(const types::MessageSpec& spec, nlohmann::json& object);

}  // namespace kubesim::fakeapi::defaulting

#endif  // KUBESIM_FAKEAPI_INTERNAL_DEFAULTING_WALKER_H_
