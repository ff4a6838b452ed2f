// The JSON that encoding/json writes for a built-in kind's Go struct, from the tables of
// schema.h. kube-apiserver decodes every body into the kind's Go type and stores that (as
// protobuf), so what it returns, and what it compares when it decides whether an update changes
// anything, is this rendering rather than the JSON the client sent.
//
// The rules, per field, from its Go flags:
//   - absent: a nil pointer is omitted (null without omitempty/omitzero); a nil slice or map is
//     omitted under omitempty, else null; a value struct appears with its own defaults (Time:
//     null, or omitted under omitzero; Quantity "0"; IntOrString 0); a scalar is omitted under
//     omitempty, else its zero value ("", 0, false);
//   - present: pointers always stay (zero values included); value scalars equal to zero are
//     omitted under omitempty; null, empty lists and empty maps count as absent (the stored
//     protobuf cannot tell them from nil); a Time or MicroTime is written as the server keeps it
//     (go_time.h: UTC, truncated), and the zero time reads as absent; a string list (kStringList)
//     with no items is a nil slice: null, in a list or map as well.
// They run recursively through nested, repeated and map-valued messages and through inlined
// (embedded) structs, whose fields live in the parent object. Members the table does not list
// are unknown to the Go type: the decode drops them (apiVersion and kind of a whole object are
// known: they are its TypeMeta).
#ifndef KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_GO_ENCODING_H_
#define KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_GO_ENCODING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fakeapi/internal/encoding/types/schema.h"

namespace kubesim::fakeapi::types {

// The table of the built-in kind (group, version, kind), or null when it has none.
const MessageSpec* go_type_of(std::string_view group, std::string_view version,
                              std::string_view kind);
// The same in the first version decodable_kinds() lists for the kind: its group's preferred one
// (autoscaling/v2 for HorizontalPodAutoscaler).
const MessageSpec* go_type_of(std::string_view group, std::string_view kind);

// Renders `object`, a JSON value of the Go type `spec` (a request body, or what the protobuf
// decoder read off the wire), as encoding/json writes that type once decoded and stored: a null
// member, an empty list and an empty map read as absent, then the rules above apply.
// Members the type does not have are dropped; with `unknown`, their paths are appended to it as
// the strict decoder names them: "spec.foo", "spec.containers[0].bar", in key order.
void render_go_json(const MessageSpec& spec, nlohmann::json& object,
                    std::vector<std::string>* unknown = nullptr);

// The paths of the members of `object` (a whole object of the Go type `spec`) that the type
// does not have, as render_go_json names them.
std::vector<std::string> unknown_fields(const MessageSpec& spec, const nlohmann::json& object);

// The error Go's decoder stops at in `object` (a whole object of the Go type `spec`) for a
// metav1.Time or MicroTime member that is not a string ("json: cannot unmarshal number into Go
// struct field ObjectMeta.metadata.creationTimestamp of type string") or does not parse as its
// layout (go_time.h); nullopt when there is none. It ends the decode, so it comes before any
// type error elsewhere. Members of the wrong type are not looked into, as the decoder skips them.
std::optional<std::string> time_error(const MessageSpec& spec, const nlohmann::json& object);

}  // namespace kubesim::fakeapi::types

#endif  // KUBESIM_FAKEAPI_INTERNAL_ENCODING_TYPES_GO_ENCODING_H_
